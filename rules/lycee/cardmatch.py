"""Does a printed Lycee card match a compiled card selector (``rules.lycee.abilities`` noun phrases)?

Used by the construction restrictions (``禁止:コストが3点以下のエリア``) and by the goldfish engine
(``自分のデッキから<大学選抜>キャラ1体を探し…``). :func:`matches` answers ``True`` / ``False``, or
``None`` when the selector asks what the card data does not hold — the work (『…』) or brand
(``[NEX]``) of a card: the Overture data has neither — or a shape this reader does not know
(relative clauses, comparisons with other cards). Context keys (``ref``, ``side``, ``position``,
``zone``, ``count``, ``all``, ``up_to``) are the caller's business and ignored here.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rules.cards import CardRecord

# what a selector's ``what`` accepts, by card type
_WHAT: dict[str, frozenset[str]] = {
    "character": frozenset({"character"}), "named": frozenset({"character", "event", "item", "area"}),
    "item": frozenset({"item"}), "area": frozenset({"area"}), "event": frozenset({"event"}),
    "card": frozenset({"character", "event", "item", "area"}),
}
_CONTEXT_KEYS = frozenset({"type", "ref", "side", "position", "zone", "count", "all", "up_to", "unit", "what"})
_OPS: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le, ">=": operator.ge, "==": operator.eq, "=": operator.eq, "<": operator.lt, ">": operator.gt,
    "!=": operator.ne,
}


def squash(name: str) -> str:
    """A name as printed in text and as stored compare equal without spaces (「桜庭玉藻」 / 桜庭 玉藻)."""
    return "".join(name.split())


def card_names(card: CardRecord) -> tuple[str, ...]:
    """Every name a card answers to in text: its full name and its other names, spaces removed."""
    return tuple(squash(n) for n in (card.name, *card.alt_names, card.conversion_target) if n)


def stat_of(card: CardRecord, stat: str) -> int | None:
    if stat == "cost":
        return sum(int(n) for n in (card.cost_detail or {}).values()) if card.cost_detail else (card.cost or 0)
    if stat in ("ap", "dp", "sp", "dmg", "ex"):
        value = getattr(card, stat)
        return 0 if value is None else int(value)
    return None


def _filter(f: Mapping[str, Any], card: CardRecord) -> bool | None:
    if "name_contains" in f:
        part = squash(str(f["name_contains"]))
        return any(part in n for n in card_names(card))
    if "subname_contains" in f:  # サブネーム: the epithet before the character's name (騎士王 in 騎士王 セイバー)
        part = squash(str(f["subname_contains"]))
        name = card.name
        for alt in card.alt_names:
            if alt and name.endswith(alt):
                name = name[: -len(alt)]
                break
        return part in squash(name)
    if "not_attributes" in f:  # [雪]でない
        return not any(a in card.attributes for a in f["not_attributes"])
    if "attribute_count_min" in f:
        return len([a for a in card.attributes if a != "star"]) >= int(f["attribute_count_min"])
    if set(f) <= {"original", "controller"}:  # 元の (printed values: what is matched here) / 自分の
        return True
    rel = f.get("relative")
    if isinstance(rel, Mapping) and rel.get("verb") == "have" and rel.get("form") in ("must", "neg"):
        args = rel.get("args") or ()
        things = {a["value"].get("thing") for a in args if isinstance(a.get("value"), Mapping)}
        if things:  # 切札効果を持つ / 手札宣言能力を持つ
            kinds = {"trump_effect": "trump", "hand_ability": "hand_activated"}
            if not things <= set(kinds) or any(a["value"].get("filters") for a in args
                                               if isinstance(a.get("value"), Mapping)):
                return None
            has = bool({kinds[t] for t in things} & card_ability_kinds(card))
        else:
            wanted = {k.get("keyword") for a in args for group in a.get("value") or ()
                      for k in (group if isinstance(group, list) else [group]) if isinstance(k, Mapping)}
            has = bool(wanted & card_keywords(card))
        return has if rel.get("form") == "must" else not has
    stat = f.get("stat")
    if stat is not None and set(f) <= {"stat", "value", "op", "min", "max", "unit", "only_attributes", "original"}:
        if "only_attributes" in f and not set(card.cost_detail or {}) <= set(f["only_attributes"]):
            return False  # コストが[日]または[無]のみで
        value = stat_of(card, str(stat))
        if value is None:
            return None
        if "value" in f:
            test = _OPS.get(str(f.get("op", "==")))
            if test is None:
                return None
            return test(value, int(f["value"]))
        lo, hi = f.get("min"), f.get("max")
        return (lo is None or value >= int(lo)) and (hi is None or value <= int(hi))
    return None


def card_keywords(card: CardRecord) -> set[str]:
    """The card's basic abilities: the importer's keywords and the compiled keyword abilities."""
    found = set(card.keywords)
    if "[" in card.text:
        from rules.lycee.abilities import compile_text_cached

        for a in compile_text_cached(card.text, card.card_type):
            if a.kind == "keyword":
                found.update(a.keywords)
    return found


def card_ability_kinds(card: CardRecord) -> set[str]:
    """The kinds of the card's compiled abilities (``trump``, ``hand_activated``...)."""
    if not card.text:
        return set()
    from rules.lycee.abilities import compile_text_cached

    return {a.kind for a in compile_text_cached(card.text, card.card_type)}


def all_known(results: Iterable[bool | None]) -> bool | None:
    """``and`` of three-valued results: False wins, then None."""
    unknown = False
    for r in results:
        if r is False:
            return False
        if r is None:
            unknown = True
    return None if unknown else True


# memo of ``matches`` by (selector identity, card): selectors are compiled once and kept (the
# entry holds the selector, so its id is never another's while cached); cleared when large
_MEMO: dict[tuple[int, CardRecord], tuple[Mapping[str, Any], bool | None]] = {}


def matches(sel: Mapping[str, Any], card: CardRecord) -> bool | None:
    """Whether ``card`` matches the card selector ``sel`` (see the module docstring). Memoised by
    selector identity: selectors must not be mutated."""
    key = (id(sel), card)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is sel:
        return hit[1]
    result = _matches(sel, card)
    if len(_MEMO) > 200_000:
        _MEMO.clear()
    _MEMO[key] = (sel, result)
    return result


def _matches(sel: Mapping[str, Any], card: CardRecord) -> bool | None:
    kind = sel.get("type", "card")
    if kind == "and":
        return all_known(_matches(s, card) for s in sel.get("items", ()))
    if kind == "or":
        got = [_matches(s, card) for s in sel.get("items", ())]
        return True if True in got else (None if None in got else False)
    if kind != "card":
        return None
    what = sel.get("what", "card")
    types = _WHAT.get(str(what))
    if types is None:
        return None
    results: list[bool | None] = [card.card_type in types]
    for key, value in sel.items():
        if key in _CONTEXT_KEYS:
            continue
        if key == "attributes":  # [雪]キャラ: has each listed attribute ([雪][月]: both)
            results.append(all(a in card.attributes for a in value))
        elif key == "any_attribute":
            results.append(any(a in card.attributes for a in value))
        elif key == "names":
            names = card_names(card)
            results.append(any(squash(n) in names for n in value))
        elif key == "trait":
            results.append(str(value) in card.traits)
        elif key == "traits":  # <A>または<B>
            results.append(any(str(v) in card.traits for v in value))
        elif key == "owner":
            results.append(None if value == "opponent" else True)
        elif key == "filters":
            results.extend(_filter(f, card) for f in value)
        else:  # title, brand, under, relative clauses...: not in the data / not read here
            results.append(None)
    return all_known(results)
