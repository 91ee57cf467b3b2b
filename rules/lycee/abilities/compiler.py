"""Readings → :class:`~rules.abilities.Ability`: the meaning of Lycee clauses.

Each clause's verb and arguments select an effect kind of :mod:`.vocabulary` (``破棄`` of a hand
→ ``discard``, of a deck → ``mill``, of a card → ``destroy``...). A clause the table does not
know raises :class:`NotUnderstood` with the sentence, which becomes the ability's
``unrecognised`` phrase.
"""
from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from lark import Lark
from lark.exceptions import LarkError, UnexpectedInput, VisitError

from rules.abilities import Ability, Effect

from . import text as t
from .grammar import build
from .reader import KEYWORDS, Reader, attribute_cost


@cache
def _parser() -> Lark:
    return build(Reader())

# Notes that inform about the card (tournament bans, errata, campaigns), not abilities.
_INFO_NOTES = ("このカードは大会における", "このカードは正誤訂正", "このカードは「", "キャンペーン", "全てのデッキに",
               "同ブランドのカード", "このカードは元号")
_DATE_NOTE = re.compile(r"^\(\d+/\d+/\d+.*\)$")


class NotUnderstood(Exception):
    """The compiler cannot read ``phrase`` (the sentence, or the clause inside it)."""

    def __init__(self, phrase: str, why: str = "") -> None:
        super().__init__(phrase)
        self.phrase = phrase
        self.why = why


def read_noun_phrase(phrase: str) -> dict[str, Any]:
    """Parse a noun phrase (``コストが4点以下の<サーヴァント>キャラ``) into its reading."""
    try:
        return _parser().parse(phrase, start="noun_phrase")
    except (UnexpectedInput, VisitError, LarkError, KeyError, StopIteration, IndexError) as exc:
        raise NotUnderstood(phrase, type(exc).__name__) from None


@lru_cache(maxsize=32768)
def read_sentence(sentence: str) -> dict[str, Any]:
    """Parse one sentence (``…。``) into its reading; :class:`NotUnderstood` when it does not parse.

    Readings are cached and shared: the compiler never mutates them."""
    try:
        return _parser().parse(sentence, start="start")
    except (UnexpectedInput, VisitError, LarkError, KeyError, StopIteration, IndexError) as exc:
        raise NotUnderstood(sentence, type(exc).__name__) from None


# ------------------------------------------------------------------------------------------ helpers
def _e(kind: str, **params: Any) -> Effect:
    return Effect(kind, {k: v for k, v in params.items() if v is not None and v != [] and v != {}})


def _args(clause: dict[str, Any]) -> dict[str, list[Any]]:
    """Arguments by role, relative clauses attached to the noun after them."""
    out: dict[str, list[Any]] = {}
    pending: list[tuple[str, Any]] = []
    rel: dict[str, Any] | None = None
    for role, value in clause.get("args", []):
        if role == "rel":
            taken = _relative_args(value["verb"], pending)
            rel = {"verb": value["verb"], "form": value["form"], "args": _plain(taken)}
            for r, _v in taken:
                out[r].pop()
            pending = []
            continue
        if rel is not None and isinstance(value, dict):
            value = {**value, "filters": [*value.get("filters", []), {"relative": _hoist_zone(rel, value)}]}
            if "zone" not in value:
                zone = next((a["value"]["zone"] for a in rel["args"] if isinstance(a["value"], dict)
                             and "zone" in a["value"]), None)
                if zone is not None:
                    value["zone"] = zone
            rel = None
        out.setdefault(role, []).append(value)
        pending.append((role, value))
    return out


_INTRANSITIVE = {"enter", "leave", "move", "down", "be", "attack", "defend", "return", "remain", "exceed"}


def _relative_args(verb: str, pending: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The arguments right before a relative clause's verb that belong to it: from the verb back,
    up to a topic (``…は``) or, for an intransitive verb, an object (``このキャラを そのキャラが登場
    していた フィールドに``: the object is the main clause's)."""
    taken: list[tuple[str, Any]] = []
    for role, value in reversed(pending):
        if role == "topic" or (role == "obj" and verb in _INTRANSITIVE):
            break
        taken.insert(0, (role, value))
    return taken


def _hoist_zone(rel: dict[str, Any], head: dict[str, Any]) -> dict[str, Any]:
    """``自分のゴミ箱の手札宣言能力を持つキャラ``: the zone read on the relative clause's object
    belongs to the head noun; the relative clause keeps the object without it."""
    if "zone" in head:
        return rel
    args = [{"role": a["role"], "value": {k: v for k, v in a["value"].items() if k != "zone"}}
            if isinstance(a["value"], dict) else a for a in rel["args"]]
    return {**rel, "args": args}


def _plain(args: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    return [{"role": r, "value": v} for r, v in args]


def _one(args: dict[str, list[Any]], role: str) -> Any:
    values = args.get(role) or []
    return values[0] if values else None


def _until(args: dict[str, list[Any]]) -> str | None:
    tp = _one(args, "until")
    return until_name(tp) if tp else None


def until_name(tp: dict[str, Any]) -> str:
    """A timepoint reading → ``end_of_turn``, ``end_of_battle``, ``end_of_opponent_turn``..."""
    at = tp.get("at")
    turn = tp.get("turn")
    prefix = "next_" if tp.get("next") else ""
    if at == "battle_end":
        return "end_of_battle"
    if at == "turn_end":
        return f"{prefix}end_of_{'opponent_' if turn == 'opponent' else 'own_' if turn == 'own' else ''}turn"
    if at == "turn_start":
        return f"{prefix}start_of_{'opponent_' if turn == 'opponent' else 'own_' if turn == 'own' else ''}turn"
    if at == "wake_up":
        return f"{prefix}{'opponent_' if turn == 'opponent' else ''}wake_up"
    return str(at)


def _count(args: dict[str, list[Any]], default: int | None = None) -> int | None:
    q = _one(args, "qty") or _one(args, "qtyobj")
    if q and "count" in q:
        return q["count"]
    return default


def _is_zone(np_: Any, *zones: str) -> bool:
    return isinstance(np_, dict) and np_.get("type") == "zone" and all(
        z.get("zone") in zones for z in np_["zones"])


def _zone_owner(np_: dict[str, Any]) -> str:
    return np_["zones"][0].get("owner", "self")


def _player_of(args: dict[str, list[Any]]) -> str | None:
    who = _one(args, "topic") or _one(args, "subj")
    if isinstance(who, dict):
        if who.get("type") == "player":
            return who["player"]
        if who.get("ref") == "item_owner":
            return "holder"
    return None


def _changes(items: list[dict[str, Any]]) -> tuple[dict[str, int], list[Any]]:
    changes: dict[str, int] = {}
    keywords: list[Any] = []
    for item in items:
        if "stat" in item:
            changes[item["stat"]] = changes.get(item["stat"], 0) + item["delta"]
        elif "keyword" in item:
            keywords.append(_keyword_param(item))
        else:
            raise NotUnderstood("", "change")
    return changes, keywords


def _keyword_param(item: dict[str, Any]) -> Any:
    if "sentences" in item:
        effects = [e.to_dict() for s in item["sentences"] for e in compile_reading(s, Context("keyword")).effects]
        return {"name": item["keyword"], "effects": effects}
    if "cost" in item or "count" in item:
        return {k: v for k, v in item.items() if k != "keyword"} | {"name": item["keyword"]}
    return item["keyword"]


# ------------------------------------------------------------------------------------------ clauses
class Context:
    """What the compiler knows while reading one ability."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.trigger: Effect | None = None
        self.last_target: Any = None


def _target(args: dict[str, list[Any]], ctx: Context, *roles: str) -> Any:
    among = _one(args, "among")
    if among is not None:
        q = _one(args, "qtyobj") or _one(args, "qty") or {}
        return {"type": "card", "ref": "among", "of": among, **q}
    for role in roles:
        value = _one(args, role)
        if value is not None:
            ctx.last_target = value
            return value
    if ctx.last_target is not None:
        return ctx.last_target
    raise NotUnderstood("", "no target")


def effect_of_clause(clause: dict[str, Any], ctx: Context) -> list[Effect]:
    """The effects of one main clause (``alt`` clauses become a ``choose``)."""
    if "alt" in clause:
        options = [[e.to_dict() for e in effect_of_clause(c, ctx)] for c in clause["alt"]]
        return [_e("choose", count=1, options=options)]
    if "choose_listed" in clause:
        return [_e("choose", count=clause["choose_listed"], options=[])]
    pred = clause["pred"]
    verb, form = pred["verb"], pred["form"]
    args = _args(clause)
    handler = _VERBS.get(verb)
    if handler is None:
        raise NotUnderstood("", f"verb {verb}")
    effects = handler(args, pred, ctx)
    optional = form == "may" and verb not in ("pay",)
    until = _until(args)
    out = []
    for eff in effects:
        params = dict(eff.params)
        if optional:
            params["optional"] = True
        if until and "until" not in params and eff.kind in _TIMED:
            params["until"] = until
        out.append(Effect(eff.kind, params))
    return out


_TIMED = {"stat_mod", "stat_choice", "grant", "prevent", "lose_ability", "ability_lost", "stat_set"}


def _do(args: dict[str, list[Any]], pred: dict[str, Any], ctx: Context) -> list[Effect]:
    mods = _one(args, "mods")
    if mods is None:
        raise NotUnderstood("", "bare する")
    if len(mods) == 1 and len(mods[0]) == 1 and "shield" in mods[0][0]:
        who = _one(args, "to")
        player = who["player"] if isinstance(who, dict) and who.get("type") == "player" else "self"
        return [_e("shield", player=player, delta=mods[0][0]["shield"])]
    if any("shield" in item for alt in mods for item in alt):
        raise NotUnderstood("", "shield mixed")
    target = _target(args, ctx, "to", "statto")
    if len(mods) == 1:
        changes, keywords = _changes(mods[0])
        if keywords:
            return [_e("grant", target=target, keywords=keywords, changes=changes)]
        return [_e("stat_mod", target=target, **changes)]
    options = []
    for alt in mods:
        changes, keywords = _changes(alt)
        if keywords:
            raise NotUnderstood("", "keyword choice")
        options.append(changes)
    return [_e("stat_choice", target=target, options=options)]


def _draw(args, pred, ctx):
    return [_e("draw", count=_count(args, 1), player=_player_of(args))]


def _destroy(args, pred, ctx):
    obj = _one(args, "obj")
    if obj is None:
        obj = _target(args, ctx, "obj")
    count = _count(args)
    if obj is None or _one(args, "among") is not None:
        obj = _target(args, ctx, "obj")
    if _is_zone(obj, "hand"):
        who = _player_of(args)
        owner = _zone_owner(obj)
        return [_e("discard", player=owner if owner != "self" or who is None else who,
                   count=count or obj.get("count") or 1)]
    if _is_zone(obj, "deck", "deck_top"):
        return [_e("mill", player=_zone_owner(obj), count=count or obj.get("count") or 1)]
    kind = obj.get("type") if isinstance(obj, dict) else None
    if kind == "charge":
        return [_e("remove_charge", target=obj.get("of"), count=obj.get("count") or count or 1)]
    if kind == "shield":
        return [_e("remove_shield", player=obj.get("owner", "self"), count=obj.get("count") or count or 1)]
    if kind in ("card", "and", "or"):
        ctx.last_target = obj
        return [_e("destroy", target=_with_count(obj, count))]
    raise NotUnderstood("", "destroy what")


def _with_count(np_: dict[str, Any], count: int | None) -> dict[str, Any]:
    return {**np_, "count": count} if count and "count" not in np_ else np_


def _card_effect(kind: str):
    def handler(args, pred, ctx):
        obj = _one(args, "obj")
        if obj is None:
            obj = _target(args, ctx, "obj")
        if not isinstance(obj, dict) or obj.get("type") not in ("card", "and", "or"):
            raise NotUnderstood("", f"{kind} what")
        ctx.last_target = obj
        return [_e(kind, target=_with_count(obj, _count(args)))]
    return handler


def _recover(args, pred, ctx):
    obj = _one(args, "obj")
    if obj is None or _is_zone(obj, "deck"):
        return [_e("recover", player=_zone_owner(obj) if obj else "self", count=_count(args, 1),
                   random=_manner(args, "random"))]
    if isinstance(obj, dict) and obj.get("type") == "card":
        return [_e("recover", target=obj)]
    raise NotUnderstood("", "recover what")


def _manner(args: dict[str, list[Any]], name: str) -> bool | None:
    return True if name in (args.get("manner") or []) else None


def _shuffle(args, pred, ctx):
    obj = _one(args, "obj")
    if obj is None or _is_zone(obj, "deck"):
        return [_e("shuffle", player=_zone_owner(obj) if obj else "self")]
    raise NotUnderstood("", "shuffle what")


def _generate(args, pred, ctx):
    obj = _one(args, "obj")
    if isinstance(obj, dict) and obj.get("what") == "attribute":
        if "attributes" in obj:
            return [_e("generate", attributes=attribute_cost("".join(_ATTR_CHARS[a] for a in obj["attributes"])),
                       only_for=_only_for(args))]
        if "any_attribute" in obj:
            options = [{a: 1} for a in obj["any_attribute"]]
            return [_e("generate", options=options, only_for=_only_for(args))]
    if isinstance(obj, dict) and obj.get("type") == "or":
        options = []
        for item in obj["items"]:
            if item.get("what") != "attribute" or "attributes" not in item:
                raise NotUnderstood("", "generate what")
            options.append(attribute_cost("".join(_ATTR_CHARS[a] for a in item["attributes"])))
        return [_e("generate", options=options)]
    raise NotUnderstood("", "generate what")


_ATTR_CHARS = {"snow": "雪", "moon": "月", "flower": "花", "space": "宙", "sun": "日", "star": "無"}


def _only_for(args: dict[str, list[Any]]) -> Any:
    rel = [f["relative"] for v in args.get("obj", []) if isinstance(v, dict) for f in v.get("filters", [])
           if "relative" in f]
    return rel[0] if rel else None


def _enter(args, pred, ctx):
    card = _one(args, "obj")
    if card is None:
        card = _target(args, ctx, "obj")
    if not isinstance(card, dict) or card.get("type") not in ("card", "or", "and"):
        raise NotUnderstood("", "enter what")
    ctx.last_target = card
    return [_e("deploy", card=_with_count(card, _count(args)), to=_one(args, "to"), free=_manner(args, "free"),
               rested=_manner(args, "rested"), **({"as": _one(args, "as")} if _one(args, "as") else {}))]


def _place(args, pred, ctx):
    card = _one(args, "obj") or _target(args, ctx, "obj")
    return [_e("place", card=_with_count(card, _count(args)), to=_one(args, "to"), free=_manner(args, "free"))]


def _equip(args, pred, ctx):
    card = _one(args, "obj") or _target(args, ctx, "obj")
    return [_e("equip", card=_with_count(card, _count(args)), to=_one(args, "to"), free=_manner(args, "free"))]


def _move(args, pred, ctx):
    target = _target(args, ctx, "obj", "topic")
    to = _one(args, "to")
    if to is None:
        raise NotUnderstood("", "move where")
    return [_e("move", target=target, to=to)]


def _put(args, pred, ctx):
    obj = _one(args, "obj") or _one(args, "qtyobj")
    if obj is None or (isinstance(obj, dict) and "count" in obj and obj.get("type") is None):
        obj = _target(args, ctx, "obj")
    to = _one(args, "to")
    as_ = _one(args, "as")
    count = _count(args)
    if isinstance(as_, dict) and as_.get("type") == "charge":
        return [_e("charge", target=as_.get("of") or to or {"type": "card", "ref": "this"}, card=obj)]
    if isinstance(obj, dict) and obj.get("type") == "zone" and _is_zone(obj, "hand") \
            and _is_zone(to, "deck_bottom", "deck_top", "deck"):
        # 自分の手札をN枚デッキの下に置く: hand cards to a deck
        return [_e("discard", player=_zone_owner(obj), count=count or 1, to=_deck_pos(to))]
    if to is None:
        raise NotUnderstood("", "put where")
    target = _with_count(obj, count) if isinstance(obj, dict) else obj
    if isinstance(obj, dict):
        ctx.last_target = obj
    for test, effect in _PUT_TO:
        if test(to):
            return [effect(to, target)]
    raise NotUnderstood("", "put where")


def _to_type(*types: str) -> Any:
    return lambda to: isinstance(to, dict) and to.get("type") in types


# (where a card is put, the effect), tried in order
_PUT_TO: tuple[tuple[Any, Any], ...] = (
    (lambda to: _is_zone(to, "deck_bottom", "deck_top", "deck"),
     lambda to, target: _e("to_deck", target=target, position=_deck_pos(to))),
    (lambda to: _is_zone(to, "hand"), lambda to, target: _e("to_hand", target=target)),
    (lambda to: _is_zone(to, "trash"), lambda to, target: _e("destroy", target=target)),
    (lambda to: _is_zone(to, "pile"), lambda to, target: _e("to_pile", target=target, pile=to["zones"][0]["pile"])),
    (_to_type("below"),
     lambda to, target: _e("put_under", target=target, under=to.get("of") or {"type": "card", "ref": "this"})),
    (_to_type("aside"), lambda to, target: _e("set_aside", target=target)),
    (lambda to: isinstance(to, dict) and to.get("type") == "card" and to.get("what") == "field",
     lambda to, target: _e("move", target=target, to=to)),
)


def _deck_pos(to: dict[str, Any]) -> str:
    zone = to["zones"][0]["zone"]
    return "top" if zone == "deck_top" else "bottom" if zone == "deck_bottom" else "shuffle"


def _put_in(args, pred, ctx):
    to = _one(args, "to")
    obj = _one(args, "obj")
    if obj is None:
        obj = _target(args, ctx, "obj")
    if _is_zone(to, "hand"):
        ctx.last_target = obj
        return [_e("to_hand", target=_with_count(obj, _count(args)))]
    if _is_zone(to, "deck", "deck_bottom", "deck_top"):
        return [_e("to_deck", target=_with_count(obj, _count(args)), position=_deck_pos(to))]
    raise NotUnderstood("", "put in where")


def _state(kind: str):
    def handler(args, pred, ctx):
        target = _target(args, ctx, "obj")
        return [_e(kind, target=_with_count(target, _count(args)) if isinstance(target, dict) else target)]
    return handler


def _set(args, pred, ctx):
    ref = _one(args, "statobj")
    if ref is None:
        raise NotUnderstood("", "set what")
    return [_e("stat_set", target=ref["of"], stat=ref.get("stat") or ref.get("stats"), value=pred["value"])]


def _gain(args, pred, ctx):
    target = _target(args, ctx, "topic", "subj")
    mods = _one(args, "modsobj")
    if mods is None:
        thing = _one(args, "obj")
        raise NotUnderstood("", f"gain {thing}")
    if len(mods) != 1:
        raise NotUnderstood("", "gain choice")
    changes, keywords = _changes(mods[0])
    return [_e("grant", target=target, keywords=keywords, changes=changes)]


def _gain_next(args, pred, ctx):
    return [_e("grant_ability", target=_target(args, ctx, "topic", "subj"), what=pred.get("what"))]


def _lose(args, pred, ctx):
    target = _target(args, ctx, "topic", "subj")
    what = _one(args, "obj") or _one(args, "modsobj")
    return [_e("lose_ability", target=target, what=what)]


def _be_lost(args, pred, ctx):
    topic = _one(args, "topic")
    if pred["form"] == "must" and isinstance(topic, dict) and topic.get("ref") == "this" and topic.get("what") in (
            "ability", "effect"):
        return [_e("ability_lost", what=topic["what"])]
    raise NotUnderstood("", "lost what")


def _interrupt(args, pred, ctx):
    obj = _one(args, "obj")
    if isinstance(obj, dict) and obj.get("thing") == "battle":
        return [_e("end_battle")]
    raise NotUnderstood("", "interrupt what")


def _fail(args, pred, ctx):
    topic = _one(args, "topic")
    if isinstance(topic, dict) and topic.get("thing") == "resolution":
        return [_e("negate")]
    raise NotUnderstood("", "fail what")


def _look(args, pred, ctx):
    obj = _one(args, "obj")
    if isinstance(obj, dict) and obj.get("type") == "card" and obj.get("zone"):
        return [_e("look", count=obj.get("count"), zone=obj["zone"], up_to=obj.get("up_to"))]
    raise NotUnderstood("", "look at what")


def _reorder(args, pred, ctx):
    return [_e("reorder")]


def _reveal(args, pred, ctx):
    obj = _one(args, "obj") or _target(args, ctx, "obj")
    return [_e("reveal", target=obj)]


def _search(args, pred, ctx):
    card = _one(args, "obj")
    source = _one(args, "from")
    if card is None or source is None:
        raise NotUnderstood("", "search what")
    ctx.last_target = card
    return [_e("search", source=source, card=_with_count(card, _count(args)))]


def _charge(args, pred, ctx):
    target = _target(args, ctx, "to")
    return [_e("charge", target=target, count=_count(args, 1), card=_one(args, "obj"))]


def _down(args, pred, ctx):
    if pred["form"] in ("neg", "cannot"):
        return [_e("prevent", target=_target(args, ctx, "topic", "subj"), event="down")]
    raise NotUnderstood("", "down")


def _designate(args, pred, ctx):
    if pred["form"] == "cannot":
        as_ = _one(args, "to")
        what = as_.get("what") if isinstance(as_, dict) else None
        if isinstance(as_, dict) and as_.get("type") == "thing":
            what = as_.get("thing")
        return [_e("prevent", target=_target(args, ctx, "topic", "subj"), event="designated", **{"as": what})]
    raise NotUnderstood("", "designate")


def _return(args, pred, ctx):
    if pred["form"] == "neg" and pred.get("state") == "stand":
        at = _one(args, "at")
        return [_e("skip_wakeup", target=_target(args, ctx, "topic", "subj", "obj"),
                   at=until_name(at) if at else None)]
    raise NotUnderstood("", "return")


def _declare(args, pred, ctx):
    topic = _one(args, "topic")
    if pred["form"] == "cannot" and isinstance(topic, dict) and topic.get("player") == "opponent":
        return [_e("no_response")]
    raise NotUnderstood("", "declare")


def _choose(args, pred, ctx):
    raise NotUnderstood("", "choose")


def _swap(args, pred, ctx):
    return [_e("swap", target=_target(args, ctx, "obj"), with_=_one(args, "to"))]


def _receive(args, pred, ctx):
    if pred["form"] in ("neg",):
        obj = _one(args, "obj")
        return [_e("prevent", target=_target(args, ctx, "topic", "subj"), event="modified",
                   by=_one(args, "by"), what=obj)]
    raise NotUnderstood("", "receive")


def _pay(args, pred, ctx):
    topic = _one(args, "topic")
    if not (isinstance(topic, dict) and topic.get("ref") == "this" and topic.get("what") == "cost"):
        raise NotUnderstood("", "pay")
    only = _one(args, "only_to")
    if pred["form"] == "may" and only is not None:
        return [_e("payment_limit", only_for=only)]
    excluded = _one(args, "to_topic")
    if pred["form"] == "cannot" and excluded is not None:
        return [_e("payment_limit", not_for=excluded)]
    raise NotUnderstood("", "pay")


_VERBS = {
    "do": _do, "draw": _draw, "destroy": _destroy, "exile": _card_effect("exile"), "recover": _recover,
    "shuffle": _shuffle, "generate": _generate, "enter": _enter, "place": _place, "equip": _equip,
    "move": _move, "put": _put, "put_in": _put_in, "stand": _state("stand"), "rest": _state("rest"),
    "set": _set, "gain": _gain, "gain_next": _gain_next, "lose": _lose, "be_lost": _be_lost,
    "interrupt": _interrupt, "fail": _fail, "look": _look, "reorder": _reorder, "reveal": _reveal,
    "search": _search, "charge": _charge, "down": _down, "designate": _designate, "return": _return,
    "declare": _declare, "choose": _choose, "swap": _swap, "receive": _receive, "pay": _pay,
}


# ------------------------------------------------------------------------------------------ triggers
_EVENT_VERBS = {
    "enter": "enters", "down": "downed", "leave": "leaves", "destroy": "destroyed", "exile": "exiled",
    "move": "moved", "deal": "deals_damage", "use": "used", "designate": "designated", "equip": "equipped",
    "place": "placed",
}
_PAST = {"past", "passive_past"}


def trigger_of(event: dict[str, Any]) -> dict[str, Any]:
    """A when-clause (or timepoint) → a trigger ``{"kind": ..., params}``."""
    if "at" in event:
        return _timepoint_trigger(event["at"])
    if "alt" in event:
        return {"kind": "either", "of": [trigger_of(c) for c in event["alt"]]}
    pred = event["pred"]
    verb, form = pred["verb"], pred["form"]
    if form not in _PAST:
        raise NotUnderstood("", "event form")
    args = _args(event)
    special = _SPECIAL_EVENTS.get(verb)
    out = special(args) if special is not None else None
    if out is not None:
        return out
    kind = _EVENT_VERBS.get(verb)
    params = _event_params(event)
    if pred.get("by"):
        params["via"] = pred["by"]
    if kind:
        return {"kind": kind, **params}
    return {"kind": "event", "verb": verb, **params}


def _timepoint_trigger(tp: dict[str, Any]) -> dict[str, Any]:
    """ターン開始時 / ターン終了時 / バトル終了時 (of whose turn, after what)."""
    kind = {"turn_start": "turn_start", "turn_end": "turn_end", "battle_end": "battle_end"}.get(tp["at"])
    if kind is None:
        raise NotUnderstood("", "timepoint")
    out = {"kind": kind}
    if tp.get("turn"):
        out["turn"] = tp["turn"]
    if tp.get("of"):
        out["of"] = tp["of"]
    if tp.get("after"):
        out["after"] = _event_params(tp["after"])
    return out


def _do_trigger(args: dict[str, list[Any]]) -> dict[str, Any] | None:
    """アタック宣言をした時 / サポートをした(された)時."""
    obj = _one(args, "obj")
    thing = obj.get("thing") if isinstance(obj, dict) else None
    if thing == "attack_declaration":
        return {"kind": "attack_declared", "by": _one(args, "by")}
    if thing == "support":
        if _one(args, "to") is not None:
            return {"kind": "supported", "card": _one(args, "to")}
        return {"kind": "supports", "by": _one(args, "by")}
    return None


def _gain_trigger(args: dict[str, list[Any]]) -> dict[str, Any] | None:
    """能力補正を得た時."""
    obj = _one(args, "obj")
    if isinstance(obj, dict) and obj.get("thing") == "stat_modification":
        return {"kind": "modified", "card": _one(args, "subj"), "by": _one(args, "by")}
    return None


_SPECIAL_EVENTS = {"do": _do_trigger, "gain": _gain_trigger}


def _event_params(clause: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for role, values in _args(clause).items():
        key = {"subj": "card", "obj": "card", "by": "by", "from": "from", "to": "to", "topic": "card",
               "by_not": "not_by"}.get(role, role)
        if key == "card" and "card" in out:
            key = "object"
        out[key] = values[0] if len(values) == 1 else values
    if clause["pred"]["form"] == "passive_past":
        out["passive"] = True
    return out


# ------------------------------------------------------------------------------------------ conditions
def condition_of(cond: dict[str, Any]) -> dict[str, Any]:
    """A ``…場合`` reading → a condition ``{"kind": ..., params}``."""
    if "and" in cond:
        return {"kind": "all_of", "of": [condition_of(c) for c in cond["and"]]}
    if "clause" in cond:
        return _clause_condition(cond["clause"])
    args = _args({"args": cond["args"]})
    nominal = cond["nominal"]
    negated = cond.get("negated") or None
    if "count" in nominal and "type" not in nominal:
        nominal = {"type": "compare", "value": nominal["count"], "op": "=="}
    if nominal.get("type") == "compare":
        return _compare_condition(args, nominal)
    if "period" in nominal or "periods" in nominal:
        return {"kind": "during", "period": nominal, "negated": negated}
    if nominal.get("type") in ("card", "or", "and"):
        subj = _one(args, "subj")
        if subj is None:
            raise NotUnderstood("", "is what")
        return {"kind": "is", "card": subj, "is": nominal, "negated": negated}
    if "stat" in nominal:
        subj = _one(args, "subj")
        return {"kind": "stat", "of": subj, **nominal, "negated": negated}
    raise NotUnderstood("", "condition")


def _clause_condition(clause: dict[str, Any]) -> dict[str, Any]:
    """A verb clause before 場合: a card present / absent / counted, or a state (a done verb)."""
    if "alt" in clause:
        return {"kind": "state", "any_of": [condition_of({"clause": c}) for c in clause["alt"]]}
    pred = clause["pred"]
    args = _args(clause)
    if not args and pred["form"] in ("neg",):
        return {"kind": "not_done", "verb": pred["verb"]}
    subject = _one(args, "subj") or _one(args, "obj")
    cmp = _one(args, "qtycmp")
    if pred["verb"] in ("enter", "place", "put", "be") and pred["form"] in ("prog", "prog_neg", "passive_prog",
                                                                           "passive_prog_neg"):
        if cmp:
            return {"kind": "count", "card": subject, "op": cmp.get("op"), "n": cmp.get("value")}
        kind = "present" if pred["form"] in ("prog", "passive_prog") else "absent"
        return {"kind": kind, "card": subject}
    return {"kind": "state", "verb": pred["verb"], "form": pred["form"], **_event_params(clause)}


def _compare_condition(args: dict[str, list[Any]], nominal: dict[str, Any]) -> dict[str, Any]:
    """…がN以上の場合: a stat, a zone's size or a count compared."""
    statsubj = _one(args, "statsubj")
    subj = _one(args, "subj")
    op = nominal.get("op")
    than = {"than": nominal["than"]} if "than" in nominal else {}
    if statsubj is not None:
        return {"kind": "stat", "of": statsubj["of"], "stat": statsubj.get("stat"), "op": op,
                "value": nominal.get("value"), **than}
    if isinstance(subj, dict) and subj.get("type") in ("size", "zone"):
        return {"kind": "size", "of": subj, "op": op, "n": nominal.get("value")}
    if subj is not None:
        return {"kind": "count", "card": subj, "op": op, "n": nominal.get("value"), **than}
    raise NotUnderstood("", "compare what")


def _clean(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


# ------------------------------------------------------------------------------------------ sentences
class Piece:
    """What one sentence contributes to its ability."""

    def __init__(self) -> None:
        self.trigger: dict[str, Any] | None = None
        self.conditions: list[Effect] = []
        self.effects: list[Effect] = []
        self.limit: list[dict[str, Any]] = []
        self.once_per_turn = False


def _use_condition(clause: dict[str, Any]) -> list[Effect] | None:
    """``自ターン中に使用する`` / ``バトル中に使用できない`` / ``相手の宣言に対応して使用する``."""
    pred = clause.get("pred") or {}
    if pred.get("verb") != "use" or pred.get("form") not in ("must", "cannot"):
        return None
    args = _args(clause)
    periods = args.get("during") or []
    excepts = args.get("except") or []
    response = _one(args, "to")
    manners = args.get("manner") or []
    if pred["form"] == "must":
        return _use_only(periods, excepts, response, manners)
    if "in_response" in manners and isinstance(response, dict):
        return [_e("no_response_use", to=response)]
    out: list[Effect] = []
    for p in periods:
        if p.get("period") == "response":
            out.append(_e("no_response_use", to={"type": "thing", "thing": "declaration"}))
        else:
            out.append(_e("use_not_during", period=p))
    return out or None


def _use_only(periods: list[Any], excepts: list[Any], response: Any, manners: list[Any]) -> list[Effect] | None:
    """``…に使用する``: only in these periods (or in response to this)."""
    if "in_response" in manners and isinstance(response, dict):
        return [_e("respond_to", to=response)]
    if response is not None:
        return None
    out: list[Effect] = []
    for p in periods:
        out.append(_e("use_during", period=p, **({"except": excepts[0]["except"]} if excepts else {})))
    if not periods and excepts:
        out.append(_e("use_not_during", period={"periods": excepts[0]["except"]}))
    return out or None


def compile_reading(reading: dict[str, Any], ctx: Context, first: bool = False) -> Piece:
    if "limit" in reading:
        return _limit_piece(reading["limit"])
    piece = Piece()
    if "note" in reading:
        note = dict(reading)
        kind = note.pop("note")
        piece.effects.append(_e(kind, **note))
        return piece
    main = reading["main"]
    if len(main) == 1 and not reading["leads"]:
        use = _use_condition(main[0])
        if use is not None:
            piece.conditions.extend(use)
            return piece
    leads = _Leads(piece, ctx)
    for kind, value in reading["leads"]:
        handler = _LEAD_HANDLERS.get(kind)
        if handler is not None:
            handler(leads, value)
    effects = _joined_searches(main, ctx)
    # an optional verb at the end of a continuative chain makes the chain optional
    if effects and effects[-1].params.get("optional") and len(main) > 1:
        effects = [Effect(e.kind, {**e.params, "optional": True}) for e in effects]
    for eff in effects:
        params = dict(eff.params)
        if leads.conditions:
            params["if"] = [_clean(c) for c in leads.conditions]
        if leads.until and "until" not in params:
            params["until"] = leads.until
        piece.effects.append(Effect(eff.kind, params))
    return piece


def _limit_piece(body: dict[str, Any]) -> Piece:
    """``1ターンに1回まで使用できる`` / ``同じ選択肢は1回まで``: limit conditions."""
    piece = Piece()
    for item in body.get("items", []):
        piece.conditions.append(_e("limit", **item))
        if item.get("per") == "turn" and item.get("count") == 1:
            piece.once_per_turn = True
    if "same_choice_max" in body:
        piece.conditions.append(_e("limit", per="choice", count=body["same_choice_max"]))
    return piece


class _Leads:
    """The phrases before a sentence's effects (``…時``, ``…場合``, ``…まで``, ``…中``): the piece's
    trigger, or conditions and a duration on each effect of the sentence."""

    def __init__(self, piece: Piece, ctx: Context) -> None:
        self.piece = piece
        self.ctx = ctx
        self.conditions: list[dict[str, Any]] = []
        self.until: str | None = None

    def _takes_trigger(self) -> bool:
        return self.ctx.kind == "auto" and self.ctx.trigger is None and self.piece.trigger is None

    def when(self, events: Any) -> None:
        bare = [e for e in events if "pred" in e and not e.get("args")]
        if bare and len(events) == 1:  # …した場合: what the effect before did
            pred = bare[0]["pred"]
            if pred["form"] not in _PAST:
                raise NotUnderstood("", "when form")
            self.conditions.append({"kind": "done", "verb": pred["verb"]})
            return
        triggers = [trigger_of(e) for e in events]
        trig = triggers[0] if len(triggers) == 1 else {"kind": "either", "of": triggers}
        if self._takes_trigger():
            self.piece.trigger = trig
        elif self.piece.trigger is not None:
            raise NotUnderstood("", "two triggers")
        else:
            self.conditions.append({"kind": "when", "event": trig})

    def at(self, value: Any) -> None:
        trig = trigger_of({"at": value})
        if self._takes_trigger():
            self.piece.trigger = trig
        else:
            self.conditions.append({"kind": "when", "event": trig})

    def if_(self, value: Any) -> None:
        self.conditions.append(condition_of(value))

    def until_(self, value: Any) -> None:
        self.until = until_name(value)

    def during(self, value: Any) -> None:
        self.conditions.append({"kind": "during", "period": value})

    def except_(self, value: Any) -> None:
        self.conditions.append({"kind": "during", "period": {"periods": value["except"]}, "negated": True})


_LEAD_HANDLERS = {"when": _Leads.when, "at": _Leads.at, "if": _Leads.if_, "until": _Leads.until_,
                  "during": _Leads.during, "except": _Leads.except_}


def _joined_searches(main: list[dict[str, Any]], ctx: Context) -> list[Effect]:
    """The effects of the sentence's clauses; a ``search`` takes the effect after it as its
    ``then`` (what is done with the card found)."""
    effects: list[Effect] = []
    pending_search: Effect | None = None
    for clause in main:
        for eff in effect_of_clause(clause, ctx):
            if eff.kind == "search":
                pending_search = eff
            elif pending_search is not None:
                effects.append(_search_then(pending_search, eff))
                pending_search = None
            else:
                effects.append(eff)
    if pending_search is not None:
        effects.append(pending_search)
    return effects


def _search_then(search: Effect, eff: Effect) -> Effect:
    params = dict(search.params)
    then = eff.to_dict()
    then.get("params", {}).pop("target", None)
    then.get("params", {}).pop("card", None)
    params["then"] = then
    if eff.params.get("optional"):
        params["optional"] = True
    return Effect("search", params)


# ------------------------------------------------------------------------------------------ abilities
def _cost_effects(tokens: tuple[str, ...], ctx: Context) -> list[Effect]:
    out: list[Effect] = []
    for tok in tokens:
        body = tok.strip()
        if body in ("0", ""):
            out.append(_e("free"))
            continue
        m = re.fullmatch(r"(T?)([雪月花宙日無]*)", body)
        if m and body:
            if m.group(1):
                out.append(_e("tap"))
            if m.group(2):
                out.append(_e("pay", attributes=attribute_cost(m.group(2))))
            continue
        m = re.fullmatch(r"([CD])(\d+)", body)
        if m:
            out.append(_e("remove_charge" if m.group(1) == "C" else "mill", count=int(m.group(2))))
            continue
        sentence = body if body.endswith("。") else body + "。"
        piece = compile_reading(read_sentence(sentence), ctx)
        if not piece.effects:
            raise NotUnderstood(f"[{body}]", "cost")
        out.extend(piece.effects)
    return out


def _compile_body(seg: t.Segment, ctx: Context) -> tuple[list[Effect], list[Effect], dict[str, Any] | None, bool]:
    """(conditions, effects, trigger, once_per_turn) of a segment's body; raises NotUnderstood."""
    lines = seg.body.split("\n")
    main_line, options = lines[0], [line.lstrip("・").strip() for line in lines[1:] if line.startswith("・")]
    conditions: list[Effect] = []
    effects: list[Effect] = []
    trigger: dict[str, Any] | None = None
    once = False
    for i, sentence in enumerate(t.split_sentences(main_line)):
        piece = _read_piece(sentence, ctx, first=i == 0)
        if piece.trigger is not None:
            trigger = piece.trigger
            ctx.trigger = Effect(trigger["kind"], {k: v for k, v in trigger.items() if k != "kind"})
        conditions.extend(piece.conditions)
        effects.extend(piece.effects)
        once = once or piece.once_per_turn
    if options:
        _attach_options(effects, _option_effects(options, ctx, conditions), options)
    for eff in effects:
        if eff.kind == "choose" and not eff.params.get("options"):
            raise NotUnderstood(next(s for s in t.split_sentences(main_line) if "以下から" in s), "no options listed")
    return conditions, effects, trigger, once


def _read_piece(sentence: str, ctx: Context, first: bool = False) -> Piece:
    """One sentence compiled; NotUnderstood names the sentence."""
    try:
        return compile_reading(read_sentence(sentence), ctx, first=first)
    except NotUnderstood as exc:
        raise NotUnderstood(sentence, exc.why) from None


def _option_effects(options: list[str], ctx: Context, conditions: list[Effect]) -> list[list[dict[str, Any]]]:
    """Each ・option line's effects (its conditions join the ability's)."""
    out = []
    for option in options:
        opt_effects: list[Effect] = []
        for sentence in t.split_sentences(option):
            piece = _read_piece(sentence, Context(ctx.kind))
            opt_effects.extend(piece.effects)
            conditions.extend(piece.conditions)
        out.append([e.to_dict() for e in opt_effects])
    return out


def _attach_options(effects: list[Effect], option_effects: list[list[dict[str, Any]]], options: list[str]) -> None:
    """以下から1つを選び処理する: the options belong to the last ``choose`` without options."""
    for idx in range(len(effects) - 1, -1, -1):
        if effects[idx].kind == "choose" and not effects[idx].params.get("options"):
            effects[idx] = Effect("choose", {**effects[idx].params, "options": option_effects})
            return
    raise NotUnderstood(options[0], "options without 以下から")


_KEYWORD_TRIGGERS = {"engage": "engage", "bonus": "bonus", "penalty": "penalty", "recovery": "recovery",
                     "turn_recovery": "turn_recovery", "deck_bonus": "bonus"}


def compile_basic(tok: t.BasicToken) -> Ability:
    """One basic ability token → a ``keyword`` ability."""
    name = KEYWORDS.get(tok.name) or t.BASIC_ABILITIES.get(tok.name)
    if name is None:
        return Ability(kind="keyword", text=tok.text, unrecognised=tok.text)
    arg = tok.arg
    params: dict[str, Any] = {"name": name}
    trigger = None
    effects: list[Effect] = []
    try:
        if name == "convert":
            cost, _, target = arg.partition(":")
            params["cost"] = _basic_cost(cost)
            m = re.search(r"→「([^」]+)」", target)
            if not m:
                raise NotUnderstood(tok.text, "convert")
            params["target"] = m.group(1)
            src = re.match(r"「([^」]+)」", target)
            if src:
                params["from"] = src.group(1)
        elif name == "charge":
            if not arg.isdigit():
                raise NotUnderstood(tok.text, "charge")
            params["count"] = int(arg)
        elif name in _KEYWORD_TRIGGERS and arg:
            inner = arg[1:-1] if arg.startswith("[") and arg.endswith("]") else arg
            ctx = Context("keyword")
            for sentence in t.split_sentences(inner):
                try:
                    effects.extend(compile_reading(read_sentence(sentence), ctx).effects)
                except NotUnderstood as exc:
                    raise NotUnderstood(sentence, exc.why) from None
            trigger = Effect(_KEYWORD_TRIGGERS[name])
        elif arg:
            params["cost"] = _basic_cost(arg)
        elif name in _KEYWORD_TRIGGERS:
            trigger = Effect(_KEYWORD_TRIGGERS[name])
    except NotUnderstood as exc:
        return Ability(kind="keyword", text=tok.text, keywords=(name,), unrecognised=exc.phrase or tok.text)
    return Ability(kind="keyword", text=tok.text, keywords=(name,), trigger=trigger,
                   effects=(Effect("keyword", params), *effects))


def _basic_cost(arg: str) -> Any:
    inner = arg.strip()
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1].strip()
    if inner in ("0", ""):
        return {}
    if re.fullmatch(r"[雪月花宙日無]+", inner):
        return attribute_cost(inner)
    m = re.fullmatch(r"([CD])(\d+)", inner)
    if m:
        return {"remove_charge" if m.group(1) == "C" else "mill": int(m.group(2))}
    if inner == "このキャラの使用代償":
        return "own_cost"
    raise NotUnderstood(f"[{inner}]", "keyword cost")


_TOKEN_STATS = {"AP": "ap", "DP": "dp", "SP": "sp", "DMG": "dmg", "EX": "ex"}


def _token_definition(body: str) -> Effect:
    """``「偽臣」AP:0/DP:0/SP:0/DMG:0/EX:0/属性:[無]/使用代償:[0]/[ペナルティ:[…]]/※…`` → ``token``."""
    name, _, rest = body.partition("」")
    params: dict[str, Any] = {"name": name.strip("「 ")}
    keywords: list[Any] = []
    for f in (f.strip() for f in _token_fields(rest) if f.strip()):
        key, sep, value = f.partition(":")
        if key in _TOKEN_STATS and value.isdigit():
            params[_TOKEN_STATS[key]] = int(value)
        elif key == "属性":
            params["attributes"] = list(attribute_cost(value))
        elif key == "使用代償":
            params["cost"] = _basic_cost(value)
        elif f.startswith("["):
            keywords.extend(_token_keywords(f))
        elif f.startswith("※"):
            reading = read_sentence(f[1:] if f.endswith("。") else f[1:] + "。")
            piece = compile_reading(reading, Context("rule"))
            params["notes"] = [e.kind for e in piece.effects]
        else:
            raise NotUnderstood(f, "token field")
    if keywords:
        params["keywords"] = keywords
    return _e("token", **params)


def _token_fields(rest: str) -> list[str]:
    """The ``/``-separated fields, outside brackets."""
    depth, start, fields = 0, 0, []
    for i, ch in enumerate(rest):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "/" and depth == 0:
            fields.append(rest[start:i])
            start = i + 1
    fields.append(rest[start:])
    return fields


def _token_keywords(f: str) -> list[dict[str, Any]]:
    """A token's basic abilities (``[ペナルティ:[…]]``): each keyword's params (and effects)."""
    tokens, _repairs = t.split_basic_line(f)
    if not tokens:
        raise NotUnderstood(f, "token keyword")
    out = []
    for tok in tokens:
        ability = compile_basic(tok)
        if not ability.compiled:
            raise NotUnderstood(f, "token keyword")
        out.append({**ability.effects[0].params,
                    **({"effects": [e.to_dict() for e in ability.effects[1:]]} if ability.effects[1:] else {})})
    return out


def compile_segment(seg: t.Segment) -> Ability | None:
    """One segment → its ability (``None`` for informational notes)."""
    if seg.kind == "basic":
        assert seg.basic is not None
        return compile_basic(seg.basic)
    if seg.kind == "note" and (seg.body.startswith(_INFO_NOTES) or _DATE_NOTE.match(seg.body)):
        return None
    kind = {"note": "rule", "event": "event", "text": "text", "equip_restriction": "equip_restriction",
            "token": "token"}.get(seg.kind, seg.kind)
    ctx = Context(kind)
    cost: list[Effect] = []
    try:
        if seg.kind == "equip_restriction":
            return Ability(kind=kind, text=seg.text, effects=(_e("equip_limit", card=read_noun_phrase(seg.body)),))
        if seg.kind == "token":
            return Ability(kind=kind, text=seg.text, effects=(_token_definition(seg.body),))
        cost = _cost_effects(seg.cost, ctx) if seg.cost else []
        conditions, effects, trigger, once = _compile_body(seg, ctx)
    except NotUnderstood as exc:
        return Ability(kind=kind, text=seg.text, cost=tuple(cost), unrecognised=exc.phrase or seg.body)
    trig = Effect(trigger["kind"], {k: v for k, v in trigger.items() if k != "kind" and v is not None}) \
        if trigger else None
    if kind == "auto" and trig is None and not effects:
        return Ability(kind=kind, text=seg.text, unrecognised=seg.body)
    return Ability(kind=kind, text=seg.text, trigger=trig, conditions=tuple(conditions), cost=tuple(cost),
                   effects=tuple(effects), once_per_turn=once)
