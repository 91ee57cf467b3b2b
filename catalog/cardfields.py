"""The card JSON format's field types, and the normalisation every import goes through (no database).

``card_normalize(data)`` turns one card dict in the documented format (docs/card-format.md) into the
canonical full dict that is stored: every key of ``rules.cards.CARD_FIELDS`` present, defaults
filled in, keywords in canonical form (``"name"`` or ``{"name": ..., "cost": {...}}`` only when the
cost is not empty). It reports every type problem by field and never raises for bad content.
``rules.cards.validate_card`` then checks the game rules on the normalised dict.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, fields
from typing import Any

from rules.cards import CARD_FIELDS, NUMERIC_STATS, CardRecord, translation_errors

LIST_FIELDS: tuple[str, ...] = ("colors", "attributes", "traits", "triggers", "slots", "extra_persons", "alt_names")
BOOL_FIELDS: tuple[str, ...] = ("text_modelled", "counter")
INT_FIELDS: tuple[str, ...] = NUMERIC_STATS
JSON_FIELDS: tuple[str, ...] = ("keywords", "effects", "cost_detail", "translations")
STR_FIELDS: tuple[str, ...] = tuple(
    sorted(CARD_FIELDS - set(LIST_FIELDS) - set(BOOL_FIELDS) - set(INT_FIELDS) - set(JSON_FIELDS))
)
# Fields that identify a card: surrounding whitespace is removed from them on import.
STRIPPED_FIELDS: frozenset[str] = frozenset({"game", "code", "name", "card_type"})

# The documented column / key order (the JSON and CSV exporters write fields in this order).
FIELD_ORDER: tuple[str, ...] = (
    "game", "code", "name", "card_type", "alt_names", "rarity", "set_code", "work", "number",
    "colors", "attributes", "traits", "text", "flavor", "translations", "text_modelled", "keywords", "effects",
    "level", "cost", "cost_detail",
    "cp", "rank", "bonus_mark", "connect_attack",
    "mhp", "martial", "agility", "wisdom", "craft", "poise", "attack_attribute", "defense_attribute", "ex_condition",
    "power", "soul", "triggers", "counter",
    "gender", "atk", "defense", "partner_atk", "partner_def", "title", "person", "extra_persons", "timing",
    "slots", "ap", "dp", "sp", "ex", "dmg", "conversion_target", "copy_limit",
)
assert set(FIELD_ORDER) == CARD_FIELDS and len(FIELD_ORDER) == len(CARD_FIELDS), "FIELD_ORDER out of date"

# Largest value a stat column holds (PositiveSmallIntegerField / PositiveIntegerField).
SMALL_MAX = 32767
INT_MAX = 2147483647
BIG_STATS = frozenset({"cp", "mhp", "martial", "agility", "wisdom", "craft", "poise", "power"})


def _defaults() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(CardRecord):
        if f.name not in CARD_FIELDS:
            continue
        if f.name in LIST_FIELDS or f.name in ("keywords", "effects"):
            out[f.name] = []
        elif f.name in ("cost_detail", "translations"):
            out[f.name] = {}
        elif f.default is not MISSING:
            out[f.name] = f.default
        else:
            out[f.name] = ""
    return out


DEFAULTS: dict[str, Any] = _defaults()


def is_default(name: str, value: Any) -> bool:
    """True when ``value`` is the default for field ``name`` (compact exports leave it out)."""
    return value == DEFAULTS[name] and type(value) is type(DEFAULTS[name])


def _keyword(item: Any) -> tuple[Any, str | None]:
    if isinstance(item, str):
        return item.strip(), None
    if isinstance(item, Mapping):
        extra = set(item) - {"name", "cost"}
        if extra:
            return None, f"keyword entries have only 'name' and 'cost', not {', '.join(sorted(map(str, extra)))}"
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            return None, "keyword entries need a 'name' string"
        cost = item.get("cost") or {}
        if not isinstance(cost, Mapping):
            return None, f"the cost of keyword {name!r} must be an object"
        for k, v in cost.items():
            if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int) or v < 0:
                return None, f"the cost of keyword {name!r} must map symbols to whole numbers ≥ 0"
        return ({"name": name.strip(), "cost": dict(cost)} if cost else name.strip()), None
    return None, f"keywords must be names or {{'name', 'cost'}} objects, got {item!r}"


def card_normalize(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The canonical full card dict and a ``(field, message)`` list of type problems."""
    problems: list[tuple[str, str]] = []
    if not isinstance(data, Mapping):
        return {}, [("card", f"a card must be an object, got {type(data).__name__}")]
    unknown = sorted(str(k) for k in data if k not in CARD_FIELDS)
    for key in unknown:
        problems.append((key, f"unknown card field {key!r}"))
    out = dict(DEFAULTS)
    for name in CARD_FIELDS:
        if name not in data:
            continue
        value = data[name]
        if name in STR_FIELDS:
            if value is None:
                value = ""
            if not isinstance(value, str):
                problems.append((name, f"{name} must be text, got {value!r}"))
                continue
            if "\x00" in value:
                problems.append((name, f"{name} contains a NUL character"))
                continue
            if name in STRIPPED_FIELDS:
                value = value.strip()
        elif name in INT_FIELDS:
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                problems.append((name, f"{name} must be a whole number, got {value!r}"))
                continue
            limit = INT_MAX if name in BIG_STATS else SMALL_MAX
            if value is not None and value > limit:
                problems.append((name, f"{name} is too large (at most {limit}, got {value})"))
                continue
        elif name in BOOL_FIELDS:
            if value is None:
                value = False
            if not isinstance(value, bool):
                problems.append((name, f"{name} must be true or false, got {value!r}"))
                continue
        elif name in LIST_FIELDS:
            if value is None:
                value = []
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and "\x00" not in v for v in value):
                problems.append((name, f"{name} must be a list of text values, got {value!r}"))
                continue
            value = [v.strip() for v in value]
        elif name == "keywords":
            if value is None:
                value = []
            if not isinstance(value, (list, tuple)):
                problems.append((name, f"keywords must be a list, got {value!r}"))
                continue
            items = []
            for item in value:
                kw, problem = _keyword(item)
                if problem:
                    problems.append((name, problem))
                else:
                    items.append(kw)
            value = items
        elif name == "effects":
            if value is None:
                value = []
            if not isinstance(value, (list, tuple)) or not all(
                isinstance(e, Mapping) and isinstance(e.get("kind"), str) for e in value
            ):
                problems.append((name, f"effects must be a list of objects with a 'kind', got {value!r}"))
                continue
            value = [dict(e) for e in value]
        elif name == "cost_detail":
            if value is None:
                value = {}
            if not isinstance(value, Mapping):
                problems.append((name, f"cost_detail must be an object, got {value!r}"))
                continue
            value = {str(k): (dict(v) if isinstance(v, Mapping) else v) for k, v in value.items()}
        elif name == "translations":
            value, found = _translations(value)
            if found:
                problems.extend(found)
                continue
        out[name] = value
    return out, problems


def _translations(value: Any) -> tuple[dict[str, dict[str, str]], list[tuple[str, str]]]:
    """The canonical ``translations``: language codes in lower case with ``-`` (``zh_Hans`` →
    ``zh-hans``), names stripped, empty parts and empty languages left out."""
    if value is None:
        return {}, []
    if not isinstance(value, Mapping):
        return {}, translation_errors(value)
    out: dict[str, dict[str, str]] = {}
    problems: list[tuple[str, str]] = []
    seen: set[str] = set()
    for lang, t in value.items():
        code = lang.strip().lower().replace("_", "-") if isinstance(lang, str) else lang
        if isinstance(code, str):
            if code in seen:
                problems.append(("translations", f"translations: language {code!r} is given twice ({lang!r})"))
                continue
            seen.add(code)
        found = translation_errors({code: t})
        if found:
            problems.extend(found)
            continue
        parts = {k: (v.strip() if k == "name" else v) for k, v in t.items() if v.strip()}
        if parts:
            out[code] = parts
    return out, problems


_FIRST_KEYS = {"kind": 0, "name": 0, "code": 0}


def canonical(value: Any) -> Any:
    """``value`` with every nested object's keys in one fixed order (``kind``/``name``/``code`` first,
    then alphabetical), so exports are byte-identical whatever order the database keeps JSON keys in."""
    if isinstance(value, Mapping):
        return {k: canonical(value[k]) for k in sorted(value, key=lambda k: (_FIRST_KEYS.get(k, 1), k))}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    return value
