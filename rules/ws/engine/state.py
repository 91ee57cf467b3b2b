"""Weiß Schwarz goldfish engine (GAMES.md §3): the state and its turn script.

The player's deck plays against the goldfish: an empty stage (every attack is a direct attack,
+1 soul) and a dummy 50-card deck holding ``dummy_climaxes`` climaxes that draws 5 at setup and 1 a
turn, never clocks or plays, discards down to 7, refreshes and takes refresh damage. With
``dummy_pressure`` on (the default, GAMES.md §3 "Pressure") it also attacks on each of its turns:
``dummy_attacks`` attacks (1 on the first player's first turn) of ``dummy_soul`` damage, each
resolved through the player's real damage step. The player wins when the dummy reaches level 4;
the player loses on reaching level 4 or when a refresh finds an empty waiting room.

Printed abilities compiled by ``rules.ws.abilities`` are played when they can change a goldfish game
(``rules.ws.engine.abilities`` decides which, ``rules.ws.engine.effects`` runs them).

The rules are one generator (``WSState._setup``, ``_my_turn`` and ``_opp_turn`` in
``GoldfishState.script``), read top to bottom like the rulebook; it yields the kind of decision it
needs and the pilot answers with an option tuple (see ``core.ScriptedState``).
Decision kinds and their options:

- ``mulligan``: ``("discard", code)`` sets a hand card aside, ``("keep",)`` ends (the set-aside cards
  go to the waiting room and that many are drawn);
- ``clock``: ``("clock", code)`` or ``("skip",)``;
- ``level_up``: ``("level", code)`` — which of the 7 clock cards goes to the level zone;
- ``main``: ``("play", code, slot)``, ``("event", code)``, ``("act", slot, index)`` (a 【起】 ability
  of the character in ``slot``), ``("move", a, b)`` (swap / move between stage slots 0-2 front, 3-4
  back), ``("end",)``;
- ``climax``: ``("place", code)`` or ``("skip",)``;
- ``attack``: ``("attack", slot)`` or ``("end",)``;
- triggers: ``draw`` / ``pool``: ``("yes",)`` / ``("no",)``; ``comeback`` / ``gate``:
  ``("take", code)`` / ``("skip",)``; ``choice``: ``("hand", code)`` / ``("stock", code)`` /
  ``("skip",)``; ``standby``: ``("place", code, slot)`` / ``("skip",)``;
- ``pay``: ``("yes",)`` / ``("no",)`` — pay an 【自】 ability's cost (``state.paying`` names it);
- ``encore``: ``("encore",)`` (Encore [3 stock]), ``("encore", i)`` (the card's own or a granted
  encore, ``state.encores[i]``) / ``("skip",)``;
- ``discard``: ``("discard", code)`` at the end-of-turn hand limit.
"""
from __future__ import annotations

from collections.abc import Generator, Mapping
from functools import lru_cache
from typing import Any, ClassVar

from rules.cards import CardRecord
from rules.engine._zones import DeckCache, distinct_codes, shuffle, take
from rules.engine.core import Deck, gettext_noop
from rules.engine.goldfish import CodeNames, GoldfishState

from .abilities import CardPrograms, Program, card_programs
from .effects import AbilityRuntime, Ctx
from .events import GAME

OPENING_HAND = 5
HAND_LIMIT = 7
ENCORE_COST = 3
SLOTS = ("front-left", "front-center", "front-right", "back-left", "back-right")
FRONT = (0, 1, 2)
STAND, REST, REVERSED = 0, 1, 2
NO_LIMIT = 99

DUMMY_CLIMAX = CardRecord(game=GAME, code="DUMMY-CX", name="dummy climax", card_type="climax")
DUMMY_CARD = CardRecord(game=GAME, code="DUMMY-CH", name="dummy character", card_type="character",
                        level=0, cost=0, power=0, soul=0)
_MISSING = object()
_TRIGGER_KEYS = {t: "trigger_" + t for t in ("soul", "draw", "pool", "comeback", "return", "treasure", "shot", "gate",
                                             "choice", "standby")}


def char_score(card: CardRecord) -> tuple:
    """How good a character is on the stage: soul, level, power, cheapness."""
    return (card.soul or 0, card.level or 0, card.power or 0, -(card.cost or 0))


def pilot_view(card: CardRecord, special: bool) -> tuple:
    """What the greedy pilot reads of a character: (record, level, cost, colors, rank, special);
    rank orders like ``char_score`` (soul, level, power, cheaper) as one integer."""
    soul, level, power, cheap = char_score(card)
    rank = ((soul * 100 + level) * 1_000_000 + max(0, min(power, 999_999))) * 100 + (cheap + 50)
    return (card, card.level or 0, card.cost or 0, card.colors, rank, special)


def climax_bonus(card: CardRecord) -> tuple[int, int]:
    """``(power, soul)`` a climax gives all your characters while it is in the climax zone: its
    compiled "all your characters" ability when it has one, else its structured ``climax_bonus``
    effects."""
    progs = card_programs(card) if card.card_type == "climax" else None
    if progs is not None and progs.get("climax_cont"):
        power = soul = 0
        for prog in progs.get("climax_cont"):
            if AbilityRuntime._global_climax(prog) or (prog.target is None and not prog.conds):
                power += prog.power
                soul += prog.soul
        return power, soul
    power = soul = 0
    for eff in card.effects:
        if eff.get("kind") == "climax_bonus":
            power += int(eff.get("power", 0) or 0)
            soul += int(eff.get("soul", 0) or 0)
    return power, soul


@lru_cache(maxsize=64)
def _dummy_options(n_cx: Any, pressure: Any, attacks: Any, soul: Any) -> tuple[int, bool, int, int]:
    """The goldfish's options, checked: (climaxes, pressure on, attacks, soul)."""
    n_cx = int(n_cx)
    if not 0 <= n_cx <= 50:
        raise ValueError(f"dummy_climaxes must be between 0 and 50 (got {n_cx})")
    word = str(pressure).lower()
    if word not in ("on", "off", "true", "false", "1", "0", "yes", "no"):
        raise ValueError(f"dummy_pressure must be on or off (got {pressure!r})")
    attacks, soul = int(attacks), int(soul)
    if not 0 <= attacks <= 10 or not 0 <= soul <= 10:
        raise ValueError("dummy_attacks and dummy_soul must be between 0 and 10")
    return n_cx, word in ("on", "true", "1", "yes") and attacks > 0, attacks, soul


def _deck_info(deck: Deck) -> dict[str, Any]:
    """Per-deck precomputation: names, climax bonuses, pilot values and each card's played
    abilities (``card_programs``) by code."""
    names: dict[str, str] = {DUMMY_CLIMAX.code: DUMMY_CLIMAX.name, DUMMY_CARD.code: DUMMY_CARD.name}
    bonus: dict[str, tuple[int, int]] = {}
    progs: dict[str, CardPrograms | None] = {}
    hooks: dict[str, bool] = {}
    codes_by_hook: dict[str, set[str]] = {}  # hook or flag -> the codes with a program for it
    cont_soul: set[str] = set()
    special: set[str] = set()  # cards whose playability depends on abilities (hand level, requirement)
    for c in deck.main:
        names[c.code] = c.name
        if c.code not in progs:
            p = progs[c.code] = card_programs(c)
            if p is not None:
                for hook, items in p.by_hook.items():
                    hooks[hook] = True
                    codes_by_hook.setdefault(hook, set()).add(c.code)
                    for prog in items:
                        if prog.where == "memory":
                            hooks["memory"] = True
                        if hook == "cont" and prog.soul or hook == "climax_cont" and prog.soul and not (
                                AbilityRuntime._global_climax(prog) or prog.target is None and not prog.conds):
                            cont_soul.add(c.code)  # (a climax's all-characters soul is the turn's bonus)
                        if hook == "cont" and prog.arg:
                            for flag in ("no_attack", "no_stand", "no_climax"):
                                if prog.arg.get(flag):
                                    hooks[flag] = True
                                    codes_by_hook.setdefault(flag, set()).add(c.code)
                        if hook.startswith("opp:"):
                            hooks["opp"] = True
                if p.hand_level or p.play_req:
                    special.add(c.code)
                if p.encore:
                    hooks["encore"] = True
        if c.card_type == "climax":
            bonus[c.code] = climax_bonus(c)
    # the greedy pilot's static wish to keep a card (see GreedyPilot.worst_card)
    values = {c.code: (-1.0 if c.card_type == "climax" else 0.5 if c.card_type == "event"
                       else 10.0 + (c.soul or 0) * 3 + (c.power or 0) / 5000) for c in deck.main}
    for c in deck.main:
        p = progs.get(c.code)
        if c.card_type == "event" and p is not None and p.get("event"):
            values[c.code] = 4.0 + sum(max(0.0, prog.gain) for prog in p.get("event"))
    scores = {c.code: char_score(c) for c in deck.main if c.card_type == "character"}
    # the pilot's view of each code: (record, level, cost, colors, score, special) for characters, else None
    pinfo: dict[str, tuple | None] = {
        c.code: pilot_view(c, c.code in special) if c.card_type == "character" else None for c in deck.main}
    hook_set = frozenset(k for k, v in hooks.items() if v)
    return {"names": names, "bonus": bonus, "values": values, "scores": scores, "progs": progs,
            "hooks": hook_set, "opp_steps": bool({"opp", "taken_cancelled", "taken_not_cancelled"} & hook_set),
            "cont_soul": frozenset(cont_soul), "special": frozenset(special),
            "checked": frozenset(special) | {c.code for c in deck.main if c.card_type == "climax" or (
                c.counter and c.card_type == "event")},
            "codes_by_hook": {k: frozenset(v) for k, v in codes_by_hook.items()}, "pinfo": pinfo}


_INFO = DeckCache(_deck_info)


class WSState(AbilityRuntime, CodeNames, GoldfishState):
    """One goldfish game of Weiß Schwarz. Zones are public attributes so tests can set them up."""

    GAME = GAME
    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {"first": "random", "dummy_climaxes": 8, "dummy_pressure": "on",
                                                 "dummy_attacks": 3, "dummy_soul": 2}
    COUNTERS = (
        "games", "went_first", "attacks", "attack_soul", "damage_events", "damage_dealt", "cancels", "shots",
        "shot_damage", "refreshes", "refresh_damage", "opp_refreshes", "opp_refresh_damage", "clocked",
        "level_ups", "characters_played", "events_played", "climaxes_placed", "encores", "mulligan_cards",
        "first_games", "second_games", "first_wins", "second_wins", "first_win_turns", "second_win_turns",
        "opp_attacks", "damage_taken", "damage_taken_events", "damage_taken_cancels",
        "abilities", "activations", "burns", "burn_damage", "burn_cancels", "healed", "searched", "brainstorms",
        "shifts",
    ) + tuple(f"trigger_{t}" for t in ("soul", "draw", "pool", "comeback", "return", "treasure", "shot",
                                       "gate", "choice", "standby"))
    PER_TURN = {"damage": "damage_dealt"}

    # Bookkeeping read far more often than written starts as class attributes (no per-game cost):
    # a game assigns its own the first time it changes them.
    attacking: int | None = None
    paying: tuple[Program, Ctx] | None = None  # the ability whose cost the pilot decides
    encores: list[Program] = []  # noqa: RUF012 - the encore costs offered (decision ``encore``), replaced
    encore_ctx: Ctx | None = None
    delayed: list[tuple[str, Any, Ctx]] = []  # noqa: RUF012 - effects waiting for a later step, replaced
    omemory: list[CardRecord] = []  # noqa: RUF012 - the goldfish's cards removed from the game, replaced
    granted: list[tuple] = []  # noqa: RUF012 - encores given this turn: (card, slot, costs), replaced
    _colors: set[str] = set()  # noqa: RUF012

    def _new_game(self, deck: Deck, opts: Mapping[str, Any]) -> None:
        info = _INFO.get(deck)
        self.names: dict[str, str] = info["names"]
        self.bonus: dict[str, tuple[int, int]] = info["bonus"]
        self.values: dict[str, float] = info["values"]
        self.scores: dict[str, tuple] = info["scores"]
        self.progs: dict[str, CardPrograms | None] = info["progs"]
        self.hooks: frozenset[str] = info["hooks"]  # the hooks some card of the deck has a program for
        self.cont_soul_codes: frozenset[str] = info["cont_soul"]
        self.special_codes: frozenset[str] = info["special"]
        self.checked_codes: frozenset[str] = info["checked"]
        self.codes_by_hook: dict[str, frozenset[str]] = info["codes_by_hook"]
        self.pinfo: dict[str, tuple | None] = info["pinfo"]
        n_cx, self.pressure, self.dummy_attacks, self.dummy_soul = _dummy_options(
            opts.get("dummy_climaxes", 8), opts.get("dummy_pressure", "on"), opts.get("dummy_attacks", 3),
            opts.get("dummy_soul", 2))
        # the player's zones
        self.clock: list[CardRecord] = []
        self.level: list[CardRecord] = []
        self.stock: list[CardRecord] = []
        self.waiting: list[CardRecord] = []
        self.memory: list[CardRecord] = []
        self.stage: list[CardRecord | None] = [None] * 5
        self.stage_state: list[int] = [STAND] * 5
        self.entered: list[bool] = [False] * 5
        self.slot_soul: list[int] = [0] * 5  # soul given until the end of the turn, per slot
        self.revealed: list[CardRecord] = []  # the player's damage being revealed
        # the goldfish's zones
        self.odeck: list[CardRecord] = [DUMMY_CLIMAX] * n_cx + [DUMMY_CARD] * (50 - n_cx)
        self.ohand: list[CardRecord] = []
        self.oclock: list[CardRecord] = []
        self.olevel: list[CardRecord] = []
        self.owaiting: list[CardRecord] = []
        self.orevealed: list[CardRecord] = []  # damage being revealed
        self.used: dict[tuple, int] = {}  # uses of limited abilities this turn
        # bookkeeping read on every step (instance attributes: a class attribute is slower to read)
        self.climax: CardRecord | None = None
        self.oturn = 0
        self.attacks_left = 0
        self.soul_bonus = 0
        self.power_bonus = 0
        self.pen_me = 0
        self.pen_opp = 0
        self._opp_active = False
        self.cmods = 0  # changes of the clock other than appends and top removals (colors cache)
        self._ckey: tuple | None = None
        # the goldfish's turn runs as a generator from its start only when the player's abilities
        # trigger during it (otherwise only from its first hit that asks a decision)
        self._opp_steps = info["opp_steps"]

    # -- helpers -------------------------------------------------------------------------------
    def progs_of(self, card: CardRecord) -> CardPrograms | None:
        p = self.progs.get(card.code, _MISSING)
        if p is _MISSING:
            return card_programs(card)
        return p  # type: ignore[return-value]

    def has_program(self, hook: str, card: CardRecord) -> bool:
        """Whether ``card`` may have a program for ``hook`` (a card from outside the deck, in
        scenario tests, is looked up)."""
        code = card.code
        return code in self.codes_by_hook.get(hook, ()) or code not in self.progs

    def bonus_of(self, card: CardRecord) -> tuple[int, int]:
        b = self.bonus.get(card.code)
        return climax_bonus(card) if b is None else b

    def say(self, player: str, kind: str, code: str, /, **params: Any) -> None:
        """Log event ``ws.<code>``, numbered with the own-turn number of whoever's turn it is."""
        self.log.add(self.oturn if self._opp_active else self.turn, player, kind,  # type: ignore[union-attr]
                     "ws." + code, **params)

    def my_level(self) -> int:
        return len(self.level)

    def colors_available(self) -> set[str]:
        """The colors of the clock and level cards (what a level 1+ card or a climax needs).
        Memoised: appends and top removals change the lengths or the top card, and the other
        changes of the clock bump ``cmods`` (a new top card that is the same record as the old
        one has its colors)."""
        clock = self.clock
        key = (len(clock), len(self.level), self.cmods, clock[-1] if clock else None)
        if key == self._ckey:
            return self._colors
        out = {col for zone in (clock, self.level) for c in zone for col in c.colors}
        self._ckey = key
        self._colors = out
        return out

    def play_level(self, card: CardRecord) -> int:
        """The card's level in hand: printed, changed by its own 【永】 abilities (``レベルを-1``)."""
        lv = card.level or 0
        if card.code in self.special_codes:
            p = self.progs_of(card)
            if p is not None:
                ctx = Ctx(card)
                for prog in p.hand_level:
                    if all(c(self, ctx) for c in prog.conds):
                        lv += prog.arg["level"]
        return lv

    def can_play(self, card: CardRecord, colors: set[str] | None = None) -> bool:
        """Level, stock cost, color requirement (level-0 cards ignore color) and the card's own
        play requirement; counter events are never played in the main phase."""
        if card.card_type == "climax":
            return self._color_ok(card, colors)
        if card.code not in self.checked_codes and not card.counter:  # the common case
            lv = card.level or 0
            if lv > len(self.level) or (card.cost or 0) > len(self.stock):
                return False
            return lv <= 0 or self._color_ok(card, colors)
        if card.counter and card.card_type == "event":
            return False
        lv = self.play_level(card) if card.code in self.special_codes else (card.level or 0)
        if lv > len(self.level) or (card.cost or 0) > len(self.stock):
            return False
        if card.code in self.special_codes:
            p = self.progs_of(card)
            if p is not None and p.play_req:
                ctx = Ctx(card)
                if not all(c(self, ctx) for c in p.play_req):
                    return False
        return lv <= 0 or self._color_ok(card, colors)

    def _color_ok(self, card: CardRecord, colors: set[str] | None) -> bool:
        if not card.colors:
            return True
        have = self.colors_available() if colors is None else colors
        for col in card.colors:
            if col in have:
                return True
        return False

    def soul_of(self, slot: int) -> int:
        card = self.stage[slot]
        if card is None:
            return 0
        soul = (card.soul or 0) + self.soul_bonus + self.slot_soul[slot]
        if self.cont_soul_codes:
            soul += self.cont_soul(slot)
        return soul

    def power_of(self, slot: int) -> int:
        card = self.stage[slot]
        return (card.power or 0) + self.power_bonus if card is not None else 0

    def card_zones(self) -> dict[str, list[CardRecord]]:
        return {"deck": self.deck, "hand": self.hand, "clock": self.clock, "level": self.level,
                "stock": self.stock, "waiting": self.waiting, "memory": self.memory,
                "climax": [] if self.climax is None else [self.climax],
                "resolving": self.resolving + self._aside + self.revealed,
                "stage": [c for c in self.stage if c is not None]}

    def goldfish_zones(self) -> dict[str, list[CardRecord]]:
        """The goldfish's cards (its 50-card dummy deck), wherever they are."""
        return {"deck": self.odeck, "hand": self.ohand, "clock": self.oclock, "level": self.olevel,
                "waiting": self.owaiting, "revealed": self.orevealed, "memory": self.omemory}

    # -- decks and refreshes -------------------------------------------------------------------
    def _refill(self) -> None:
        """The player's refresh: the waiting room becomes the deck (1 refresh damage follows)."""
        if not self.waiting:
            self._end("loss", gettext_noop("refresh with an empty waiting room"))
        deck = self.waiting
        self.waiting = []
        shuffle(self.rng, deck)
        self.deck = deck
        self.pen_me += 1
        self.counters["refreshes"] += 1
        if self.log is not None:
            self.say("me", "refresh", "refresh", count=len(deck))

    def _refresh_opp(self) -> None:
        if not self.owaiting:
            self._end("win", gettext_noop("the goldfish must refresh with an empty waiting room"))
        deck = self.owaiting
        self.owaiting = []
        shuffle(self.rng, deck)
        self.odeck = deck
        self.pen_opp += 1
        self.counters["opp_refreshes"] += 1
        if self.log is not None:
            self.say("opp", "refresh", "refresh", count=len(deck))

    def _draw(self, n: int, why: str = "draw") -> None:
        deck = self.deck
        hand = self.hand
        for _ in range(n):
            card = deck.pop()
            if not deck:
                hand.append(card)
                self._refill()
                deck = self.deck
            else:
                hand.append(card)
            if self.log is not None:
                self.say("me", "draw", "draw", why=why, card=self.name(card.code))

    def _otop(self) -> CardRecord:
        card = self.odeck.pop()
        if not self.odeck:
            self.orevealed.append(card)
            self._refresh_opp()
            self.orevealed.pop()
        return card

    # -- clock and level -----------------------------------------------------------------------
    def _level_up_me(self) -> Generator[str, tuple, None]:
        while len(self.clock) >= 7:
            seven = self.clock[:7]
            rest = self.clock[7:]
            if len(distinct_codes(seven)) > 1:
                _, code = yield "level_up"
            else:
                code = seven[0].code
            chosen = take(seven, code)
            self.level.append(chosen)
            self.waiting.extend(seven)
            self.clock = rest
            self.counters["level_ups"] += 1
            if self.log is not None:
                self.say("me", "level up", "level_up", card=self.name(code), level=len(self.level))
            if len(self.level) >= 4:
                self._end("loss", gettext_noop("reached level 4"))
            if "level_up" in self.hooks:
                yield from self.fire_stage("level_up")
            if "to_level" in self.hooks:
                yield from self.fire_stage("to_level", chosen)

    def _level_up_opp(self) -> None:
        while len(self.oclock) >= 7:
            seven = self.oclock[:7]
            self.oclock = self.oclock[7:]
            # Decision: the goldfish levels up with its oldest non-climax card (keeping climaxes in
            # the cycle, as a defending player would), else its oldest card.
            pick = 0
            for i, c in enumerate(seven):
                if c.card_type != "climax":
                    pick = i
                    break
            self.olevel.append(seven.pop(pick))
            self.owaiting.extend(seven)
            if self.log is not None:
                self.say("opp", "level up", "opp_level_up", level=len(self.olevel))
            if len(self.olevel) >= 4:
                self._end("win", gettext_noop("the goldfish reached level 4"))

    def _settle(self) -> Generator[str, tuple, None]:
        """Apply pending refresh damage (never cancelled) for both players, then level-ups."""
        while self.pen_opp:
            self.pen_opp -= 1
            card = self._otop()
            self.oclock.append(card)
            self.counters["opp_refresh_damage"] += 1
            if self.log is not None:
                self.say("opp", "damage", "refresh_damage", card=card.name)
            self._level_up_opp()
        while self.pen_me:
            self.pen_me -= 1
            card = self._top()
            self.clock.append(card)
            self.counters["refresh_damage"] += 1
            if self.log is not None:
                self.say("me", "damage", "refresh_damage", card=self.name(card.code))
            yield from self._level_up_me()
            if "refresh" in self.hooks:
                yield from self.fire_stage("refresh")

    # -- the game ------------------------------------------------------------------------------
    def _setup(self) -> Generator[str, tuple, None]:
        rng = self.rng
        shuffle(rng, self.deck)
        shuffle(rng, self.odeck)
        log = self.log
        if log is not None:
            self.say("me", "setup", "setup", order="first" if self.went_first else "second")
        self._draw(OPENING_HAND, "opening hand")
        for _ in range(OPENING_HAND):
            self.ohand.append(self._otop())
        if self.pen_me or self.pen_opp:
            yield from self._settle()
        # mulligan: set aside any number, then discard them and draw that many
        yield from self._set_aside()
        if self._aside:
            n = len(self._aside)
            if log is not None:
                self.say("me", "mulligan", "mulligan", cards=", ".join(self.name(c.code) for c in self._aside))
            self.waiting.extend(self._aside)
            self._aside = []
            self._draw(n, "mulligan")
            self.counters["mulligan_cards"] += n
            if self.pen_me or self.pen_opp:
                yield from self._settle()

    def _opp_turn(self, first: bool = False) -> Generator[str, tuple, None] | None:
        """The goldfish's turn: it draws 1 (refresh damage during its own draw), attacks when
        ``dummy_pressure`` is on (1 attack on the first player's first turn, else
        ``dummy_attacks``), then discards down to 7. A plain method unless it asks decisions
        (its attacks, or the player's abilities that trigger on the goldfish's turn)."""
        self.oturn += 1
        self._opp_active = True
        if self.used:
            self.used.clear()
        if self._opp_steps:
            return self._opp_phases(first)
        # (the goldfish's draw, inline: this runs every turn)
        odeck = self.odeck
        if len(odeck) > 1:
            self.ohand.append(odeck.pop())
        else:
            self.ohand.append(self._otop())
        if self.log is not None:
            self.say("opp", "draw", "opp_draw", hand=len(self.ohand), deck=len(self.odeck))
        if self.pen_opp:
            self._opp_refresh_damage()
        if self.pressure:
            # the goldfish's attacks without a generator until one asks a decision (a level-up,
            # refresh damage): the rest of the turn then continues as one
            c = self.counters
            soul = self.dummy_soul
            n = 1 if first else self.dummy_attacks
            for i in range(n):
                c["opp_attacks"] += 1
                self._hit_me(soul, "attack")
                if len(self.clock) >= 7 or self.pen_me or self.pen_opp:
                    return self._opp_attacks_after(n - i - 1)
        if len(self.ohand) > HAND_LIMIT:
            self._opp_end()
        else:
            self._opp_active = False
        return None

    def _opp_attacks_after(self, left: int) -> Generator[str, tuple, None]:
        """The rest of the goldfish's turn after a hit that asks decisions: its level-ups and
        refresh damage, then the ``left`` attacks still to come."""
        if len(self.clock) >= 7:
            yield from self._level_up_me()
        if self.pen_me or self.pen_opp:
            yield from self._settle()
        c = self.counters
        for _ in range(left):
            c["opp_attacks"] += 1
            self._hit_me(self.dummy_soul, "attack")
            if len(self.clock) >= 7:
                yield from self._level_up_me()
            if self.pen_me or self.pen_opp:
                yield from self._settle()
        self._opp_end()

    def _opp_phases(self, first: bool) -> Generator[str, tuple, None]:
        hooks = self.hooks
        if "opp:start:draw_phase" in hooks:
            yield from self.fire_stage("opp:start:draw_phase")
        self._opp_draw()
        if self.pen_me:
            yield from self._settle()
        if hooks:
            if "opp:start:climax_phase" in hooks:
                yield from self.fire_stage("opp:start:climax_phase")
            if "opp:start:attack_phase" in hooks:
                yield from self.fire_stage("opp:start:attack_phase")
        if self.pressure:
            c = self.counters
            soul = self.dummy_soul
            taken = "taken_cancelled" in hooks or "taken_not_cancelled" in hooks
            for _ in range(1 if first else self.dummy_attacks):
                c["opp_attacks"] += 1
                cancelled = self._hit_me(soul, "attack")
                if len(self.clock) >= 7:
                    yield from self._level_up_me()
                if self.pen_me or self.pen_opp:
                    yield from self._settle()
                if taken:
                    yield from self.fire_stage("taken_cancelled" if cancelled else "taken_not_cancelled")
        if hooks:
            if "opp:start:encore_step" in hooks:
                yield from self.fire_stage("opp:start:encore_step")
            if "opp:end:turn" in hooks:
                yield from self.fire_stage("opp:end:turn")
        self._opp_end()

    def _opp_draw(self) -> None:
        card = self._otop()
        self.ohand.append(card)
        if self.log is not None:
            self.say("opp", "draw", "opp_draw", hand=len(self.ohand), deck=len(self.odeck))
        self._opp_refresh_damage()

    def _opp_refresh_damage(self) -> None:
        while self.pen_opp:  # refresh damage during its own draw
            self.pen_opp -= 1
            self.oclock.append(self._otop())
            self.counters["opp_refresh_damage"] += 1
            if self.log is not None:
                self.say("opp", "damage", "opp_refresh_damage")
            self._level_up_opp()

    def _opp_end(self) -> None:
        # Decision: the goldfish discards its earliest-drawn cards down to 7.
        if len(self.ohand) <= HAND_LIMIT:
            self._opp_active = False
            return
        while len(self.ohand) > HAND_LIMIT:
            self.owaiting.append(self.ohand.pop(0))
            if self.log is not None:
                self.say("opp", "discard", "opp_discard")
        self._opp_active = False

    def _hit_me(self, amount: int, what: str = "attack") -> bool:
        """The player's damage step (its cards only; the caller levels up and settles): reveal
        ``amount`` cards from the deck one at a time; a climax cancels (every revealed card to the
        waiting room), else they all go to the clock. True when cancelled."""
        c = self.counters
        c["damage_taken_events"] += 1
        deck = self.deck
        if len(deck) > amount > 0:
            # fast path: the deck does not empty (see _damage)
            for k in range(1, amount + 1):
                if deck[-k].card_type == "climax":
                    self.waiting.extend(deck[-1:-k - 1:-1])
                    del deck[-k:]
                    if self.log is not None:
                        self.say("opp", "cancel", "cancel_taken", what=what, amount=amount, count=k)
                    c["damage_taken_cancels"] += 1
                    return True
            self.clock.extend(deck[-1:-amount - 1:-1])
            del deck[-amount:]
            c["damage_taken"] += amount
            if self.log is not None:
                self.say("opp", "damage", "damage_taken", what=what, amount=amount, clock=len(self.clock),
                         level=len(self.level))
            return False
        revealed = self.revealed
        for _ in range(amount):
            card = deck.pop()
            revealed.append(card)  # out of the deck and the waiting room while revealed
            if not deck:
                self._refill()
                deck = self.deck
            if card.card_type == "climax":
                self.waiting.extend(revealed)
                if self.log is not None:
                    self.say("opp", "cancel", "cancel_taken", what=what, amount=amount, count=len(revealed))
                revealed.clear()
                c["damage_taken_cancels"] += 1
                return True
        self.clock.extend(revealed)
        c["damage_taken"] += amount
        revealed.clear()
        if self.log is not None:
            self.say("opp", "damage", "damage_taken", what=what, amount=amount, clock=len(self.clock),
                     level=len(self.level))
        return False

    def _take_damage(self, amount: int, what: str = "attack") -> Generator[str, tuple, None]:
        """The player's damage step with its level-ups, refresh damage and triggered abilities."""
        if amount <= 0:
            return
        cancelled = self._hit_me(amount, what)
        if len(self.clock) >= 7:
            yield from self._level_up_me()
        if self.pen_me or self.pen_opp:
            yield from self._settle()
        hook = "taken_cancelled" if cancelled else "taken_not_cancelled"
        if hook in self.hooks:
            yield from self.fire_stage(hook)

    def _my_turn(self) -> Generator[str, tuple, None]:
        turn = self._new_turn()
        log = self.log
        hooks = self.hooks
        if self.used:
            self.used.clear()
        # 1. stand
        stage = self.stage
        if hooks and "no_stand" in hooks:
            keep = [s for s in range(5) if stage[s] is not None and self.restricted(s, "no_stand")]
            self.stage_state[:] = [self.stage_state[s] if s in keep else STAND for s in range(5)]
        else:
            self.stage_state[:] = (STAND,) * 5
        self.entered[:] = (False,) * 5
        # 2. draw
        if log is not None:
            self.say("me", "turn", "turn", turn=turn, level=len(self.level), clock=len(self.clock),
                     stock=len(self.stock), hand=len(self.hand), deck=len(self.deck))
        if hooks:
            if "start:draw_phase" in hooks:
                yield from self.fire_stage("start:draw_phase")
            if self.delayed:
                yield from self.run_delayed("start:draw_phase")
        self._draw(1)
        if self.pen_me or self.pen_opp:
            yield from self._settle()
        # 3. clock
        if self.hand:
            choice = yield "clock"
            if choice[0] == "clock":
                card = take(self.hand, choice[1])
                self.clock.append(card)
                self.counters["clocked"] += 1
                if log is not None:
                    self.say("me", "clock", "clock", card=self.name(card.code))
                if hooks and "clocked" in hooks:
                    yield from self.fire_stage("clocked", card)
                if len(self.clock) >= 7:
                    yield from self._level_up_me()
                self._draw(2, "clock draw")
                if self.pen_me or self.pen_opp:
                    yield from self._settle()
        # 4. main
        if hooks:
            if "shift" in hooks:
                self.shift()
            if "start:main_phase" in hooks:
                yield from self.fire_stage("start:main_phase")
        self._note_playable(turn)
        while True:
            choice = yield "main"
            kind = choice[0]
            if kind == "end":
                break
            if kind == "play":
                yield from self._play_character(choice[1], choice[2])
            elif kind == "event":
                yield from self._play_event(choice[1])
            elif kind == "act":
                yield from self._activate(choice[1], choice[2])
            elif kind == "move":
                a, b = choice[1], choice[2]
                if not (0 <= a < 5 and 0 <= b < 5) or a == b or (stage[a] is None and stage[b] is None):
                    raise ValueError(f"cannot move {a} <-> {b}")
                stage[a], stage[b] = stage[b], stage[a]
                st = self.stage_state
                st[a], st[b] = st[b], st[a]
                en = self.entered
                en[a], en[b] = en[b], en[a]
                ss = self.slot_soul
                ss[a], ss[b] = ss[b], ss[a]
                if log is not None:
                    self.say("me", "move", "move", slot=SLOTS[a], slot2=SLOTS[b])
            else:
                raise ValueError(f"unknown main-phase action {choice!r}")
        # 5. climax
        if hooks and "start:climax_phase" in hooks:
            yield from self.fire_stage("start:climax_phase")
        placeable = False
        colors = None
        fp = self.first_playable
        for c in self.hand:
            if c.card_type == "climax":
                if c.colors:
                    if colors is None:
                        colors = self.colors_available()
                    if not any(col in colors for col in c.colors):
                        continue
                placeable = True
                if c.code not in fp:
                    fp[c.code] = turn
        if placeable and not (hooks and "no_climax" in hooks and any(
                stage[s] is not None and self.restricted(s, "no_climax") for s in range(5))):
            choice = yield "climax"
            if choice[0] == "place":
                card = take(self.hand, choice[1])
                if not self._color_ok(card, None):
                    self.hand.append(card)
                    raise ValueError(f"{card.code} cannot be placed now (color)")
                self.climax = card
                self.power_bonus, self.soul_bonus = self.bonus_of(card)
                self.counters["climaxes_placed"] += 1
                if log is not None:
                    self.say("me", "climax", "climax", card=self.name(card.code), power=self.power_bonus,
                             soul=self.soul_bonus)
                if hooks:
                    if "climax" in hooks:
                        yield from self.fire("climax", card)
                    if "cx_placed" in hooks:
                        yield from self.fire_stage("cx_placed", card)
        # 6. attack
        if hooks and "start:attack_phase" in hooks:
            yield from self.fire_stage("start:attack_phase")
        self.attacks_left = 1 if (turn == 1 and self.went_first) else NO_LIMIT
        while self.attacks_left > 0 and self._has_attacker():
            choice = yield "attack"
            if choice[0] == "end":
                break
            yield from self._attack(choice[1])
        # encore step: the turn player's reversed characters, then the goldfish's (it has none)
        if hooks:
            if "start:encore_step" in hooks:
                yield from self.fire_stage("start:encore_step")
            if self.delayed:
                yield from self.run_delayed("start:encore_step")
        if REVERSED in self.stage_state:
            for s in range(5):
                if stage[s] is not None and self.stage_state[s] == REVERSED:
                    yield from self._leave_stage(s, "reversed")
        # 7. end
        if hooks:
            if "end:turn" in hooks:
                yield from self.fire_stage("end:turn")
            if self.delayed:
                yield from self.run_delayed("end:turn")
        if self.climax is not None:
            self.waiting.append(self.climax)
            if log is not None:
                self.say("me", "end", "climax_end", card=self.name(self.climax.code))
            self.climax = None
        self.power_bonus = self.soul_bonus = 0
        if hooks:
            self.slot_soul[:] = (0,) * 5
            if self.granted:
                self.granted = []
        while len(self.hand) > HAND_LIMIT:
            _, code = yield "discard"
            self._discard(code, self.waiting)

    def _note_playable(self, turn: int) -> None:
        """Record the first own turn each hand card could be played (level, stock, color)."""
        fp = self.first_playable
        lv = len(self.level)
        stock = len(self.stock)
        colors = None
        checked = self.checked_codes  # climaxes, counter events, cards whose abilities decide
        for c in self.hand:
            code = c.code
            if code in fp:
                continue
            if code in checked or c.card_type == "climax" or c.counter and c.card_type == "event":
                if c.card_type != "climax" and self.can_play(c):
                    fp[code] = turn
                continue
                continue
            level = c.level or 0
            if level > lv or (c.cost or 0) > stock:
                continue
            if level and c.colors:
                if colors is None:
                    colors = self.colors_available()
                if not any(col in colors for col in c.colors):
                    continue
            fp[code] = turn

    def _has_attacker(self) -> bool:
        stage = self.stage
        st = self.stage_state
        if self.hooks and "no_attack" in self.hooks:
            flagged = self.codes_by_hook["no_attack"]
            for s in FRONT:
                c = stage[s]
                if c is not None and st[s] == STAND and (c.code not in flagged or not self.restricted(s, "no_attack")):
                    return True
            return False
        return ((stage[0] is not None and st[0] == STAND) or (stage[1] is not None and st[1] == STAND)
                or (stage[2] is not None and st[2] == STAND))

    def _attackers(self) -> list[int]:
        stage = self.stage
        out = [s for s in FRONT if stage[s] is not None and self.stage_state[s] == STAND]
        if out and "no_attack" in self.hooks:
            flagged = self.codes_by_hook["no_attack"]
            out = [s for s in out if stage[s].code not in flagged  # type: ignore[union-attr]
                   or not self.restricted(s, "no_attack")]
        return out

    def _pay(self, n: int) -> None:
        if n > len(self.stock):
            raise ValueError(f"cannot pay {n} stock with {len(self.stock)}")
        for _ in range(n):
            self.waiting.append(self.stock.pop())  # stock is paid from the top

    def _take_playable(self, code: str, card_type: str) -> CardRecord:
        """The first copy of ``code`` in hand that can be played now (copies of one code are one
        card in real data; test decks may differ)."""
        hand = self.hand
        for i, c in enumerate(hand):
            if c.code == code and c.card_type == card_type and self.can_play(c):
                return hand.pop(i)
        raise ValueError(f"{code} cannot be played now (level, cost, color, or a counter)")

    def _play_character(self, code: str, slot: int) -> Generator[str, tuple, None]:
        if not 0 <= slot < 5:
            raise ValueError(f"no slot {slot}")
        card = self._take_playable(code, "character")
        self._pay(card.cost or 0)
        self.counters["characters_played"] += 1
        if self.log is not None:
            self.say("me", "play", "play", card=self.name(code), slot=SLOTS[slot], level=card.level, cost=card.cost)
        if self.stage[slot] is not None:
            self.resolving.append(card)  # in transit while the replaced character leaves
            yield from self._leave_stage(slot, "replaced", occupied_after=True)
            self.resolving.remove(card)
        self.stage[slot] = card
        self.stage_state[slot] = STAND
        self.entered[slot] = True
        self.slot_soul[slot] = 0
        if self.hooks and self.has_program("placed", card):
            yield from self.fire("placed", card, slot, how="hand")
        if self.hooks and "other_placed" in self.hooks:
            yield from self.fire_stage("other_placed", card, slot, how="hand")

    def _play_event(self, code: str) -> Generator[str, tuple, None]:
        """Play an event: level, color, cost and its play requirement are checked like a
        character's (a counter event is never played in the main phase); its played abilities
        resolve; then it goes to the waiting room unless an effect moved it."""
        card = self._take_playable(code, "event")
        self._pay(card.cost or 0)
        self.counters["events_played"] += 1
        self.resolving.append(card)
        progs = self.progs_of(card)
        events = progs.get("event") if progs is not None else ()
        if self.log is not None:
            self.say("me", "play", "event_played" if events else "event", card=self.name(code))
        for prog in events:
            ctx = Ctx(card, None, prog.needs_optional)
            yield from self.run_program(prog, ctx)
        if any(c is card for c in self.resolving):
            self.resolving.remove(card)
            self.waiting.append(card)
        if "event_played" in self.hooks:
            yield from self.fire_stage("event_played", card)

    def options_act(self) -> list[tuple]:
        """The 【起】 abilities usable now: ``("act", slot, index)``."""
        out: list[tuple] = []
        if "act" not in self.hooks:
            return out
        for s in range(5):
            card = self.stage[s]
            if card is None:
                continue
            progs = self.progs_of(card)
            if progs is None:
                continue
            for i, prog in enumerate(progs.get("act")):
                if self.can_activate(prog, s):
                    out.append(("act", s, i))
        return out

    def can_activate(self, prog: Program, slot: int) -> bool:
        card = self.stage[slot]
        ctx = Ctx(card, slot)  # type: ignore[arg-type]
        if prog.limit and self.used.get((prog.code, prog.index, slot), 0) >= prog.limit:
            return False
        if not all(c(self, ctx) for c in prog.conds):
            return False
        return all(c.can(self, ctx) for c in prog.cost)

    def _activate(self, slot: int, index: int) -> Generator[str, tuple, None]:
        card = self.stage[slot] if 0 <= slot < 5 else None
        progs = self.progs_of(card) if card is not None else None
        acts = progs.get("act") if progs is not None else ()
        if not 0 <= index < len(acts) or not self.can_activate(acts[index], slot):
            raise ValueError(f"no usable 【起】 ability {index} on {SLOTS[slot] if 0 <= slot < 5 else slot}")
        prog = acts[index]
        ctx = Ctx(card, slot, prog.needs_optional)  # type: ignore[arg-type]
        self.counters["activations"] += 1  # (run_program pays an activated ability's cost)
        yield from self.run_program(prog, ctx)
        if "act_used" in self.hooks:
            yield from self.fire_stage("act_used")
        if "brainstorm_used" in self.hooks and "brainstorm" in prog.kinds:
            yield from self.fire_stage("brainstorm_used")

    def _leave_stage(self, slot: int, why: str, occupied_after: bool = False) -> Generator[str, tuple, None]:
        """A character goes from the stage to the waiting room; an encore — the default Encore
        [3 stock], its own 【自】アンコール or one a 【永】 ability gives it — may bring it back rested
        to the slot it left. Decision: a replaced character cannot encore (its slot is taken by the
        new character)."""
        card = self.stage[slot]
        self.stage[slot] = None
        self.stage_state[slot] = STAND
        self.slot_soul[slot] = 0
        self.waiting.append(card)  # type: ignore[arg-type]
        if self.log is not None:
            self.say("me", "waiting", "waiting", card=self.name(card.code), why=why)  # type: ignore[union-attr]
        if "leave" in self.hooks and self.has_program("leave", card):  # type: ignore[arg-type]
            yield from self.fire("leave", card, slot)  # type: ignore[arg-type]
        if occupied_after or self.stage[slot] is not None or not any(c is card for c in self.waiting):
            return
        self.encores = self._encore_costs(card, slot) if (
            "encore" in self.hooks or "cont" in self.hooks or self.granted) else []
        ctx = self.encore_ctx = Ctx(card, slot)  # type: ignore[arg-type]
        payable = [i for i, p in enumerate(self.encores) if all(c.can(self, ctx) for c in p.cost)]
        if len(self.stock) < ENCORE_COST and not payable:
            return
        choice = yield "encore"
        if choice[0] != "encore":
            return
        if len(choice) > 1:
            if choice[1] not in payable:
                raise ValueError(f"encore {choice[1]} cannot be paid")
            for c in self.encores[choice[1]].cost:
                g = c.pay(self, ctx)
                if g is not None:
                    yield from g
        else:
            self._pay(ENCORE_COST)
        if not any(c is card for c in self.waiting) or self.stage[slot] is not None:
            return
        self.waiting.remove(card)  # type: ignore[arg-type]
        self.stage[slot] = card
        self.stage_state[slot] = REST
        self.counters["encores"] += 1
        if self.log is not None:
            self.say("me", "encore", "encore", card=self.name(card.code), slot=SLOTS[slot])  # type: ignore[union-attr]

    def _encore_costs(self, card: CardRecord, slot: int) -> list[Program]:
        """The card's own encore abilities and those 【永】 abilities of the stage (or the clock's
        top card) give it, judged as it was on the stage."""
        out: list[Program] = []
        progs = self.progs_of(card)
        if progs is not None:
            out.extend(progs.encore)
        for c, s, costs in self.granted:
            if c is card and s == slot:
                out.append(Program(card.code, -1, "encore", "", cost=costs))
        self.stage[slot] = card  # look back: conditions read the stage as it was
        try:
            for s in range(5):
                src = self.stage[s]
                p = self.progs_of(src) if src is not None else None
                if p is None:
                    continue
                for prog in p.get("cont"):
                    if self._grants_encore_to(prog, src, s, slot):  # type: ignore[arg-type]
                        out.append(Program(prog.code, prog.index, "encore", prog.text, cost=prog.arg["encore"]))
            if self.clock:
                top = self.clock[-1]
                p = self.progs_of(top)
                if p is not None:
                    for prog in p.get("cont"):
                        if prog.where == "clock_top" and self._grants_encore_to(prog, top, None, slot):
                            out.append(Program(prog.code, prog.index, "encore", prog.text, cost=prog.arg["encore"]))
        finally:
            self.stage[slot] = None
        return out

    def _grants_encore_to(self, prog: Program, src: CardRecord, s: int | None, slot: int) -> bool:
        arg = prog.arg or {}
        target = arg.get("encore_target")
        if arg.get("encore") is None or target is None:
            return False
        ctx = Ctx(src, s)
        if target.ref == "this":
            ok = s == slot
        elif target.zone == "stage":
            ok = slot in target.stage_slots(self, ctx)
        else:
            ok = False
        return ok and all(c(self, ctx) for c in prog.conds)

    def _attack(self, slot: int) -> Generator[str, tuple, None]:
        log = self.log
        c = self.counters
        hooks = self.hooks
        if slot not in FRONT or self.stage[slot] is None or self.stage_state[slot] != STAND or (
                hooks and "no_attack" in hooks and self.restricted(slot, "no_attack")):
            raise ValueError(f"no standing front-row character that can attack in slot {slot}")
        self.attacks_left -= 1
        self.stage_state[slot] = REST
        attacker = self.stage[slot]
        c["attacks"] += 1
        # declare: the goldfish stage is empty, so it is a direct attack (+1 soul)
        if log is not None:
            self.say("me", "attack", "attack", card=self.name(attacker.code), slot=SLOTS[slot],
                     power=self.power_of(slot), soul=self.soul_of(slot))
        if hooks:
            self.attacking = slot
            if "attack" in hooks and self.has_program("attack", attacker):
                yield from self.fire("attack", attacker, slot)
            if "other_attack" in hooks:
                yield from self.fire_stage("other_attack", attacker, slot)
        # trigger step
        icon_soul = 0
        card = self._top()
        self.resolving.append(card)
        shot = False
        to_hand = False
        for icon in card.triggers:
            key = _TRIGGER_KEYS.get(icon) or "trigger_" + icon
            c[key] = c.get(key, 0) + 1
            if icon == "soul":
                icon_soul += 1
            elif icon == "draw":
                if (yield "draw")[0] == "yes":
                    self._draw(1, "draw trigger")
            elif icon == "pool":
                if self.deck and (yield "pool")[0] == "yes":
                    self.stock.append(self._top())
                    if log is not None:
                        self.say("me", "trigger", "pool")
            elif icon == "treasure":
                to_hand = True
                if self.deck and (yield "pool")[0] == "yes":
                    self.stock.append(self._top())
                    if log is not None:
                        self.say("me", "trigger", "treasure")
            elif icon == "shot":
                shot = True
            elif icon != "return":
                yield from self._icon_effect(icon, card)
            # "return" targets an opponent's character: the goldfish stage is empty, nothing happens
        self.resolving.remove(card)
        if to_hand:
            self.hand.append(card)
        else:
            self.stock.append(card)
        if log is not None:
            icons = "+".join(card.triggers) or "no icon"
            self.say("me", "trigger", "trigger_check", card=self.name(card.code), icons=icons,
                     dest="hand" if to_hand else "stock", soul=self.soul_of(slot) + icon_soul + 1)
        if self.pen_me or self.pen_opp:
            yield from self._settle()
        if hooks and card.card_type == "climax" and "trigger_climax" in hooks:
            yield from self.fire_stage("trigger_climax")
        # damage step: the soul as it is now (abilities resolved above may have changed it)
        if hooks:
            soul = (self.soul_of(slot) if self.stage[slot] is attacker else (attacker.soul or 0)) + icon_soul + 1
        else:
            soul = (attacker.soul or 0) + self.soul_bonus + icon_soul + 1
        c["attack_soul"] += soul
        c["damage_events"] += 1
        dealt = self._damage(soul)
        if dealt:
            c["damage_dealt"] += dealt
        else:
            c["cancels"] += 1
            if shot:
                c["shots"] += 1
                d2 = self._damage(1, "shot")
                c["shot_damage"] += d2
                c["damage_dealt"] += d2
            if hooks and "cancelled" in hooks and self.stage[slot] is attacker:
                yield from self.fire("cancelled", attacker, slot, placed_this_turn=self.entered[slot])
        if hooks:
            self.attacking = None
        if self.pen_me or self.pen_opp:
            yield from self._settle()

    def _icon_effect(self, icon: str, card: CardRecord | None) -> Generator[str, tuple, None]:
        """The effect of a trigger icon other than soul, shot and pool (a trigger check or an
        effect that performs it)."""
        log = self.log
        if icon == "draw":
            if (yield "draw")[0] == "yes":
                self._draw(1, "draw trigger")
        elif icon in ("pool", "treasure"):
            if self.deck and (yield "pool")[0] == "yes":
                self.stock.append(self._top())
                if log is not None:
                    self.say("me", "trigger", "treasure" if icon == "treasure" else "pool")
        elif icon == "comeback":
            if any(x.card_type == "character" for x in self.waiting):
                choice = yield "comeback"
                if choice[0] == "take":
                    self.hand.append(take(self.waiting, choice[1]))
                    if log is not None:
                        self.say("me", "trigger", "comeback", card=self.name(choice[1]))
        elif icon == "gate":
            if any(x.card_type == "climax" for x in self.waiting):
                choice = yield "gate"
                if choice[0] == "take":
                    self.hand.append(take(self.waiting, choice[1]))
                    if log is not None:
                        self.say("me", "trigger", "gate", card=self.name(choice[1]))
        elif icon == "choice":
            if any(x.card_type == "character" and "soul" in x.triggers for x in self.waiting):
                choice = yield "choice"
                if choice[0] != "skip":
                    got = take(self.waiting, choice[1])
                    (self.hand if choice[0] == "hand" else self.stock).append(got)
                    if log is not None:
                        self.say("me", "trigger", "choice", card=self.name(choice[1]), dest=choice[0])
        elif icon == "standby":
            lim = len(self.level) + 1
            if any(x.card_type == "character" and (x.level or 0) <= lim for x in self.waiting):
                choice = yield "standby"
                if choice[0] == "place":
                    got = take(self.waiting, choice[1])
                    s = choice[2]
                    if self.stage[s] is not None:
                        self.resolving.append(got)
                        yield from self._leave_stage(s, "replaced", occupied_after=True)
                        self.resolving.remove(got)
                    self.stage[s] = got
                    self.stage_state[s] = REST
                    self.slot_soul[s] = 0
                    if log is not None:
                        self.say("me", "trigger", "standby", card=self.name(choice[1]), slot=SLOTS[s])
                    if self.has_program("placed", got):
                        yield from self.fire("placed", got, s, how="waiting_room")

    def _damage(self, amount: int, what: str = "damage") -> int:
        """The goldfish reveals ``amount`` cards one at a time; a climax cancels the damage."""
        odeck = self.odeck
        if len(odeck) > amount > 0:
            # fast path: the deck does not empty, so the revealed cards are its top ``amount``
            # (the first revealed is the last of the list)
            for k in range(1, amount + 1):
                if odeck[-k].card_type == "climax":
                    self.owaiting.extend(odeck[-1:-k - 1:-1])
                    del odeck[-k:]
                    if self.log is not None:
                        self.say("me", "cancel", "cancel", what=what, amount=amount, count=k)
                    return 0
            self.oclock.extend(odeck[-1:-amount - 1:-1])
            del odeck[-amount:]
            if self.log is not None:
                self.say("me", "damage", "damage", what=what, amount=amount, clock=len(self.oclock),
                         level=len(self.olevel))
            if len(self.oclock) >= 7:
                self._level_up_opp()
            return amount
        revealed = self.orevealed
        for _ in range(amount):
            card = odeck.pop()
            revealed.append(card)  # revealed cards are out of the deck and the waiting room
            if not odeck:
                self._refresh_opp()
                odeck = self.odeck
            if card.card_type == "climax":
                self.owaiting.extend(revealed)
                if self.log is not None:
                    self.say("me", "cancel", "cancel", what=what, amount=amount, count=len(revealed))
                revealed.clear()
                return 0
        self.oclock.extend(revealed)
        revealed.clear()
        if self.log is not None:
            self.say("me", "damage", "damage", what=what, amount=amount, clock=len(self.oclock),
                     level=len(self.olevel))
        if len(self.oclock) >= 7:
            self._level_up_opp()
        return amount

    # -- options -------------------------------------------------------------------------------
    def options_mulligan(self) -> list[tuple]:
        return [("keep",)] + [("discard", code) for code in distinct_codes(self.hand)]

    def options_clock(self) -> list[tuple]:
        return [("skip",)] + [("clock", code) for code in distinct_codes(self.hand)]

    def options_level_up(self) -> list[tuple]:
        return [("level", code) for code in distinct_codes(self.clock[:7])]

    def options_main(self) -> list[tuple]:
        out: list[tuple] = [("end",)]
        colors = self.colors_available()
        for code in distinct_codes(self.hand):
            card = next(c for c in self.hand if c.code == code)
            if card.card_type == "climax" or not self.can_play(card, colors):
                continue
            if card.card_type == "character":
                out.extend(("play", code, s) for s in range(5))
            else:
                out.append(("event", code))
        out.extend(self.options_act())
        stage = self.stage
        for a in range(5):
            for b in range(a + 1, 5):
                if stage[a] is not None or stage[b] is not None:
                    out.append(("move", a, b))
        return out

    def options_climax(self) -> list[tuple]:
        return [("skip",)] + [("place", code) for code in distinct_codes(
            c for c in self.hand if c.card_type == "climax" and self._color_ok(c, None))]

    def options_attack(self) -> list[tuple]:
        return [("end",)] + [("attack", s) for s in self._attackers()]

    def options_draw(self) -> list[tuple]:
        return [("yes",), ("no",)]

    options_pool = options_draw
    options_pay = options_draw

    def options_comeback(self) -> list[tuple]:
        return [("skip",)] + [("take", code) for code in distinct_codes(
            c for c in self.waiting if c.card_type == "character")]

    def options_gate(self) -> list[tuple]:
        return [("skip",)] + [("take", code) for code in distinct_codes(
            c for c in self.waiting if c.card_type == "climax")]

    def options_choice(self) -> list[tuple]:
        codes = distinct_codes(c for c in self.waiting if c.card_type == "character" and "soul" in c.triggers)
        return [("skip",)] + [(where, code) for code in codes for where in ("hand", "stock")]

    def options_standby(self) -> list[tuple]:
        lim = len(self.level) + 1
        codes = distinct_codes(c for c in self.waiting if c.card_type == "character" and (c.level or 0) <= lim)
        return [("skip",)] + [("place", code, s) for code in codes for s in range(5)]

    def options_encore(self) -> list[tuple]:
        out: list[tuple] = [("skip",)]
        if len(self.stock) >= ENCORE_COST:
            out.append(("encore",))
        ctx = self.encore_ctx
        if self.encores and ctx is not None:
            out.extend(("encore", i) for i, p in enumerate(self.encores) if all(c.can(self, ctx) for c in p.cost))
        return out

    def label(self, kind: str, option: tuple) -> str:
        verb = option[0]
        if verb == "play":
            return f"play {self.name(option[1])} to {SLOTS[option[2]]}"
        if verb == "move":
            return f"move {SLOTS[option[1]]} <-> {SLOTS[option[2]]}"
        if verb == "attack":
            return f"attack with {SLOTS[option[1]]}"
        if verb == "act":
            card = self.stage[option[1]]
            return f"use {self.name(card.code) if card else '?'}'s 【起】 ability {option[2]}"
        if kind == "pay" and self.paying is not None:
            return f"{verb}: pay the cost of {self.name(self.paying[0].code)}'s ability"
        if verb == "encore" and len(option) > 1:
            return f"encore: {self.encores[option[1]].text[:40]}"
        if verb == "place" and kind == "standby":
            return f"standby {self.name(option[1])} to {SLOTS[option[2]]}"
        if len(option) > 1:
            return f"{kind}: {verb} {self.name(option[1])}"
        return f"{kind}: {verb}"
