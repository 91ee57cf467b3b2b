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
- ``upkeep``: a Set card's start-of-turn choice (``state.upkeeping``: slot and Set code):
  ``("discard", code)`` a hand card, or ``("release",)`` the Set to the waiting room;
- ``main``: ``("levelup", code)``, ``("levelup_extra", EXTRA code, slot, discarded code)`` (an EXTRA
  on the field levels up: discard a hand card naming one of its persons, an identical EXTRA from
  the extra deck on it), ``("summon", code, slot)``, ``("extra", code, base slot)``,
  ``("event", code, target slot or -1)`` (a ``MAIN`` event), ``("set", code, slot)`` (equip),
  ``("end",)`` — level up (either kind) / summon / EXTRA once per turn each, events and Sets any
  number of times. ``【登場】`` / ``【LEVELUP】`` conditions and an event's ``【Use】`` condition are
  checked (``rules.chaos.engine.abilities``);
- ``attack``: ``("attack", slot)`` / ``("end",)``; the partner's attack draw is optional:
  ``("attack", PARTNER_SLOT)`` draws, ``("attack", PARTNER_SLOT, "no_draw")`` declines it (the only
  partner attack offered on an empty deck); ``("event", code, target slot or -1)`` plays a
  ``BATTLE`` event;
- ``discard``: ``("discard", code)`` at the end-of-turn hand limit.

Slots: 0 front-left, 1 front-right, 2 back-left, 3 partner (back-centre), 4 back-right.
"""
from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any, ClassVar

from rules.cards import CardRecord
from rules.engine._zones import DeckCache, distinct_codes, shuffle, take
from rules.engine.core import Deck, GameResult, gettext_noop
from rules.engine.goldfish import GoldfishState

from .abilities import Plan, conditions_met, plan_of
from .characters import REST, STAND, Char, identity, level_up, partner_char
from .events import GAME

SLOT_NAMES = ("front-left", "front-right", "back-left", "partner", "back-right")
PARTNER_SLOT = 3
ALLY_SLOTS = (0, 1, 2, 4)
OPENING_HAND = 5
HAND_LIMIT = 7


class DeckData:
    """What the engine and the greedy pilot read of one deck, computed once per deck (``DeckCache``):
    each card's plan and each character's title+name by code; the ``MAIN`` events the greedy pilot
    plays early (cards drawn or fetched); the cards with a start-of-battle trigger (any?); the
    characters with a 【登場】 condition and those that cannot attack; the ATK-raising ``BATTLE``
    events (``pumps``) and those of them playable on any attacker (no 【Use】 condition, never
    refused: ``free_pumps``); whether the main deck has a character; the character codes of each
    title+name met so far (``same_identity``); the card values met so far (``values``)."""

    __slots__ = ("battle_start", "battle_starters", "early", "free_pumps", "has_character", "idents", "no_attack", "plans", "pumps",
                 "same_identity", "summon_conditional", "values")

    def __init__(self, deck: Deck) -> None:
        cards = (*deck.main, *(c for z in deck.zones.values() for c in z))
        plans = self.plans = {c.code: plan_of(c) for c in cards}
        self.idents = {c.code: identity(c) for c in cards if c.card_type in ("character", "extra")}
        self.early = frozenset(code for code, p in plans.items() if p.useful and p.timing == "MAIN" and not p.pump)
        self.battle_starters = frozenset(code for code, p in plans.items() if "battle_phase_start" in p.on)
        self.battle_start = bool(self.battle_starters)
        self.summon_conditional = frozenset(code for code, p in plans.items() if p.summon_if)
        self.no_attack = frozenset(code for code, p in plans.items() if p.cannot_attack)
        self.pumps = frozenset(code for code, p in plans.items() if p.pump and p.timing == "BATTLE")
        self.free_pumps = frozenset(code for code in self.pumps if plans[code].never is None
                                    and not plans[code].use and plans[code].own_target)
        self.has_character = any(c.card_type == "character" for c in deck.main)
        self.same_identity: dict[str, frozenset[str]] = {}
        # card_value by partner card (object) and card (object)
        self.values: dict[CardRecord | None, dict[CardRecord, float]] = {}


_PLANS = DeckCache(DeckData)
_UNSET = object()


_OPS: dict[int, tuple[tuple, tuple[tuple, ...]]] = {}


def _ops(effects: tuple) -> tuple[tuple, ...]:
    """``effects`` as ``_effects`` runs them, read once per effects tuple: ``(kind, only if the
    previous discard was done, a, b, c, d)`` (see ``_effects``); kinds the engine does not run are ``""``."""
    hit = _OPS.get(id(effects))
    if hit is not None and hit[0] is effects:
        return hit[1]
    ops = []
    for e in effects:
        k, p = e.kind, e.params
        cond = bool(p.get("if"))
        if k == "stat_mod":
            t = p.get("target")
            ref = t.get("ref") if isinstance(t, dict) else None
            whose = ("partner" if ref == "partner" else "this" if ref in ("this", "it")
                     else "own" if isinstance(t, dict) and t.get("side") == "own" else "")
            ops.append((k, cond, whose, int(p.get("atk", 0) or 0), int(p.get("def", 0) or 0), bool(p.get("until"))))
        elif k == "draw":
            ops.append((k, cond, int(p.get("count", 1)), p.get("player") == "each", None, None))
        elif k == "discard":
            ops.append((k, cond, bool(p.get("optional")), None, None, None))
        elif k == "look":
            ops.append((k, cond, int(p.get("count", 1)), None, None, None))
        elif k == "to_hand":
            ops.append((k, cond, p.get("source") == "looked", p.get("what") == "character", int(p.get("count", 1)),
                        None))
        elif k == "to_waiting_room" and p.get("target") == "rest_looked":
            ops.append(("rest_looked", cond, None, None, None, None))
        else:
            ops.append(("", cond, None, None, None, None))
    out = _OPS[id(effects)] = (effects, tuple(ops))
    return out[1]


def _index(zone: list[CardRecord], code: str) -> int:
    """The position of the first card with ``code`` in ``zone`` (-1: none)."""
    for i, c in enumerate(zone):
        if c.code == code:
            return i
    return -1
_NO_PLAN = Plan()


class ChaosState(GoldfishState):
    """One goldfish game of Chaos TCG. Zones are public attributes so tests can set them up."""

    GAME = GAME
    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {"first": "random", "dummy_deck_size": 50, "dummy_partner_copies": 3}
    COUNTERS = (
        "games", "went_first", "attacks", "attack_draws", "deck_damage", "damage_stopped", "partner_levelups",
        "partner_level", "opp_partner_levelups", "summons", "extras", "mulligans", "maintain_paid",
        "maintain_skipped", "events_played", "sets_equipped", "extra_levelups", "effect_draws", "first_games", "second_games", "first_wins", "second_wins", "first_win_turns",
        "second_win_turns",
    )
    PER_TURN = {"milled": "deck_damage"}
    DECK_ZONES = ("extra",)
    # The game's own attributes live in slots (set in ``_new_game``): read faster than those of the
    # instance dict, which holds the common ones (``GoldfishState``) and anything a test adds.
    __slots__ = ("_ask", "_extra_kinds", "_levelup_codes", "_levelup_for", "_pilot", "_values", "_values_for",
                 "battle_start", "data", "early_events", "eot", "equipped", "extra", "field", "free_pumps", "idents",
                 "last_main", "looked", "maintaining", "no_attack", "odeck", "ohand", "opartner_level", "opening_hand", "owaiting",
                 "partner_hint", "plans", "pump_events", "summon_conditional", "upkeeping", "used", "waiting")

    def _new_game(self, deck: Deck, opts: Mapping[str, Any]) -> None:
        size = int(opts.get("dummy_deck_size", 50))
        copies = int(opts.get("dummy_partner_copies", 3))
        if size < 1 or not 0 <= copies <= size - 1:
            raise ValueError(f"dummy_deck_size must be at least 1 and dummy_partner_copies between 0 and "
                             f"dummy_deck_size - 1 (got {size} and {copies})")
        data = self.data = _PLANS.get(deck)
        self.plans, self.idents, self.early_events = data.plans, data.idents, data.early
        self.battle_start, self.summon_conditional, self.no_attack = data.battle_start, data.summon_conditional, \
            data.no_attack
        self.pump_events, self.free_pumps = data.pumps, data.free_pumps
        if not data.has_character:
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
        self.equipped = 0  # Set cards on the field
        # "until end of turn" ATK/DEF changes, undone in the end phase
        self.eot: list[tuple[Char, int, int]] = []
        self.looked: list[CardRecord] = []
        self.upkeeping = (-1, "")
        self.last_main: tuple | None = None  # the option of this main phase played last
        self._values_for: Any = _UNSET  # card_value's table is for this partner card
        self._values: dict[CardRecord, float] = {}
        self._levelup_for: Any = _UNSET  # levelup_codes is for this partner card
        self._levelup_codes: frozenset[str] = frozenset()
        self._extra_kinds: tuple[list[CardRecord], int, list[CardRecord]] | None = None  # (extra_kinds)
        # the pilot the turn script asks itself and its dispatch table (``play_out``'s fast path), else None
        self._pilot: Any = None
        self._ask: Mapping[str, Any] | None = None

    # -- helpers -------------------------------------------------------------------------------
    @property
    def partner(self) -> Char | None:
        return self.field[PARTNER_SLOT]

    def _draw(self, n: int, why: str = "draw") -> None:
        deck, hand = self.deck, self.hand
        if n == 1 and deck:  # (the usual draw)
            hand.append(deck.pop())
        else:
            for _ in range(n):
                if not deck:
                    self._end("loss", gettext_noop("had to draw from an empty deck"))
                hand.append(deck.pop())
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
                "looked": self.looked,
                "field": [card for c in self.field if c is not None for card in (c.card, *c.under, *c.sets)]}

    def plan(self, card: CardRecord) -> Plan:
        p = self.plans.get(card.code)
        return plan_of(card) if p is None else p

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
        if not self.odeck:  # (self._odraw(1))
            self._end("win", gettext_noop("the dummy had to draw from an empty deck"))
        self.odeck.pop()
        self.ohand += 1
        if self.ohand > HAND_LIMIT:
            self.owaiting += self.ohand - HAND_LIMIT
            self.ohand = HAND_LIMIT

    # -- the fast path: the pilot asked by the script itself --------------------------------------
    def play_out(self, pilot: Any) -> None:
        """``ScriptedState.play_out``; with a pilot that has a ``dispatch`` table (a
        ``ScriptedPilot``: the greedy one), the turn script calls it itself at every decision
        (``self._ask[kind](pilot, self)`` in place of ``yield kind``): the same choice at the same
        moment, without a generator round trip (``pending`` then stays at the last decision
        yielded). The contract's ``legal_actions``/``apply`` drive the same script by its ``yield``s."""
        dispatch = getattr(pilot, "dispatch", None)
        if dispatch is not None:
            self._ask, self._pilot = dispatch, pilot
        super().play_out(pilot)

    def _my_turn(self) -> Generator[str, tuple, None]:
        turn = self._new_turn()
        ask, pilot = self._ask, self._pilot
        field = self.field
        self.used.clear()
        # 1. beginning: improve one step, pay maintain (each character in turn: a maintain decision
        # reads the hand and the deck and changes no other slot), Set cards' upkeep
        for slot, c in enumerate(field):
            if c is not None and not c.face_down:
                if c.state:
                    c.state -= 1
                if "maintain" in c.card.keywords:
                    self.maintaining = slot
                    choice = ask["maintain"](pilot, self) if ask else (yield "maintain")
                    self.maintaining = -1
                    self._maintain(c, choice[0] == "pay")
        for slot in range(5) if self.equipped else ():
            c = field[slot]
            if c is None or not c.sets:
                continue
            for st in list(c.sets):
                if self.plan(st).upkeep:
                    self.upkeeping = (slot, st.code)
                    choice = ask["upkeep"](pilot, self) if ask else (yield "upkeep")
                    self.upkeeping = (-1, "")
                    if choice[0] == "discard":
                        self._discard(choice[1], self.waiting)
                    else:
                        self._unequip(c, st)
        # 2. draw
        if self.deck and self.log is None:  # (self._draw(1))
            self.hand.append(self.deck.pop())
        else:
            self._draw(1)
        # 3. main (what can be played at all this turn can be played at its start)
        self._note_playable(turn)
        self.last_main = None
        main = ask["main"] if ask else None
        while True:
            choice = main(pilot, self) if main else (yield "main")
            if choice[0] == "end":
                break
            self._main_action(choice)
            self.last_main = choice  # (the very option played: see GreedyPilot.d_main)
        # 4. battle (none on the first player's turn 1)
        if turn > 1 or not self.went_first:
            if self.battle_start:
                self._battle_starts()
            no = self.no_attack
            while True:  # while a character can attack (``_attackers()`` not empty)
                for c in field:
                    if c is not None and c.state == STAND and not c.face_down and not (no and c.card.code in no):
                        break
                else:
                    break
                choice = ask["attack"](pilot, self) if ask else (yield "attack")
                verb = choice[0]
                if verb == "end":
                    break
                if verb == "event":
                    self._play_event(choice[1], choice[2], "BATTLE")
                else:
                    self._attack(choice[1], len(choice) < 3)
        # 5. end
        self._end_phase()
        while len(self.hand) > HAND_LIMIT:
            choice = ask["discard"](pilot, self) if ask else (yield "discard")
            self._discard(choice[1], self.waiting)

    def _maintain(self, c: Char, pay: bool) -> None:
        if pay:
            self._pay_maintain(c)
            return
        c.face_down = True
        self.counters["maintain_skipped"] += 1
        if self.log is not None:
            self.say("me", "maintain", "maintain_skipped", card=c.card.name)

    def _main_action(self, choice: tuple) -> None:
        """Play a ``main`` decision's option other than ``("end",)``."""
        kind = choice[0]
        if kind == "summon":
            self._summon(choice[1], choice[2])
        elif kind == "event":
            self._play_event(choice[1], choice[2], "MAIN")
        elif kind == "set":
            self._equip(choice[1], choice[2])
        elif kind == "extra":
            self._play_extra(choice[1], choice[2])
        elif kind == "levelup_extra":
            self._levelup_extra(choice[1], choice[2], choice[3])
        elif kind == "levelup":
            self._levelup(choice[1])

    def _levelup(self, code: str) -> None:
        """The partner levels up with ``code`` from the hand."""
        card = take(self.hand, code)
        self.used.add("levelup")
        p = self.partner
        level_up(p, card)
        self.counters["partner_levelups"] += 1
        if self.log is not None:
            self.say("me", "levelup", "levelup", card=card.name, atk=p.atk, dfn=p.dfn)
        self._trigger(p, "levels_up", PARTNER_SLOT)

    def _battle_starts(self) -> None:
        """The start-of-battle triggers of the characters face up."""
        plans, starters = self.plans, self.data.battle_starters
        for slot, c in enumerate(self.field):  # (a trigger changes no slot)
            if c is not None and not c.face_down:
                code = c.card.code  # (the deck's starters are among its plans)
                if code in starters or (code not in plans and "battle_phase_start" in plan_of(c.card).on):
                    self._trigger(c, "battle_phase_start", slot)

    def _end_phase(self) -> None:
        """"Until end of turn" changes end, damage resets, one face-down character turns face up, the
        partner improves (the hand limit comes after, in the script: it asks decisions)."""
        eot = self.eot
        if eot:
            for c, atk, dfn in eot:
                c.atk -= atk
                c.dfn -= dfn
            eot.clear()
        flip = True
        for c in self.field:
            if c is not None:
                c.dmg = 0
                if flip and c.face_down:  # the first face-down one
                    flip = False
                    c.face_down = False
                    if self.log is not None:
                        self.say("me", "end", "face_up", card=c.card.name)
        p = self.field[PARTNER_SLOT]
        if p.state:
            p.state -= 1

    def _note_playable(self, turn: int) -> None:
        fp = self.first_playable
        pcard = self.field[PARTNER_SLOT].card
        pname = pcard.person
        pid = None
        for c in self.hand:
            if c.code not in fp and c.card_type == "character":
                if c.person == pname:
                    if pid is None:
                        pid = self.ident(pcard)
                    if self.ident(c) != pid:
                        continue
                fp[c.code] = turn

    def levelup_codes(self, pcard: CardRecord) -> frozenset[str]:
        """``same_identity(ident(pcard))`` for the partner's card ``pcard`` (kept while it is the same)."""
        if pcard is not self._levelup_for:
            self._levelup_for = pcard
            self._levelup_codes = self.same_identity(self.ident(pcard))
        return self._levelup_codes

    def same_identity(self, ident: str) -> frozenset[str]:
        """The codes of the deck's cards whose title+name is ``ident``."""
        table = self.data.same_identity
        codes = table.get(ident)
        if codes is None:
            codes = table[ident] = frozenset(code for code, i in self.idents.items() if i == ident)
        return codes

    def ident(self, card: CardRecord) -> str:
        """``identity(card)`` (title+name), read from the per-deck table when the card is the deck's."""
        return self.idents.get(card.code) or identity(card)

    def _pay_maintain(self, c: Char) -> None:
        cost = c.card.keyword_costs.get("maintain") or {}
        for _ in range(int(cost.get("discard", 0))):
            worst = self.worst_card(self.hand)
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
        self.field[slot] = c = Char(card, card.atk or 0, card.defense or 0)
        if self.log is not None:
            self.say("me", "summon", "summon", card=card.name, atk=card.atk, dfn=card.defense, slot=SLOT_NAMES[slot])
        plan = self.plans.get(card.code)
        if (plan_of(card) if plan is None else plan).on:
            self._trigger(c, "summoned", slot)

    # -- abilities (rules.chaos.engine.abilities) ------------------------------------------------
    def field_cards(self) -> list[CardRecord]:
        return [c.card for c in self.field if c is not None and not c.face_down]

    def can_summon(self, card: CardRecord) -> bool:
        """Its 【登場】 condition, if any, is met."""
        cond = self.plan(card).summon_if
        return not cond or conditions_met(cond, self.partner.card, self.field_cards())

    def can_level_up(self, card: CardRecord) -> bool:
        """Its 【LEVELUP】 condition, if any, is met (a level up from the hand)."""
        plan = self.plans.get(card.code)  # (self.plan(card))
        cond = (plan_of(card) if plan is None else plan).levelup_if
        return not cond or conditions_met(cond, self.partner.card, self.field_cards())

    def can_use(self, card: CardRecord, timing: str) -> bool:
        """An event the engine plays, at its timing, whose 【Use】 condition is met."""
        return self._usable(self.plan(card), timing)

    def _usable(self, plan: Plan, timing: str) -> bool:
        if plan.never is not None or plan.timing != timing:
            return False
        return not plan.use or conditions_met(plan.use, self.partner.card, self.field_cards())

    def event_targets(self, card: CardRecord) -> tuple[int, ...]:
        """The own character slots an event's chosen stat change may target (``(-1,)``: no choice)."""
        return self._targets(self.plan(card))

    def _targets(self, plan: Plan) -> tuple[int, ...]:
        if plan.own_target:
            return tuple(i for i, c in enumerate(self.field) if c is not None and not c.face_down)
        return (-1,)

    def _is_target(self, plan: Plan, slot: int) -> bool:
        """``slot in self._targets(plan)``, without building the tuple."""
        if not plan.own_target:
            return slot == -1
        c = self.field[slot] if 0 <= slot < 5 else None
        return c is not None and not c.face_down

    def first_target(self, plan: Plan) -> int:
        """``self._targets(plan)[0]`` (``IndexError``: no target), without building the tuple."""
        if not plan.own_target:
            return -1
        for i, c in enumerate(self.field):
            if c is not None and not c.face_down:
                return i
        raise IndexError("no character to target")

    def set_targets(self, card: CardRecord) -> tuple[int, ...]:
        plan = self.plan(card)
        if plan.never is not None:
            return ()
        if plan.equip_to == "partner":
            return (PARTNER_SLOT,)
        return tuple(i for i, c in enumerate(self.field) if c is not None)

    def _trigger(self, char: Char, kind: str, slot: int) -> None:
        """Run ``char``'s abilities triggered by ``kind`` (tags: partner only as the partner, ally only as an ally)."""
        plan = self.plans.get(char.card.code)  # (self.plan(char.card))
        for tag, effects in (plan_of(char.card) if plan is None else plan).on.get(kind, ()):
            if (tag == "partner" and slot != PARTNER_SLOT) or (tag == "ally" and slot == PARTNER_SLOT):
                continue
            self._effects(effects, char, char)

    def _effects(self, effects: tuple, source: Char | None, target: Char | None) -> None:
        done = False
        log = self.log
        ops = _OPS.get(id(effects))  # (_ops(effects), read here when it is known)
        for k, cond, a, b, c, d in ops[1] if ops is not None and ops[0] is effects else _ops(effects):
            if cond and not done:
                continue
            if k == "stat_mod":  # a: whose (partner / this / own), b: ATK, c: DEF, d: until end of turn
                if a == "partner":
                    who = self.partner
                elif a == "this":
                    who = source if target is None else target
                elif a == "own":
                    who = target
                else:  # the dummy's characters: nothing to change
                    continue
                if who is None:
                    continue
                who.atk += b
                who.dfn += c
                if d:
                    self.eot.append((who, b, c))
                if log is not None:
                    self.say("me", "effect", "stat_mod", card=who.card.name, atk=who.atk, dfn=who.dfn)
            elif k == "draw":  # a: count, b: each player
                self.counters["effect_draws"] += a
                self._draw(a, "effect")
                if b:
                    self._odraw(a)
            elif k == "discard":  # a: optional
                done = False
                if self.hand:
                    worst = self.worst_card(self.hand)
                    if not a or self._values[worst] <= 1.0:
                        self.hand.remove(worst)
                        self.waiting.append(worst)
                        done = True
            elif k == "look":  # a: count (taken one by one from the top)
                deck = self.deck
                n = min(a, len(deck))
                if n > 0:
                    self.looked.extend(reversed(deck[-n:]))
                    del deck[-n:]
            elif k == "to_hand":  # a: from the looked cards (else the waiting room), b: characters only, c: count
                pool = self.looked if a else self.waiting
                if b:
                    cands = []
                    for x in pool:
                        if x.card_type == "character":
                            cands.append(x)
                else:
                    cands = pool[:]
                for _ in range(c):
                    if not cands:
                        break
                    best = max(cands, key=self._valued(cands).__getitem__)
                    cands.remove(best)
                    pool.remove(best)
                    self.hand.append(best)
                    if log is not None:
                        self.say("me", "effect", "to_hand", card=best.name)
            elif k == "rest_looked":
                self.waiting.extend(self.looked)
                self.looked.clear()
        if self.looked:  # looked at and not placed: back on top in the order seen
            self.deck.extend(reversed(self.looked))
            self.looked.clear()

    def _play_event(self, code: str, slot: int, timing: str) -> None:
        hand = self.hand
        i = _index(hand, code)
        plan = None
        if i >= 0:
            card = hand[i]
            plan = self.plans.get(code) or plan_of(card)  # (self.plan(card))
        if plan is None or not self._usable(plan, timing) or not self._is_target(plan, slot):
            raise ValueError(f"event {code} cannot be played now")
        del hand[i]
        self.counters["events_played"] += 1
        if self.log is not None:
            self.say("me", "event", "event", card=card.name)
        self.waiting.append(card)
        self._effects(plan.effects, None, self.field[slot] if slot >= 0 else None)

    def _equip(self, code: str, slot: int) -> None:
        hand = self.hand
        i = _index(hand, code)
        if i < 0 or (card := hand[i]).card_type != "set" or slot not in self.set_targets(card):
            raise ValueError(f"Set {code} cannot be equipped to slot {slot}")
        del hand[i]
        c = self.field[slot]
        plan = self.plan(card)
        c.sets.append(card)
        self.equipped += 1
        c.atk += plan.set_atk
        c.dfn += plan.set_def
        self.counters["sets_equipped"] += 1
        if self.log is not None:
            self.say("me", "set", "equip", card=card.name, target=c.card.name, atk=c.atk, dfn=c.dfn)

    def _unequip(self, c: Char, card: CardRecord) -> None:
        plan = self.plan(card)
        c.sets.remove(card)
        self.equipped -= 1
        c.atk -= plan.set_atk
        c.dfn -= plan.set_def
        self.waiting.append(card)
        if self.log is not None:
            self.say("me", "set", "release", card=card.name)

    def extra_kinds(self) -> list[CardRecord]:
        """The first card of each code of the extra deck, in its order (kept while the extra deck is
        the same list with the same length: the engine only takes cards from it)."""
        extra = self.extra
        kinds = self._extra_kinds
        if kinds is None or kinds[0] is not extra or kinds[1] != len(extra):
            firsts: dict[str, CardRecord] = {}
            for ex in extra:
                if ex.code not in firsts:
                    firsts[ex.code] = ex
            kinds = self._extra_kinds = (extra, len(extra), list(firsts.values()))
        return kinds[2]

    def extra_levelups(self) -> list[tuple[str, int, str]]:
        """EXTRA level ups: (an identical EXTRA in the extra deck, the slot of the EXTRA on the field,
        a hand card naming one of its persons)."""
        out: list[tuple[str, int, str]] = []
        if not self.extra:
            return out
        for slot, c in enumerate(self.field):
            if c is None or c.card.card_type != "extra":
                continue
            persons = c.card.extra_persons
            codes: list[str] = []  # distinct, in hand order
            for h in self.hand:
                if h.person in persons and h.card_type == "character" and h.code not in codes:
                    codes.append(h.code)
            if not codes:
                continue
            same = self._identical_extra(c.card)
            if same is not None:
                out.extend((same.code, slot, code) for code in codes)
        return out

    def first_extra_levelup(self) -> tuple[str, int, str] | None:
        """``extra_levelups()[0]`` (None: there is none), without the others."""
        if not self.extra:
            return None
        hand = self.hand
        for slot, c in enumerate(self.field):
            if c is None or c.card.card_type != "extra":
                continue
            persons = c.card.extra_persons
            for h in hand:
                if h.person in persons and h.card_type == "character":
                    same = self._identical_extra(c.card)
                    if same is not None:
                        return same.code, slot, h.code
                    break
        return None

    def _can_levelup_extra(self, code: str, slot: int, discard: str) -> bool:
        """``(code, slot, discard) in self.extra_levelups()``, for that one level up."""
        c = self.field[slot] if 0 <= slot < 5 else None
        if c is None or c.card.card_type != "extra":
            return False
        persons = c.card.extra_persons
        for h in self.hand:
            if h.code == discard and h.person in persons and h.card_type == "character":
                same = self._identical_extra(c.card)
                return same is not None and same.code == code
        return False

    def _identical_extra(self, card: CardRecord) -> CardRecord | None:
        """The first EXTRA of the extra deck with ``card``'s title+name, if its level up is allowed."""
        ids = self.idents
        ident = ids.get(card.code) or identity(card)
        codes = self.same_identity(ident)  # (the deck's codes of that title+name)
        for x in self.extra:
            code = x.code
            if code in codes or (code not in ids and identity(x) == ident):
                return x if self.can_level_up(x) else None
        return None

    def _levelup_extra(self, code: str, slot: int, discard: str) -> None:
        if "levelup" in self.used or not self._can_levelup_extra(code, slot, discard):
            raise ValueError(f"EXTRA {code} cannot level up on slot {slot} discarding {discard}")
        self.used.add("levelup")
        dropped = take(self.hand, discard)
        self.waiting.append(dropped)
        card = take(self.extra, code)
        c = self.field[slot]
        level_up(c, card)
        self.counters["extra_levelups"] += 1
        if self.log is not None:
            self.say("me", "levelup", "levelup_extra", card=card.name, slot=SLOT_NAMES[slot], discarded=dropped.name,
                     atk=c.atk, dfn=c.dfn)
        self._trigger(c, "levels_up", slot)

    def _to_waiting(self, slot: int) -> None:
        c = self.field[slot]
        self.waiting.append(c.card)
        self.waiting.extend(c.under)
        if c.sets:
            self.waiting.extend(c.sets)
            self.equipped -= len(c.sets)
        self.field[slot] = None

    def names_on_field(self) -> dict[str, int]:
        """Every name on the field and its slot (an EXTRA counts as each of its persons)."""
        names: dict[str, int] = {}
        for i, c in enumerate(self.field):
            if c is not None:
                card = c.card
                names[card.person] = i
                if card.extra_persons:
                    for person in card.extra_persons:
                        names[person] = i
        return names

    def extra_plan(self, ex: CardRecord, names: dict[str, int] | None = None
                   ) -> list[tuple[int, tuple[str, ...], tuple[int, ...]]]:
        """Ways to play an EXTRA: (base ally slot, hand codes used, other field slots used)."""
        persons = ex.extra_persons
        if names is None:
            names = self.names_on_field()
        out = []
        field = self.field
        for base_person in persons:
            base = names.get(base_person)
            if base is None or base == PARTNER_SLOT or field[base].card.card_type == "extra":
                continue
            way = self._extra_way(persons, base_person, base, names)
            if way is not None:
                out.append((base, *way))
        return out

    def first_stronger_extra(self, ex: CardRecord, names: dict[str, int], hand_persons: Any = None) -> int:
        """The base slot of the first way to play ``ex`` (in ``extra_plan`` order) on a character
        with less ATK than ``ex`` has, or -1 (the greedy pilot's choice, without the other ways).
        ``hand_persons`` (the persons of the hand's characters, if the caller has them) rules out
        at once a way whose other persons are neither on the field nor in the hand."""
        persons = ex.extra_persons
        atk = ex.atk or 0
        field = self.field
        for base_person in persons:
            base = names.get(base_person)
            if base is None or base == PARTNER_SLOT:
                continue
            c = field[base]
            if c.card.card_type == "extra" or atk <= c.atk:
                continue
            if hand_persons is not None and (persons[0] != persons[1] if len(persons) == 2
                                             else len(set(persons)) == len(persons)):
                if self._has_extra_way(persons, base_person, base, names, hand_persons):
                    return base
            elif self._extra_way(persons, base_person, base, names) is not None:
                return base
        return -1

    @staticmethod
    def _has_extra_way(persons: tuple[str, ...], base_person: str, base: int, names: dict[str, int],
                       hand_persons: Any) -> bool:
        """``_extra_way(...) is not None`` for an EXTRA of distinct ``persons`` (each other person needs
        a field slot of its own, else one character of that person from the hand: a hand card names
        one person, so no card is wanted twice); ``hand_persons``: the hand's characters' persons."""
        slots: list[int] = []
        for other in persons:
            if other == base_person:
                continue
            slot = names.get(other)
            if slot is not None and slot != PARTNER_SLOT and slot != base and slot not in slots:
                slots.append(slot)
            elif other not in hand_persons:
                return False
        return True

    def _extra_way_on(self, ex: CardRecord, base: int) -> tuple[int, tuple[str, ...], tuple[int, ...]]:
        """The way of ``extra_plan(ex)`` whose base slot is ``base`` (``ValueError``: none)."""
        persons = ex.extra_persons
        c = self.field[base] if base != PARTNER_SLOT else None
        if c is not None and c.card.card_type != "extra":
            names = self.names_on_field()
            for base_person in persons:
                if names.get(base_person) == base:
                    way = self._extra_way(persons, base_person, base, names)
                    if way is not None:
                        return (base, *way)
        raise ValueError(f"EXTRA {ex.code} cannot be played on slot {base}")

    def _extra_way(self, persons: tuple[str, ...], base_person: str, base: int, names: dict[str, int]
                   ) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
        """The hand codes and other field slots an EXTRA of ``persons`` uses on ``base`` (None: it cannot)."""
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
            for i, c in enumerate(hand):  # the first character of that person left in the hand
                if c.person == other and c.card_type == "character":
                    codes.append(c.code)
                    del hand[i]
                    break
            else:
                return None
        return tuple(codes), tuple(slots)

    def _play_extra(self, code: str, base: int) -> None:
        ex = take(self.extra, code)
        plan = self._extra_way_on(ex, base)  # (the way of extra_plan(ex) on base)
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
        no = self.no_attack
        if not no:
            return [i for i, c in enumerate(self.field) if c is not None and c.state == STAND and not c.face_down]
        return [i for i, c in enumerate(self.field)
                if c is not None and c.state == STAND and not c.face_down and c.card.code not in no]

    def _attack(self, slot: int, draw: bool = True) -> None:
        char = self.field[slot]
        char.state = REST
        counters = self.counters
        counters["attacks"] += 1
        if self.plans.get(char.card.code, _NO_PLAN).on:
            self._trigger(char, "attacks", slot)
        log = self.log
        if log is not None:
            self.say("me", "attack", "attack", card=char.card.name, atk=char.atk)
        if slot == PARTNER_SLOT and draw:
            if not self.deck:
                raise ValueError("the attack draw is optional: decline it on an empty deck")
            counters["attack_draws"] += 1
            self._draw(1, "attack draw")
        n = char.atk
        deck = self.odeck
        if log is None and 0 < n < len(deck) and True not in deck[-n:]:  # (deck_damage's usual hit)
            del deck[-n:]
            self.owaiting += n
            counters["deck_damage"] += n
        else:
            self.deck_damage(n)

    def deck_damage(self, n: int) -> int:
        """The dummy takes ``n`` deck damage, one card at a time; a card with its partner's
        title+name stops the damage and levels the partner up. Returns the cards that left the deck."""
        deck = self.odeck
        if n <= 0:
            self._record_mill(n, 0, False)
            return 0
        size = len(deck)
        if n < size:
            top = deck[-n:]  # the cards this hit can reach, top last
            if True not in top:  # (the usual hit: n cards milled)
                del deck[-n:]
                self.owaiting += n
                self.counters["deck_damage"] += n
                if self.log is not None:
                    self.say("opp", "damage", "deck_damage", amount=n, count=n, left=size - n)
                return n
        else:
            top = deck[:]
        if True in top:  # stops on the first copy from the top: the cards above it are milled
            milled = top[::-1].index(True) + 1
            del deck[-milled:]
            self.owaiting += milled - 1
            self.opartner_level += 1
            self.counters["opp_partner_levelups"] += 1
            self._record_mill(n, milled, True)
            return milled
        deck.clear()  # (here n >= size: the whole deck)
        self.owaiting += size
        if n > size:  # a card still to mill from an empty deck
            self._record_mill(n, size, False)
            self._end("win", gettext_noop("the dummy took deck damage from an empty deck"))
        self._record_mill(n, size, False)
        return size

    def _record_mill(self, n: int, milled: int, stopped: bool) -> None:
        self.counters["deck_damage"] += milled
        if stopped:
            self.counters["damage_stopped"] += 1
        if self.log is not None:
            self.say("opp", "damage", "deck_damage_stopped" if stopped else "deck_damage", amount=n, count=milled,
                     left=len(self.odeck))

    # -- values --------------------------------------------------------------------------------
    def card_value(self, card: CardRecord) -> float:
        """How much the pilot wants to keep a hand card (the hand limit discards the lowest).

        It depends on the card and the partner's card only: kept per deck and partner card."""
        values = self._value_table()
        v = values.get(card)
        if v is None:
            v = values[card] = self._card_value(card)
        return v

    def _value_table(self) -> dict[CardRecord, float]:
        """``card_value``'s table for the current partner card (the values met so far)."""
        p = self.field[PARTNER_SLOT]
        pcard = p.card if p is not None else None
        if pcard is not self._values_for:
            self._values_for = pcard
            self._values = self.data.values.setdefault(pcard, {})
        return self._values

    def _valued(self, cards: list[CardRecord]) -> dict[CardRecord, float]:
        """``card_value``'s table holding every card of ``cards``."""
        values = self._value_table()
        for c in cards:
            if c not in values:
                values[c] = self._card_value(c)
        return values

    def worst_card(self, cards: list[CardRecord]) -> CardRecord:
        """``min(cards, key=self.card_value)``: the first card of the lowest value."""
        return min(cards, key=self._valued(cards).__getitem__)

    def _card_value(self, card: CardRecord) -> float:
        if card.card_type == "character":
            p = self.field[PARTNER_SLOT]
            if p is not None:
                pcard = p.card
                if card.person == pcard.person:  # (a different title+name has another person or title)
                    return 100.0 if self.ident(card) == self.ident(pcard) else 0.5  # 0.5: can never be summoned
                if self.ident(card) == self.ident(pcard):
                    return 100.0
            return 10.0 + (card.atk or 0) + 0.1 * (card.defense or 0)
        return 1.0 if card.unmodelled else 5.0

    # -- options (the generic contract) --------------------------------------------------------
    def options_partner(self) -> list[tuple]:
        if self.partner_hint and _index(self.deck, self.partner_hint) >= 0:
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
            if "levelup" not in self.used and identity(card) == pid and self.can_level_up(card):
                out.append(("levelup", code))
            if "summon" not in self.used and card.person != pname and self.can_summon(card):
                same = names.get(card.person)
                out.extend(("summon", code, s) for s in ((same,) if same is not None else ALLY_SLOTS))
        if "extra" not in self.used:
            for code in distinct_codes(self.extra):
                ex = next(c for c in self.extra if c.code == code)
                out.extend(("extra", code, plan[0]) for plan in self.extra_plan(ex, names))
        if "levelup" not in self.used:
            out.extend(("levelup_extra", *x) for x in self.extra_levelups())
        for code in distinct_codes(c for c in self.hand if c.card_type in ("event", "set")):
            card = next(c for c in self.hand if c.code == code)
            if card.card_type == "set":
                out.extend(("set", code, s) for s in self.set_targets(card))
            elif self.can_use(card, "MAIN"):
                out.extend(("event", code, s) for s in self.event_targets(card))
        return out

    def options_upkeep(self) -> list[tuple]:
        return [("release",)] + [("discard", code) for code in distinct_codes(self.hand)]

    def options_attack(self) -> list[tuple]:
        out: list[tuple] = [("end",)]
        for code in distinct_codes(c for c in self.hand if c.card_type == "event"):
            card = next(c for c in self.hand if c.code == code)
            if self.can_use(card, "BATTLE"):
                out.extend(("event", code, s) for s in self.event_targets(card))
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
