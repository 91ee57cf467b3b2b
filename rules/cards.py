"""Cards as plain immutable records, independent of Django.

A card travels through the project as a dict in the documented card JSON format (docs/card-format.md,
the same keys as ``catalog.models.Card``'s fields). ``CardRecord`` is the immutable form engines and
construction rules use; ``validate_card`` rejects impossible cards with messages naming the field.

``translations`` holds the card's name, text and flavor in languages other than the printed one
(``{"en": {"name": ..., "text": ..., "flavor": ...}}``); it is data for readers and search only:
engines and construction rules never read it.

``abilities`` holds the card's printed text compiled by its game's compiler (``rules.abilities``,
``GameSpec.compile_text``): derived data, stored by the catalog at import, not part of the card
JSON format (``CARD_FIELDS``); ``from_dict`` accepts it (ability dicts or ``Ability`` objects) and
``to_dict`` writes it when the record has any, so records round-trip through JSON (playtest
snapshots carry it).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from . import games as g
from .abilities import Ability
from .registry import all_specs, get_spec

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
    # compiled printed text (rules.abilities): derived, see the module docstring
    abilities: tuple[Ability, ...] = ()

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
        abilities = data.pop("abilities", None) or ()
        unknown = set(data) - CARD_FIELDS
        if unknown:
            raise ValueError(f"unknown card field(s): {', '.join(sorted(unknown))}")
        names, costs = _keyword_parts(data.pop("keywords", None) or [])
        kwargs = {key: _record_value(key, value) for key, value in data.items()}
        return cls(keywords=names, keyword_costs=MappingProxyType(costs), abilities=_abilities(abilities), **kwargs)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in ("keywords", "keyword_costs", "abilities"):
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
        if self.abilities:
            out["abilities"] = [a.to_dict() for a in self.abilities]
        return out


def _abilities(value: Iterable[Ability | Mapping[str, Any]]) -> tuple[Ability, ...]:
    """Compiled abilities from their JSON dicts (or already ``Ability`` objects)."""
    return tuple(a if isinstance(a, Ability) else Ability.from_dict(a) for a in value)


def _keyword_parts(kw: Iterable[str | Mapping[str, Any]]) -> tuple[tuple[str, ...], dict[str, Mapping[str, int]]]:
    """Keyword names, and the costs of those given as ``{"name", "cost"}``."""
    names: list[str] = []
    costs: dict[str, Mapping[str, int]] = {}
    for item in kw:
        if isinstance(item, str):
            names.append(item)
        else:
            names.append(item["name"])
            if item.get("cost"):
                costs[item["name"]] = MappingProxyType(dict(item["cost"]))
    return tuple(names), costs


def _record_value(key: str, value: Any) -> Any:
    """A card JSON value in its immutable ``CardRecord`` form."""
    if key in _TUPLE_FIELDS:
        return tuple(value or ())
    if key in _MAPPING_FIELDS:
        return MappingProxyType(dict(value or {}))
    if key == "effects":
        return tuple(MappingProxyType(dict(e)) for e in (value or ()))
    if key == "translations":
        return MappingProxyType({lang: MappingProxyType(dict(t)) for lang, t in value.items()}) if value else EMPTY
    if value is None and key in _STR_FIELDS:
        return ""
    return value


_TUPLE_FIELDS = {"colors", "attributes", "traits", "triggers", "extra_persons", "slots", "alt_names"}
_MAPPING_FIELDS = {"cost_detail"}
_STR_FIELDS = {
    "rarity", "set_code", "work", "number", "text", "flavor", "bonus_mark", "attack_attribute",
    "defense_attribute", "gender", "title", "person", "timing", "conversion_target",
}
# The card JSON format's keys (docs/card-format.md): every field but the derived ones.
CARD_FIELDS: frozenset[str] = frozenset(f.name for f in fields(CardRecord) if f.name not in ("keyword_costs", "abilities"))

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



# -- card validation ------------------------------------------------------------------------------
# Shared checks first, then the game's own (``GameSpec.card_checks``, in ``rules/<game>/cards.py``),
# then the cost-symbol sum. Every check returns ``(field, message)`` problems.
Problem = tuple[str, str]
_EMPTY_VALUES: tuple[Any, ...] = (None, "", [], (), {}, False)
# Effect kinds only one card type may carry.
_EFFECT_CARD_TYPES: dict[str, str] = {"climax_bonus": "climax"}


@dataclass(frozen=True)
class CardInput:
    """A card dict under validation: ``data`` as given, with the values most checks read."""

    data: Mapping[str, Any]
    game: str
    card_type: Any
    cost_detail: Mapping[str, Any]

    def get(self, key: str) -> Any:
        return self.data.get(key)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def enum_errors(card: CardInput, fld: str, allowed: tuple[str, ...], many: bool = False) -> list[Problem]:
    """``fld`` holds one of ``allowed`` (``many``: a list of them)."""
    value = card.get(fld)
    if many and not isinstance(value, (list, tuple)) and value is not None:
        return [(fld, f"{fld} must be a list")]
    values = (value or []) if many else ([value] if value else [])
    expected = ", ".join(a for a in allowed if a)
    return [(fld, f"{v!r} is not a valid {fld} for {card.game}; expected one of {expected}")
            for v in values if v not in allowed]


def missing_stats(card: CardInput, stats: tuple[str, ...], message: str) -> list[Problem]:
    """``(stat, message)`` for each of ``stats`` the card lacks; ``message`` may use ``{stat}``."""
    return [(stat, message.format(stat=stat)) for stat in stats if card.get(stat) is None]


def cost_count_errors(key: str, value: Any) -> list[Problem]:
    """A count of cost symbols must be a whole number ≥ 0."""
    if not _whole(value) or value < 0:
        return [("cost_detail", f"cost {key} must be a whole number ≥ 0 (got {value!r})")]
    return []


def _required(card: CardInput) -> list[Problem]:
    return [(req, f"{req} is required") for req in ("code", "name", "card_type")
            if not isinstance(card.get(req), str) or not card.data.get(req, "").strip()]


def _card_type(card: CardInput) -> list[Problem]:
    ctype, types = card.card_type, g.CARD_TYPES[card.game]
    if isinstance(ctype, str) and ctype and ctype not in types:
        return [("card_type", f"{card.game} has no card type {ctype!r}; expected one of {', '.join(types)}")]
    return []


def _numbers(card: CardInput) -> list[Problem]:
    errors: list[Problem] = []
    for stat in NUMERIC_STATS:
        value = card.get(stat)
        if value is None:
            continue
        if not _whole(value):
            errors.append((stat, f"{stat} must be a whole number, got {value!r}"))
        elif value < 0:
            errors.append((stat, f"{stat} cannot be negative (got {value})"))
    return errors


def _other_games_stats(card: CardInput) -> list[Problem]:
    own = set(get_spec(card.game).stats) | {"colors", "attributes", "work", "number"}
    return [
        (stat, f"{stat} is a {spec.game} stat; a {card.game} card cannot have it")
        for spec in all_specs() if spec.game != card.game
        for stat in spec.stats if stat not in own and card.get(stat) not in _EMPTY_VALUES
    ]


def _colors_and_attributes(card: CardInput) -> list[Problem]:
    spec, errors = get_spec(card.game), []
    if spec.colors:
        errors += enum_errors(card, "colors", spec.colors, many=True)
    elif card.get("colors"):
        errors.append(("colors", f"{card.game} cards have attributes, not colors"))
    if spec.attributes:
        errors += enum_errors(card, "attributes", spec.attributes, many=True)
    elif card.get("attributes"):
        errors.append(("attributes", f"{card.game} cards have colors, not attributes"))
    return errors


def _translations(card: CardInput) -> list[Problem]:
    return translation_errors(card.get("translations"))


def _text_lists(card: CardInput) -> list[Problem]:
    return [(fld, f"{fld} must be a list of text values") for fld in ("traits", "alt_names", "extra_persons")
            if (value := card.get(fld)) is not None
            and (not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value))]


def _keywords(card: CardInput) -> list[Problem]:
    kw = card.get("keywords") or []
    errors: list[Problem] = []
    if not isinstance(kw, (list, tuple)):
        errors.append(("keywords", "keywords must be a list"))
        kw = []
    names = [k if isinstance(k, str) else (k.get("name") if isinstance(k, Mapping) else None) for k in kw]
    known = get_spec(card.game).keywords
    return errors + [("keywords", f"unknown {card.game} keyword {name!r}") for name in names if name not in known]


def _effect_errors(card: CardInput, eff: Any) -> list[Problem]:
    kind = eff.get("kind") if isinstance(eff, Mapping) else None
    if kind not in get_spec(card.game).effect_kinds:
        return [("effects", f"unknown {card.game} effect kind {kind!r}")]
    # The numbers the engines read must be whole numbers.
    errors = [("effects", f"{kind} {key} must be a whole number, got {value!r}")
              for key in _EFFECT_NUMBERS.get(kind, ())
              if (value := eff.get(key)) is not None and not _whole(value)]
    only = _EFFECT_CARD_TYPES.get(kind)
    if only is not None and card.card_type != only:
        errors.append(("effects", f"only a {only} has a {kind}"))
    return errors


def _effects(card: CardInput) -> list[Problem]:
    effects = card.get("effects") or []
    if not isinstance(effects, (list, tuple)):
        return [("effects", "effects must be a list")]
    return [problem for eff in effects for problem in _effect_errors(card, eff)]


def _cost_detail_shape(card: CardInput) -> list[Problem]:
    if not isinstance(card.get("cost_detail") or {}, Mapping):
        return [("cost_detail", "cost_detail must be an object")]
    return []


SHARED_CARD_CHECKS: tuple[Callable[[CardInput], list[Problem]], ...] = (
    _required, _card_type, _numbers, _other_games_stats, _colors_and_attributes, _translations,
    _text_lists, _keywords, _effects, _cost_detail_shape,
)


def _cost_matches_symbols(card: CardInput, errors: list[Problem]) -> list[Problem]:
    total_of = get_spec(card.game).cost_total
    cost = card.get("cost")
    if any(f in ("cost_detail", "cost") for f, _ in errors) or cost is None or total_of is None or not card.cost_detail:
        return []
    total = total_of(card.cost_detail)
    return [("cost", f"cost {cost} does not match the {total} symbols in cost_detail")] if cost != total else []


def cost_total(game: str, cost_detail: Mapping[str, Any]) -> int:
    """The number of cost symbols in a structured cost (Phantasmagoria, Lycee; 0 for other games)."""
    total_of = get_spec(game).cost_total
    return total_of(cost_detail) if total_of is not None else 0


def validate_card(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return ``(field, message)`` for every reason the card cannot exist. Empty list = valid."""
    game = data.get("game")
    if game not in g.GAMES:
        return [("game", f"unknown game {game!r}; expected one of {', '.join(g.GAMES)}")]
    cost_detail = data.get("cost_detail") or {}
    card = CardInput(data, game, data.get("card_type"), cost_detail if isinstance(cost_detail, Mapping) else {})
    errors: list[Problem] = []
    for check in (*SHARED_CARD_CHECKS, *get_spec(game).card_checks):
        errors.extend(check(card))
    return errors + _cost_matches_symbols(card, errors)


def __getattr__(name: str) -> Any:
    # GAME_STATS (game -> its stats) now lives in each game's spec; built on first use.
    if name == "GAME_STATS":
        return {spec.game: spec.stats for spec in all_specs()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
