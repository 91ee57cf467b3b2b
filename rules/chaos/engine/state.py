"""Chaos TCG goldfish engine (GAMES.md §4).

The player plays a 50-card main deck, an extra deck and a partner chosen from the main deck against
a dummy: a partner that never defends and a dummy deck (``dummy_deck_size`` cards, 50 by default,
its partner included) holding ``dummy_partner_copies`` more copies of the dummy partner's
title+name (3 by default). The dummy draws 5 at setup and 1 a turn and plays nothing. Win = the
dummy must draw or take deck damage from an empty deck; loss = the same for the player (attack
draws can deck you out).

The rules are one generator, ``ChaosState.script`` (see ``core.ScriptedState``). Decision kinds and
their options:

- ``partner``: ``("partner", code)`` — a character of the deck (the deck's recorded partner only,
  when it has one and a copy is still in the deck);
- ``mulligan``: ``("keep",)`` / ``("mulligan",)`` (shuffle the whole hand into the deck, draw 5);
- ``maintain``: ``("pay",)`` / ``("skip",)`` for ``state.maintaining`` (the slot whose maintain is due);
- ``main``: ``("levelup", code)``, ``("summon", code, slot)``, ``("extra", code, base slot)``,
  ``("end",)`` — each of level up / summon / EXTRA once per turn;
- ``attack``: ``("attack", slot)`` / ``("end",)``;
- ``discard``: ``("discard", code)`` at the end-of-turn hand limit.

Slots: 0 front-left, 1 front-right, 2 back-left, 3 partner (back-centre), 4 back-right.
"""
from __future__ import annotations

import random
from collections.abc import Generator, Mapping
from typing import Any

from ..cards import CardRecord
from ._zones import distinct_codes, shuffle, take
from .core import (
    Deck,
    EventLog,
    GameEngine,
    GameResult,
    ScriptedPilot,
    ScriptedState,
    event_messages,
    gettext_noop,
    register,
    who_goes_first,
)

GAME = "chaos"
SLOT_NAMES = ("front-left", "front-right", "back-left", "partner", "back-right")
PARTNER_SLOT = 3
# The event log: code -> English template (see ws.EVENTS; terms translated: why, order, slot).
EVENTS = event_messages(GAME, {
    "result": gettext_noop("{outcome}: {reason}"),
    "draw": gettext_noop("{why}: {cards}"),
    "setup": gettext_noop("shuffle; the player goes {order}"),
    "partner": gettext_noop("partner {card} revealed: {atk}/{dfn} with bonus +{bonus_atk}/+{bonus_dfn} → "
                            "{total_atk}/{total_dfn}"),
    "maintain_skipped": gettext_noop("{card} turns face-down (maintain not paid)"),
    "levelup": gettext_noop("level up: {card} on the partner → {atk}/{dfn}, standing"),
    "face_up": gettext_noop("{card} turns face-up"),
    "hand_limit": gettext_noop("hand limit: {card}"),
    "maintain": gettext_noop("pay maintain of {card}"),
    "leaves": gettext_noop("{card} leaves {slot} for the waiting room"),
    "summon": gettext_noop("summon {card} ({atk}/{dfn}) to {slot}"),
    "extra": gettext_noop("EXTRA {card} ({atk}/{dfn}) on {slot}"),
    "attack": gettext_noop("{card} attacks ({atk} ATK); the dummy does not defend"),
    "deck_damage": gettext_noop("deck damage {amount}: {count} card(s) milled; {left} left"),
    "deck_damage_stopped": gettext_noop("deck damage {amount}: {count} card(s) milled — stopped on the partner's "
                                        "name: the dummy partner levels up; {left} left"),
})
ALLY_SLOTS = (0, 1, 2, 4)
STAND, REST, REVERSE = 0, 1, 2
DIRECTION = ("stand", "rest", "reverse")
OPENING_HAND = 5
HAND_LIMIT = 7


class GameOver(Exception):
    pass


def identity(card: CardRecord) -> str:
    """Title+name of a character: the partner, level-up and deck-damage identity."""
    return f"{card.title}【{card.person}】"


class Char:
    """A character on the field: top card, current ATK/DEF, direction, face-down, damage, stack."""

    __slots__ = ("card", "atk", "dfn", "state", "face_down", "dmg", "under", "level")

    def __init__(self, card: CardRecord, atk: int, dfn: int) -> None:
        self.card = card
        self.atk = atk
        self.dfn = dfn
        self.state = STAND
        self.face_down = False
        self.dmg = 0
        self.under: list[CardRecord] = []
        self.level = 0


def partner_char(card: CardRecord) -> Char:
    """A revealed partner: printed ATK/DEF plus its partner bonus (2/2 with +3/+2 → 5/4)."""
    return Char(card, (card.atk or 0) + (card.partner_atk or 0), (card.defense or 0) + (card.partner_def or 0))


def level_up(char: Char, card: CardRecord) -> None:
    """Put ``card`` on ``char``: the bonus applies again (5/4 → 8/6 with +3/+2), it stands, damage resets."""
    char.under.append(char.card)
    char.card = card
    char.atk += card.partner_atk or 0
    char.dfn += card.partner_def or 0
    char.state = STAND
    char.dmg = 0
    char.level += 1


def improve(char: Char) -> None:
    """One step: reverse → rest → stand."""
    if char.state:
        char.state -= 1


def resolve_block(
    attacker: tuple[int, int, int, tuple[str, ...]], defender: tuple[int, int, int, tuple[str, ...]]
) -> tuple[int, int, int]:
    """A blocked battle, each side ``(ATK, DEF, damage already taken, keywords)``.

    Returns ``(damage to the defender, damage to the attacker, deck damage)``. First strike (the
    attacker) / first defense (the defender) deal their damage first, and a side it stuns deals none
    back; both present, or neither → simultaneous. Penetrate: the attacker's damage in excess of
    the defender's DEF becomes deck damage. Stunned = accumulated damage exceeds DEF.
    """
    a_atk, a_def, a_dmg, a_kw = attacker
    d_atk, d_def, d_dmg, d_kw = defender
    a_first = "first_strike" in a_kw
    d_first = "first_defense" in d_kw
    to_def, to_att = a_atk, d_atk
    if a_first and not d_first and d_dmg + a_atk > d_def:
        to_att = 0
    elif d_first and not a_first and a_dmg + d_atk > a_def:
        to_def = 0
    deck = to_def - d_def if "penetrate" in a_kw and to_def > d_def else 0
    return to_def, to_att, deck


class ChaosState(ScriptedState):
    """One goldfish game of Chaos TCG. Zones are public attributes so tests can set them up."""

    def __init__(self, deck: Deck, rng: random.Random, index: int = 0,
                 options: Mapping[str, Any] | None = None, log: EventLog | None = None,
                 setup: bool = True) -> None:
        opts = {**DEFAULT_OPTIONS, **(options or {})}
        self.rng = rng
        self.log = log
        self.index = index
        self.turn_cap = int(opts.get("turn_cap") or 40)
        self.first_option = str(opts.get("first", "random"))
        size = int(opts.get("dummy_deck_size", 50))
        copies = int(opts.get("dummy_partner_copies", 3))
        if size < 1 or not 0 <= copies <= size - 1:
            raise ValueError(f"dummy_deck_size must be at least 1 and dummy_partner_copies between 0 and "
                             f"dummy_deck_size - 1 (got {size} and {copies})")
        self.deck: list[CardRecord] = list(deck.main)
        if not any(c.card_type == "character" for c in self.deck):
            raise ValueError("a chaos deck needs a character in its main deck to choose a partner from")
        self.extra: list[CardRecord] = list(deck.zones.get("extra", ()))
        self.partner_hint = deck.partner.code if deck.partner is not None else ""
        self.n_cards = len(self.deck) + len(self.extra)
        self.hand: list[CardRecord] = []
        self.waiting: list[CardRecord] = []
        self.field: list[Char | None] = [None] * 5
        # the dummy: its deck as flags (True = a copy of its partner's title+name), hand count
        self.odeck: list[bool] = [True] * copies + [False] * (size - 1 - copies)
        self.ohand = 0
        self.owaiting = 0
        self.opartner_level = 0
        self.went_first = True
        self.turn = 0
        self.used: set[str] = set()
        self.maintaining = -1
        self.outcome = "capped"
        self.reason = gettext_noop("turn cap")
        self.counters: dict[str, int] = dict.fromkeys(COUNTERS, 0)
        self.milled: list[int] = []
        self.first_playable: dict[str, int] = {}
        self.opening_hand: tuple[CardRecord, ...] = ()
        if setup:
            self.start()

    # -- helpers -------------------------------------------------------------------------------
    def say(self, player: str, kind: str, code: str, /, **params: Any) -> None:
        """Log event ``chaos.<code>``."""
        if self.log is not None:
            self.log.add(self.turn, player, kind, "chaos." + code, **params)

    @property
    def partner(self) -> Char | None:
        return self.field[PARTNER_SLOT]

    def _end(self, outcome: str, reason: str) -> None:
        self.outcome, self.reason = outcome, reason
        if self.log is not None:
            self.say("me", "result", "result", outcome=outcome, reason=reason)
        raise GameOver

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

    def card_count(self) -> int:
        """Every card of the player's, wherever it is (tests: nothing is created or lost)."""
        on_field = sum(1 + len(c.under) for c in self.field if c is not None)
        return len(self.deck) + len(self.hand) + len(self.waiting) + len(self.extra) + on_field

    def zone_sizes(self) -> dict[str, int]:
        return {"deck": len(self.deck), "hand": len(self.hand), "waiting": len(self.waiting),
                "extra": len(self.extra), "dummy_deck": len(self.odeck), "dummy_hand": self.ohand,
                "dummy_waiting": self.owaiting}

    # -- the game ------------------------------------------------------------------------------
    def script(self) -> Generator[str, tuple, None]:
        yield from self.scenario(self._game())

    def scenario(self, steps: Generator[str, tuple, None]) -> Generator[str, tuple, None]:
        """Run ``steps`` (the whole game, or one turn of a hand-built state, as scenario tests
        do) until it finishes or the game ends."""
        try:
            yield from steps
        except GameOver:
            pass

    def _game(self) -> Generator[str, tuple, None]:
        rng = self.rng
        self.went_first = who_goes_first(self.first_option, rng, self.index)
        self.counters["went_first"] = int(self.went_first)
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
        if not self.went_first:
            self._opp_turn()
        while True:
            if self.turn >= self.turn_cap:
                self.outcome, self.reason = "capped", gettext_noop("turn cap")
                return
            yield from self._my_turn()
            self._opp_turn()

    def _opp_turn(self) -> None:
        """The dummy: its partner improves (nothing to do: it never rests), draws 1, discards to 7."""
        self._odraw(1)
        if self.ohand > HAND_LIMIT:
            self.owaiting += self.ohand - HAND_LIMIT
            self.ohand = HAND_LIMIT

    def _my_turn(self) -> Generator[str, tuple, None]:
        self.turn += 1
        turn = self.turn
        log = self.log
        self.used.clear()
        self.milled.append(0)
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
                self._attack(choice[1])
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
            card = take(self.hand, code)
            self.waiting.append(card)
            if log is not None:
                self.say("me", "discard", "hand_limit", card=card.name)

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

    def _attack(self, slot: int) -> None:
        char = self.field[slot]
        char.state = REST
        self.counters["attacks"] += 1
        if self.log is not None:
            self.say("me", "attack", "attack", card=char.card.name, atk=char.atk)
        if slot == PARTNER_SLOT:
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
        self.milled[-1] += milled
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
        return [("end",)] + [("attack", s) for s in self._attackers()]

    def options_discard(self) -> list[tuple]:
        return [("discard", code) for code in distinct_codes(self.hand)]

    def label(self, kind: str, option: tuple) -> str:
        verb = option[0]
        if verb == "summon":
            return f"summon {option[1]} to {SLOT_NAMES[option[2]]}"
        if verb == "attack":
            c = self.field[option[1]]
            return f"attack with {c.card.name} ({SLOT_NAMES[option[1]]}, {c.atk} ATK)"
        if verb == "extra":
            return f"EXTRA {option[1]} on {SLOT_NAMES[option[2]]}"
        if kind == "maintain":
            return f"{verb} maintain of {self.field[self.maintaining].card.name}"
        return " ".join(map(str, option))

    # -- result --------------------------------------------------------------------------------
    def result(self) -> GameResult:
        c = self.counters
        c["games"] = 1
        c["partner_level"] = self.partner.level if self.partner is not None else 0
        if self.outcome == "win":
            c["first_wins" if self.went_first else "second_wins"] = 1
            c["first_win_turns" if self.went_first else "second_win_turns"] = self.turn
        c["first_games" if self.went_first else "second_games"] = 1
        return GameResult(
            index=self.index, outcome=self.outcome, turn=max(self.turn, 1), reason=self.reason,
            counters={k: v for k, v in c.items() if v},
            per_turn={"milled": list(self.milled)},
            first_playable=dict(self.first_playable),
        )


COUNTERS = (
    "games", "went_first", "attacks", "attack_draws", "deck_damage", "damage_stopped", "partner_levelups",
    "partner_level", "opp_partner_levelups", "summons", "extras", "mulligans", "maintain_paid",
    "maintain_skipped", "first_games", "second_games", "first_wins", "second_wins", "first_win_turns",
    "second_win_turns",
)


class GreedyPilot(ScriptedPilot):
    """Level the partner whenever possible, play an EXTRA when it is stronger, summon the strongest
    ally (replacing a weaker one when the field is full), attack with everything."""

    name = "greedy"

    def decide(self, state: ChaosState, kind: str) -> tuple:
        return _DISPATCH[kind](self, state)

    def d_partner(self, state: ChaosState) -> tuple:
        opts = state.options_partner()
        if len(opts) == 1:
            return opts[0]
        counts: dict[str, int] = {}
        for c in state.deck:
            if c.card_type == "character":
                key = identity(c)
                counts[key] = counts.get(key, 0) + 1
        best = None
        best_score = None
        for c in state.deck:
            if c.card_type != "character":
                continue
            score = ((c.atk or 0) + (c.partner_atk or 0) + 0.5 * (counts[identity(c)] - 1) * (c.partner_atk or 0)
                     + 0.01 * ((c.defense or 0) + (c.partner_def or 0)))
            if best_score is None or score > best_score:
                best, best_score = c, score
        return ("partner", best.code)

    def d_mulligan(self, state: ChaosState) -> tuple:
        pname = state.partner.card.person
        pid = identity(state.partner.card)
        for c in state.hand:
            if c.card_type == "character" and (c.person != pname or identity(c) == pid):
                return ("keep",)
        return ("mulligan",)

    def d_maintain(self, state: ChaosState) -> tuple:
        return ("pay",) if state.can_pay_maintain(state.field[state.maintaining]) else ("skip",)

    def d_main(self, state: ChaosState) -> tuple:
        used = state.used
        p = state.partner
        pid = identity(p.card)
        hand = state.hand
        if "levelup" not in used:
            for c in hand:
                if c.card_type == "character" and identity(c) == pid:
                    return ("levelup", c.code)
        names = state.names_on_field()
        if "extra" not in used and state.extra:
            seen = set()
            for ex in state.extra:
                if ex.code in seen or not any(p in names for p in ex.extra_persons):
                    continue
                seen.add(ex.code)
                for base, _codes, _slots in state.extra_plan(ex, names):
                    if (ex.atk or 0) > state.field[base].atk:
                        return ("extra", ex.code, base)
        if "summon" not in used:
            field = state.field
            best = None
            best_gain = 0.0
            for c in hand:
                if c.card_type != "character" or c.person == p.card.person:
                    continue
                same = names.get(c.person)
                if same is not None:
                    slot = same
                else:
                    slot = next((s for s in ALLY_SLOTS if field[s] is None), None)
                    if slot is None:
                        slot = min(ALLY_SLOTS, key=lambda s: (field[s].atk, field[s].dfn, s))
                occ = field[slot]
                gain = (c.atk or 0) - (occ.atk if occ is not None else -1) + 0.01 * (c.defense or 0)
                if gain > best_gain:
                    best, best_gain = ("summon", c.code, slot), gain
            if best is not None:
                return best
        return ("end",)

    def d_attack(self, state: ChaosState) -> tuple:
        attackers = state._attackers()
        allies = [s for s in attackers if s != PARTNER_SLOT]
        if allies:
            return ("attack", max(allies, key=lambda s: (state.field[s].atk, -s)))
        # the partner's attack draws a card: skip it on an empty deck unless it wins
        if state.deck or len(state.odeck) < state.partner.atk:
            return ("attack", PARTNER_SLOT)
        return ("end",)

    def d_discard(self, state: ChaosState) -> tuple:
        return ("discard", min(state.hand, key=state.card_value).code)


_DISPATCH = {name[2:]: fn for name, fn in vars(GreedyPilot).items() if name.startswith("d_")}

DEFAULT_OPTIONS: dict[str, Any] = {"first": "random", "dummy_deck_size": 50, "dummy_partner_copies": 3}


def new_state(deck: Deck, rng: random.Random, index: int, options: Mapping[str, Any],
              log: EventLog | None) -> ChaosState:
    return ChaosState(deck, rng, index, options, log)


ENGINE = register(GameEngine(
    game=GAME,
    new_state=new_state,
    pilots={"greedy": GreedyPilot},
    default_options=DEFAULT_OPTIONS,
    describe_options={
        "dummy_deck_size": gettext_noop("cards in the dummy's deck, its partner included (default 50)"),
        "dummy_partner_copies": gettext_noop("further copies of the dummy partner's title+name in its deck (default 3); "
                                "deck damage stops on each"),
    },
    ratios={
        "deck_damage_per_attack": ("deck_damage", "attacks"),
        "attack_draws_per_game": ("attack_draws", "games"),
        "partner_levelups_per_game": ("partner_levelups", "games"),
        "dummy_partner_levelups_per_game": ("opp_partner_levelups", "games"),
        "stopped_attacks_share": ("damage_stopped", "attacks"),
        "win_rate_going_first": ("first_wins", "first_games"),
        "win_rate_going_second": ("second_wins", "second_games"),
    },
    describe_extras={
        "milled": gettext_noop("cards the dummy lost to deck damage on each of the player's turns"),
        "deck_damage": gettext_noop("cards milled from the dummy's deck by attacks"),
        "damage_stopped": gettext_noop("attacks whose deck damage stopped on a copy of the dummy partner's title+name"),
        "attack_draws": gettext_noop("cards drawn because the partner attacked"),
        "partner_levelups": gettext_noop("level ups of the player's partner (from hand)"),
        "opp_partner_levelups": gettext_noop("automatic level ups of the dummy partner from deck damage"),
    },
))
