"""What the Lycee goldfish engine does with each compiled ability (``rules.lycee.abilities``).

:func:`analyse` reads one :class:`rules.abilities.Ability` of a card and answers one of

- ``played``: :class:`Program` s the engine runs (a hook says when), made of :class:`Op` s — the
  effects that can change a goldfish game; effects that cannot (an AP change, a target on the
  dummy's empty field) are left out of them;
- ``no_effect``: nothing the ability does can change a goldfish game, with the goldfish rule that
  makes it so (GAMES.md §5 Goldfish: the dummy's field is empty, it never attacks, defends or
  declares; only its deck count matters, and undefended attacks deal DMG);
- ``not_played``: it could change the game but the engine does not execute it (the first part it
  cannot execute is the reason).

The same reading gives the coverage (:func:`classify_ability`, ``rules.coverage``) and what the
engine runs (:func:`card_plan`), so a report says ``played`` exactly when the engine plays it.

Decisions (docs/engine.md, Lycee): a declared ability ([宣言], [手札宣言]) is used at most once a
turn unless its text allows more (``（1ターンに3回まで使用可能）``: a [0]-cost ``DMG+2`` would
otherwise be infinite); a trump ([宣言][切札]) counts as declared; ``この能力は失われる`` makes an
ability once a game. Overture's [ボーナス] runs when its character's attack is not defended, its
[ペナルティ] when the character is downed (the compiler's vocabulary); [エンゲージ] lets a
character enter onto a field of mine holding a character, which is destroyed; charge (チャージ) is
the top card of my deck put under the character; a stat change "する" lasts until the end of the
turn, one "を得る" while the character stays.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.abilities import NO_EFFECT, NOT_PLAYED, PLAYED, Ability, Coverage, Effect, is_vanilla_text
from rules.cards import CardRecord
from rules.coverage import AnalysisSkip, AnalysisUnsupported, memoised_classifier
from rules.engine.core import gettext_noop

# -- why a part changes nothing in a goldfish game (GAMES.md §5 Goldfish) ---------------------------
NO_OPP_CARDS = gettext_noop("needs an opposing character, item or area: the dummy's field is empty")
NO_DEFENDER = gettext_noop("needs a battle with a defender: the dummy never defends")
NEVER_DOWNED = gettext_noop("my characters are never downed: the dummy never attacks or defends")
DUMMY_PASSIVE = gettext_noop("the dummy never declares, attacks, plays cards or uses effects")
STATS_ONLY = gettext_noop("AP, DP and SP never matter in a goldfish game: undefended attacks deal DMG")
DUMMY_HAND = gettext_noop("the dummy's hand never matters: it plays nothing")
DUMMY_DECK_ORDER = gettext_noop("the order of the dummy's deck never matters")
SHIELDS = gettext_noop("shields only stop damage to my deck, which the dummy never deals")
INFO_ONLY = gettext_noop("information only: the goldfish pilot does not act on it")
DECK_RULE = gettext_noop("a deck-construction rule: checked when the deck is built, not in a game")
OPP_TURN_ONLY = gettext_noop("acts only in the dummy's turn, when nothing it does can change the game")
EARLY_DEPLOY = gettext_noop("enters at another timing: a character entering in the dummy's turn gains nothing over "
                            "entering in my main phase")
TOKEN_DEFINITION = gettext_noop("the definition of a token another ability creates: that ability's status counts")
NO_SUPPORT = gettext_noop("supports only count in battles with a defender: the dummy never defends")
MOVES_NOTHING = gettext_noop("changes what the pilot already does")

Sel = Mapping[str, Any]


Skip = AnalysisSkip  # a part that changes nothing in a goldfish game (rules.coverage)
Unsupported = AnalysisUnsupported  # a part the engine does not execute (rules.coverage)


@dataclass(frozen=True, slots=True)
class Target:
    """Characters of mine an operation reaches: ``ref`` ``this`` (the source), ``that`` (the
    character the trigger or a previous effect named) or ``ally`` (chosen among mine: ``sel`` the
    compiled selector, ``count`` 0 = all of them)."""

    ref: str
    sel: Sel | None = None
    count: int = 1


@dataclass(frozen=True, slots=True)
class Cond:
    """A condition the engine evaluates when the effect resolves (``kind`` + its compiled params)."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Op:
    """One operation the engine executes.

    ``kind``: ``draw`` / ``opp_draw`` (n), ``mill`` / ``opp_mill`` (n), ``recover`` (n: dust box
    → bottom of my deck), ``opp_recover`` (n), ``shuffle``, ``discard`` (n, ``dest`` dust / top /
    bottom), ``dmg`` (n, ``target``, ``lasting``), ``stand`` / ``rest`` (``target``),
    ``aggressive`` (``target``), ``charge`` (n, ``target``), ``uncharge`` (n), ``destroy_this``,
    ``this_to_hand``, ``this_to_deck``, ``dust_to_deck`` / ``dust_to_hand`` (n, ``sel``),
    ``search`` (``sel``, ``dest`` hand / field), ``deploy`` (``sel``, ``zone``, ``free``),
    ``deploy_this`` (from the dust box), ``move_up`` (this character to an empty AF field),
    ``opp_hand_to_deck`` (n), ``skip_wakeup`` (``target``).
    """

    kind: str
    n: int = 0
    target: Target | None = None
    sel: Sel | None = None
    zone: str = ""
    dest: str = ""
    free: bool = False
    lasting: bool = False
    optional: bool = False
    conds: tuple[Cond, ...] = ()
    sub: tuple[Op, ...] = ()  # grant_bonus: the operations of the granted [ボーナス]


@dataclass(frozen=True, slots=True)
class Program:
    """One ability the engine plays.

    ``hook``: ``enter`` (this character enters the field; ``arg`` ``hand`` = only from the hand),
    ``engage`` (it entered by engage), ``ally_enter`` (another character of mine matching ``arg``
    enters), ``attack`` (it is declared attacker), ``bonus`` (its attack is not defended),
    ``damage`` (it dealt deck damage), ``battle_end`` (its battle ended), ``turn_start`` /
    ``turn_end`` / ``opp_turn_start`` / ``opp_turn_end``, ``leave`` (it left the field),
    ``recovery`` (my deck was recovered; ``per_turn`` 1 for [ターンリカバリー]), ``event_used`` (I
    played an event), ``equipped`` (this item), ``placed`` (this area), ``event`` (this event
    played), ``act`` ([宣言], on the field), ``hand_act`` ([手札宣言], from the hand), ``dust_act``
    ([手札宣言] of a card in the dust box), ``cont`` ([常時]: its ``dmg`` ops apply while it is on
    the field).
    Costs: ``pay`` (attribute symbols), ``tap``, ``mill`` ([D]), ``uncharge`` ([C]), ``destroy_this``,
    ``discard``. Limits: ``per_turn`` (0: none), ``per_game``; ``battle``: used during its own
    attack, before the damage. ``gain``: the pilot's estimate of what it is worth (cards).
    """

    code: str
    index: int
    hook: str
    text: str
    ops: tuple[Op, ...] = ()
    arg: Any = None
    conds: tuple[Cond, ...] = ()
    pay: Mapping[str, int] = field(default_factory=dict)
    tap: bool = False
    mill: int = 0
    uncharge: int = 0
    destroy_this: bool = False
    discard: int = 0
    per_turn: int = 0
    per_game: int = 0
    battle: bool = False
    gain: float = 0.0


@dataclass(frozen=True, slots=True)
class Analysis:
    status: str
    reason: str = ""
    programs: tuple[Program, ...] = ()
    flags: Mapping[str, Any] = field(default_factory=dict)


# -- reading the compiled structure ---------------------------------------------------------------------------
def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unsupported(gettext_noop("a computed amount is not executed") + f": {what}")
    return value


def _side(sel: Sel | None) -> str:
    """``ally`` / ``opponent`` / ``this`` / ``that`` / ``any`` of a card selector."""
    if not sel:
        return "any"
    if sel.get("type") in ("and", "or"):
        sides = {_side(s) for s in sel.get("items", ())}
        return sides.pop() if len(sides) == 1 else "any"
    ref = sel.get("ref")
    if ref in ("this", "item_owner", "owner"):
        return "this"
    if ref in ("battle_opponent",):
        return "opponent"
    if ref in ("that", "target", "those"):
        return "that"
    if sel.get("owner") == "opponent" or sel.get("player") == "opponent":
        return "opponent"
    return str(sel.get("side") or "any")


def _zone_of(sel: Sel) -> str:
    """The zone a card selector reaches (``trash``, ``hand``, ``deck``...), ``field`` by default."""
    zone = sel.get("zone")
    if not zone:
        return "field"
    zones = zone.get("zones", ()) if isinstance(zone, Mapping) else ()
    names = {z.get("zone") for z in zones}
    owners = {z.get("owner", "self") for z in zones}
    if "opponent" in owners:
        return "opponent"
    return names.pop() if len(names) == 1 else "+".join(sorted(n for n in names if n))


_FIELD_KEYS = frozenset({"type", "ref", "side", "what", "count", "all", "up_to", "position", "attributes",
                         "any_attribute", "names", "trait", "filters", "unit", "title", "brand"})
_POSITIONS = frozenset({"AF", "DF", "standing", "rested"})


# filters a printed card answers (rules.lycee.cardmatch) and those of a character on my field
# (effects.field_match: its column, neighbours, item, moves this turn)
_CARD_FILTERS = frozenset({"stat", "value", "op", "min", "max", "unit", "name_contains", "subname_contains",
                           "not_attributes", "only_attributes", "original", "controller", "attribute_count_min"})
_THIS = {"type": "card", "ref": "this", "what": "character"}


def _filter_ok(f: Mapping[str, Any], on_field: bool) -> bool:
    if set(f) <= _CARD_FILTERS:
        return True
    rel = f.get("relative")
    if isinstance(rel, Mapping) and rel.get("verb") == "have" and rel.get("form") in ("must", "neg"):
        args = rel.get("args") or []
        return bool(args) and all(isinstance(a.get("value"), list) or (
            isinstance(a.get("value"), Mapping) and a["value"].get("thing") in ("trump_effect", "hand_ability")
            and not a["value"].get("filters")) for a in args)
    if not on_field:
        return False
    if len(f) == 1 and next(iter(f)) in ("same_column_as", "except", "adjacent_to"):
        ref = next(iter(f.values()))
        return isinstance(ref, Mapping) and ref.get("ref") == "this"
    if isinstance(rel, Mapping) and rel.get("verb") == "equip" and rel.get("form") in ("prog", "prog_neg"):
        return True
    if isinstance(rel, Mapping) and rel.get("verb") == "move" and rel.get("form") == "past":
        return True
    return False


def _field_target(sel: Sel, ref_ok: tuple[str, ...] = ("this",)) -> Target:
    """A target among my characters on the field."""
    if sel.get("what") in ("attacking_character", "battling_character") and sel.get("side") in (None, "ally"):
        return Target("battling")
    if sel.get("type") in ("and", "or"):
        for item in sel.get("items", ()):
            t = _field_target(item, ref_ok)
            if t.ref != "ally":
                raise Unsupported(gettext_noop("this kind of target is not executed"))
        counts = {0 if i.get("all") else i.get("count", 1) for i in sel.get("items", ())}
        return Target("ally", sel, _int(counts.pop(), "count") if len(counts) == 1 else 0)
    side = _side(sel)
    if side == "opponent":
        raise Skip(NO_OPP_CARDS)
    if side == "this":
        if sel.get("ref") != "this" or "this" not in ref_ok:
            raise Unsupported(gettext_noop("a reference to another card is not executed"))
        return Target("this")
    if side == "that":
        if sel.get("ref") == "that" and "that" in ref_ok:
            return Target("that")
        raise Unsupported(gettext_noop("a reference to another card is not executed"))
    if sel.get("what") not in ("character", "named"):
        raise Unsupported(gettext_noop("a target that is not a character of mine is not executed"))
    if sel.get("zone") or not set(sel) <= _FIELD_KEYS:
        raise Unsupported(gettext_noop("this kind of target is not executed"))
    if any(p not in _POSITIONS for p in sel.get("position", ())):
        raise Unsupported(gettext_noop("this kind of target is not executed"))
    for f in sel.get("filters", ()):
        if not _filter_ok(f, True):
            raise Unsupported(gettext_noop("this kind of target is not executed"))
    count = 0 if sel.get("all") else sel.get("count", 1)
    return Target("ally", sel, _int(count, "count"))


_ZONE_SEL_KEYS = frozenset({"type", "what", "count", "all", "up_to", "attributes", "any_attribute", "names", "trait",
                            "traits", "filters", "zone", "side", "unit", "title", "brand", "owner"})


def _zone_sel(sel: Sel) -> Sel:
    """A selector of printed cards in one of my zones, which ``rules.lycee.cardmatch`` reads."""
    if sel.get("type") in ("and", "or"):
        for item in sel.get("items", ()):
            _zone_sel(item)
        return sel
    if sel.get("type") != "card" or sel.get("ref") or not set(sel) <= _ZONE_SEL_KEYS:
        raise Unsupported(gettext_noop("this kind of card choice is not executed"))
    for f in sel.get("filters", ()):
        if not _filter_ok(f, False):
            raise Unsupported(gettext_noop("this kind of card choice is not executed"))
    return sel


_OWN_PERIODS = frozenset({"own_turn"})
_COND_KINDS = frozenset({"present", "absent", "count", "size", "stat", "during", "done", "not_done"})


def _conds(effect_params: Mapping[str, Any]) -> tuple[Cond, ...]:
    """The effect's ``if`` conditions the engine evaluates (others: not executed)."""
    out = []
    for c in effect_params.get("if", ()) or ():
        kind = c.get("kind")
        params = {k: v for k, v in c.items() if k != "kind"}
        if kind == "during":
            period = (params.get("period") or {}).get("period")
            if period == "opponent_turn" and not params.get("negated"):
                raise Skip(OPP_TURN_ONLY)
            if period not in ("own_turn", "opponent_turn", "battle"):
                raise Unsupported(gettext_noop("this condition is not evaluated") + f": {period}")
        elif kind == "when":  # a delayed trigger inside an effect
            event = params.get("event") or {}
            ek = event.get("kind")
            if ek in ("downed", "penalty"):
                raise Skip(NEVER_DOWNED)
            if _side(event.get("by") if isinstance(event.get("by"), Mapping) else None) == "opponent":
                raise Skip(DUMMY_PASSIVE)
            raise Unsupported(gettext_noop("a delayed effect is not executed") + f": {ek}")
        elif kind == "count" and "than" in params:
            for side_sel in (params.get("card"), params.get("than")):
                if not isinstance(side_sel, Mapping) or side_sel.get("type") != "number":
                    raise Unsupported(gettext_noop("this condition is not evaluated") + ": count")
                of = side_sel.get("of") or {}
                if _side(of) != "opponent":
                    _cond_sel(of)
            out.append(Cond("count_cmp", params))
            continue
        elif kind == "count" and isinstance((params.get("card") or {}).get("under"), Mapping) \
                and params["card"]["under"].get("ref") == "this":
            out.append(Cond("count_under", params))
            continue
        elif kind in ("present", "absent", "count") and (params.get("card") or {}).get("what") in ("area", "item") \
                and _side(params.get("card")) in ("ally", "any"):
            sel = params["card"]
            if not set(sel) <= {"type", "side", "what", "names", "attributes", "count", "all"}:
                raise Unsupported(gettext_noop("this condition is not evaluated") + f": {kind}")
            out.append(Cond(kind + "_" + str(sel["what"]), params))
            continue
        elif kind == "is":
            card = params.get("card") or {}
            is_ = params.get("is") or {}
            if card.get("ref") not in ("this", "that") and not (_side(card) == "ally" and card.get("all")):
                raise Unsupported(gettext_noop("this condition is not evaluated") + ": is")
            if not isinstance(is_, Mapping) or not set(is_) <= {"type", "attributes", "trait", "position", "names",
                                                                "what"}:
                raise Unsupported(gettext_noop("this condition is not evaluated") + ": is")
        elif kind in ("present", "absent", "count"):
            sel = params.get("card") or {}
            if _side(sel) == "opponent":
                if kind == "absent" or (kind == "count" and params.get("op") in ("<=", "<") ) :
                    continue  # the dummy's field is empty: always true
                raise Skip(NO_OPP_CARDS)
            _cond_sel(sel)
        elif kind == "size":
            of = params.get("of")
            if not isinstance(of, Mapping) or _size_zone(of) is None:
                raise Unsupported(gettext_noop("this condition is not evaluated") + ": size")
        elif kind == "stat":
            of = params.get("of") or {}
            if _side(of) == "opponent":
                raise Skip(NO_OPP_CARDS)
            if of.get("ref") != "this" or params.get("stat") not in ("ap", "dp", "sp", "dmg"):
                raise Unsupported(gettext_noop("this condition is not evaluated") + ": stat")
        elif kind not in ("done", "not_done"):
            raise Unsupported(gettext_noop("this condition is not evaluated") + f": {kind}")
        out.append(Cond(str(kind), params))
    return tuple(out)


def _cond_sel(sel: Sel) -> None:
    if sel.get("type") in ("and", "or"):
        for s in sel.get("items", ()):
            _cond_sel(s)
        return
    if sel.get("ref") == "this":
        return
    _field_target(sel)


def _size_zone(of: Mapping[str, Any]) -> str | None:
    """``hand`` / ``deck`` / ``trash`` / ``pile:<name>`` of mine for a ``size`` condition, or None."""
    if of.get("type") == "size":
        of = of.get("of") or {}
    zones = of.get("zones") if of.get("type") == "zone" else None
    if not zones or len(zones) != 1:
        return None
    z = zones[0]
    if z.get("owner", "self") != "self":
        return None
    if z.get("zone") == "pile" and z.get("pile"):
        return "pile:" + str(z["pile"])
    if z.get("zone") not in ("hand", "deck", "trash"):
        return None
    return str(z["zone"])


# -- effects → operations ---------------------------------------------------------------------------
def _player(params: Mapping[str, Any]) -> str:
    return str(params.get("player") or "self")


def _count(params: Mapping[str, Any], key: str = "count", default: int = 1) -> int:
    return _int(params.get(key, default), key)


def effect_ops(e: Effect, granted: bool = False) -> tuple[Op, ...]:
    """The operations of one effect (``Skip`` when it changes nothing, ``Unsupported`` when the
    engine does not execute it)."""
    p = e.params
    k = e.kind
    optional = bool(p.get("optional"))
    if k == "draw":
        who = _player(p)
        if who == "opponent":
            return (Op("opp_draw", _count(p), optional=optional, conds=_conds(p)),)
        if who != "self":
            raise Unsupported(gettext_noop("a draw by another player is not executed"))
        return (Op("draw", _count(p), optional=optional, conds=_conds(p)),)
    if k == "mill":
        who = _player(p)
        kind = "opp_mill" if who == "opponent" else "mill"
        return (Op(kind, _count(p), optional=optional, conds=_conds(p)),)
    if k == "recover":
        if "target" in p:
            raise Unsupported(gettext_noop("recovering a chosen card is not executed"))
        kind = "opp_recover" if _player(p) == "opponent" else "recover"
        return (Op(kind, _count(p), optional=optional, conds=_conds(p)),)
    if k == "shuffle":
        if _player(p) == "opponent":
            raise Skip(DUMMY_DECK_ORDER)
        return (Op("shuffle", conds=_conds(p)),)
    if k == "discard":
        if _player(p) == "opponent":
            if p.get("to") in ("top", "bottom"):  # the dummy's hand onto its deck: its deck grows
                return (Op("opp_hand_to_deck", _count(p), optional=optional, conds=_conds(p)),)
            raise Skip(DUMMY_HAND)
        dest = {"top": "top", "bottom": "bottom"}.get(str(p.get("to", "")), "dust")
        if p.get("to") not in (None, "top", "bottom", "trash"):
            raise Unsupported(gettext_noop("discarding to this place is not executed"))
        return (Op("discard", _count(p), dest=dest, optional=optional, conds=_conds(p)),)
    if k in ("stat_mod", "stat_choice", "grant"):
        return _stat_ops(e, granted)
    if k == "stat_set":
        sel = p.get("target") or {}
        if _side(sel) == "opponent":
            raise Skip(NO_OPP_CARDS)
        if p.get("stat") != "dmg":
            raise Skip(STATS_ONLY)
        raise Unsupported(gettext_noop("setting DMG to a value is not executed"))
    if k in ("stand", "rest", "skip_wakeup"):
        sel = p.get("target") or {}
        if _side(sel) == "opponent":
            raise Skip(NO_OPP_CARDS)
        if k == "rest" and _side(sel) == "any":
            raise Skip(NO_OPP_CARDS)  # the pilot picks the dummy's characters: there are none
        return (Op(k, target=_field_target(sel, ("this", "that")), optional=optional, conds=_conds(p)),)
    if k in ("destroy", "exile", "to_hand", "to_deck", "set_aside", "to_pile", "put_under"):
        return _move_ops(e)
    if k == "move":
        sel = p.get("target") or {}
        if _side(sel) == "opponent":
            raise Skip(NO_OPP_CARDS)
        if sel.get("ref") == "this":
            return (Op("move_up", optional=optional, conds=_conds(p)),)
        to = p.get("to") or {}
        if to.get("what") == "field" and not to.get("filters") and _side(sel) in ("ally", "any"):
            return (Op("move_ally", target=_field_target(sel), optional=optional, conds=_conds(p)),)
        raise Unsupported(gettext_noop("moving a chosen character is not executed"))
    if k == "swap":
        raise Unsupported(gettext_noop("swapping characters is not executed"))
    if k == "deploy":
        sel = p.get("card") or {}
        if sel.get("ref") == "this" and _zone_of(sel) == "trash":
            return (Op("deploy_this", free=bool(p.get("free")), optional=optional, conds=_conds(p)),)
        if sel.get("ref") == "that" and _zone_of(sel) == "trash" and not sel.get("filters"):
            return (Op("deploy_that", free=bool(p.get("free")), optional=optional, conds=_conds(p)),)
        zone = _zone_of(sel)
        if zone not in ("hand", "trash", "deck", "deck+trash"):
            raise Unsupported(gettext_noop("putting this character into play is not executed"))
        if p.get("to") or p.get("rested"):
            raise Unsupported(gettext_noop("putting a character into play on a given field is not executed"))
        return (Op("deploy", sel=_zone_sel(sel), zone=zone, free=bool(p.get("free")), optional=optional,
                   conds=_conds(p)),)
    if k == "search":
        src = p.get("source") or {}
        zones = {z.get("zone") for z in src.get("zones", ())} if isinstance(src, Mapping) else set()
        owners = {z.get("owner", "self") for z in src.get("zones", ())} if isinstance(src, Mapping) else set()
        if not zones <= {"deck", "trash"} or owners != {"self"} or not zones:
            raise Unsupported(gettext_noop("searching this zone is not executed"))
        then = p.get("then") or {}
        dest = then.get("kind")
        tp = then.get("params") or {}
        if dest == "equip" and (tp.get("to") or {}).get("ref") != "this":
            raise Unsupported(gettext_noop("what a search does with the card is not executed") + ": equip another")
        if dest == "place" and tp.get("to") and _side(tp.get("to")) == "opponent":
            raise Unsupported(gettext_noop("what a search does with the card is not executed") + ": place opposite")
        if dest not in ("to_hand", "deploy", "place", "equip") or tp.get("free") is False:
            raise Unsupported(gettext_noop("what a search does with the card is not executed") + f": {dest}")
        free = bool(p.get("free") or tp.get("free"))
        where = {"to_hand": "hand", "deploy": "field", "place": "area", "equip": "item"}[dest]
        return (Op("search", sel=_zone_sel(p.get("card") or {}), zone="+".join(sorted(zones)), dest=where,
                   free=free, optional=optional, conds=_conds(p)),)
    if k == "charge":
        tgt = p.get("target") or {}
        if "card" in p:
            raise Unsupported(gettext_noop("charging a chosen card is not executed"))
        return (Op("charge", _count(p), target=_field_target(tgt), optional=optional, conds=_conds(p)),)
    if k == "remove_charge":
        tgt = p.get("target") or {}
        if tgt and tgt.get("ref") != "this":
            raise Unsupported(gettext_noop("charge of another character is not executed"))
        return (Op("uncharge", _count(p), optional=optional, conds=_conds(p)),)
    if k in ("shield", "remove_shield"):
        raise Skip(SHIELDS)
    if k in ("prevent", "end_battle", "negate", "no_response"):
        sel = p.get("target") or {}
        if k == "prevent" and _side(sel) not in ("opponent",) and p.get("event") not in (None, "down", "downed"):
            raise Unsupported(gettext_noop("this prevention is not executed"))
        raise Skip(DUMMY_PASSIVE if k in ("negate", "no_response") else NO_DEFENDER)
    if k == "lose_ability":
        if _side(p.get("target") or {}) == "opponent":
            raise Skip(NO_OPP_CARDS)
        raise Unsupported(gettext_noop("losing abilities is not executed"))
    if k == "ability_lost":
        return ()  # read by analyse: the ability is used once a game
    if k in ("look", "reveal"):
        raise Skip(INFO_ONLY)
    if k == "reorder":
        raise Unsupported(gettext_noop("reordering my deck is not executed"))
    if k == "choose":
        return _choose_ops(e)
    if k in ("generate", "payment_limit"):
        raise Unsupported(gettext_noop("mana produced by abilities is not used for payments"))
    if k in ("place", "equip"):
        raise Unsupported(gettext_noop("putting areas and items into play by effects is not executed"))
    if k == "grant_ability":
        if _side(p.get("target") or {}) == "opponent":
            raise Skip(NO_OPP_CARDS)
        raise Unsupported(gettext_noop("granted abilities are not executed"))
    if k == "keyword":
        return ()
    raise Unsupported(gettext_noop("this effect is not executed") + f": {k}")


_IRRELEVANT_KEYWORDS = frozenset({"dash", "attacker", "defender", "supporter", "sideattack", "assist", "guts",
                                  "penalty"})


def _stat_ops(e: Effect, granted: bool) -> tuple[Op, ...]:
    p = e.params
    sel = p.get("target") or {}
    side = _side(sel)
    if side == "opponent":
        raise Skip(NO_OPP_CARDS)
    if e.kind == "stat_choice":
        options = [o for o in p.get("options", ()) if isinstance(o, Mapping) and "dmg" in o]
        if not options:
            raise Skip(STATS_ONLY)
        dmg = max(_int(o["dmg"], "dmg") for o in options)
        lasting = False
    elif e.kind == "grant":
        changes = p.get("changes") or {}
        keywords = p.get("keywords") or ()
        ops: list[Op] = []
        names = [k if isinstance(k, str) else k.get("name") for k in keywords]
        for kw, name in zip(keywords, names, strict=True):
            if name == "aggressive":
                ops.append(Op("aggressive", target=_field_target(sel, ("this", "that")), conds=_conds(p)))
            elif name in _IRRELEVANT_KEYWORDS:
                continue
            elif name == "bonus" and isinstance(kw, Mapping) and kw.get("effects"):
                sub: list[Op] = []
                for raw in kw["effects"]:
                    try:
                        sub.extend(effect_ops(Effect.from_dict(raw), granted=True))
                    except Skip:
                        continue
                if sub:
                    ops.append(Op("grant_bonus", target=_field_target(sel, ("this", "that")), sub=tuple(sub),
                                  conds=_conds(p)))
            else:
                raise Unsupported(gettext_noop("a basic ability granted by an effect is not executed") + f": {name}")
        if "dmg" in changes:
            ops.append(Op("dmg", _int(changes["dmg"], "dmg"), target=_field_target(sel, ("this", "that")),
                          lasting=True, conds=_conds(p)))
        if not ops:
            raise Skip(STATS_ONLY if changes else NO_DEFENDER)
        return tuple(ops)
    else:
        if "dmg" not in p:
            raise Skip(STATS_ONLY)
        dmg = _int(p["dmg"], "dmg")
        lasting = False
    if side == "any" and dmg < 0:
        raise Skip(NO_OPP_CARDS)  # a DMG cut on a character the pilot picks: the dummy's, there are none
    if sel.get("ref") == "target":  # the character supported (a trigger on supporting)
        if dmg > 0:
            raise Unsupported(gettext_noop("the pilot never supports in an undefended battle (only this trigger "
                                           "would make it worth it)"))
        raise Skip(NO_SUPPORT)
    return (Op("dmg", dmg, target=_field_target(sel, ("this", "that")), lasting=lasting,
               optional=bool(p.get("optional")), conds=_conds(p)),)


def _move_ops(e: Effect) -> tuple[Op, ...]:
    p = e.params
    k = e.kind
    sel = p.get("target") or {}
    side = _side(sel)
    optional = bool(p.get("optional"))
    if sel.get("ref") == "among":  # そのうち1枚を…: one of the cards an earlier effect looked at
        raise Unsupported(gettext_noop("a card chosen among those an earlier effect looked at is not executed"))
    if side == "opponent" or _zone_of(sel) == "opponent":
        if k == "to_deck" and "hand" in str(sel.get("zone")):
            return (Op("opp_hand_to_deck", _count(sel), optional=optional, conds=_conds(p)),)
        raise Skip(NO_OPP_CARDS)
    zone = _zone_of(sel)
    if k == "put_under":
        return _put_under_ops(p)
    if k == "to_pile":
        return _to_pile_ops(p)
    if k == "set_aside":
        raise Unsupported(gettext_noop("cards set beside the field are not executed"))
    under = sel.get("under") if isinstance(sel.get("under"), Mapping) else None
    if under is not None:
        if under.get("ref") != "this" or k not in ("destroy", "to_hand", "to_deck"):
            raise Unsupported(gettext_noop("cards under another card are not executed"))
        n = 99 if sel.get("all") else _count(sel)
        dest = {"destroy": "dust", "to_hand": "hand", "to_deck": "deck"}[k]
        return (Op("under_to", n, dest=dest, optional=optional, conds=_conds(p)),)
    if zone == "pile" and k in ("to_deck", "destroy", "to_hand"):
        pile = _pile_name(sel)
        dest = {"destroy": "dust", "to_hand": "hand", "to_deck": "deck"}[k]
        return (Op("pile_to", 99 if sel.get("all") else _count(sel), zone=pile, dest=dest, optional=optional,
                   conds=_conds(p)),)
    if side == "this":
        if zone == "field":
            kind = {"destroy": "destroy_this", "to_hand": "this_to_hand", "to_deck": "this_to_deck",
                    "exile": "exile_this"}.get(k)
            if kind is None or (k == "to_deck" and p.get("position") == "top"):
                raise Unsupported(gettext_noop("this move of the card is not executed") + f": {k}")
            return (Op(kind, optional=optional, conds=_conds(p)),)
        if zone == "trash" and k in ("to_deck", "to_hand", "exile"):
            return (Op("dust_this_to_" + {"to_deck": "deck", "to_hand": "hand", "exile": "removed"}[k],
                       optional=optional, conds=_conds(p)),)
        raise Unsupported(gettext_noop("this move of the card is not executed") + f": {k}")
    if zone == "trash" and k in ("to_deck", "to_hand") and side in ("any", "ally"):
        if sel.get("all"):
            raise Unsupported(gettext_noop("moving every matching card is not executed"))
        n = _count(sel)
        return (Op("dust_to_" + ("deck" if k == "to_deck" else "hand"), n, sel=_zone_sel(sel), optional=optional,
                   conds=_conds(p)),)
    if side == "ally" and zone == "field" and k in ("destroy", "to_hand", "to_deck", "exile"):
        kind = {"destroy": "destroy_ally", "to_hand": "ally_to_hand", "to_deck": "ally_to_deck",
                "exile": "exile_ally"}[k]
        return (Op(kind, target=_field_target(sel), optional=optional, conds=_conds(p)),)
    if zone == "trash" and k == "exile" and side in ("any", "ally"):
        return (Op("dust_to_removed", _count(sel) if not sel.get("all") else 99, sel=_zone_sel(sel),
                   optional=optional, conds=_conds(p)),)
    if zone == "hand" and k == "to_deck":
        return (Op("discard", _count(sel), dest="top" if p.get("position") == "top" else "bottom",
                   optional=optional, conds=_conds(p)),)
    if side == "any" and zone == "field" and k in ("destroy", "exile", "to_hand", "to_deck"):
        raise Skip(NO_OPP_CARDS)  # a character the pilot picks: the dummy's, there are none
    raise Unsupported(gettext_noop("this move of cards is not executed") + f": {k}")


def _pile_name(sel: Mapping[str, Any]) -> str:
    zones = (sel.get("zone") or {}).get("zones") or [{}]
    name = zones[0].get("pile")
    if not name or name == "that":
        raise Unsupported(gettext_noop("a pile named earlier in the text is not resolved"))
    return str(name)


def _put_under_ops(p: Mapping[str, Any]) -> tuple[Op, ...]:
    """自分のゴミ箱のカード1枚をこのキャラの下に置く: cards of mine under this card or a character of mine."""
    under = p.get("under") or {}
    if _side(under) == "opponent":
        raise Skip(NO_OPP_CARDS)
    target = Target("this") if under.get("ref") == "this" else _field_target(under)
    sel = p.get("target") or {}
    items = sel.get("items", ()) if sel.get("type") == "and" else (sel,)
    out = []
    for item in items:
        zone = _zone_of(item)
        if item.get("ref") or zone not in ("trash", "deck_top", "hand"):
            raise Unsupported(gettext_noop("putting these cards under a card is not executed"))
        n = 99 if item.get("all") else _count(item)
        out.append(Op("put_under", n, target=target, sel=_zone_sel(item) if zone != "deck_top" else None, zone=zone,
                      optional=bool(p.get("optional")), conds=_conds(p)))
    return tuple(out)


def _to_pile_ops(p: Mapping[str, Any]) -> tuple[Op, ...]:
    """自分の「X」置き場に置く: cards of mine into a named pile of mine."""
    pile = p.get("pile")
    if not pile or pile == "that" or not isinstance(pile, str):
        raise Unsupported(gettext_noop("a pile named earlier in the text is not resolved"))
    sel = p.get("target") or {}
    optional = bool(p.get("optional"))
    items = sel.get("items", ()) if sel.get("type") == "and" else (sel,)
    out = []
    for item in items:
        zone = _zone_of(item)
        side = _side(item)
        under = item.get("under") if isinstance(item.get("under"), Mapping) else None
        if side == "opponent":
            raise Skip(NO_OPP_CARDS)
        if under is not None:
            if under.get("ref") != "this":
                raise Unsupported(gettext_noop("cards under another card are not executed"))
            out.append(Op("under_to", 99 if item.get("all") else _count(item), dest="pile:" + pile, optional=optional,
                          conds=_conds(p)))
        elif side == "this" and zone == "field":
            out.append(Op("this_to_pile", dest=pile, optional=optional, conds=_conds(p)))
        elif side == "this" and zone == "trash":
            out.append(Op("dust_this_to_pile", dest=pile, optional=optional, conds=_conds(p)))
        elif zone == "trash" and not item.get("ref"):
            out.append(Op("dust_to_pile", 99 if item.get("all") else _count(item), sel=_zone_sel(item), dest=pile,
                          optional=optional, conds=_conds(p)))
        else:
            raise Unsupported(gettext_noop("putting these cards into a pile is not executed"))
    return tuple(out)


def _choose_ops(e: Effect) -> tuple[Op, ...]:
    """``choose``: the options that change nothing are dropped; one left is executed as it is."""
    left: list[tuple[Op, ...]] = []
    reasons = []
    for option in e.params.get("options", ()):
        effects = option if isinstance(option, Sequence) and not isinstance(option, Mapping) else [option]
        try:
            ops = tuple(op for raw in effects for op in effect_ops(Effect.from_dict(raw)))
        except Skip as s:
            reasons.append(s.reason)
            continue
        left.append(ops)
    if not left:
        raise Skip(reasons[0] if reasons else MOVES_NOTHING)
    if len(left) == 1:
        return left[0]
    raise Unsupported(gettext_noop("a choice between effects that change the game is not executed"))


# -- triggers and conditions → hooks ------------------------------------------------------------------
def _hooks(trigger: Effect | None) -> list[tuple[str, Any]]:
    """The hooks a trigger runs on (``Skip`` when it never fires in a goldfish game)."""
    if trigger is None:
        raise Unsupported(gettext_noop("an automatic ability without a trigger is not executed"))
    k = trigger.kind
    p = trigger.params
    if k == "either":
        out: list[tuple[str, Any]] = []
        reasons = []
        for t in p.get("of", ()):
            try:
                out += _hooks(Effect.from_dict(t))
            except Skip as s:
                reasons.append(s.reason)
        if not out:
            raise Skip(reasons[0] if reasons else DUMMY_PASSIVE)
        return out
    by = p.get("by") if isinstance(p.get("by"), Mapping) else None
    if by is not None and _side(by) == "opponent":
        raise Skip(DUMMY_PASSIVE)
    card = p.get("card") if isinstance(p.get("card"), Mapping) else None
    side = _side(card) if card is not None else "any"
    if k in ("engage", "bonus", "recovery"):
        return [(k, None)]
    if k == "turn_recovery":
        return [("recovery", "turn")]
    if k in ("penalty", "downed"):
        raise Skip(NEVER_DOWNED)
    if k in ("supports", "supported"):
        # (its effects change the game, or it would be no_effect already) a character may support in
        # an undefended battle too, for such a trigger: the pilot never does
        raise Unsupported(gettext_noop("the pilot never supports in an undefended battle (only this trigger "
                                       "would make it worth it)"))
    if k == "enters":
        if side == "opponent":
            raise Skip(NO_OPP_CARDS)
        src = p.get("from")
        if isinstance(src, Mapping):  # 手札から: a zone
            zones = {z.get("zone") for z in src.get("zones", ())}
            src = zones.pop() if len(zones) == 1 else str(src)
        if side == "this":
            if src not in (None, "hand"):
                raise Unsupported(gettext_noop("this trigger is not executed") + f": enters from {src}")
            if p.get("by"):
                raise Unsupported(gettext_noop("this trigger is not executed") + ": enters by")
            return [("enter", src)]
        if src or p.get("by"):
            raise Unsupported(gettext_noop("this trigger is not executed") + ": an ally enters from / by")
        return [("ally_enter", _field_target(card).sel if card else None)]
    if k in ("attack_declared", "designated"):
        who = p.get("by") if k == "attack_declared" else card
        as_ = p.get("as")
        if k == "designated" and as_ not in (None, "attacker", "attack"):
            if as_ in ("defender", "defense"):
                raise Skip(NO_DEFENDER)
            raise Unsupported(gettext_noop("this trigger is not executed") + f": designated as {as_}")
        s = _side(who) if isinstance(who, Mapping) else "any"
        if s == "opponent":
            raise Skip(DUMMY_PASSIVE)
        if s == "this":
            return [("attack", None)]
        raise Unsupported(gettext_noop("this trigger is not executed") + ": another character attacks")
    if k == "deals_damage":
        if side == "this":
            return [("damage", None)]
        if side == "opponent":
            raise Skip(DUMMY_PASSIVE)
        raise Unsupported(gettext_noop("this trigger is not executed") + ": another character deals damage")
    if k in ("turn_start", "turn_end"):
        turn = p.get("turn")
        if turn == "own":
            return [(k, None)]
        if turn == "opponent":
            return [("opp_" + k, None)]
        return [(k, None), ("opp_" + k, None)]
    if k == "battle_end":
        of = p.get("of") if isinstance(p.get("of"), Mapping) else None
        if of is not None and _side(of) == "this":
            return [("battle_end", None)]
        if of is not None and _side(of) == "opponent":
            raise Skip(DUMMY_PASSIVE)
        raise Unsupported(gettext_noop("this trigger is not executed") + ": the end of another battle")
    if k in ("leaves", "destroyed", "exiled"):
        if side == "opponent":
            raise Skip(NO_OPP_CARDS)
        if p.get("from") or p.get("passive") and side != "this":
            raise Unsupported(gettext_noop("this trigger is not executed") + f": {k} from")
        if side == "this" and k != "exiled":
            if card is not None and card.get("what") in ("area", "item"):
                raise Unsupported(gettext_noop("this trigger is not executed") + f": this {card.get('what')} leaves")
            if p.get("from"):
                raise Unsupported(gettext_noop("this trigger is not executed") + f": {k} from")
            return [("leave", k)]
        if side in ("ally", "any") and k != "exiled" and card is not None and card.get("what") == "character":
            return [("ally_leave", (k, _field_target(card).sel))]
        raise Unsupported(gettext_noop("this trigger is not executed") + f": {k}")
    if k == "used":
        who = p.get("card")
        obj = p.get("object")
        if isinstance(who, Mapping) and who.get("type") == "player":
            if who.get("player") == "opponent":
                raise Skip(DUMMY_PASSIVE)
            if isinstance(obj, Mapping) and obj.get("what") == "event" and set(obj) <= {"type", "what"}:
                return [("event_used", None)]
        if isinstance(who, Mapping) and who.get("type") == "card" and who.get("what") == "event" \
                and who.get("owner", "self") == "self" and set(who) <= {"type", "what", "owner", "attributes"}:
            return [("event_used", who)]
        if isinstance(who, Mapping) and _side(who) == "opponent":
            raise Skip(DUMMY_PASSIVE)
        raise Unsupported(gettext_noop("this trigger is not executed") + ": used")
    if k == "equipped":
        return [("equipped", None)] if side == "this" else _unsupported_trigger(k)
    if k == "placed":
        return [("placed", None)] if side == "this" else _unsupported_trigger(k)
    if k == "modified":
        raise Unsupported(gettext_noop("this trigger is not executed") + ": modified")
    return _unsupported_trigger(k)


def _unsupported_trigger(k: str) -> list[tuple[str, Any]]:
    raise Unsupported(gettext_noop("this trigger is not executed") + f": {k}")


def _ability_conds(a: Ability) -> tuple[tuple[Cond, ...], int, int, bool, bool]:
    """(conditions, per turn, per game, used in its battle, in the dummy's turn only)."""
    conds: list[Cond] = []
    per_turn, per_game = 1, 0
    battle = opp_turn = False
    for c in a.conditions:
        p = c.params
        if c.kind == "use_during":
            period = (p.get("period") or {}).get("period")
            of = (p.get("period") or {}).get("of")
            if period == "own_turn":
                continue
            if period == "opponent_turn":
                opp_turn = True
            elif period in ("battle", "attack"):
                if of is not None and _side(of) == "opponent":
                    raise Skip(DUMMY_PASSIVE)
                if of is not None and _side(of) != "this":
                    raise Unsupported(gettext_noop("used in another character's battle: not executed"))
                battle = True
            elif period in ("defense",):
                raise Skip(NO_DEFENDER)
            elif period == "any" and all((q.get("period") in ("defense", "attack")) for q in (p.get("period") or {})
                                         .get("any_of", ())):
                raise Skip(DUMMY_PASSIVE)
            elif period == "that_turn":
                conds.append(Cond("entered_this_turn", p))
            else:
                raise Unsupported(gettext_noop("this timing is not executed") + f": {period}")
        elif c.kind == "use_not_during":
            period = (p.get("period") or {}).get("period")
            if period == "battle":
                continue
            if period == "defense":
                continue
            raise Unsupported(gettext_noop("this timing is not executed") + f": not {period}")
        elif c.kind == "respond_to":
            raise Skip(DUMMY_PASSIVE)
        elif c.kind == "no_response_use":
            continue
        elif c.kind == "limit":
            per = p.get("per")
            count = _int(p.get("count", 1), "limit")
            if per == "turn" and not p.get("same_number"):
                per_turn = count
            elif per == "game":
                per_game, per_turn = count, 0
            elif per == "ability":
                per_game, per_turn = count, 0
            else:
                raise Unsupported(gettext_noop("this usage limit is not executed") + f": {per}")
        else:
            raise Unsupported(gettext_noop("this condition is not evaluated") + f": {c.kind}")
    if a.once_per_turn:
        per_turn = 1
    return tuple(conds), per_turn, per_game, battle, opp_turn


def _costs(a: Ability) -> dict[str, Any]:
    out: dict[str, Any] = {"pay": {}, "tap": False, "mill": 0, "uncharge": 0, "destroy_this": False, "discard": 0}
    for c in a.cost:
        p = c.params
        if c.kind == "free":
            continue
        if c.kind == "pay":
            pay = dict(out["pay"])
            for attr, n in (p.get("attributes") or {}).items():
                pay[attr] = pay.get(attr, 0) + _int(n, "cost")
            out["pay"] = pay
        elif c.kind == "tap":
            out["tap"] = True
        elif c.kind == "mill":
            out["mill"] += _count(p)
        elif c.kind == "remove_charge":
            out["uncharge"] += _count(p)
        elif c.kind == "destroy" and (p.get("target") or {}).get("ref") == "this":
            out["destroy_this"] = True
        elif c.kind == "discard" and _player(p) == "self" and not p.get("card"):
            out["discard"] += _count(p)
        else:
            raise Unsupported(gettext_noop("this cost is not paid by the engine") + f": {c.kind}")
    return out


# -- one ability ------------------------------------------------------------------------------------
_HOOK_OF_KIND = {"activated": "act", "trump": "act", "hand_activated": "hand_act", "event": "event",
                 "continuous": "cont"}
_OWN_SIDE_KEYWORDS = frozenset({"step", "sidestep", "orderstep", "jump", "aggressive", "tax_trash", "tax_wakeup",
                                "escape", "touch", "order_change", "engage", "charge", "convert", "deck_bonus"})
_RULE_SKIPS = {"same_number": DECK_RULE, "token": TOKEN_DEFINITION, "not_playable": DECK_RULE}


def analyse(a: Ability, card: CardRecord, index: int = 0) -> Analysis:
    """How the engine treats ability ``a`` of ``card`` (see the module docstring)."""
    if not a.compiled:
        return Analysis(NOT_PLAYED, a.unrecognised or "")
    try:
        return _analyse(a, card, index)
    except Skip as s:
        return Analysis(NO_EFFECT, s.reason)
    except Unsupported as u:
        return Analysis(NOT_PLAYED, u.reason)


def _analyse(a: Ability, card: CardRecord, index: int) -> Analysis:
    kind = a.kind
    if kind == "keyword":
        return _keyword(a, card, index)
    if kind in ("rule", "equip_restriction", "token"):
        return _rule(a)
    if kind == "cost_source":
        return _cost_source(a, card, index)
    if kind == "text":
        raise Unsupported(gettext_noop("untagged text is not executed"))
    lost = any(e.kind == "ability_lost" for e in a.effects)
    ops: list[Op] = []
    reasons: list[str] = []
    for e in a.effects:
        try:
            ops.extend(effect_ops(e))
        except Skip as s:
            reasons.append(s.reason)
    if not ops:
        raise Skip(reasons[0] if reasons else MOVES_NOTHING)
    if kind == "auto":
        hooks = _hooks(a.trigger)
        for c in a.conditions:
            if c.kind != "limit":
                raise Unsupported(gettext_noop("this condition is not evaluated") + f": {c.kind}")
        per_turn = 1 if a.once_per_turn else 0
        per_game = 1 if lost else 0
        for c in a.conditions:
            if c.params.get("per") == "turn":
                per_turn = _int(c.params.get("count", 1), "limit")
            elif c.params.get("per") in ("game", "ability"):
                per_game = _int(c.params.get("count", 1), "limit")
        costs = _costs(a) if a.cost else _costs(Ability("auto", ""))
        programs = tuple(Program(card.code, index, hook, a.text, tuple(ops), arg, per_turn=per_turn,
                                 per_game=per_game, gain=_gain(ops), **costs) for hook, arg in hooks)
        return Analysis(PLAYED, programs=programs)
    hook = _HOOK_OF_KIND.get(kind)
    if hook is None:
        raise Unsupported(gettext_noop("this kind of ability is not executed") + f": {kind}")
    if hook == "cont":
        return _continuous(a, card, index, ops)
    conds, per_turn, per_game, battle, opp_turn = _ability_conds(a)
    if opp_turn:
        raise Unsupported(gettext_noop("used only in the dummy's turn: not executed"))
    if lost:
        per_game, per_turn = max(per_game, 1), 0
    costs = _costs(a)
    if hook == "event":
        per_turn = per_game = 0
    elif hook == "hand_act":
        if any(o.kind == "deploy_this" for o in ops):
            hook = "dust_act"
        if card.card_type != "character" and hook == "hand_act":
            raise Unsupported(gettext_noop("a hand declaration of a card that is not a character is not executed"))
    elif hook == "act" and card.card_type not in ("character", "item", "area"):
        raise Unsupported(gettext_noop("this kind of ability is not executed") + f": {kind}")
    if hook == "act" and card.card_type in ("item", "area") and (costs["tap"] or costs["uncharge"]):
        raise Unsupported(gettext_noop("this cost is not paid by the engine") + ": an item's or area's")
    prog = Program(card.code, index, hook, a.text, tuple(ops), conds=conds, per_turn=per_turn, per_game=per_game,
                   battle=battle, gain=_gain(ops), **costs)
    return Analysis(PLAYED, programs=(prog,))


_PURPOSE_OF_THING = {"equip": {"item"}, "event_or_hand_ability": {"event", "hand_ability"},
                     "hand_ability": {"hand_ability"}, "ability": {"ability", "hand_ability"}}
PURPOSES = frozenset({"deploy", "event", "item", "area", "ability", "hand_ability"})


def _purposes(sel: Any) -> tuple[frozenset[str], Sel | None]:
    """What a payment limit names: (purposes, the card a deploy must match or None)."""
    if not isinstance(sel, Mapping):
        raise Unsupported(gettext_noop("this payment limit is not executed"))
    if sel.get("type") == "or":
        found: set[str] = set()
        card = None
        for item in sel.get("items", ()):
            p, c = _purposes(item)
            found |= p
            card = card or c
        return frozenset(found), card
    if sel.get("type") == "card" and sel.get("what") == "event":
        return frozenset({"event"}), None
    thing = sel.get("thing")
    if thing == "entry":
        of = sel.get("of") or {}
        card = {**of, **({"filters": sel["filters"]} if sel.get("filters") else {})}
        if card.get("what") != "character":
            raise Unsupported(gettext_noop("this payment limit is not executed"))
        plain = set(card) <= {"type", "what"}
        return frozenset({"deploy"}), None if plain else _zone_sel(card)
    if thing == "use":
        of = sel.get("of") or {}
        if of.get("what") == "event":
            return frozenset({"event"}), None
        if of.get("thing") in _PURPOSE_OF_THING:
            return frozenset(_PURPOSE_OF_THING[of["thing"]]), None
        raise Unsupported(gettext_noop("this payment limit is not executed"))
    if thing in _PURPOSE_OF_THING:
        return frozenset(_PURPOSE_OF_THING[thing]), None
    raise Unsupported(gettext_noop("this payment limit is not executed"))


def _cost_source(a: Ability, card: CardRecord, index: int) -> Analysis:
    """[コスト]: mana for my payments. Its program (hook ``mana``) holds the operations paid for it
    (``ops``: a mill of my deck, this card destroyed, its charge or cards under it) and in ``arg``
    (EX, attributes, purposes it may pay — ``None``: any —, the card a deploy must match)."""
    if card.card_type != "character":
        raise Unsupported(gettext_noop("mana produced by an item's or area's ability is not used"))
    pre: list[Op] = []
    gen: Mapping[str, Any] | None = None
    allowed: frozenset[str] = PURPOSES
    must: Sel | None = None
    lost = False
    conds: list[Cond] = []
    for e in a.effects:
        p = e.params
        if e.kind == "generate":
            if "attributes" not in p:
                raise Unsupported(gettext_noop("mana produced as one of several options is not used"))
            gen = p["attributes"]
            conds.extend(c for c in _conds(p) if c.kind not in ("done", "not_done"))
            limit = p.get("only_for")
            if isinstance(limit, Mapping) and limit.get("verb") == "pay":
                args = limit.get("args") or [{}]
                target = args[0].get("value")
                purposes, card_sel = _purposes(target)
                if limit.get("form") == "cannot":
                    allowed = allowed - purposes
                else:
                    allowed, must = allowed & purposes, card_sel
            elif limit is not None:
                purposes, card_sel = _purposes(limit)
                allowed, must = allowed & purposes, card_sel
        elif e.kind == "payment_limit":
            if "only_for" in p:
                purposes, card_sel = _purposes(p["only_for"])
                allowed, must = allowed & purposes, card_sel
            if "not_for" in p:
                purposes, _ = _purposes(p["not_for"])
                allowed = allowed - purposes
        elif e.kind == "ability_lost":
            lost = True
        elif gen is None:
            ops = effect_ops(e)
            for op in ops:
                if op.kind not in ("mill", "destroy_this", "uncharge", "under_to", "discard") or op.optional:
                    raise Unsupported(gettext_noop("this cost of a mana ability is not paid by the engine"))
                conds.extend(c for c in op.conds if c.kind not in ("done", "not_done"))
            pre.extend(Op(op.kind, op.n, dest=op.dest) for op in ops)
        else:
            raise Unsupported(gettext_noop("an effect after producing mana is not executed"))
    if not gen or len(gen) != 1:
        raise Unsupported(gettext_noop("mana of several attributes at once is not used"))
    (attr, n), = gen.items()
    for c in conds:
        if c.kind not in ("present", "absent", "count", "size", "stat", "is"):
            raise Unsupported(gettext_noop("this condition is not evaluated") + f": {c.kind}")
    ability_conds, per_turn, per_game, battle, opp_turn = _ability_conds(a)
    if opp_turn:
        raise Skip(OPP_TURN_ONLY)
    if lost:
        per_game, per_turn = max(per_game, 1), 0
    arg = (_int(n, "mana"), (str(attr),), None if allowed == PURPOSES else allowed, must)
    prog = Program(card.code, index, "mana", a.text, tuple(pre), arg, conds=(*ability_conds, *conds), per_turn=per_turn,
                   per_game=per_game)
    return Analysis(PLAYED, programs=(prog,))


def _continuous(a: Ability, card: CardRecord, index: int, ops: list[Op]) -> Analysis:
    if a.conditions:
        raise Unsupported(gettext_noop("this condition is not evaluated") + ": continuous")
    for op in ops:
        if op.kind != "dmg" or op.target is None or op.target.ref == "that":
            raise Unsupported(gettext_noop("this continuous effect is not executed") + f": {op.kind}")
    return Analysis(PLAYED, programs=(Program(card.code, index, "cont", a.text, tuple(ops)),))


def _keyword(a: Ability, card: CardRecord, index: int) -> Analysis:
    effects = [e for e in a.effects if e.kind == "keyword"]
    name = str(effects[0].params.get("name")) if effects else ""
    rest = [e for e in a.effects if e.kind != "keyword"]
    flags: dict[str, Any] = {}
    if name in ("engage", "bonus", "recovery", "turn_recovery"):
        if name == "engage":
            flags["engage"] = True
        ops: list[Op] = []
        reasons = []
        for e in rest:
            try:
                ops.extend(effect_ops(e))
            except Skip as s:
                reasons.append(s.reason)
        if not ops:
            if name == "engage":
                return Analysis(PLAYED, flags=flags)  # the engage deploy itself
            raise Skip(reasons[0] if reasons else MOVES_NOTHING)
        hook = "recovery" if name == "turn_recovery" else name
        prog = Program(card.code, index, hook, a.text, tuple(ops), per_turn=1 if name == "turn_recovery" else 0,
                       gain=_gain(ops))
        return Analysis(PLAYED, programs=(prog,), flags=flags)
    if name == "penalty":
        if not rest:
            raise Skip(NEVER_DOWNED)
        raise Skip(NEVER_DOWNED)
    if name == "charge":
        flags["charge"] = _count(effects[0].params)
        return Analysis(PLAYED, flags=flags)
    if name == "convert":
        flags["convert"] = dict(effects[0].params)
        return Analysis(PLAYED, flags=flags)
    if name in ("order_change", "touch"):
        flags["touch"] = dict(effects[0].params.get("cost") or {})
        return Analysis(PLAYED, flags=flags)
    if name in _OWN_SIDE_KEYWORDS:
        return Analysis(PLAYED)
    if name in ("dash", "attacker", "defender", "guts"):
        raise Skip(NO_DEFENDER if name != "guts" else NEVER_DOWNED)
    if name in ("supporter", "assist"):
        raise Skip(NO_SUPPORT)
    if name == "sideattack":
        raise Skip(MOVES_NOTHING)
    if name == "surprise":
        raise Skip(EARLY_DEPLOY)
    raise Unsupported(gettext_noop("this basic ability is not executed") + f": {name}")


def _rule(a: Ability) -> Analysis:
    kinds = [e.kind for e in a.effects]
    flags: dict[str, Any] = {}
    for e in a.effects:
        k = e.kind
        if k in _RULE_SKIPS:
            raise Skip(_RULE_SKIPS[k])
        if k == "vanilla":
            continue
        if k == "enter_only_by":
            flags["enter_only_by"] = True
        elif k == "exile_on_leave":
            flags["exile_on_leave"] = True
        elif k == "alias":
            flags.setdefault("aliases", []).append(str(e.params.get("name", "")))
        elif k == "equip_limit":
            flags["equip_limit"] = e.params.get("card")
        elif k == "field_limit":
            flags["field_limit"] = e.params
        else:
            raise Unsupported(gettext_noop("this rule is not executed") + f": {k}")
    if not kinds:
        raise Skip(MOVES_NOTHING)
    return Analysis(PLAYED, flags=flags)


def _gain(ops: Sequence[Op]) -> float:
    """The pilot's rough value of the operations, in cards."""
    g = 0.0
    for op in ops:
        k = op.kind
        if k in ("draw", "opp_draw", "opp_mill", "search", "dust_to_hand"):
            g += op.n or 1
        elif k in ("recover", "dust_to_deck"):
            g += 0.25 * (op.n or 1)
        elif k == "dmg":
            g += op.n * (0.5 if op.lasting else 1.0) if op.n > 0 else op.n
        elif k in ("stand", "aggressive", "deploy", "deploy_this"):
            g += 1.5
        elif k in ("mill", "discard"):
            g -= op.n * (0.2 if k == "mill" else 1.0)
        elif k in ("destroy_this", "this_to_hand", "this_to_deck"):
            g -= 1.0
    return g


# -- per card ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CardPlan:
    """Every played ability of one card, by hook, and the flags its basic abilities and rules set."""

    by_hook: Mapping[str, tuple[Program, ...]] = field(default_factory=dict)
    flags: Mapping[str, Any] = field(default_factory=dict)
    coverage: tuple[tuple[Ability, Coverage], ...] = ()

    def get(self, hook: str) -> tuple[Program, ...]:
        return self.by_hook.get(hook, _NONE)


EMPTY_PLAN = CardPlan()
_NONE: tuple[Program, ...] = ()


def card_abilities(card: CardRecord) -> tuple[Ability, ...]:
    """The card's compiled abilities: stored on the record, else compiled from its text."""
    stored = getattr(card, "abilities", ())
    if stored:
        return tuple(stored)
    if is_vanilla_text(card.text) or card.text_modelled:
        return ()
    from rules.lycee.abilities import compile_text_cached

    return compile_text_cached(card.text, card.card_type)


def card_plan(card: CardRecord) -> CardPlan:
    """The card's plan (computed from its abilities; ``CardInfo`` keeps it per card)."""
    abilities = card_abilities(card)
    if not abilities:
        return EMPTY_PLAN
    by_hook: dict[str, list[Program]] = {}
    flags: dict[str, Any] = {}
    coverage = []
    for i, a in enumerate(abilities):
        r = analyse(a, card, i)
        coverage.append((a, Coverage(r.status, r.reason)))
        for prog in r.programs:
            by_hook.setdefault(prog.hook, []).append(prog)
        for k, v in r.flags.items():
            if k == "aliases":
                flags.setdefault("aliases", []).extend(v)
            else:
                flags[k] = v
    return CardPlan({h: tuple(p) for h, p in by_hook.items()}, flags, tuple(coverage))


# the coverage contract (``rules.coverage``), memoised by text, kind and card type
classify_ability = memoised_classifier(analyse)


def plays_card(card: CardRecord) -> str | None:
    """Why the engine never plays ``card`` (``None``: it plays it). Every card type can be played
    (the greedy pilot plays an item or area only for what it does in a goldfish game); a card
    printed ``※このカードは通常のゲームで使用できません`` never is."""
    for a in card_abilities(card):
        if any(e.kind == "not_playable" for e in a.effects):
            return gettext_noop("the card says it cannot be used in a normal game")
    return None
