"""Cards as plain immutable records, independent of Django.

A card travels through the project as a dict in the documented card JSON format (docs/card-format.md,
the same keys as ``catalog.models.Card``'s fields). ``CardRecord`` is the immutable form engines and
construction rules use; ``validate_card`` rejects impossible cards with messages naming the field.

``translations`` holds the card's name, text and flavor in languages other than the printed one
(``{"en": {"name": ..., "text": ..., "flavor": ...}}``); it is data for readers and search only:
engines and construction rules never read it.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from . import games as g

EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True, eq=False)
class CardRecord:
    """One card's printed data. Identity is (game, code); compare by those, not by value."""

    game: str
    code: str
    name: str
    card_type: str
    # common
    colors: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    rarity: str = ""
    set_code: str = ""
    work: str = ""
    number: str = ""
    traits: tuple[str, ...] = ()
    text: str = ""
    flavor: str = ""
    text_modelled: bool = False
    keywords: tuple[str, ...] = ()
    keyword_costs: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: EMPTY)
    effects: tuple[Mapping[str, Any], ...] = ()
    alt_names: tuple[str, ...] = ()
    # language code -> {"name"/"text"/"flavor": str}; for readers only, engines ignore it
    translations: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: EMPTY)
    # shared numeric stats
    level: int | None = None
    cost: int | None = None
    cost_detail: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    # pc
    cp: int | None = None
    rank: int | None = None
    bonus_mark: str = ""
    connect_attack: int | None = None
    # phantasma
    mhp: int | None = None
    martial: int | None = None
    agility: int | None = None
    wisdom: int | None = None
    craft: int | None = None
    poise: int | None = None
    attack_attribute: str = ""
    defense_attribute: str = ""
    ex_condition: int | None = None
    # ws
    power: int | None = None
    soul: int | None = None
    triggers: tuple[str, ...] = ()
    counter: bool = False
    # chaos
    gender: str = ""
    atk: int | None = None
    defense: int | None = None
    partner_atk: int | None = None
    partner_def: int | None = None
    title: str = ""
    person: str = ""
    extra_persons: tuple[str, ...] = ()
    timing: str = ""
    # lycee
    slots: tuple[str, ...] = ()
    ap: int | None = None
    dp: int | None = None
    sp: int | None = None
    ex: int | None = None
    dmg: int | None = None
    conversion_target: str = ""
    copy_limit: int | None = None

    @property
    def unmodelled(self) -> bool:
        """True when the card has printed text the engines do not execute."""
        return bool(self.text.strip()) and not self.text_modelled

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], game: str | None = None) -> CardRecord:
        """Build from the card JSON format. Unknown keys raise ``ValueError``."""
        data = dict(data)
        if game is not None:
            data.setdefault("game", game)
        unknown = set(data) - CARD_FIELDS
        if unknown:
            raise ValueError(f"unknown card field(s): {', '.join(sorted(unknown))}")
        kw = data.pop("keywords", None) or []
        names: list[str] = []
        costs: dict[str, Mapping[str, int]] = {}
        for item in kw:
            if isinstance(item, str):
                names.append(item)
            else:
                names.append(item["name"])
                if item.get("cost"):
                    costs[item["name"]] = MappingProxyType(dict(item["cost"]))
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key in _TUPLE_FIELDS:
                value = tuple(value or ())
            elif key in _MAPPING_FIELDS:
                value = MappingProxyType(dict(value or {}))
            elif key == "effects":
                value = tuple(MappingProxyType(dict(e)) for e in (value or ()))
            elif key == "translations":
                value = MappingProxyType(
                    {lang: MappingProxyType(dict(t)) for lang, t in value.items()}) if value else EMPTY
            elif value is None and key in _STR_FIELDS:
                value = ""
            kwargs[key] = value
        return cls(keywords=tuple(names), keyword_costs=MappingProxyType(costs), **kwargs)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in ("keywords", "keyword_costs"):
                continue
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [dict(v) if isinstance(v, Mapping) else v for v in value]
            elif f.name == "translations":
                value = {lang: dict(t) for lang, t in value.items()}
            elif isinstance(value, Mapping):
                value = dict(value)
            out[f.name] = value
        out["keywords"] = [
            {"name": k, "cost": dict(self.keyword_costs[k])} if k in self.keyword_costs else k
            for k in self.keywords
        ]
        return out


_TUPLE_FIELDS = {"colors", "attributes", "traits", "triggers", "extra_persons", "slots", "alt_names"}
_MAPPING_FIELDS = {"cost_detail"}
_STR_FIELDS = {
    "rarity", "set_code", "work", "number", "text", "flavor", "bonus_mark", "attack_attribute",
    "defense_attribute", "gender", "title", "person", "timing", "conversion_target",
}
CARD_FIELDS: frozenset[str] = frozenset(f.name for f in fields(CardRecord) if f.name != "keyword_costs")

# Which stats belong to which game (used by validation, the query language and the card page).
GAME_STATS: dict[str, tuple[str, ...]] = {
    g.PC: ("cost", "cp", "rank", "bonus_mark", "connect_attack", "colors", "work", "number"),
    g.PHANTASMA: (
        "cost", "cost_detail", "mhp", "martial", "agility", "wisdom", "craft", "poise",
        "attack_attribute", "defense_attribute", "ex_condition", "attributes", "work", "number",
    ),
    g.WS: ("level", "cost", "power", "soul", "triggers", "counter", "colors"),
    g.CHAOS: (
        "gender", "attributes", "atk", "defense", "partner_atk", "partner_def", "title", "person",
        "extra_persons", "timing",
    ),
    g.LYCEE: (
        "attributes", "cost", "cost_detail", "slots", "ap", "dp", "sp", "ex", "dmg",
        "conversion_target", "copy_limit",
    ),
}
NUMERIC_STATS: tuple[str, ...] = (
    "level", "cost", "cp", "rank", "connect_attack", "mhp", "martial", "agility", "wisdom", "craft",
    "poise", "ex_condition", "power", "soul", "atk", "defense", "partner_atk", "partner_def", "ap",
    "dp", "sp", "ex", "dmg", "copy_limit",
)


_EFFECT_NUMBERS: dict[str, tuple[str, ...]] = {
    "climax_bonus": ("power", "soul"),
    "attack_mod": ("amount", "value"),
    "defense_mod": ("amount", "value"),
    "heal": ("amount",),
}


# A language code as Django writes them: "en", "ja", "ko", "zh-hans", "pt-br" (lower case).
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$")
TRANSLATION_KEYS: tuple[str, ...] = ("name", "text", "flavor")


def translation_errors(value: Any) -> list[tuple[str, str]]:
    """``(field, message)`` for every reason ``value`` is not a valid ``translations`` object:
    ``{language code: {"name"/"text"/"flavor": text}}``. Messages name the language and key."""
    if value is None:
        return []
    if not isinstance(value, Mapping):
        return [("translations", f"translations must be an object mapping language codes to "
                                 f"{{name, text, flavor}}, got {value!r}")]
    errors: list[tuple[str, str]] = []
    for lang, t in value.items():
        if not isinstance(lang, str) or not LANGUAGE_CODE.match(lang):
            errors.append(("translations", f"translations: {lang!r} is not a language code "
                                           "(lower case, like en, ja, ko, zh-hans)"))
            continue
        if not isinstance(t, Mapping):
            errors.append(("translations", f"translations.{lang} must be an object with name, text, flavor; got {t!r}"))
            continue
        for key, text in t.items():
            if key not in TRANSLATION_KEYS:
                errors.append(("translations", f"translations.{lang}: unknown key {key!r}; "
                                               f"expected {', '.join(TRANSLATION_KEYS)}"))
            elif not isinstance(text, str):
                errors.append(("translations", f"translations.{lang}.{key} must be text, got {text!r}"))
            elif "\x00" in text:
                errors.append(("translations", f"translations.{lang}.{key} contains a NUL character"))
    return errors


def cost_total(game: str, cost_detail: Mapping[str, Any]) -> int:
    """The number of cost symbols in a structured cost (Phantasmagoria, Lycee)."""
    if game == g.LYCEE:
        return sum(int(v) for v in cost_detail.values())
    if game == g.PHANTASMA:
        blue = cost_detail.get("blue") or {}
        return int(cost_detail.get("white", 0)) + int(cost_detail.get("red", 0)) + sum(blue.values())
    return 0


def validate_card(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return ``(field, message)`` for every reason the card cannot exist. Empty list = valid."""
    errors: list[tuple[str, str]] = []

    def err(fld: str, msg: str) -> None:
        errors.append((fld, msg))

    game = data.get("game")
    if game not in g.GAMES:
        err("game", f"unknown game {game!r}; expected one of {', '.join(g.GAMES)}")
        return errors
    for req in ("code", "name", "card_type"):
        if not isinstance(data.get(req), str) or not data.get(req, "").strip():
            err(req, f"{req} is required")
    ctype = data.get("card_type")
    if isinstance(ctype, str) and ctype and ctype not in g.CARD_TYPES[game]:
        err("card_type", f"{game} has no card type {ctype!r}; expected one of {', '.join(g.CARD_TYPES[game])}")

    for stat in NUMERIC_STATS:
        value = data.get(stat)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            err(stat, f"{stat} must be a whole number, got {value!r}")
        elif value < 0:
            err(stat, f"{stat} cannot be negative (got {value})")
    own = set(GAME_STATS[game])
    for stats_game, stats in GAME_STATS.items():
        if stats_game == game:
            continue
        for stat in stats:
            if stat in own or stat in ("colors", "attributes", "work", "number"):
                continue
            value = data.get(stat)
            if value not in (None, "", [], (), {}, False):
                err(stat, f"{stat} is a {stats_game} stat; a {game} card cannot have it")

    def check_enum(fld: str, allowed: tuple[str, ...], many: bool = False) -> None:
        value = data.get(fld)
        values = (value or []) if many else ([value] if value else [])
        if many and not isinstance(value, (list, tuple)) and value is not None:
            err(fld, f"{fld} must be a list")
            return
        for v in values:
            if v not in allowed:
                err(fld, f"{v!r} is not a valid {fld} for {game}; expected one of {', '.join(a for a in allowed if a)}")

    if game in g.COLORS:
        check_enum("colors", g.COLORS[game], many=True)
    elif data.get("colors"):
        err("colors", f"{game} cards have attributes, not colors")
    if game in g.ATTRIBUTES:
        check_enum("attributes", g.ATTRIBUTES[game], many=True)
    elif data.get("attributes"):
        err("attributes", f"{game} cards have colors, not attributes")

    errors.extend(translation_errors(data.get("translations")))
    for fld in ("traits", "alt_names", "extra_persons"):
        value = data.get(fld)
        if value is not None and (not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value)):
            err(fld, f"{fld} must be a list of text values")
    kw = data.get("keywords") or []
    if not isinstance(kw, (list, tuple)):
        err("keywords", "keywords must be a list")
        kw = []
    names = [k if isinstance(k, str) else (k.get("name") if isinstance(k, Mapping) else None) for k in kw]
    for name in names:
        if name not in g.KEYWORDS[game]:
            err("keywords", f"unknown {game} keyword {name!r}")
    effects = data.get("effects") or []
    if not isinstance(effects, (list, tuple)):
        err("effects", "effects must be a list")
        effects = []
    for eff in effects:
        kind = eff.get("kind") if isinstance(eff, Mapping) else None
        if kind not in g.EFFECT_KINDS[game]:
            err("effects", f"unknown {game} effect kind {kind!r}")
            continue
        # The numbers the engines read must be whole numbers.
        for key in _EFFECT_NUMBERS.get(kind, ()):
            value = eff.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                err("effects", f"{kind} {key} must be a whole number, got {value!r}")
        if kind == "climax_bonus" and ctype != "climax":
            err("effects", "only a climax has a climax_bonus")

    cost_detail = data.get("cost_detail") or {}
    if not isinstance(cost_detail, Mapping):
        err("cost_detail", "cost_detail must be an object")
        cost_detail = {}

    if game == g.PC:
        check_enum("bonus_mark", g.PC_BONUS_MARKS)
        if ctype == "character" and (data.get("cp") is None or data.get("rank") is None):
            err("cp", "a pc character needs cp and rank")
        if ctype != "character" and data.get("connect_attack") is not None:
            err("connect_attack", "only characters have [connect attack: X]")
    elif game == g.WS:
        check_enum("triggers", g.WS_TRIGGERS, many=True)
        if ctype == "climax":
            for stat in ("level", "cost", "power", "soul"):
                if data.get(stat) is not None:
                    err(stat, f"a ws climax has no {stat} (got {data[stat]!r})")
        else:
            if data.get("level") is None or data.get("cost") is None:
                err("level", f"a ws {ctype} needs a level and a cost")
            elif isinstance(data["level"], int) and data["level"] > 3:
                err("level", f"ws levels go from 0 to 3 (got {data['level']})")
            if ctype == "character" and (data.get("power") is None or data.get("soul") is None):
                err("power", "a ws character needs power and soul")
            if ctype == "event" and data.get("power") is not None:
                err("power", "a ws event has no power")
    elif game == g.PHANTASMA:
        for fld in ("attack_attribute", "defense_attribute"):
            check_enum(fld, g.PHANTASMA_ATTRIBUTES)
        if ctype == "battle" and not (data.get("attack_attribute") and data.get("defense_attribute")):
            err("attack_attribute", "a battle card needs an attack and a defense attribute")
        if ctype == "character":
            if not data.get("mhp"):
                err("mhp", "a phantasma character needs a positive mhp")
            for a in g.PHANTASMA_ATTRIBUTES:
                if data.get(a) is None:
                    err(a, f"a phantasma character needs its {a} value")
        if ctype == "ex_skill" and data.get("ex_condition") is None:
            err("ex_condition", "an EX skill needs its usage condition (a cost value)")
        allowed = {"white", "blue", "red", "hp"}
        for key, value in cost_detail.items():
            if key not in allowed:
                err("cost_detail", f"unknown cost symbol {key!r}; expected white, blue, red or hp")
            elif key == "blue":
                if not isinstance(value, Mapping):
                    err("cost_detail", "blue cost must map attributes to counts")
                    continue
                for attr, n in value.items():
                    if attr not in g.PHANTASMA_ATTRIBUTES:
                        err("cost_detail", f"blue cost attribute {attr!r} does not exist")
                    elif not isinstance(n, int) or n < 0:
                        err("cost_detail", f"blue cost for {attr} must be a whole number ≥ 0")
            elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
                err("cost_detail", f"cost {key} must be a whole number ≥ 0 (got {value!r})")
    elif game == g.CHAOS:
        check_enum("gender", g.CHAOS_GENDERS)
        check_enum("timing", g.CHAOS_TIMINGS)
        if ctype in ("character", "extra"):
            for stat in ("atk", "defense"):
                if data.get(stat) is None:
                    err(stat, f"a chaos {ctype} needs {stat}")
            if not data.get("person"):
                err("person", f"a chaos {ctype} needs its name (the part in 【】)")
        if ctype == "extra" and not data.get("extra_persons"):
            err("extra_persons", "an EXTRA names the persons it is made from")
        if ctype != "extra" and data.get("extra_persons"):
            err("extra_persons", "only EXTRA cards name persons")
    elif game == g.LYCEE:
        check_enum("slots", g.LYCEE_SLOTS, many=True)
        for key, value in cost_detail.items():
            if key not in g.LYCEE_ATTRIBUTES:
                err("cost_detail", f"unknown lycee cost symbol {key!r}; expected one of {', '.join(g.LYCEE_ATTRIBUTES)}")
            elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
                err("cost_detail", f"cost {key} must be a whole number ≥ 0 (got {value!r})")
        if ctype == "character":
            for stat in ("ap", "dp", "sp"):
                if data.get(stat) is None:
                    err(stat, f"a lycee character needs {stat}")
        elif data.get("slots"):
            err("slots", "only characters have a position restriction")
        if data.get("copy_limit") == 0:
            err("copy_limit", "copy_limit must be at least 1 (leave it empty for the default 4)")
    cost_detail_ok = not any(f in ("cost_detail", "cost") for f, _ in errors)
    if cost_detail_ok and data.get("cost") is not None and game in (g.LYCEE, g.PHANTASMA) and cost_detail:
        total = cost_total(game, cost_detail)
        if data["cost"] != total:
            err("cost", f"cost {data['cost']} does not match the {total} symbols in cost_detail")
    return errors
