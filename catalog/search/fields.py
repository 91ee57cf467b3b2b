"""The query language's field table: every field name and alias in ONE place.

Each ``FieldSpec`` says what a field searches (a Card column, a CardFacet facet, or a meta option
such as ``order``), which operators it accepts and which games have it. The games are derived from
the game specs (``GameSpec.stats``, ``rules/<game>/__init__.py``) so the query language and the card
validation never disagree.

To add an alias (e.g. a localized one such as ``パワー``), add it to the ``aliases`` tuple of the
field: ``FIELDS_BY_NAME`` is built from this table, and lookups go through ``normalize_name`` so
full-width / case variants resolve too.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from rules import games as g
from rules.cards import NUMERIC_STATS
from rules.registry import all_specs

# Field kinds.
NUMBER = "number"  # integer column, all comparison operators
FACET = "facet"  # list value mirrored into CardFacet (facet, lowercased value)
CONTAINS = "contains"  # string column, substring match (case-insensitive)
EXACT = "exact"  # string column, case-insensitive equality; trailing * = prefix
ENUM = "enum"  # string column, value must be one of a known set
TEXT = "text"  # card text: substring or /regex/
NAME = "name"  # name or alternate names: substring
BOOL = "bool"  # boolean column: yes/no
GAME = "game"  # the game restriction
ORDER = "order"  # meta: sort field
DIR = "dir"  # meta: sort direction

EQ_OPS = (":", "=")
NEG_OPS = ("!=",)
CMP_OPS = (">", ">=", "<", "<=")


@dataclass(frozen=True)
class FieldSpec:
    name: str  # canonical name shown in messages and docs
    kind: str
    column: str = ""  # Card column or CardFacet facet
    aliases: tuple[str, ...] = ()
    values: tuple[str, ...] = ()  # allowed values (ENUM) / known values (FACET, for messages)
    help: str = ""

    @property
    def games(self) -> tuple[str, ...] | None:
        """Games that have this field, or None when every game has it."""
        return FIELD_GAMES.get(self.name)

    @property
    def operators(self) -> tuple[str, ...]:
        if self.kind == NUMBER:
            return EQ_OPS + NEG_OPS + CMP_OPS
        if self.kind in (ORDER, DIR):
            return EQ_OPS
        return EQ_OPS + NEG_OPS


def normalize_name(text: str) -> str:
    """Case- and width-insensitive form of a field name or enumerated value (NFKC, lower case)."""
    return unicodedata.normalize("NFKC", text).strip().lower()


def _all(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v for grp in groups for v in grp if v))


ALL_KEYWORDS = _all(*g.KEYWORDS.values())
ALL_ATTRIBUTES = _all(*g.ATTRIBUTES.values())
ALL_COLORS = _all(*g.COLORS.values())

# game: values -> game codes (each game's code and its GameSpec.aliases).
GAME_ALIASES: dict[str, str] = {alias: spec.game for spec in all_specs() for alias in (spec.game, *spec.aliases)}

FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("game", GAME, "game", ("g",), g.GAMES, gettext_noop("the game: pc, phantasma, ws, chaos or lycee")),
    FieldSpec("name", NAME, "name", ("n", "名前", "カード名", "卡名", "名称"), help=gettext_noop("name or alternate name/reading contains the value")),
    FieldSpec("type", ENUM, "card_type", ("t", "種類", "种类"), g.ALL_CARD_TYPES, gettext_noop("card type (character, event, climax...)")),
    FieldSpec("text", TEXT, "text", ("o", "oracle", "テキスト", "効果", "效果"), help=gettext_noop("card text contains the value, or matches /regex/")),
    FieldSpec("effect", FACET, "effect_kinds", ("eff", "effect_kind"),
              help=gettext_noop("the compiled text uses this effect kind (burn, draw, salvage...; see Effect kinds below)")),
    FieldSpec("flavor", CONTAINS, "flavor", ("ft",), help=gettext_noop("flavor text contains the value")),
    FieldSpec("trait", FACET, "traits", ("traits", "tr", "特徴", "特征"), help=gettext_noop("has the trait (exact, case-insensitive)")),
    FieldSpec("color", FACET, "colors", ("c", "colour", "colors", "色", "颜色"), ALL_COLORS, gettext_noop("color (pc, ws)")),
    FieldSpec("attribute", FACET, "attributes", ("attr", "attributes", "属性"), ALL_ATTRIBUTES,
              gettext_noop("attribute (phantasma, chaos, lycee)")),
    FieldSpec("keyword", FACET, "keywords", ("kw", "ability", "keywords"), ALL_KEYWORDS,
              gettext_noop("structured keyword / basic ability (e.g. dash, penetrate, connect_mark)")),
    FieldSpec("trigger", FACET, "triggers", ("triggers", "トリガー", "触发"), g.WS_TRIGGERS, gettext_noop("WS trigger icon")),
    FieldSpec("slot", FACET, "slots", ("slots", "position"), g.LYCEE_SLOTS, gettext_noop("Lycee position restriction slot")),
    FieldSpec("extra_person", FACET, "extra_persons", ("extra", "persons"),
              help=gettext_noop("Chaos EXTRA: a person it is made from")),
    FieldSpec("rarity", EXACT, "rarity", ("r", "レアリティ", "稀有度"), help=gettext_noop("rarity as printed (RR, SR, ...)")),
    FieldSpec("set", EXACT, "set_code", ("s", "e", "edition"), help=gettext_noop("set / product code; end with * for a prefix")),
    FieldSpec("work", CONTAINS, "work", ("series", "w", "作品"), help=gettext_noop("work / series contains the value")),
    FieldSpec("code", EXACT, "code", ("id",), help=gettext_noop("card code (e.g. DC/W01-001); end with * for a prefix")),
    FieldSpec("number", EXACT, "number", ("no", "num"), help=gettext_noop("card number within its work or set")),
    FieldSpec("counter", BOOL, "counter", ("カウンター", "反击"), help=gettext_noop("WS counter icon: yes or no")),
    FieldSpec("modelled", BOOL, "modelled", ("modeled",),
              help=gettext_noop("the goldfish engine fully models the card (plays it, and every ability is played or has no effect): yes or no")),
    FieldSpec("bonus", ENUM, "bonus_mark", ("bonus_mark",), ("none", "rank+1", "life+1", "draw"),
              gettext_noop("Prism Connect bonus mark: none, rank+1, life+1, draw")),
    FieldSpec("gender", ENUM, "gender", ("sex",), g.CHAOS_GENDERS, gettext_noop("Chaos gender mark")),
    FieldSpec("timing", ENUM, "timing", (), tuple(t.lower() for t in g.CHAOS_TIMINGS), gettext_noop("Chaos event timing")),
    FieldSpec("title", CONTAINS, "title", (), help=gettext_noop("Chaos character title contains the value")),
    FieldSpec("person", CONTAINS, "person", (), help=gettext_noop("Chaos character name (the part in 【】) contains the value")),
    FieldSpec("attack_attribute", ENUM, "attack_attribute", ("aa", "atkattr"), g.PHANTASMA_ATTRIBUTES,
              gettext_noop("Phantasmagoria battle card attack attribute")),
    FieldSpec("defense_attribute", ENUM, "defense_attribute", ("da", "defattr"), g.PHANTASMA_ATTRIBUTES,
              gettext_noop("Phantasmagoria battle card defense attribute")),
    FieldSpec("conversion", CONTAINS, "conversion_target", ("conv", "conversion_target"),
              help=gettext_noop("Lycee conversion target contains the value")),
    # Numeric stats: one field per column of rules.cards.NUMERIC_STATS (aliases below).
    *(FieldSpec(stat, NUMBER, stat) for stat in NUMERIC_STATS),
    FieldSpec("order", ORDER, "", ("sort",), help=gettext_noop("sort by a field: name, code, game, set, rarity, type or any number")),
    FieldSpec("dir", DIR, "", ("direction",), ("asc", "desc"), help=gettext_noop("sort direction: asc or desc")),
)

NUMBER_ALIASES: dict[str, tuple[str, ...]] = {
    "level": ("lv", "lvl", "l", "レベル", "等级"),
    "cost": ("mv", "cmc", "コスト", "费用", "代价"),
    "cp": (),
    "rank": ("rk", "ランク"),
    "connect_attack": ("connect", "ca"),
    "mhp": ("hp",),
    "martial": ("mar",),
    "agility": ("agi",),
    "wisdom": ("wis",),
    "craft": ("cra",),
    "poise": ("poi",),
    "ex_condition": ("exc", "condition"),
    "power": ("pow", "p", "パワー", "战斗力", "力量"),
    "soul": ("so", "ソウル", "灵魂值", "魂"),
    "atk": ("attack", "攻撃力", "攻击力"),
    "defense": ("def", "耐久力"),
    "partner_atk": ("patk", "partner_attack"),
    "partner_def": ("pdef", "partner_defense"),
    "ap": (),
    "dp": (),
    "sp": (),
    "ex": (),
    "dmg": ("damage",),
    "copy_limit": ("copies", "limit"),
}
FIELDS = tuple(
    FieldSpec(f.name, f.kind, f.column, NUMBER_ALIASES.get(f.name, ()), f.values, f.help or f"{f.name} (number)")
    if f.kind == NUMBER else f
    for f in FIELDS
)

# Which games have each field (None = every game), from the game specs.
def _games_for(spec: FieldSpec) -> tuple[str, ...] | None:
    if spec.kind in (GAME, ORDER, DIR, NAME, TEXT) or not spec.column:
        return None
    if spec.column in ("modelled", "work", "number", "traits"):  # printed on cards of every game
        return None
    if spec.column == "effect_kinds":  # compiled text, or structured effects
        return tuple(s.game for s in all_specs() if s.compile_text is not None or s.effect_kinds)
    if spec.column == "keywords":
        return tuple(s.game for s in all_specs() if s.keywords)
    owners = tuple(s.game for s in all_specs() if spec.column in s.stats)
    return owners or None


FIELD_GAMES: dict[str, tuple[str, ...] | None] = {spec.name: _games_for(spec) for spec in FIELDS}

FIELDS_BY_NAME: dict[str, FieldSpec] = {}
for _spec in FIELDS:
    for _alias in (_spec.name, *_spec.aliases):
        key = normalize_name(_alias)
        if key in FIELDS_BY_NAME:
            raise RuntimeError(f"query field alias {key!r} is defined twice")
        FIELDS_BY_NAME[key] = _spec

# Sort keys for order:/the API's order parameter -> Card columns.
ORDER_FIELDS: dict[str, str] = {
    "name": "name", "code": "code", "game": "game", "set": "set_code", "rarity": "rarity",
    "type": "card_type", "work": "work", **{stat: stat for stat in NUMERIC_STATS},
}


def lookup_field(name: str) -> FieldSpec | None:
    """The field for a name or alias, else for a word the pages show for it in any interface language
    (``catalog/search/localized.py``: ``トリガー``, ``特徴``, ``颜色``; folded, so ``等級`` = ``等级``)."""
    spec = FIELDS_BY_NAME.get(normalize_name(name))
    if spec is None:
        from .localized import field_for_word

        canonical = field_for_word(name)
        spec = FIELDS_BY_NAME.get(canonical) if canonical else None
    return spec


def lookup_order(name: str) -> str | None:
    """The Card column to sort by for an ``order:`` value (field names and aliases accepted)."""
    key = normalize_name(name)
    if key in ORDER_FIELDS:
        return ORDER_FIELDS[key]
    spec = lookup_field(name)
    if spec is not None and spec.name in ORDER_FIELDS:
        return ORDER_FIELDS[spec.name]
    return None


def games_phrase(games: tuple[str, ...]) -> str:
    names = [g.GAME_NAMES[x] for x in games]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]
