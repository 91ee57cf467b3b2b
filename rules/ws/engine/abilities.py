"""What the Weiß Schwarz goldfish engine does with each compiled ability (``rules.ws.abilities``).

:func:`analyse` reads one :class:`rules.abilities.Ability` of a card and answers one of

- ``played``: a :class:`Program` the engine runs (its hook says when), with the effects that can
  change a goldfish game as steps; effects that cannot (a power change, a target on the goldfish's
  empty stage) are dropped from it;
- ``no_effect``: nothing the ability does can change a goldfish game, with the rule of the goldfish
  that makes it so (e.g. "needs an opposing character: the goldfish's stage is empty");
- ``not_played``: it could change the game but the engine does not execute it (the first part it
  cannot execute is the reason).

The same reading gives the coverage (:func:`classify_ability`, ``rules.coverage``) and the
programs the engine runs (:func:`card_programs`), so a report says ``played`` exactly when the
engine plays it. Steps are closures over the state's runtime methods (``rules.ws.engine.effects``);
they are built once per card (memoised by record), never per game.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules.abilities import NO_EFFECT, NOT_PLAYED, PLAYED, Ability, Effect, is_vanilla_text
from rules.cards import CardRecord
from rules.coverage import AnalysisSkip, AnalysisUnsupported, memoised_classifier
from rules.engine.core import gettext_noop

# -- why an effect changes nothing in a goldfish game (the goldfish definition, GAMES.md §3) ---------
NO_OPP_CHARS = gettext_noop("needs an opposing character: the goldfish's stage is empty")
NO_BATTLE = gettext_noop("needs a battle: the goldfish has no characters, so every attack is direct and nothing "
                         "is ever reversed")
POWER_ONLY = gettext_noop("power matters only in battles: the goldfish has no characters")
NO_COUNTER = gettext_noop("a counter is played when an opposing character front-attacks: the goldfish's attacks "
                          "have no attacking character")
OPP_NEVER_PLAYS = gettext_noop("the goldfish never plays cards, climaxes or abilities")
NO_OPP_STOCK = gettext_noop("the goldfish has no stock")
STAGE_LEVEL = gettext_noop("a character's level on the stage matters only against opposing characters and effects")
RESTRICTION = gettext_noop("restricts what opposing characters or the goldfish do, or side/front attacks: every "
                           "attack against the goldfish is direct")
DECK_RULE = gettext_noop("a deck-construction rule: it applies when the deck is built, not in a game")
TRIGGER_ICON = gettext_noop("the trigger icon's reminder: the engine plays the icon")
GOLDFISH_DECLINES = gettext_noop("the goldfish declines every optional action")

# the share of climaxes in a deck (8 of 50): the pilot's expectation of "for each climax" effects
CLIMAX_SHARE = 8 / 50
_CMP: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge, "<=": operator.le, "==": operator.eq, ">": operator.gt, "<": operator.lt, "!=": operator.ne,
}


Skip = AnalysisSkip  # a part that changes nothing in a goldfish game (rules.coverage)
Unsupported = AnalysisUnsupported  # a part the engine does not execute (rules.coverage)


Pred = Callable[[Any, CardRecord], bool]  # (state, card) -> bool
Cond = Callable[[Any, Any], bool]  # (state, ctx) -> bool
Step = Callable[[Any, Any], Any]  # (state, ctx) -> generator or None


@dataclass(slots=True)
class Cost:
    """One cost of an ability: ``can(state, ctx)`` and ``pay(state, ctx)``; ``value`` is the greedy
    pilot's estimate of what paying it loses (1.0 ≈ one card)."""

    kind: str
    can: Cond
    pay: Step
    value: float


@dataclass(slots=True)
class Program:
    """One ability the engine plays.

    ``hook``: when it runs — ``play`` (this character placed from hand), ``placed`` (placed from
    another zone: ``arg`` the zone), ``other_placed`` / ``other_attack`` (another of your
    characters matching ``arg``), ``attack``, ``climax`` (this climax placed from hand),
    ``cx_placed`` (a climax of yours matching ``arg`` placed), ``start:<phase>`` / ``end:turn``
    (your phases), ``cancelled`` (this card's damage cancelled; ``arg`` True = only the turn it
    was placed), ``leave`` (this character went from the stage to the waiting room),
    ``trigger_climax``, ``level_up``, ``event_played``, ``refresh``, ``act`` (a 【起】 ability),
    ``event`` (an event card's effect), ``cont_soul`` (a continuous soul change), ``hand_level``
    (this card's level in hand), ``play_req`` (may it be played), ``encore`` (an encore cost),
    ``climax_cont`` (a climax's lasting soul/power).
    ``where``: the zone the source must be in (``stage``, ``climax``, ``clock_top``, ``memory``,
    ``hand``, ``any``). ``limit``: times per turn (0 = no limit). ``gain`` / ``cost_value``: the
    greedy pilot's estimates (cards gained / lost).
    """

    code: str
    index: int
    hook: str
    text: str
    arg: Any = None
    where: str = "stage"
    conds: tuple[Cond, ...] = ()
    cost: tuple[Cost, ...] = ()
    steps: tuple[Step, ...] = ()
    limit: int = 0
    gain: float = 0.0
    cost_value: float = 0.0
    soul: int = 0  # cont_soul / climax_cont: the amount; soul steps: what they add
    power: int = 0
    target: Any = None  # cont_soul: whom it reaches (a Sel); encore: None
    kinds: frozenset[str] = frozenset()  # the effect kinds it executes (pilot hints)
    needs_optional: bool = False  # a later effect depends on an optional one: the engine takes it
    reqs: tuple[Cond, ...] = ()  # an event's play requirement

    @property
    def key(self) -> tuple[str, int]:
        return (self.code, self.index)


@dataclass(frozen=True, slots=True)
class Analysis:
    status: str
    reason: str = ""
    program: Program | None = None


# ---------------------------------------------------------------------------------------------
# card filters and selections


def _n(value: Any) -> Callable[[Any], int] | None:
    """A number in a filter: an int, ``level_of:you`` (your level), ``level_of:you+1``."""
    if isinstance(value, bool):
        raise Unsupported("a computed number (X) in a filter" if value == "X" else f"the number {value!r}")
    if isinstance(value, int):
        return None
    if value == "level_of:you":
        return lambda st: len(st.level)
    if value == "level_of:you+1":
        return lambda st: len(st.level) + 1
    raise Unsupported("a computed number (X) in a filter" if value == "X" else f"the number {value!r}")


def _stat_pred(attr: str, spec: Any) -> Pred:
    if not isinstance(spec, (list, tuple)) or len(spec) != 2 or spec[0] not in _CMP:
        raise Unsupported(f"a {attr} compared to a computed number")
    op = _CMP[spec[0]]
    dyn = _n(spec[1])
    if dyn is None:
        n = int(spec[1])
        return lambda st, c: op(getattr(c, attr) or 0, n)
    return lambda st, c: op(getattr(c, attr) or 0, dyn(st))


_PRED_KEYS = frozenset({"kind", "traits", "names", "name_contains", "colors", "level", "cost", "power", "match",
                        "except", "show"})
_KINDS = {"character": "character", "climax": "climax", "event": "event"}


def card_pred(t: Mapping[str, Any]) -> Pred | None:
    """The card filter a target description names (``None`` = any card). Unknown keys raise."""
    parts: list[Pred] = []
    alts: list[Pred] = []
    kind = t.get("kind")
    if kind in _KINDS:
        want = _KINDS[kind]
        parts.append(lambda st, c: c.card_type == want)
    elif kind == "marker":
        raise Unsupported("markers under a card")
    elif kind not in (None, "card"):
        raise Unsupported(f"cards of kind {kind!r}")
    if t.get("traits"):
        traits = tuple(t["traits"])
        alts.append(lambda st, c: any(x in c.traits for x in traits))
    if t.get("names"):
        names = frozenset(t["names"])
        alts.append(lambda st, c: c.name in names or any(a in names for a in c.alt_names))
    if t.get("name_contains"):
        subs = tuple(t["name_contains"])
        alts.append(lambda st, c: any(s in c.name for s in subs))
    if t.get("colors"):
        colors = tuple(t["colors"])
        alts.append(lambda st, c: any(x in c.colors for x in colors))
    if t.get("match") == "any" and alts:
        parts.append(lambda st, c: any(a(st, c) for a in alts))
    else:
        parts.extend(alts)
    for attr in ("level", "cost", "power"):
        if attr in t:
            parts.append(_stat_pred(attr, t[attr]))
    if t.get("except"):
        ex = t["except"]
        inner = card_pred(ex) if isinstance(ex, Mapping) else None
        if inner is None:
            raise Unsupported("this exception in a filter")
        parts.append(lambda st, c: not inner(st, c))
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return lambda st, c: all(p(st, c) for p in parts)


_ZONES_YOU = {"hand": "hand", "deck": "deck", "waiting_room": "waiting", "clock": "clock", "stock": "stock",
              "level": "level", "memory": "memory"}
_ZONES_OPP = {"hand": "ohand", "deck": "odeck", "waiting_room": "owaiting", "clock": "oclock", "level": "olevel"}
_STAGE_ZONES = {None: (0, 1, 2, 3, 4), "stage": (0, 1, 2, 3, 4), "front_row": (0, 1, 2), "back_row": (3, 4)}
_SEL_KEYS = _PRED_KEYS | {"who", "zone", "ref", "other", "all", "count", "upto", "state", "position", "among",
                          "relative", "slot", "attrs", "attr"}
# what each back-row slot is behind (応援: "the characters in front of this card")
FRONT_OF = {3: (0, 1), 4: (1, 2)}


@dataclass(frozen=True, slots=True)
class Sel:
    """Which cards a target description names: ``zone`` is a state attribute (``hand``,
    ``waiting``, ``odeck``...) or ``stage`` (``slots`` of your stage); ``ref`` a card of the context
    (``this``, ``that``, ``those``, ``rest``); ``pred`` the filter."""

    zone: str | None
    slots: tuple[int, ...] = ()
    ref: str | None = None
    pred: Pred | None = None
    other: bool = False
    state: str | None = None
    position: str | None = None
    relative: str | None = None
    all: bool = False
    count: int = 1
    upto: bool = False

    def cards(self, st: Any, ctx: Any) -> list[CardRecord]:
        """The matching cards (stage: the characters in ``slots``; a ref: the context's cards)."""
        if self.ref is not None:
            if self.ref == "this":
                base = [ctx.card]
            elif self.ref == "that":
                base = [ctx.that] if ctx.that is not None else []
            elif self.ref == "those":
                base = list(ctx.those)
            else:  # rest
                base = list(ctx.rest)
        elif self.zone == "stage":
            return [st.stage[s] for s in self.stage_slots(st, ctx)]
        else:
            base = getattr(st, self.zone)  # type: ignore[arg-type]
        pred = self.pred
        if pred is None:
            return list(base)
        return [c for c in base if pred(st, c)]

    def stage_slots(self, st: Any, ctx: Any) -> list[int]:
        """Your stage slots whose character matches (``other``: not the source; ``relative``
        ``front``: the slots in front of the source)."""
        slots = self.slots
        if self.relative == "front":
            src = ctx.source_slot(st)
            slots = FRONT_OF.get(src, ()) if src is not None else ()
        out = []
        stage = st.stage
        pred = self.pred
        this = ctx.card if self.other else None
        state = self.state
        for s in slots:
            c = stage[s]
            if c is None or c is this:
                continue
            if state is not None and not st.slot_state_is(s, state):
                continue
            if pred is None or pred(st, c):
                out.append(s)
        return out

    def count_in(self, st: Any, ctx: Any) -> int:
        if self.zone == "stage" and self.ref is None:
            return len(self.stage_slots(st, ctx))
        return len(self.cards(st, ctx))


def selection(t: Any, *, default_zone: str | None = None, who_default: str = "you") -> Sel:
    """A target description → :class:`Sel`. Opposing characters raise :class:`Skip` (the goldfish
    has none); unknown keys raise :class:`Unsupported`."""
    if not isinstance(t, Mapping):
        raise Unsupported("this target")
    extra = set(t) - _SEL_KEYS
    if extra:
        if "has_ability" in extra:
            raise Unsupported("characters that have a named ability")
        if "numbers" in extra:
            raise Unsupported("a target with a number the source garbled")
        raise Unsupported(f"a target with {', '.join(sorted(extra))}")
    pred = card_pred(t)
    count = t.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool):
        raise Unsupported(f"count {count!r}")
    common = {"pred": pred, "all": bool(t.get("all")), "count": count, "upto": bool(t.get("upto"))}
    ref = t.get("ref")
    relative = t.get("relative")
    if ref is not None:
        if ref in ("battle_opponent",) or str(ref).startswith("battle_opponent") or relative in (
                "opposite", "battle") or ref == "attacker":
            raise Skip(NO_OPP_CHARS if relative == "opposite" else NO_BATTLE)
        if relative == "front" and ref == "this":
            if t.get("who", "you") != "you":
                raise Skip(NO_OPP_CHARS)
            return Sel("stage", (0, 1, 2), relative="front", **common)
        if relative is not None:
            raise Unsupported(f"a character {relative} of {ref}")
        if ref not in ("this", "that", "those", "rest"):
            raise Unsupported(f"the card {ref!r}")
        return Sel(None, ref=ref, **common)
    if relative is not None:
        raise Unsupported(f"relative {relative!r}")
    who = t.get("who", who_default)
    zone = t.get("zone", default_zone)
    if t.get("state") and zone not in _STAGE_ZONES:
        raise Unsupported(f"cards {t['state']} in {zone}")
    if zone in _STAGE_ZONES or zone == "center":
        if t.get("kind") not in (None, "character"):
            raise Unsupported(f"{t.get('kind')} on the stage")
        if who == "opponent":
            raise Skip(NO_OPP_CHARS)
        if who != "you":
            raise Unsupported(f"characters of {who}")
        if t.get("kind") == "character":  # the stage holds characters only
            common["pred"] = card_pred({k: v for k, v in t.items() if k != "kind"})
        slots = _STAGE_ZONES.get(zone, (1,))
        if t.get("position") == "center" or t.get("slot") and t.get("position") == "center":
            slots = (1,)
        elif t.get("position") not in (None, "center"):
            raise Unsupported(f"characters in position {t.get('position')!r}")
        state = t.get("state")
        if state not in (None, "rested", "standing", "reversed"):
            raise Skip(NO_BATTLE) if state in ("battling", "front_attacked", "attacked") else Unsupported(
                f"characters {state}")
        return Sel("stage", slots, other=bool(t.get("other")), state=state, **common)
    if zone == "climax_zone":
        if who != "you":
            raise Skip(OPP_NEVER_PLAYS)
        return Sel("climax_list", **common)
    table = _ZONES_YOU if who == "you" else _ZONES_OPP if who == "opponent" else None
    if table is None:
        raise Unsupported(f"cards of {who}")
    if zone not in table:
        if who == "opponent" and zone in ("stock", "memory"):
            raise Skip(NO_OPP_STOCK if zone == "stock" else OPP_NEVER_PLAYS)
        raise Unsupported(f"cards in {zone!r}")
    pos = t.get("position")
    if pos not in (None, "top", "bottom") or (pos is not None and zone not in ("deck", "clock")):
        raise Unsupported(f"cards at {pos!r} of {zone}")
    return Sel(table[zone], position=pos, **common)


# ---------------------------------------------------------------------------------------------
# conditions


def _count_sel(t: Mapping[str, Any]) -> Sel:
    """A count condition's target: characters (no zone) are on your stage."""
    return selection(t)


def condition(e: Effect) -> Cond:
    """A condition → ``(state, ctx) -> bool``. A condition that can never hold in a goldfish game
    raises :class:`Skip`; one the engine cannot read raises :class:`Unsupported`. ``params.not``
    negates it."""
    p = dict(e.params)
    if p.get("not") is True:
        try:
            inner = condition(Effect(e.kind, {k: v for k, v in p.items() if k != "not"}))
        except Skip:
            return lambda st, ctx: True  # never holds, so its negation always does
        return lambda st, ctx: not inner(st, ctx)
    k = e.kind
    if k == "level":
        op = _CMP.get(p.get("cmp", ">="))
        n = p.get("n")
        if op is None or not isinstance(n, int):
            raise Unsupported("this level condition")
        if p.get("who", "you") == "you":
            return lambda st, ctx: op(len(st.level), n)
        if p.get("who") == "opponent":
            return lambda st, ctx: op(len(st.olevel), n)
        raise Unsupported(f"level of {p.get('who')}")
    if k == "level_total":
        op = _CMP.get(p.get("cmp", ">="))
        n = p.get("n")
        if op is None or not isinstance(n, int) or p.get("who", "you") != "you":
            raise Unsupported("this level-total condition")
        return lambda st, ctx: op(sum(c.level or 0 for c in st.level), n)
    if k == "turn":
        whose = p.get("whose")
        if whose == "you":
            return lambda st, ctx: not st._opp_active
        if whose == "opponent":
            return lambda st, ctx: st._opp_active
        raise Unsupported(f"turn {whose!r}")
    if k == "climax_in_zone":
        if p.get("who", "you") != "you":
            raise Skip(OPP_NEVER_PLAYS)
        pred = card_pred({k2: v for k2, v in p.items() if k2 in ("names", "colors", "traits", "name_contains")})
        if pred is None:
            return lambda st, ctx: st.climax is not None
        return lambda st, ctx: st.climax is not None and pred(st, st.climax)
    if k == "position":
        zone = p.get("zone")
        if zone == "stage" and not p.get("position"):
            return lambda st, ctx: ctx.source_slot(st) is not None
        if zone == "front_row" and not p.get("position"):
            return lambda st, ctx: ctx.source_slot(st) in (0, 1, 2)
        if zone == "back_row" and not p.get("position"):
            return lambda st, ctx: ctx.source_slot(st) in (3, 4)
        if zone == "front_row" and p.get("position") in ("center", "left", "right"):
            want = {"left": 0, "center": 1, "right": 2}[p["position"]]
            return lambda st, ctx: ctx.source_slot(st) == want
        raise Unsupported("this position condition")
    if k == "count":
        op = _CMP.get(p.get("cmp", ">="))
        n = p.get("n")
        t = p.get("target")
        if op is None or not isinstance(n, int) or not isinstance(t, Mapping):
            raise Unsupported("this count condition")
        if t.get("among") is not None and t.get("ref") in ("those", "that"):
            sel = selection({k2: v for k2, v in t.items() if k2 != "among"})
        else:
            try:
                sel = _count_sel(t)
            except Skip:
                # opposing characters: the goldfish has none, so the count is 0
                if op(0, n):
                    return lambda st, ctx: True
                raise Skip(NO_OPP_CHARS) from None
        return lambda st, ctx: op(sel.count_in(st, ctx), n)
    if k == "card_is":
        t = p.get("target")
        is_ = p.get("is")
        if not isinstance(t, Mapping) or not isinstance(is_, Mapping):
            raise Unsupported("this condition on a card")
        pred = card_pred({"kind": t.get("kind") if t.get("kind") != "card" else None, **is_}) or (lambda st, c: True)
        if t.get("ref") == "that" and not t.get("all"):
            return lambda st, ctx: ctx.that is not None and pred(st, ctx.that)
        if t.get("ref") == "those" and t.get("all"):
            return lambda st, ctx: bool(ctx.those) and all(pred(st, c) for c in ctx.those)
        if t.get("all") and t.get("who") == "you" and t.get("kind") == "character" and "ref" not in t:
            return lambda st, ctx: all(pred(st, c) for c in st.stage if c is not None)
        if t.get("relative") == "opposite":
            raise Skip(NO_OPP_CHARS)
        raise Unsupported("this condition on a card")
    if k == "in_zone":
        zone = p.get("zone")
        if zone == "clock" and p.get("position") == "top":
            return lambda st, ctx: bool(st.clock) and st.clock[-1] is ctx.card
        if zone == "memory":
            return lambda st, ctx: any(c is ctx.card for c in st.memory)
        if zone == "hand":
            return lambda st, ctx: any(c is ctx.card for c in st.hand)
        raise Unsupported("this zone condition")
    if k == "state":
        if p.get("ref") != "this":
            raise Unsupported("this state condition")
        state = p.get("state")
        if state in ("rested", "standing", "reversed"):
            return lambda st, ctx: (s := ctx.source_slot(st)) is not None and st.slot_state_is(s, state)
        if state in ("battling",):
            raise Skip(NO_BATTLE)
        raise Skip(NO_OPP_CHARS) if state == "no_traits" else Unsupported(f"state {state!r}")
    if k == "compare":
        t = p.get("target") or {}
        if isinstance(t, Mapping) and (str(t.get("ref", "")).startswith("battle_opponent")
                                        or t.get("relative") in ("opposite", "battle") or t.get("state") == "battling"):
            raise Skip(NO_BATTLE if t.get("ref") != "this" or t.get("state") == "battling" else NO_OPP_CHARS)
        if p.get("attr") == "count" and isinstance(t, Mapping) and isinstance(p.get("than"), Mapping):
            op = _CMP.get(p.get("cmp", ">="))
            a = selection(t)
            b = selection(p["than"])
            if op is None:
                raise Unsupported("this comparison")
            return lambda st, ctx: op(a.count_in(st, ctx), b.count_in(st, ctx))
        if p.get("attr") in ("level", "cost", "power", "soul") and isinstance(t, Mapping) and t.get("ref") == "that" \
                and isinstance(p.get("n"), int):
            op = _CMP.get(p.get("cmp", ">="))
            attr = p["attr"]
            n = p["n"]
            if op is None:
                raise Unsupported("this comparison")
            return lambda st, ctx: ctx.that is not None and op(getattr(ctx.that, attr) or 0, n)
        raise Unsupported("this comparison")
    if k == "done":
        raise Unsupported("a condition on what an earlier effect did")
    if k == "play_requirement":
        raise Unsupported("play requirement inside an ability")
    raise Unsupported(f"condition {k}")


def play_requirement(e: Effect) -> Cond:
    """``cannot_if``: the card may be played only when the inner condition does not hold."""
    inner = (e.params or {}).get("cannot_if")
    if not isinstance(inner, Mapping):
        raise Unsupported(f"play requirement {dict(e.params)}")
    cond = condition(Effect.from_dict(inner))
    return lambda st, ctx: not cond(st, ctx)


# ---------------------------------------------------------------------------------------------
# amounts: N, X, "per" multipliers


def amount(p: Mapping[str, Any], key: str = "amount", default: int = 1) -> Callable[[Any, Any], int]:
    """An effect's number → ``(state, ctx) -> int``: an int, ``X`` (``params.x``), times ``per``."""
    v = p.get(key, default)
    if isinstance(v, bool):
        raise Unsupported(f"{key} {v!r}")
    if isinstance(v, int):
        base: Callable[[Any, Any], int] | None = None
        n = v
    elif v == "X":
        base = _x_value(p.get("x"))
        n = 1
    else:
        raise Unsupported(f"{key} {v!r}")
    per = p.get("per")
    mult = _per_value(per) if per is not None else None
    if base is None and mult is None:
        return lambda st, ctx: n
    if base is None:
        return lambda st, ctx: n * mult(st, ctx)  # type: ignore[misc]
    if mult is None:
        return base
    return lambda st, ctx: base(st, ctx) * mult(st, ctx)  # type: ignore[misc]


def _per_value(per: Any) -> Callable[[Any, Any], int]:
    if not isinstance(per, Mapping):
        raise Unsupported(f"per {per!r}")
    if per.get("kind") == "marker":
        raise Unsupported("markers under a card")
    try:
        sel = selection(per)
    except Skip:
        return lambda st, ctx: 0  # opposing characters: none
    return lambda st, ctx: sel.count_in(st, ctx)


def _x_value(x: Any) -> Callable[[Any, Any], int]:
    if not isinstance(x, Mapping):
        raise Unsupported(f"X = {x!r}")
    times = x.get("times", 1)
    if not isinstance(times, int):
        raise Unsupported(f"X times {times!r}")
    attr = x.get("attr")
    if x.get("ref") == "that" and x.get("level") == ["==", "+1"]:  # "そのカードのレベル+1"
        return lambda st, ctx: ((ctx.that.level or 0) + 1) * times if ctx.that is not None else 0
    t = {k: v for k, v in x.items() if k not in ("attr", "attrs", "times")}
    if attr == "count":
        try:
            sel = selection(t)
        except Skip:
            return lambda st, ctx: 0
        return lambda st, ctx: sel.count_in(st, ctx) * times
    if attr in ("level", "soul", "cost") and t.get("ref") == "that":
        return lambda st, ctx: (getattr(ctx.that, attr) or 0) * times if ctx.that is not None else 0
    if t.get("relative") == "opposite" or str(t.get("ref", "")).startswith("battle"):
        raise Skip(NO_OPP_CHARS)
    raise Unsupported("this X")


# ---------------------------------------------------------------------------------------------
# effects → steps


@dataclass(slots=True)
class Built:
    """One compiled effect: its step, the pilot's gain estimate, and whether it is an optional
    action the engine declines (``declined``: a "may" that only loses cards)."""

    step: Step
    gain: float = 0.0
    kind: str = ""
    soul: int = 0


_MINE = ("you", None)


def _who(p: Mapping[str, Any], t: Any = None) -> str:
    who = p.get("player") or (t.get("who") if isinstance(t, Mapping) else None) or "you"
    return str(who)


def _eff_draw(p: Mapping[str, Any]) -> Built:
    n = amount(p, "count")
    who = p.get("player", "you")
    if who == "opponent":
        return Built(lambda st, ctx: st.fx_opp_draw(n(st, ctx)), 0.0, "draw")
    if who == "both":
        return Built(lambda st, ctx: st.fx_draw_both(n(st, ctx)), 0.5, "draw")
    if who != "you":
        raise Unsupported(f"draw for {who}")
    return Built(lambda st, ctx: st.fx_draw(n(st, ctx)), 1.0 * (p.get("count") if isinstance(p.get("count"), int)
                                                                  else 1), "draw")


def _eff_discard(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    who = p.get("player") or t.get("who") or "you"
    n = amount(p, "count")
    if who == "opponent":
        return Built(lambda st, ctx: st.fx_opp_discard(n(st, ctx)), 0.2, "discard")
    if who != "you" or t.get("zone", "hand") != "hand":
        raise Unsupported(f"discard from {who} {t.get('zone')}")
    pred = card_pred({k: v for k, v in t.items() if k in _PRED_KEYS})
    upto = bool(p.get("upto"))
    return Built(lambda st, ctx: st.fx_discard(n(st, ctx), pred, upto), -1.0, "discard")


def _eff_stock_charge(p: Mapping[str, Any]) -> Built:
    src = p.get("from")
    t = p.get("target") or {}
    if p.get("player") == "opponent" or (isinstance(t, Mapping) and t.get("who") == "opponent"):
        raise Skip(NO_OPP_STOCK)
    if src == "deck_top":
        n = amount(p, "count")
        return Built(lambda st, ctx: st.fx_stock_from_top(n(st, ctx)), 0.8, "stock_charge")
    if src in ("resolving", "stage", "hand") and t.get("ref") == "this" and not t.get("kind") == "marker":
        return Built(lambda st, ctx: st.fx_this_to(ctx, "stock"), 0.5, "stock_charge")
    if src in ("waiting_room", "clock", "hand"):
        sel = selection(t, default_zone=src)
        n = amount(p, "count")
        heal = src == "clock"
        return Built(lambda st, ctx: st.fx_move_chosen(ctx, sel, n(st, ctx), "stock"), 1.5 if heal else 0.8,
                     "stock_charge")
    if src == "deck_top" or (t.get("ref") in ("that", "those") and p.get("among") == "reveal"):
        return Built(lambda st, ctx: st.fx_revealed_to(ctx, "stock"), 0.8, "stock_charge")
    if p.get("among") == "reveal" and t.get("ref") == "those":
        return Built(lambda st, ctx: st.fx_revealed_to(ctx, "stock"), 0.8, "stock_charge")
    raise Unsupported(f"stock charge from {src}")


def _eff_clock_heal(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    n = amount(p, "count")
    if t.get("who", "you") == "opponent":
        return Built(lambda st, ctx: st.fx_opp_heal(n(st, ctx)), -1.0, "clock_heal")
    if t.get("all"):
        return Built(lambda st, ctx: st.fx_heal(10 ** 6, None, "any"), 3.0, "clock_heal")
    pos = t.get("position")
    if pos not in (None, "top", "bottom"):
        raise Unsupported(f"clock heal from {pos}")
    pred = card_pred({k: v for k, v in t.items() if k in _PRED_KEYS})
    where = pos or "any"
    return Built(lambda st, ctx: st.fx_heal(n(st, ctx), pred, where), 2.0, "clock_heal")


def _eff_mill(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    if p.get("among") in ("look", "reveal") and t.get("ref") == "rest":
        return Built(lambda st, ctx: st.fx_rest_to_waiting(ctx), 0.0, "mill")
    n = amount(p, "count")
    if t.get("all") or t.get("player") == "player":
        raise Unsupported("mill every player's deck")
    who = t.get("who", "you")
    if t.get("zone", "deck") != "deck" or t.get("position", "top") != "top":
        raise Unsupported("this mill")
    if who == "opponent":
        return Built(lambda st, ctx: st.fx_opp_mill(n(st, ctx)), 0.3, "mill")
    if who != "you":
        raise Unsupported(f"mill for {who}")
    return Built(lambda st, ctx: st.fx_mill(ctx, n(st, ctx)), -0.1, "mill")


def _eff_clock_damage(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    if t.get("who", "you") != "you":
        raise Unsupported("clock damage to the goldfish")
    n = amount(p, "count")
    return Built(lambda st, ctx: st.fx_clock_damage(n(st, ctx)), -1.5, "clock_damage")


def _eff_salvage(p: Mapping[str, Any]) -> Built:
    t = dict(p.get("target") or {})
    if t.get("who", "you") != "you":
        raise Unsupported("salvage from the goldfish's waiting room")
    t.setdefault("zone", "waiting_room")
    sel = selection(t)
    n = amount(p, "count")
    return Built(lambda st, ctx: st.fx_move_chosen(ctx, sel, n(st, ctx), "hand"), 1.0, "salvage")


def _eff_search(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    if t.get("who", "you") != "you":
        raise Unsupported("search the goldfish's deck")
    pred = card_pred({k: v for k, v in t.items() if k in _PRED_KEYS})
    n = amount(p, "count")
    among = p.get("among")
    if among == "search":
        return Built(lambda st, ctx: st.fx_search(pred, n(st, ctx)), 1.0, "search")
    if among == "look":
        return Built(lambda st, ctx: st.fx_take_looked(ctx, pred, n(st, ctx), "hand"), 0.8, "search")
    if among == "reveal":
        return Built(lambda st, ctx: st.fx_take_looked(ctx, pred, n(st, ctx), "hand"), 0.8, "search")
    raise Unsupported(f"search among {among}")


def _eff_look(p: Mapping[str, Any]) -> Built:
    to = p.get("to")
    if p.get("deck_of") == "opponent":
        if to != "top":
            raise Unsupported("looking at the goldfish's deck, then putting cards elsewhere")
        n = amount(p, "count")
        return Built(lambda st, ctx: st.fx_opp_order_top(n(st, ctx)), 0.5, "look")
    if p.get("among") == "look" and (p.get("target") or {}).get("ref") == "rest":
        if to in ("top",):
            return Built(lambda st, ctx: st.fx_rest_to_top(ctx), 0.0, "look")
        raise Unsupported(f"looked cards to {to}")
    if "among" in p or "target" in p or "zone" in p:
        raise Unsupported("this look at cards")
    n = amount(p, "count")
    if to in ("top_or_waiting_room", "top_or_bottom"):
        return Built(lambda st, ctx: st.fx_look_keep_climax(n(st, ctx), to), 0.3, "look")
    if to == "top":
        return Built(lambda st, ctx: st.fx_look_order(n(st, ctx)), 0.2, "look")
    if to is None:
        if p.get("optional") and not p.get("upto"):
            raise Skip(gettext_noop("only looks at cards: nothing moves"))
        return Built(lambda st, ctx: st.fx_look(ctx, n(st, ctx)), 0.0, "look")
    raise Unsupported(f"look, then {to}")


def _eff_reveal(p: Mapping[str, Any]) -> Built:
    if p.get("player", "you") != "you":
        raise Unsupported("the goldfish reveals cards")
    n = amount(p, "count")
    return Built(lambda st, ctx: st.fx_look(ctx, n(st, ctx)), 0.0, "reveal")


def _eff_brainstorm(p: Mapping[str, Any]) -> Built:
    n = amount(p, "count")
    return Built(lambda st, ctx: st.fx_brainstorm(ctx, n(st, ctx)), 0.0, "brainstorm")


def _eff_memory(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    if t.get("marker"):
        raise Unsupported("a marked part of the text")
    if t.get("ref") == "this":
        return Built(lambda st, ctx: st.fx_this_to(ctx, "memory"), 0.0, "memory")
    if t.get("who") == "opponent" and t.get("zone") == "waiting_room":
        n = amount(p, "count")
        return Built(lambda st, ctx: st.fx_opp_memory(n(st, ctx)), 0.3, "memory")
    if t.get("ref") == "that":
        return Built(lambda st, ctx: st.fx_that_to(ctx, "memory"), 0.0, "memory")
    if t.get("who", "you") == "you" and t.get("zone") in ("waiting_room", "hand"):
        sel = selection({**t, "who": "you"})
        n = amount(p, "count")
        return Built(lambda st, ctx: st.fx_move_chosen(ctx, sel, n(st, ctx), "memory"), -0.2, "memory")
    raise Unsupported("putting these cards into memory")


def _eff_put_on_stage(p: Mapping[str, Any]) -> Built:
    t = dict(p.get("target") or {})
    src = p.get("from")
    if p.get("player") == "opponent" or t.get("who") == "opponent":
        raise Skip(NO_OPP_CHARS)
    to = p.get("to") or {}
    pos = to.get("position") if isinstance(to, Mapping) else None
    if pos not in ("any_slot", "empty_slot", "separate_slots", "this_slot", None) or (isinstance(to, Mapping) and to.get(
            "as")):
        raise Unsupported(f"put on the stage at {pos}")
    if isinstance(to, Mapping) and to.get("zone") not in (None, "stage", "front_row", "back_row"):
        raise Unsupported(f"put into {to.get('zone')}")
    rows = to.get("zone") if isinstance(to, Mapping) else None
    rested = p.get("state") == "rested"
    n = amount(p, "count")
    if t.get("ref") == "this":
        raise Unsupported("this card back onto the stage")
    if p.get("among") in ("search",) or src == "deck" and p.get("among") == "search":
        pred = card_pred({k: v for k, v in t.items() if k in _PRED_KEYS})
        return Built(lambda st, ctx: st.fx_put_on_stage(ctx, "deck", pred, n(st, ctx), rested, pos, rows), 1.5,
                     "put_on_stage")
    if p.get("among") == "reveal" or t.get("ref") in ("that", "those"):
        if p.get("among") not in ("reveal", "look") and src not in ("deck",):
            raise Unsupported(f"put {t.get('ref')} from {src}")
        pred = card_pred({k: v for k, v in t.items() if k in _PRED_KEYS and k != "kind"} | {"kind": "character"})
        return Built(lambda st, ctx: st.fx_put_looked(ctx, pred, n(st, ctx), rested, pos, rows), 1.5, "put_on_stage")
    if src in ("hand", "waiting_room", "clock", "memory"):
        t.setdefault("zone", src)
        t["who"] = "you"
        sel = selection({k: v for k, v in t.items() if k != "ref"})
        return Built(lambda st, ctx: st.fx_put_on_stage(ctx, src, sel.pred, n(st, ctx), rested, pos, rows),
                     1.5 if src != "hand" else 0.5, "put_on_stage")
    raise Unsupported(f"put on the stage from {src}")


def _eff_to_hand(p: Mapping[str, Any]) -> Built:
    t = dict(p.get("target") or {})
    src = p.get("from")
    if t.get("who") == "opponent":
        raise Unsupported("the goldfish's cards to hand")
    if p.get("among") == "reveal" and t.get("ref") in ("that", "those"):
        return Built(lambda st, ctx: st.fx_revealed_to(ctx, "hand"), 1.0, "to_hand")
    if t.get("ref") == "this":
        return Built(lambda st, ctx: st.fx_this_to(ctx, "hand"), 0.0, "to_hand")
    if src in ("clock", "stock", "level", "memory") or t.get("zone") in ("clock", "stock", "level", "memory"):
        zone = src or t.get("zone")
        if zone == "level":
            raise Unsupported("a level card to hand")
        t.setdefault("zone", zone)
        t.setdefault("who", "you")
        sel = selection(t)
        n = amount(p, "count")
        return Built(lambda st, ctx: st.fx_move_chosen(ctx, sel, n(st, ctx), "hand"),
                     2.5 if zone == "clock" else 1.0, "to_hand")
    raise Unsupported(f"to hand from {src}")


def _eff_to_deck(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    src = p.get("from")
    to = p.get("to")
    who = t.get("who", "you")
    if p.get("player") == "opponent" and who == "you":
        raise Unsupported("the goldfish chooses your cards")
    if p.get("player") == "opponent" and t.get("who") is None:
        who = "opponent"
    if src == "waiting_room" and who == "opponent" and to == "top":
        n = amount(p, "count")
        return Built(lambda st, ctx: st.fx_opp_waiting_to_top(n(st, ctx)), 0.5, "to_deck")
    if src == "waiting_room" and who == "opponent" and to == "deck" and t.get("all"):
        return Built(lambda st, ctx: st.fx_opp_waiting_to_deck(), 0.5, "to_deck")
    if src == "waiting_room" and t.get("all") and who in ("you", "both") and to == "deck":
        both = who == "both"
        return Built(lambda st, ctx: st.fx_waiting_to_deck(both), 0.0, "to_deck")
    if src == "hand" and who == "you" and to in ("top", "bottom"):
        n = amount(p, "count")
        return Built(lambda st, ctx: st.fx_hand_to_deck(n(st, ctx), to), -0.5, "to_deck")
    if src == "waiting_room" and who == "you" and to in ("top", "bottom", "deck"):
        sel = selection({**t, "zone": "waiting_room"})
        n = amount(p, "count")
        return Built(lambda st, ctx: st.fx_move_chosen(ctx, sel, n(st, ctx), "deck_" + to), 0.0, "to_deck")
    raise Unsupported(f"cards of {'the goldfish' if who == 'opponent' else 'yours'} from the {src} into a deck"
                      if src else "cards into a deck")


def _eff_shuffle(p: Mapping[str, Any]) -> Built:
    who = p.get("who", "you")
    if who == "opponent":
        return Built(lambda st, ctx: st.fx_opp_shuffle(), 0.0, "shuffle")
    if who == "both":
        return Built(lambda st, ctx: (st.fx_shuffle(), st.fx_opp_shuffle())[0], 0.0, "shuffle")
    return Built(lambda st, ctx: st.fx_shuffle(), 0.0, "shuffle")


def _soul_target(t: Any) -> Sel:
    if not isinstance(t, Mapping):
        raise Unsupported("this soul change")
    if t.get("ref") == "this" and "relative" not in t:
        return Sel(None, ref="this")
    if t.get("ref") == "that" and "relative" not in t:
        return Sel(None, ref="that")
    sel = selection(t)
    if sel.zone != "stage":
        raise Unsupported(f"soul of cards in {sel.zone}")
    return sel


def _eff_soul(p: Mapping[str, Any], continuous: bool) -> Built:
    n = amount(p)
    raw = p.get("amount")
    if isinstance(raw, int) and raw <= 0:
        raise Skip(NO_OPP_CHARS) if (p.get("target") or {}).get("relative") == "opposite" else Unsupported(
            "your characters lose soul")
    sel = _soul_target(p.get("target"))
    if continuous:
        raise Unsupported("a lasting soul change inside an effect")
    dur = p.get("duration")
    if dur not in ("turn", None, "next_opponent_turn_end"):
        raise Unsupported(f"soul change lasting {dur}")
    return Built(lambda st, ctx: st.fx_soul(ctx, sel, n(st, ctx)), 1.0 * (raw if isinstance(raw, int) else 1), "soul",
                 soul=raw if isinstance(raw, int) else 1)


def _eff_burn(p: Mapping[str, Any]) -> Built:
    n = amount(p)
    target = p.get("target", "opponent")
    raw = p.get("amount")
    g = 0.7 * (raw if isinstance(raw, int) else 1)
    if target == "opponent":
        return Built(lambda st, ctx: st.fx_burn(n(st, ctx)), g, "burn")
    if target == "you":
        return Built(lambda st, ctx: st.fx_self_damage(n(st, ctx)), -g, "burn")
    raise Unsupported(f"damage to {target}")


def _eff_stand(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    if t.get("who") == "opponent":
        raise Skip(NO_OPP_CHARS)
    sel = _soul_target(t)
    return Built(lambda st, ctx: st.fx_stand(ctx, sel), 1.0, "stand")


def _eff_rest(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    if t.get("who") == "opponent" or t.get("relative") == "opposite":
        raise Skip(NO_OPP_CHARS)
    if t.get("ref") == "this":
        return Built(lambda st, ctx: st.fx_rest_this(ctx), -0.5, "rest")
    raise Unsupported("resting your characters as an effect")


def _eff_leave(kind: str) -> Callable[[Mapping[str, Any]], Built]:
    dest = {"to_waiting_room": "waiting", "bounce": "hand", "to_deck_from_stage": "deck", "to_clock": "clock",
            "to_stock": "stock", "to_memory": "memory", "reverse": "reverse"}[kind]

    def build(p: Mapping[str, Any]) -> Built:
        t = p.get("target") or {}
        if not isinstance(t, Mapping):
            raise Unsupported(f"this {kind} effect")
        if t.get("who") == "opponent" or t.get("relative") == "opposite" or str(t.get("ref", "")).startswith(
                "battle") or (t.get("who") is None and t.get("ref") is None):
            raise Skip(NO_OPP_CHARS)
        if t.get("ref") == "this" and dest in ("waiting", "hand", "memory", "stock", "clock"):
            return Built(lambda st, ctx: st.fx_this_to(ctx, dest), -1.0, kind)
        if t.get("ref") == "that" and set(t) <= {"ref", "kind", "who"} and dest in ("waiting", "hand", "memory",
                                                                                  "stock", "clock"):
            return Built(lambda st, ctx: st.fx_that_to(ctx, dest), -1.0, kind)
        if t.get("who") == "you" and t.get("ref") is None and dest in ("waiting", "hand", "memory", "stock", "clock"):
            sel = selection({**{k: v for k, v in t.items() if k != "count"}, "zone": t.get("zone") or "stage"})
            n = amount(p, "count")
            if sel.zone != "stage":
                raise Unsupported(f"your characters {kind}")
            return Built(lambda st, ctx: st.pay_stage_to(ctx, sel, n(st, ctx), dest), -2.0, kind)
        raise Unsupported(f"your characters {kind}")
    return build


def _eff_restriction(p: Mapping[str, Any]) -> Built:
    what = p.get("what")
    t = p.get("target") or {}
    if p.get("player") == "opponent" or (isinstance(t, Mapping) and (t.get("who") == "opponent" or t.get(
            "relative") == "opposite" or str(t.get("ref", "")).startswith("battle"))):
        raise Skip(RESTRICTION)
    if what in ("side_attack", "front_attack", "be_chosen", "be_reversed", "be_front_attacked", "deal_damage_battle",
                "move", "be_moved", "be_side_attacked", "backup"):
        raise Skip(RESTRICTION)
    raise Unsupported(f"a restriction on {what}")


def _eff_rule_change(p: Mapping[str, Any]) -> Built:
    if p.get("what") == "deck_limit":
        raise Skip(DECK_RULE)
    if p.get("what") in ("no_soul_penalty_on_side_attack",):
        raise Skip(RESTRICTION)
    raise Unsupported(f"a rule change ({p.get('what')})")


def _eff_choose(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    if isinstance(t, Mapping) and (t.get("who") == "opponent" or t.get("relative") == "opposite"):
        raise Skip(NO_OPP_CHARS)
    raise Unsupported("choosing cards for a later effect")


def _eff_grant(p: Mapping[str, Any], card: CardRecord) -> Built:
    nested = p.get("abilities") or []
    if _grants_encore(p):
        # 『【自】アンコール[…]』 given for a while: it can matter when a character leaves the stage
        # by an effect during your turn (the goldfish never makes one leave on its own turn)
        costs = tuple(cost_of(c) for c in Ability.from_dict(nested[0]).cost)
        sel = _soul_target(p.get("target"))
        return Built(lambda st, ctx: st.fx_grant_encore(ctx, sel, costs), 0.3, "grant_ability")
    reasons = []
    for d in nested:
        a = Ability.from_dict(d)
        if not a.compiled:
            raise Unsupported("a granted ability the compiler did not read")
        r = analyse(a, card, granted=True)
        if r.status != NO_EFFECT:
            raise Unsupported(f"granting {a.text[:40]}")
        reasons.append(r.reason)
    raise Skip(reasons[0] if reasons else NO_BATTLE)


def _eff_move(p: Mapping[str, Any]) -> Built:
    to = p.get("to")
    if isinstance(to, Mapping) and to.get("as_marker"):
        raise Unsupported("markers under a card")
    src = p.get("from")
    t = p.get("target") or {}
    if src == "hand" and to == "clock" and (not t or t.get("who", "you") == "you"):
        n = amount(p, "count")
        return Built(lambda st, ctx: st.fx_hand_to_clock(n(st, ctx)), -1.0, "move")
    if isinstance(t, Mapping) and (t.get("who") == "opponent" or t.get("zone") == "climax_zone"):
        if t.get("zone") in ("climax_zone", "stage", None) or src in ("climax_zone", "stage"):
            raise Skip(OPP_NEVER_PLAYS if t.get("zone") == "climax_zone" else NO_OPP_CHARS)
    raise Unsupported(f"moving cards from {src} to {to}")


def _eff_trigger_effect(p: Mapping[str, Any]) -> Built:
    icon = p.get("icon")
    if icon in ("draw", "pool", "comeback", "gate", "standby", "choice", "treasure"):
        return Built(lambda st, ctx: st.fx_icon(icon), 1.0, "trigger_effect")
    if icon == "return":
        raise Skip(NO_OPP_CHARS)
    raise Unsupported(f"the {icon} trigger's effect")


def _eff_reveal_hand(p: Mapping[str, Any]) -> Built:
    t = p.get("target") or {}
    who = t.get("who", "you")
    if who == "opponent" and (p.get("optional") or p.get("player") == "opponent" and p.get("optional")):
        raise Skip(GOLDFISH_DECLINES)
    if who == "opponent":
        return Built(lambda st, ctx: st.fx_reveal_hand(ctx, True), 0.0, "reveal_hand")
    return Built(lambda st, ctx: st.fx_reveal_hand(ctx, False), 0.0, "reveal_hand")


_SIMPLE: dict[str, Callable[[Mapping[str, Any]], Built]] = {
    "draw": _eff_draw, "discard": _eff_discard, "stock_charge": _eff_stock_charge, "clock_heal": _eff_clock_heal,
    "mill": _eff_mill, "clock_damage": _eff_clock_damage, "salvage": _eff_salvage, "search": _eff_search,
    "look": _eff_look, "reveal": _eff_reveal, "brainstorm": _eff_brainstorm, "memory": _eff_memory,
    "put_on_stage": _eff_put_on_stage, "to_hand": _eff_to_hand, "to_deck": _eff_to_deck, "shuffle": _eff_shuffle,
    "burn": _eff_burn, "stand": _eff_stand, "rest": _eff_rest, "restriction": _eff_restriction,
    "rule_change": _eff_rule_change, "choose": _eff_choose, "move": _eff_move,
    "trigger_effect": _eff_trigger_effect, "reveal_hand": _eff_reveal_hand,
    **{k: _eff_leave(k) for k in ("to_waiting_room", "bounce", "to_deck_from_stage", "to_clock", "to_stock",
                                  "to_memory", "reverse")},
}
_SKIP_KINDS: dict[str, str] = {
    "power": POWER_ONLY, "backup": NO_COUNTER, "great_performance": gettext_noop(
        "makes the opponent front-attack this card: the goldfish never attacks characters"),
    "stock_discard": NO_OPP_STOCK, "move_slot": gettext_noop(
        "moves characters between slots: slots matter only opposite opposing characters"),
    "name_alias": "", "grant_trait": "",
}


OPP_TURN_ONLY = gettext_noop("lasts only during the goldfish's turn, when your characters neither attack nor leave "
                             "the stage")


_UNPLAYED_KINDS = {"grant_trait": "traits given to cards", "name_alias": "names given to cards",
                   "cost_change": "cost changes", "modal": "a choice between effects"}


def effect(e: Effect, card: CardRecord, *, continuous: bool = False, hook: str = "") -> Built:
    """One effect → a :class:`Built` step, or :class:`Skip` / :class:`Unsupported`. ``hook``: when
    the ability resolves (an effect lasting the goldfish's turn changes nothing)."""
    k = e.kind
    p = e.params or {}
    if hook.startswith("opp:") and k in ("soul", "grant_ability", "stand", "level") and p.get("duration", "turn") == "turn":
        raise Skip(OPP_TURN_ONLY)
    if k in _SKIP_KINDS and _SKIP_KINDS[k]:
        raise Skip(_SKIP_KINDS[k])
    if k == "level":
        t = p.get("target") or {}
        if isinstance(t, Mapping) and t.get("zone") == "hand":
            raise Unsupported("a level change in hand inside an effect")
        raise Skip(STAGE_LEVEL)
    at = p.get("at")
    if at is not None:
        hook = _delayed_hook(at)
        inner = effect(Effect(k, {k2: v for k2, v in p.items() if k2 not in ("at", "then", "if", "optional")}), card)
        step = inner.step
        built = Built(lambda st, ctx: st.schedule(hook, step, ctx), inner.gain, inner.kind)
        return _gated(built, {k2: v for k2, v in p.items() if k2 in ("then", "if", "optional")})
    if k == "soul":
        built = _eff_soul(p, continuous)
    elif k == "grant_ability":
        built = _eff_grant(p, card)
    elif k in _SIMPLE:
        built = _SIMPLE[k](p)
    elif k == "truncated":
        raise Unsupported(gettext_noop("the source cut this text short"))
    else:
        raise Unsupported(_UNPLAYED_KINDS.get(k, f"{k} effects"))
    return _gated(built, p)


def _delayed_hook(at: Any) -> str:
    """When a delayed effect (``params.at``) resolves: this turn's end, the start of your next
    encore step / draw phase..."""
    if not isinstance(at, Mapping) or at.get("turn", "you") != "you":
        raise Unsupported(gettext_noop("a delayed effect on the goldfish's turn"))
    if at.get("when") == "end" and at.get("phase") == "turn":
        return "end:turn"
    if at.get("when") == "start" and at.get("phase") in _PHASES:
        return "start:" + str(at["phase"])
    raise Unsupported("a delayed effect at this step")


def _gated(built: Built, p: Mapping[str, Any]) -> Built:
    """Wrap a step with its ``if`` (a condition checked when it resolves), ``then`` (done /
    not_done: after an optional action) and ``optional`` (the engine takes a "may" that gains; one
    that only loses cards it declines, unless a later effect depends on it: see ``Program``)."""
    step = built.step
    cond: Cond | None = None
    raw_if = p.get("if")
    if raw_if is not None:
        negate = False
        if isinstance(raw_if, Mapping) and "not" in raw_if and "kind" not in raw_if:
            raw_if, negate = raw_if["not"], True
        if not isinstance(raw_if, Mapping) or "kind" not in raw_if:
            raise Unsupported("this condition")
        try:
            inner = condition(Effect.from_dict(raw_if))
        except Skip:
            if not negate:
                raise
            inner = None
        if inner is None:
            cond = None
        elif negate:
            cond = lambda st, ctx, f=inner: not f(st, ctx)  # noqa: E731
        else:
            cond = inner
    then = p.get("then")
    optional = bool(p.get("optional"))
    if cond is None and then is None and not optional:
        return built

    def run(st: Any, ctx: Any, step: Step = step, cond: Cond | None = cond, then: Any = then,
            optional: bool = optional, gain: float = built.gain) -> Any:
        if then == "done" and not ctx.done:
            return None
        if then == "not_done" and ctx.done:
            return None
        if cond is not None and not cond(st, ctx):
            if optional:
                ctx.done = False
            return None
        if optional:
            take = gain > 0 or ctx.needs_optional
            ctx.done = take
            if not take:
                return None
        return step(st, ctx)

    return Built(run, built.gain, built.kind, built.soul)


# ---------------------------------------------------------------------------------------------
# costs


def cost_of(e: Effect) -> Cost:
    """One cost → :class:`Cost`; backup's discard-this and unknown costs raise."""
    p = e.params or {}
    k = e.kind
    if k == "stock":
        n = p.get("n", 1)
        if not isinstance(n, int):
            raise Unsupported(f"stock cost {n!r}")
        return Cost("stock", lambda st, ctx: len(st.stock) >= n, lambda st, ctx: st._pay(n), 0.6 * n)
    if k == "discard":
        t = p.get("target") or {}
        n = p.get("count", 1)
        if t.get("zone", "hand") != "hand" or not isinstance(n, int):
            raise Unsupported("this discard cost")
        pred = card_pred({k2: v for k2, v in t.items() if k2 in _PRED_KEYS})
        return Cost("discard", lambda st, ctx: st.can_discard(ctx, n, pred),
                    lambda st, ctx: st.pay_discard(ctx, n, pred), 1.0 * n)
    if k == "rest":
        t = p.get("target") or {}
        if t.get("ref") == "this":
            # (resting a back-row character costs nothing here; the pilot counts a front-row one's attack)
            return Cost("rest_this", lambda st, ctx: st.can_rest_this(ctx), lambda st, ctx: st.fx_rest_this(ctx), 0.0)
        n = t.get("count", 1)
        if not isinstance(n, int):
            raise Unsupported("this rest cost")
        sel = selection({**{k2: v for k2, v in t.items() if k2 not in ("count", "state")}, "state": "standing"})
        if sel.zone != "stage":
            raise Unsupported("this rest cost")
        return Cost("rest", lambda st, ctx: len(sel.stage_slots(st, ctx)) >= n,
                    lambda st, ctx: st.pay_rest(ctx, sel, n), 0.5 * n)
    if k == "this_to_waiting_room":
        return Cost("this_to_waiting_room", lambda st, ctx: ctx.source_slot(st) is not None,
                    lambda st, ctx: st.fx_this_to(ctx, "waiting"), 2.0)
    if k == "memory":
        t = p.get("target") or {}
        if t.get("zones") == ["climax_zone", "waiting_room"]:
            n = p.get("count", 1)
            t2 = {k2: v for k2, v in t.items() if k2 not in ("zones", "count", "zone")}
            sel_cx = selection({**t2, "zone": "climax_zone", "who": "you"})
            sel_wr = selection({**t2, "zone": "waiting_room", "who": "you"})
            return Cost("to_memory", lambda st, ctx: len(st.cost_cards(ctx, sel_cx)) + len(st.cost_cards(ctx, sel_wr)) >= n,
                        lambda st, ctx: st.pay_cards_to(ctx, sel_wr if st.cost_cards(ctx, sel_wr) else sel_cx, n,
                                                        "memory"), 0.3 * n)
        if t.get("ref") != "this" and t.get("zone") in ("hand", "waiting_room", "climax_zone") and "zones" not in t:
            n = p.get("count", 1)
            sel = selection({**{k2: v for k2, v in t.items() if k2 != "count"}, "who": "you"})
            value = 1.0 if t.get("zone") == "hand" else 0.3
            return Cost("to_memory", lambda st, ctx: len(st.cost_cards(ctx, sel)) >= n,
                        lambda st, ctx: st.pay_cards_to(ctx, sel, n, "memory"), value * n)
        if t.get("ref") != "this" or set(t) != {"ref"}:
            raise Unsupported("this memory cost")
        return Cost("memory", lambda st, ctx: st.can_move_this(ctx), lambda st, ctx: st.fx_this_to(ctx, "memory"),
                    2.0)
    if k == "clock_damage":
        n = p.get("count", 1)
        if not isinstance(n, int):
            raise Unsupported(f"clock cost {n!r}")
        return Cost("clock_damage", lambda st, ctx: True, lambda st, ctx: st.fx_clock_damage(n), 1.5 * n)
    if k == "reveal":
        t = p.get("target") or {}
        pred = card_pred({k2: v for k2, v in t.items() if k2 in _PRED_KEYS})
        return Cost("reveal", lambda st, ctx: st.can_discard(ctx, p.get("count", 1), pred), lambda st, ctx: None, 0.0)
    if k == "return_this":
        if set(p.get("target") or {"ref": "this"}) - {"ref"}:
            raise Unsupported("this return cost")
        return Cost("return_this", lambda st, ctx: ctx.source_slot(st) is not None,
                    lambda st, ctx: st.fx_this_to(ctx, "hand"), 1.5)
    if k == "discard_this":
        raise Skip(NO_COUNTER)
    if k == "move":
        return _move_cost(p)
    if k == "to_clock":
        t = p.get("target") or {}
        if t.get("ref") == "this" and set(t) == {"ref"}:
            return Cost("this_to_clock", lambda st, ctx: ctx.source_slot(st) is not None,
                        lambda st, ctx: st.fx_this_to(ctx, "clock"), 2.5)
        if t.get("zone") == "stage" and t.get("who", "you") == "you":
            n = p.get("count", 1)
            sel = selection({k2: v for k2, v in t.items() if k2 != "count"})
            return Cost("stage_to_clock", lambda st, ctx: len(st.cost_slots(ctx, sel)) >= n,
                        lambda st, ctx: st.pay_stage_to(ctx, sel, n, "clock"), 3.0 * n)
        if t.get("zone") == "hand":
            n = p.get("count", 1)
            pred = card_pred({k2: v for k2, v in t.items() if k2 in _PRED_KEYS})
            return Cost("to_clock", lambda st, ctx: st.can_discard(ctx, n, pred),
                        lambda st, ctx: st.pay_hand_to_clock(ctx, n, pred), 2.0 * n)
        raise Unsupported("this clock cost")
    raise Unsupported(f"{k} costs")


def _move_cost(p: Mapping[str, Any]) -> Cost:
    """A cost that moves cards: hand → clock, stage → waiting room, memory / waiting room → another
    zone, stock → clock, this card → stock."""
    t = dict(p.get("target") or {})
    src = p.get("from") or t.get("zone")
    to = p.get("to")
    n = p.get("count", t.get("count", 1))
    if not isinstance(n, int):
        raise Unsupported("this cost moving cards")
    t.pop("count", None)
    if p.get("as") == "shuffle":
        return Cost("shuffle", lambda st, ctx: True, lambda st, ctx: st.fx_shuffle(), 0.0)
    if p.get("as") == "stock_charge" and t.get("ref") == "this" and src == "stage":
        return Cost("this_to_stock", lambda st, ctx: ctx.source_slot(st) is not None,
                    lambda st, ctx: st.fx_this_to(ctx, "stock"), 2.0)
    if src == "hand" and to == "clock":
        pred = card_pred({k2: v for k2, v in t.items() if k2 in _PRED_KEYS})
        return Cost("hand_to_clock", lambda st, ctx: st.can_discard(ctx, n, pred),
                    lambda st, ctx: st.pay_hand_to_clock(ctx, n, pred), 2.0 * n)
    if to == "waiting_room" and (src in (None, "stage") or t.get("zone") == "stage") and t.get("kind") == "character":
        sel = selection({**t, "zone": "stage"})
        return Cost("stage_to_waiting", lambda st, ctx: len(st.cost_slots(ctx, sel)) >= n,
                    lambda st, ctx: st.pay_stage_to(ctx, sel, n, "waiting"), 2.0 * n)
    if src in ("memory", "waiting_room", "stock") and to in ("waiting_room", "deck", "clock"):
        sel = selection({**t, "zone": src, "who": "you"})
        dest = {"waiting_room": "waiting", "deck": "deck", "clock": "clock"}[to]
        value = {"memory": 0.2, "waiting_room": 0.1, "stock": 1.0}[src] + (1.5 if to == "clock" else 0.0)
        return Cost(f"{src}_to_{to}", lambda st, ctx: len(st.cost_cards(ctx, sel)) >= n,
                    lambda st, ctx: st.pay_cards_to(ctx, sel, n, dest), value * n)
    raise Unsupported("a cost putting cards under a card (markers)" if isinstance(to, Mapping) and to.get("as_marker")
                      else f"a cost moving cards from the {src} to the {to}")


# ---------------------------------------------------------------------------------------------
# triggers


_PHASES = {"climax_phase", "attack_phase", "encore_step", "draw_phase", "main_phase"}


def trigger(e: Effect, card: CardRecord) -> tuple[str, Any]:
    """An 【自】 ability's trigger → ``(hook, arg)``."""
    p = e.params or {}
    k = e.kind
    if k == "placed":
        ways: set[str] = set()
        for alt in [{"kind": k, "params": p}, *(p.get("or") or [])]:
            ap = alt.get("params") or {}
            if alt.get("kind") != "placed":
                raise Unsupported(f"placed or {alt.get('kind')}")
            src = ap.get("from")
            by = ap.get("by")
            if src == "hand" or by == "play":
                ways.add("hand")
            elif src == "waiting_room":
                ways.add("waiting_room")
            elif by == "effect" or src in ("deck", "clock", "memory"):
                ways.add("effect")
            elif by is not None and "チェンジ" in str(by):
                ways.add("change")  # the engine never changes: never fires
            elif src is None and by is None:
                ways.update(("hand", "effect", "waiting_room"))
            else:
                raise Unsupported(f"placed from {src} by {by}")
        t = p.get("target")
        if p.get("ref") == "this":
            return "placed", frozenset(ways)
        if isinstance(t, Mapping):
            if t.get("who") == "opponent":
                raise Skip(OPP_NEVER_PLAYS)
            sel = selection(t)
            if sel.zone != "stage":
                raise Unsupported("this 'placed on the stage' trigger")
            return "other_placed", (sel, frozenset(ways))
        raise Unsupported("this 'placed on the stage' trigger")
    if k == "attacks":
        if p.get("type") in ("front", "side"):
            raise Skip(gettext_noop("front and side attacks need an opposing character: every attack on the "
                                    "goldfish is direct"))
        if p.get("ref") == "this":
            return "attack", None
        t = p.get("target")
        if isinstance(t, Mapping) and t.get("who", "you") == "you":
            sel = selection(t)
            return "other_attack", sel
        raise Unsupported("this attack trigger")
    if k in ("attacked", "reversed", "battle_opponent_reversed"):
        raise Skip(NO_BATTLE)
    if k == "climax_placed":
        if p.get("ref") == "this":
            return "climax", None
        t = p.get("target") or {}
        if p.get("who") == "opponent" or t.get("who") == "opponent":
            raise Skip(OPP_NEVER_PLAYS)
        pred = card_pred({k2: v for k2, v in t.items() if k2 in _PRED_KEYS and k2 != "kind"})
        return "cx_placed", pred
    if k == "phase":
        turn = p.get("turn")
        phase = p.get("phase")
        when = p.get("when")
        if turn == "opponent":
            if when == "start" and phase in _PHASES:
                return "opp:start:" + str(phase), None
            if when == "end" and phase == "turn":
                return "opp:end:turn", None
            raise Unsupported(f"the {when} of the goldfish's {phase}")
        if turn != "you":
            raise Unsupported(f"a trigger on every player's {phase}")
        if when == "start" and phase in _PHASES:
            return "start:" + str(phase), None
        if when == "end" and phase == "turn":
            return "end:turn", None
        raise Unsupported(f"the {when} of {phase}")
    if k == "leaves_stage":
        if p.get("ref") == "this" and p.get("to", "waiting_room") == "waiting_room":
            return "leave", None
        raise Unsupported("another character leaving the stage")
    if k == "damage_cancelled":
        if p.get("by") == "this" and p.get("cancelled") is True:
            return "cancelled", p.get("during") == "turn_placed"
        if p.get("to") == "you" and p.get("by") is None:
            turn = p.get("turn")
            if turn not in (None, "opponent"):
                raise Unsupported("this damage-cancelled trigger")
            return ("taken_cancelled" if p.get("cancelled") else "taken_not_cancelled"), turn == "opponent"
        raise Unsupported("this damage-cancelled trigger")
    if k == "ability_used":
        what = p.get("what")
        who = (p.get("target") or {}).get("who", "you")
        if what == "助太刀" or (what is None and p.get("of") == "this"):  # this card's 「助太刀」
            raise Skip(NO_COUNTER)
        if who == "opponent":
            raise Skip(OPP_NEVER_PLAYS)
        if what == "【起】":
            return "act_used", None
        if what == "集中":
            return "brainstorm_used", None
        raise Unsupported(f"using {what}")
    if k == "level_up":
        if (p.get("target") or {}).get("who", "you") == "you":
            return "level_up", None
        raise Unsupported("the goldfish levels up")
    if k == "trigger_check":
        t = p.get("target") or {}
        if t.get("kind") == "climax" and len(t) == 1:
            return "trigger_climax", None
        raise Unsupported("this trigger-check trigger")
    if k == "card_moved":
        who = (p.get("target") or {}).get("who", "you")
        if who == "opponent":
            raise Skip(OPP_NEVER_PLAYS)
        if p.get("played") is not None and who == "you" and p.get("turn", "you") == "you":
            pred = card_pred(p["played"])
            return "event_played", pred
        t = p.get("target") or {}
        if who == "you" and p.get("to") == "level" and set(t) <= {"who", "kind"}:
            return "to_level", card_pred(t)
        if who == "you" and p.get("to") == "clock" and p.get("from") == "hand" and set(t) <= {"who", "kind"}:
            return "clocked", card_pred(t)
        raise Unsupported("this card-moved trigger")
    if k == "refresh":
        if (p.get("target") or {}).get("who", "you") == "you":
            return "refresh", None
        raise Unsupported("the goldfish refreshes")
    if k == "state_changed":
        if (p.get("target") or {}).get("who") == "opponent":
            raise Skip(NO_OPP_CHARS)
        raise Unsupported("this state-changed trigger")
    raise Unsupported(f"{k} triggers")


# ---------------------------------------------------------------------------------------------
# abilities


def _where(a: Ability, card: CardRecord) -> str:
    if card.card_type == "climax":
        return "climax"
    if card.card_type == "event":
        return "resolving"
    for c in a.conditions:
        if c.kind == "in_zone":
            zone = (c.params or {}).get("zone")
            pos = (c.params or {}).get("position")
            if zone == "clock" and pos == "top":
                return "clock_top"
            if zone == "memory":
                return "memory"
            if zone == "hand":
                return "hand"
            raise Unsupported(f"an ability working from the {zone}")
    if "from_clock" in a.keywords:
        raise Unsupported("an ability working from the clock")
    return "stage"


def _continuous(a: Ability, card: CardRecord, conds: tuple[Cond, ...], where: str, index: int) -> Program:
    soul = 0
    power = 0
    target: Sel | None = None
    level = 0
    encore: tuple[Cost, ...] | None = None
    encore_target: Sel | None = None
    reasons: list[str] = []
    flags: set[str] = set()
    for e in a.effects:
        p = e.params or {}
        if e.kind == "soul":
            raw = p.get("amount")
            t = p.get("target") or {}
            if isinstance(t, Mapping) and (t.get("relative") == "opposite" or t.get("who") == "opponent"):
                reasons.append(NO_OPP_CHARS)
                continue
            if not isinstance(raw, int) or raw <= 0 or p.get("per") or p.get("duration") or target is not None:
                raise Unsupported("this lasting soul change")
            soul = raw
            target = _soul_target(t)
            if target.ref not in (None, "this"):
                raise Unsupported("a lasting soul change of chosen cards")
        elif e.kind == "power" and card.card_type == "climax":
            raw = p.get("amount")
            power = raw if isinstance(raw, int) else 0
            reasons.append(POWER_ONLY)
        elif e.kind == "level" and (p.get("target") or {}).get("zone") == "hand" and \
                (p.get("target") or {}).get("ref") == "this":
            raw = p.get("amount")
            if not isinstance(raw, int) or p.get("per"):
                raise Unsupported("this level change in hand")
            level = raw
        elif e.kind == "restriction" and (p.get("target") or {}) == {"ref": "this"} and (
                p.get("what") in ("attack", "direct_attack") and not p.get("when") or p.get("what") == "stand" and
                p.get("when") == {"phase": "stand_phase", "turn": "you"}) and not p.get("duration"):
            flags.add("no_attack" if p["what"] != "stand" else "no_stand")
        elif e.kind == "restriction" and p.get("what") == "play" and p.get("player") == "you" and p.get("cards") == {
                "kind": "climax"} and p.get("when") == {"turn": "you", "phase": "climax_phase"}:
            flags.add("no_climax")
        elif e.kind == "grant_ability" and _grants_encore(p):
            if encore is not None:
                raise Unsupported("two granted encores")
            nested = Ability.from_dict(p["abilities"][0])
            encore = tuple(cost_of(c) for c in nested.cost)
            encore_target = _soul_target(p.get("target"))
        else:
            try:
                effect(e, card, continuous=True)
            except Skip as s:
                reasons.append(s.reason)
                continue
            raise Unsupported(_UNPLAYED_KINDS.get(e.kind, f"a lasting {e.kind} effect"))
    if not soul and not level and encore is None and not flags and not (power and card.card_type == "climax"):
        raise Skip(reasons[0] if reasons else POWER_ONLY)
    hook = "climax_cont" if card.card_type == "climax" else "cont"
    if card.card_type == "climax" and (level or encore is not None or flags):
        raise Unsupported("a climax's lasting effect")
    prog = Program(card.code, index, hook, a.text, where=where, conds=conds, soul=soul, power=power,
                   target=target, kinds=frozenset(k for k, v in (("soul", soul), ("level", level),
                                                                  ("encore", encore is not None)) if v))
    prog.arg = {"level": level, "encore": encore, "encore_target": encore_target, **{f: True for f in flags}}
    return prog


def _grants_encore(p: Mapping[str, Any]) -> bool:
    nested = p.get("abilities") or []
    return len(nested) == 1 and list(nested[0].get("keywords") or []) == ["encore"] and \
        [e.get("kind") for e in nested[0].get("effects") or []] == ["encore"]


def _all_skip(a: Ability, card: CardRecord, hook: str = "") -> str | None:
    """The reason when every effect of ``a`` changes nothing in a goldfish game (then its
    conditions and costs do not matter: the pilot never pays for nothing)."""
    reason = None
    for e in a.effects:
        try:
            effect(e, card, continuous=a.kind in ("continuous", "keyword", "climax") and a.trigger is None, hook=hook)
        except Skip as s:
            reason = reason or s.reason
            continue
        except Unsupported:
            return None
        return None
    return reason


_LEAVE_KINDS = frozenset({"to_waiting_room", "bounce", "to_clock", "to_stock", "to_memory"})


def _that_character(e: Effect, prev: Any, text: str) -> Effect:
    """"そのキャラを…" after a choice: the compiler repeats the chosen target; read it as the card
    chosen before (``ref: that``)."""
    p = e.params or {}
    t = p.get("target")
    if e.kind in _LEAVE_KINDS and isinstance(t, Mapping) and isinstance(prev, Mapping) and "そのキャラ" in text and \
            t.get("who") == "you" and "ref" not in t and {k: v for k, v in t.items() if k != "count"} == {
                k: v for k, v in prev.items() if k != "count"}:
        return Effect(e.kind, {**p, "target": {"ref": "that", "kind": "character"}})
    return e


def _choice_of(t: Mapping[str, Any]) -> Sel | None:
    """Your characters a target chooses (``None``: not a choice of your characters)."""
    try:
        sel = selection(t)
    except (Skip, Unsupported):
        return None
    return sel if sel.zone == "stage" and not sel.all else None


def _analyse(a: Ability, card: CardRecord, index: int, granted: bool) -> Analysis:
    if a.kind == "counter":
        raise Skip(NO_COUNTER)
    kinds = [e.kind for e in a.effects]
    # the hook first: a trigger that never fires in a goldfish game makes the rest irrelevant
    if a.trigger is not None and kinds != ["encore"] and a.kind not in ("activated", "event", "continuous"):
        hook, arg = trigger(a.trigger, card)
    elif a.kind == "event" or (card.card_type == "event" and a.trigger is None and a.kind != "activated"):
        hook, arg = "event", None
    elif a.kind == "activated":
        hook, arg = "act", None
    else:
        hook, arg = "", None
    if not a.effects:
        if a.keywords and all(k.startswith("icon:") for k in a.keywords):
            return Analysis(PLAYED, TRIGGER_ICON)
        if a.conditions and all(c.kind == "play_requirement" for c in a.conditions) and not a.trigger:
            return Analysis(PLAYED, "", Program(card.code, index, "play_req", a.text, where="hand",
                                                conds=tuple(play_requirement(c) for c in a.conditions)))
        raise Unsupported("an ability without an effect the compiler read")
    if kinds == ["encore"]:
        if a.trigger is None or a.trigger.kind != "leaves_stage":
            raise Unsupported("encore")
        costs = tuple(cost_of(c) for c in a.cost)
        return Analysis(PLAYED, "", Program(card.code, index, "encore", a.text, cost=costs,
                                            kinds=frozenset({"encore"})))
    skip = _all_skip(a, card, hook)
    if skip is not None:
        raise Skip(skip)
    if kinds == ["shift"]:
        sp = a.effects[0].params or {}
        if not isinstance(sp.get("level"), int) or not sp.get("color"):
            raise Unsupported("シフト (shift)")
        return Analysis(PLAYED, "", Program(card.code, index, "shift", a.text, arg=(sp["level"], sp["color"]),
                                            where="clock", kinds=frozenset({"shift"})))
    where = _where(a, card)
    conds: list[Cond] = []
    reqs: list[Cond] = []
    limit = 1 if a.once_per_turn else 0
    for c in a.conditions:
        if c.kind == "play_requirement":
            reqs.append(play_requirement(c))
        elif c.kind == "times_per_turn":
            limit = int((c.params or {}).get("times", 1))
        elif c.kind == "in_zone":
            continue  # the source's zone (where)
        else:
            conds.append(condition(c))
    if not hook:
        if a.kind == "climax" and a.trigger is None:
            return Analysis(PLAYED, "", _continuous(a, card, tuple(conds), "climax", index))
        if a.kind in ("continuous", "keyword") and a.trigger is None and not a.cost:
            rest = [e for e in a.effects if not (e.kind == "restriction" and (e.params or {}).get("what") == "play")]
            if reqs and not rest:
                return Analysis(PLAYED, "", Program(card.code, index, "play_req", a.text, where="hand",
                                                    conds=tuple(reqs)))
            return Analysis(PLAYED, "", _continuous(a, card, tuple(conds), where, index))
        raise Unsupported(f"a {a.kind} ability without a trigger")
    if hook == "event":
        where = "resolving"
    costs = tuple(cost_of(c) for c in a.cost)
    steps: list[Step] = []
    reasons: list[str] = []
    gain = 0.0
    soul = 0
    executed: set[str] = set()
    dependent = any((e.params or {}).get("then") or (e.params or {}).get("if") or
                    (e.params or {}).get("per") == {"ref": "those", "kind": "climax"} for e in a.effects[1:])
    flipped = 1  # cards a brainstorm / mill flipped (the pilot's estimate of "per climax" effects)
    skipped_choice: str | None = None  # the reason the last choosing effect chose nothing
    pending_choice: Sel | None = None  # your characters a skipped effect (a power change) chose
    prev_target: Any = None
    for e in a.effects:
        e = _that_character(e, prev_target, a.text)
        t = (e.params or {}).get("target")
        if isinstance(t, Mapping) and "ref" not in t:
            prev_target = t
        refers = isinstance(t, Mapping) and t.get("ref") in ("that", "those")
        if refers and skipped_choice is not None and e.kind not in ("search", "salvage", "mill"):
            reasons.append(skipped_choice)  # the cards chosen by a skipped effect: none
            continue
        try:
            b = effect(e, card, hook=hook)
        except Skip as s:
            reasons.append(s.reason)
            if isinstance(t, Mapping) and not refers:
                if s.reason in (NO_OPP_CHARS, NO_BATTLE, RESTRICTION, OPP_NEVER_PLAYS):
                    skipped_choice, pending_choice = s.reason, None
                else:  # the effect does nothing but its choice stands (a later "そのキャラ")
                    skipped_choice, pending_choice = None, _choice_of(t)
            continue
        if isinstance(t, Mapping) and not refers:
            skipped_choice = pending_choice = None
        if refers and pending_choice is not None:
            chosen = pending_choice
            steps.append(lambda st, ctx, sel=chosen: st.fx_choose(ctx, sel))
            pending_choice = None
        steps.append(b.step)
        g = b.gain
        if (e.params or {}).get("per") == {"ref": "those", "kind": "climax"} or (
                (e.params or {}).get("x") or {}).get("ref") == "those":
            g *= flipped * CLIMAX_SHARE  # the expected climaxes among the cards flipped before
        if b.kind in ("brainstorm", "mill"):
            flipped = (e.params or {}).get("count", 1) if isinstance((e.params or {}).get("count", 1), int) else 1
        gain += g
        soul += b.soul
        executed.add(b.kind)
    if not steps:
        raise Skip(reasons[0] if reasons else POWER_ONLY)
    prog = Program(card.code, index, hook, a.text, arg=arg, where=where, conds=tuple(conds), cost=costs,
                   steps=tuple(steps), limit=limit, gain=gain, cost_value=sum(c.value for c in costs), soul=soul,
                   kinds=frozenset(executed), needs_optional=dependent, reqs=tuple(reqs))
    if hook == "act" and not costs and limit == 0:
        prog.limit = 1  # Decision: an activated ability without a cost is used once a turn
    return Analysis(PLAYED, "", prog)


def analyse(a: Ability, card: CardRecord, index: int = 0, granted: bool = False) -> Analysis:
    """How the goldfish engine treats ability ``a`` of ``card`` (see the module docstring)."""
    if not a.compiled:
        return Analysis(NOT_PLAYED, a.unrecognised or "")
    try:
        return _analyse(a, card, index, granted)
    except Skip as s:
        return Analysis(NO_EFFECT, s.reason)
    except Unsupported as u:
        return Analysis(NOT_PLAYED, u.reason)


# the coverage contract (``rules.coverage``), memoised by text, kind and card type
classify_ability = memoised_classifier(analyse)


def plays_card(card: CardRecord) -> str | None:
    """Every Weiß Schwarz card type is played by the rules (a counter event is never played in the
    main phase: that is the rule, not a gap)."""
    if card.card_type in ("character", "event", "climax"):
        return None
    return gettext_noop("cards of this type are never played")


# ---------------------------------------------------------------------------------------------
# a card's programs, by hook


@dataclass(slots=True)
class CardPrograms:
    """Every played ability of one card, grouped by hook (see :class:`Program`)."""

    by_hook: dict[str, tuple[Program, ...]] = field(default_factory=dict)
    hand_level: tuple[Program, ...] = ()
    play_req: tuple[Cond, ...] = ()
    encore: tuple[Program, ...] = ()

    def get(self, hook: str) -> tuple[Program, ...]:
        return self.by_hook.get(hook, ())


def abilities_of(card: CardRecord, compile_text: Callable[[str, str], Iterable[Ability]] | None = None
                 ) -> tuple[Ability, ...]:
    stored = getattr(card, "abilities", None)
    if stored:
        return tuple(stored)
    if is_vanilla_text(card.text):
        return ()
    if compile_text is None:
        from rules.ws.abilities import compile_text_cached as compile_text
    return tuple(compile_text(card.text, card.card_type))


@lru_cache(maxsize=65536)
def card_programs(card: CardRecord) -> CardPrograms | None:
    """The programs the engine runs for ``card`` (``None``: none), memoised by record."""
    by_hook: dict[str, list[Program]] = {}
    hand_level: list[Program] = []
    reqs: list[Cond] = []
    encore: list[Program] = []
    for i, a in enumerate(abilities_of(card)):
        r = analyse(a, card, i)
        prog = r.program
        if r.status != PLAYED or prog is None:
            continue
        if prog.hook == "play_req":
            reqs.extend(prog.conds)
            continue
        if prog.hook == "encore":
            encore.append(prog)
            continue
        if prog.hook == "event":
            reqs.extend(prog.reqs)
        if prog.hook == "cont" and prog.arg and prog.arg.get("level"):
            hand_level.append(prog)
            if not prog.soul and prog.arg.get("encore") is None and not prog.arg.get("no_attack") and \
                    not prog.arg.get("no_stand"):
                continue
        by_hook.setdefault(prog.hook, []).append(prog)
    if not by_hook and not hand_level and not reqs and not encore:
        return None
    return CardPrograms({k: tuple(v) for k, v in by_hook.items()}, tuple(hand_level), tuple(reqs), tuple(encore))
