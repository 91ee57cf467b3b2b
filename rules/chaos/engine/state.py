"""Chaos TCG goldfish engine (GAMES.md §4): the state and its turn script.

The player plays a 50-card main deck, an extra deck and a partner chosen from the main deck against
a dummy: a partner that never defends and a dummy deck (``dummy_deck_size`` cards, 50 by default,
its partner included) holding ``dummy_partner_copies`` more copies of the dummy partner's
title+name (3 by default). The dummy draws 5 at setup and 1 a turn and plays nothing. Win = the
dummy must draw or take deck damage from an empty deck; loss = the player must draw from an empty
deck in the draw step (the partner's attack draw is optional, so it never decks the player out).

The rules are one generator (``ChaosState._setup`` and ``_my_turn`` in ``GoldfishState.script``).
Decision kinds and their options:

- ``partner``: ``("partner", code)`` — a character of the deck (the deck's recorded partner only,
  when it has one and a copy is still in the deck);
- ``mulligan``: ``("keep",)`` / ``("mulligan",)`` (shuffle the whole hand into the deck, draw 5);
- ``maintain``: ``("pay",)`` / ``("skip",)`` for ``state.maintaining`` (the slot whose maintain is due);
- ``main``: ``("levelup", code)``, ``("summon", code, slot)``, ``("extra", code, base slot)``,
  ``("end",)`` — each of level up / summon / EXTRA once per turn;
- ``attack``: ``("attack", slot)`` / ``("end",)``; the partner's attack draw is optional:
  ``("attack", PARTNER_SLOT)`` draws, ``("attack", PARTNER_SLOT, "no_draw")`` declines it (the only
  partner attack offered on an empty deck);
- ``discard``: ``("discard", code)`` at the end-of-turn hand limit.

Slots: 0 front-left, 1 front-right, 2 back-left, 3 partner (back-centre), 4 back-right.
"""
from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any, ClassVar

from rules.cards import CardRecord
from rules.engine._zones import distinct_codes, shuffle, take
from rules.engine.core import Deck, GameResult, gettext_noop
from rules.engine.goldfish import GoldfishState

from .characters import REST, STAND, Char, identity, level_up, partner_char
from .events import GAME

SLOT_NAMES = ("front-left", "front-right", "back-left", "partner", "back-right")
PARTNER_SLOT = 3
ALLY_SLOTS = (0, 1, 2, 4)
OPENING_HAND = 5
HAND_LIMIT = 7


class ChaosState(GoldfishState):
    """One goldfish game of Chaos TCG. Zones are public attributes so tests can set them up."""

    GAME = GAME
    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {"first": "random", "dummy_deck_size": 50, "dummy_partner_copies": 3}
    COUNTERS = (
        "games", "went_first", "attacks", "attack_draws", "deck_damage", "damage_stopped", "partner_levelups",
        "partner_level", "opp_partner_levelups", "summons", "extras", "mulligans", "maintain_paid",
        "maintain_skipped", "first_games", "second_games", "first_wins", "second_wins", "first_win_turns",
        "second_win_turns",
    )
    PER_TURN = {"milled": "deck_damage"}
    DECK_ZONES = ("extra",)

    def _new_game(self, deck: Deck, opts: Mapping[str, Any]) -> None:
        size = int(opts.get("dummy_deck_size", 50))
        copies = int(opts.get("dummy_partner_copies", 3))
        if size < 1 or not 0 <= copies <= size - 1:
            raise ValueError(f"dummy_deck_size must be at least 1 and dummy_partner_copies between 0 and "
                             f"dummy_deck_size - 1 (got {size} and {copies})")
        if not any(c.card_type == "character" for c in self.deck):
            raise ValueError("a chaos deck needs a character in its main deck to choose a partner from")
        self.extra: list[CardRecord] = list(deck.zones.get("extra", ()))
        self.partner_hint = deck.partner.code if deck.partner is not None else ""
        self.waiting: list[CardRecord] = []
        self.field: list[Char | None] = [None] * 5
        # the dummy: its deck as flags (True = a copy of its partner's title+name), hand count
        self.odeck: list[bool] = [True] * copies + [False] * (size - 1 - copies)
        self.ohand = 0
        self.owaiting = 0
        self.opartner_level = 0
        self.used: set[str] = set()
        self.maintaining = -1
        self.opening_hand: tuple[CardRecord, ...] = ()

    # -- helpers -------------------------------------------------------------------------------
    @property
    def partner(self) -> Char | None:
        return self.field[PARTNER_SLOT]

    def _draw(self, n: int, why: str = "draw") -> None:
        for _ in range(n):
            if not self.deck:
                self._end("loss", gettext_noop("had to draw from an empty deck"))
            self.hand.append(self.deck.pop())
        if self.log is not None:
            self.say("me", why, "draw", why=why, cards=", ".join(c.name for c in self.hand[-n:]))

    def _odraw(self, n: int) -> None:
        for _ in range(n):
            if not self.odeck:
                self._end("win", gettext_noop("the dummy had to draw from an empty deck"))
            self.odeck.pop()
            self.ohand += 1

    def card_zones(self) -> dict[str, list[CardRecord]]:
        return {"deck": self.deck, "hand": self.hand, "waiting": self.waiting, "extra": self.extra,
                "field": [card for c in self.field if c is not None for card in (c.card, *c.under)]}

    # -- the game ------------------------------------------------------------------------------
    def _setup(self) -> Generator[str, tuple, None]:
        rng = self.rng
        shuffle(rng, self.deck)
        shuffle(rng, self.odeck)
        if self.log is not None:
            self.say("me", "setup", "setup", order="first" if self.went_first else "second")
        self._draw(OPENING_HAND, "opening hand")
        self._odraw(OPENING_HAND)
        _, code = yield "partner"
        card = take(self.deck, code)
        self.field[PARTNER_SLOT] = p = partner_char(card)
        shuffle(rng, self.deck)
        if self.log is not None:
            self.say("me", "partner", "partner", card=card.name, atk=card.atk, dfn=card.defense,
                     bonus_atk=card.partner_atk or 0, bonus_dfn=card.partner_def or 0, total_atk=p.atk, total_dfn=p.dfn)
        choice = yield "mulligan"
        if choice[0] == "mulligan":
            self.deck.extend(self.hand)
            self.hand.clear()
            shuffle(rng, self.deck)
            self.counters["mulligans"] += 1
            self._draw(OPENING_HAND, "mulligan")
        self.opening_hand = tuple(self.hand)

    def _opp_turn(self, first: bool = False) -> None:
        """The dummy: its partner improves (nothing to do: it never rests), draws 1, discards to 7."""
        self._odraw(1)
        if self.ohand > HAND_LIMIT:
            self.owaiting += self.ohand - HAND_LIMIT
            self.ohand = HAND_LIMIT

    def _my_turn(self) -> Generator[str, tuple, None]:
        turn = self._new_turn()
        log = self.log
        self.used.clear()
        # 1. beginning: improve one step, pay maintain
        for c in self.field:
            if c is not None and not c.face_down and c.state:
                c.state -= 1
        for slot in range(5):
            c = self.field[slot]
            if c is not None and not c.face_down and "maintain" in c.card.keywords:
                self.maintaining = slot
                choice = yield "maintain"
                self.maintaining = -1
                if choice[0] == "pay":
                    self._pay_maintain(c)
                else:
                    c.face_down = True
                    self.counters["maintain_skipped"] += 1
                    if log is not None:
                        self.say("me", "maintain", "maintain_skipped", card=c.card.name)
        # 2. draw
        self._draw(1)
        # 3. main (what can be played at all this turn can be played at its start)
        self._note_playable(turn)
        while True:
            choice = yield "main"
            kind = choice[0]
            if kind == "end":
                break
            if kind == "levelup":
                card = take(self.hand, choice[1])
                self.used.add("levelup")
                p = self.partner
                level_up(p, card)
                self.counters["partner_levelups"] += 1
                if log is not None:
                    self.say("me", "levelup", "levelup", card=card.name, atk=p.atk, dfn=p.dfn)
            elif kind == "summon":
                self._summon(choice[1], choice[2])
            elif kind == "extra":
                self._play_extra(choice[1], choice[2])
        # 4. battle (none on the first player's turn 1)
        if not (turn == 1 and self.went_first):
            while self._attackers():
                choice = yield "attack"
                if choice[0] == "end":
                    break
                self._attack(choice[1], len(choice) < 3)
        # 5. end: damage resets, one face-down character turns face-up, the partner improves
        for c in self.field:
            if c is not None:
                c.dmg = 0
        for c in self.field:
            if c is not None and c.face_down:
                c.face_down = False
                if log is not None:
                    self.say("me", "end", "face_up", card=c.card.name)
                break
        p = self.partner
        if p.state:
            p.state -= 1
        while len(self.hand) > HAND_LIMIT:
            _, code = yield "discard"
            self._discard(code, self.waiting)

    def _note_playable(self, turn: int) -> None:
        fp = self.first_playable
        pname = self.partner.card.person
        pid = identity(self.partner.card)
        for c in self.hand:
            if c.code not in fp and c.card_type == "character" and (c.person != pname or identity(c) == pid):
                fp[c.code] = turn

    def _pay_maintain(self, c: Char) -> None:
        cost = c.card.keyword_costs.get("maintain") or {}
        for _ in range(int(cost.get("discard", 0))):
            worst = min(self.hand, key=self.card_value)
            self.hand.remove(worst)
            self.waiting.append(worst)
        for _ in range(int(cost.get("mill", 0))):
            self.waiting.append(self.deck.pop())
        self.counters["maintain_paid"] += 1
        if self.log is not None:
            self.say("me", "maintain", "maintain", card=c.card.name)

    def can_pay_maintain(self, c: Char) -> bool:
        cost = c.card.keyword_costs.get("maintain") or {}
        return len(self.hand) >= int(cost.get("discard", 0)) and len(self.deck) > int(cost.get("mill", 0))

    def _summon(self, code: str, slot: int) -> None:
        card = take(self.hand, code)
        self.used.add("summon")
        self.counters["summons"] += 1
        old = self.field[slot]
        if old is not None:
            self._to_waiting(slot)
            if self.log is not None:
                self.say("me", "summon", "leaves", card=old.card.name, slot=SLOT_NAMES[slot])
        self.field[slot] = Char(card, card.atk or 0, card.defense or 0)
        if self.log is not None:
            self.say("me", "summon", "summon", card=card.name, atk=card.atk, dfn=card.defense, slot=SLOT_NAMES[slot])

    def _to_waiting(self, slot: int) -> None:
        c = self.field[slot]
        self.waiting.append(c.card)
        self.waiting.extend(c.under)
        self.field[slot] = None

    def names_on_field(self) -> dict[str, int]:
        """Every name on the field and its slot (an EXTRA counts as each of its persons)."""
        names: dict[str, int] = {}
        for i, c in enumerate(self.field):
            if c is not None:
                names[c.card.person] = i
                for person in c.card.extra_persons:
                    names[person] = i
        return names

    def extra_plan(self, ex: CardRecord, names: dict[str, int] | None = None
                   ) -> list[tuple[int, tuple[str, ...], tuple[int, ...]]]:
        """Ways to play an EXTRA: (base ally slot, hand codes used, other field slots used)."""
        persons = ex.extra_persons
        if names is None:
            names = self.names_on_field()
        out = []
        for base_person in persons:
            base = names.get(base_person)
            if base is None or base == PARTNER_SLOT or self.field[base].card.card_type == "extra":
                continue
            hand = None
            codes: list[str] = []
            slots: list[int] = []
            for other in persons:
                if other == base_person:
                    continue
                slot = names.get(other)
                if slot is not None and slot != PARTNER_SLOT and slot != base and slot not in slots:
                    slots.append(slot)
                    continue
                if hand is None:
                    hand = list(self.hand)
                found = next((c for c in hand if c.card_type == "character" and c.person == other), None)
                if found is None:
                    break
                hand.remove(found)
                codes.append(found.code)
            else:
                out.append((base, tuple(codes), tuple(slots)))
        return out

    def _play_extra(self, code: str, base: int) -> None:
        ex = take(self.extra, code)
        plan = next(p for p in self.extra_plan(ex) if p[0] == base)
        self.used.add("extra")
        self.counters["extras"] += 1
        for c in plan[1]:
            self.waiting.append(take(self.hand, c))
        for s in plan[2]:
            self._to_waiting(s)
        char = self.field[base]
        char.under.append(char.card)
        char.card = ex
        char.atk, char.dfn, char.dmg = ex.atk or 0, ex.defense or 0, 0
        if self.log is not None:
            self.say("me", "extra", "extra", card=ex.name, atk=ex.atk, dfn=ex.defense, slot=SLOT_NAMES[base])

    def _attackers(self) -> list[int]:
        return [i for i, c in enumerate(self.field) if c is not None and c.state == STAND and not c.face_down]

    def _attack(self, slot: int, draw: bool = True) -> None:
        char = self.field[slot]
        char.state = REST
        self.counters["attacks"] += 1
        if self.log is not None:
            self.say("me", "attack", "attack", card=char.card.name, atk=char.atk)
        if slot == PARTNER_SLOT and draw:
            if not self.deck:
                raise ValueError("the attack draw is optional: decline it on an empty deck")
            self.counters["attack_draws"] += 1
            self._draw(1, "attack draw")
        self.deck_damage(char.atk)

    def deck_damage(self, n: int) -> int:
        """The dummy takes ``n`` deck damage, one card at a time; a card with its partner's
        title+name stops the damage and levels the partner up. Returns the cards that left the deck."""
        deck = self.odeck
        milled = 0
        stopped = False
        while milled < n:
            if not deck:
                self._record_mill(n, milled, stopped)
                self._end("win", gettext_noop("the dummy took deck damage from an empty deck"))
            milled += 1
            if deck.pop():
                stopped = True
                self.opartner_level += 1
                self.counters["opp_partner_levelups"] += 1
                break
            self.owaiting += 1
        self._record_mill(n, milled, stopped)
        return milled

    def _record_mill(self, n: int, milled: int, stopped: bool) -> None:
        self.counters["deck_damage"] += milled
        if stopped:
            self.counters["damage_stopped"] += 1
        if self.log is not None:
            self.say("opp", "damage", "deck_damage_stopped" if stopped else "deck_damage", amount=n, count=milled,
                     left=len(self.odeck))

    # -- values --------------------------------------------------------------------------------
    def card_value(self, card: CardRecord) -> float:
        """How much the pilot wants to keep a hand card (the hand limit discards the lowest)."""
        if card.card_type == "character":
            p = self.partner
            if p is not None and identity(card) == identity(p.card):
                return 100.0
            if p is not None and card.person == p.card.person:
                return 0.5  # can never be summoned
            return 10.0 + (card.atk or 0) + 0.1 * (card.defense or 0)
        return 1.0 if card.unmodelled else 5.0

    # -- options (the generic contract) --------------------------------------------------------
    def options_partner(self) -> list[tuple]:
        if self.partner_hint and any(c.code == self.partner_hint for c in self.deck):
            return [("partner", self.partner_hint)]
        return [("partner", code) for code in distinct_codes(c for c in self.deck if c.card_type == "character")]

    def options_mulligan(self) -> list[tuple]:
        return [("keep",), ("mulligan",)]

    def options_maintain(self) -> list[tuple]:
        c = self.field[self.maintaining]
        return ([("pay",)] if self.can_pay_maintain(c) else []) + [("skip",)]

    def options_main(self) -> list[tuple]:
        out: list[tuple] = [("end",)]
        p = self.partner
        pname, pid = p.card.person, identity(p.card)
        names = self.names_on_field()
        for code in distinct_codes(c for c in self.hand if c.card_type == "character"):
            card = next(c for c in self.hand if c.code == code)
            if "levelup" not in self.used and identity(card) == pid:
                out.append(("levelup", code))
            if "summon" not in self.used and card.person != pname:
                same = names.get(card.person)
                out.extend(("summon", code, s) for s in ((same,) if same is not None else ALLY_SLOTS))
        if "extra" not in self.used:
            for code in distinct_codes(self.extra):
                ex = next(c for c in self.extra if c.code == code)
                out.extend(("extra", code, plan[0]) for plan in self.extra_plan(ex, names))
        return out

    def options_attack(self) -> list[tuple]:
        out: list[tuple] = [("end",)]
        for s in self._attackers():
            if s != PARTNER_SLOT:
                out.append(("attack", s))
                continue
            if self.deck:
                out.append(("attack", s))
            out.append(("attack", s, "no_draw"))
        return out

    def label(self, kind: str, option: tuple) -> str:
        verb = option[0]
        if verb == "summon":
            return f"summon {option[1]} to {SLOT_NAMES[option[2]]}"
        if verb == "attack":
            c = self.field[option[1]]
            declined = ", no attack draw" if len(option) > 2 else ""
            return f"attack with {c.card.name} ({SLOT_NAMES[option[1]]}, {c.atk} ATK{declined})"
        if verb == "extra":
            return f"EXTRA {option[1]} on {SLOT_NAMES[option[2]]}"
        if kind == "maintain":
            return f"{verb} maintain of {self.field[self.maintaining].card.name}"
        return " ".join(map(str, option))

    # -- result --------------------------------------------------------------------------------
    def result(self) -> GameResult:
        self.counters["partner_level"] = self.partner.level if self.partner is not None else 0
        return super().result()
