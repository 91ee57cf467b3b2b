"""The query language in the interface's languages: the words the pages show are the words it accepts.

Field names and enumerated values are read from the same translation catalogs (``locale/``) and
label tables (``catalog/labels.py``) the pages use, in every language of ``settings.LANGUAGES``
whatever the reader's language, so a link shared between readers keeps working and the search and
the pages never disagree: the card page shows ``トリガー`` / ``カムバック`` and ``トリガー:カムバック``
finds the card; the trigger icon's picture name (``扉``, ``门``, ``door``) works too, as the search
help lists it.

Words are compared folded (``catalog.textnorm.fold``: width, case, kana, kanji forms, separators):
``t:くらいまっくす`` and ``色:黃`` (Traditional) work. A word that names two values of one field
(zh-hans ``无`` is both Lycee's ``star`` and the ``none`` attribute) matches either. A word that two
fields would claim is accepted for neither (``ambiguous_field_words`` lists them; a test keeps it
empty for the shipped catalogs).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop

from ..labels import (
    ATTRIBUTE_LABELS,
    COLOR_LABELS,
    GENDER_LABELS,
    TRIGGER_ICON_LABELS,
    TRIGGER_LABELS,
    TYPE_LABELS,
)
from ..textnorm import fold

Label = str | Promise  # a msgid (translated with gettext) or a lazy label of catalog/labels.py

# The labels the pages show for each field (card pages' <dt>, search result headers, stat lines).
FIELD_LABELS: dict[str, tuple[Label, ...]] = {
    "game": (gettext_noop("Game"),),
    "name": (gettext_noop("Name"),),
    "type": (gettext_noop("Type"),),
    "text": (gettext_noop("Text"),),
    "trait": (gettext_noop("Traits:"),),
    "color": (gettext_noop("Color"),),
    "attribute": (gettext_noop("Attribute"),),
    "keyword": (gettext_noop("Keywords"),),
    "trigger": (gettext_noop("Triggers"),),
    "slot": (gettext_noop("Position restriction"),),
    "extra_person": (gettext_noop("EXTRA made from:"),),
    "rarity": (gettext_noop("Rarity"),),
    "set": (gettext_noop("Set"),),
    "work": (gettext_noop("Work"),),
    "code": (gettext_noop("Code"),),
    "number": (gettext_noop("Number"),),
    "counter": (gettext_noop("Counter"),),
    "bonus": (gettext_noop("Bonus"),),
    "gender": (gettext_noop("Gender"),),
    "timing": (gettext_noop("Timing"),),
    "title": (gettext_noop("Title"),),
    "person": (gettext_noop("Person"),),
    "attack_attribute": (gettext_noop("Attack attribute"),),
    "defense_attribute": (gettext_noop("Defense attribute"),),
    "conversion": (gettext_noop("Conversion:"),),
    "level": (gettext_noop("Level"), gettext_noop("Lv")),
    "cost": (gettext_noop("Cost"),),
    "power": (gettext_noop("Power"),),
    "soul": (gettext_noop("Soul"),),
    "connect_attack": (gettext_noop("Connect attack"),),
    "ex_condition": (gettext_noop("Usage condition"),),
    # Phantasmagoria's five abilities are shown with their attribute names (武 敏 知 器 穏).
    **{stat: (ATTRIBUTE_LABELS[stat],) for stat in ("martial", "agility", "wisdom", "craft", "poise")},
}

# The labels the pages show for the enumerated values of each field.
VALUE_LABELS: dict[str, tuple[Mapping[str, Label], ...]] = {
    "type": (TYPE_LABELS,),
    "color": (COLOR_LABELS,),
    "attribute": (ATTRIBUTE_LABELS,),
    "trigger": (TRIGGER_LABELS, TRIGGER_ICON_LABELS),
    "gender": (GENDER_LABELS,),
    "attack_attribute": (ATTRIBUTE_LABELS,),
    "defense_attribute": (ATTRIBUTE_LABELS,),
}


def _text(label: Label) -> str:
    return gettext(label) if isinstance(label, str) else str(label)


def _key(word: str) -> str:
    """How a shown word and a typed one are compared (a label's trailing colon dropped)."""
    return fold(word.strip().rstrip(":：").strip())


def _languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def _in_every_language(fn: Callable[[], Iterable[tuple[str, str]]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for language in _languages():
        with translation.override(language):
            out.extend(fn())
    return out


@cache
def _field_words() -> tuple[dict[str, str], frozenset[str]]:
    from .fields import FIELDS, normalize_name

    claims: dict[str, set[str]] = {}

    def shown() -> Iterable[tuple[str, str]]:
        for field, labels in FIELD_LABELS.items():
            for label in labels:
                yield field, _text(label)

    for field, word in _in_every_language(shown):
        claims.setdefault(_key(word), set()).add(field)
    explicit: dict[str, str] = {}
    for spec in FIELDS:  # the field table's own names and aliases, folded (れべる, 等級 for 等级)
        for alias in (spec.name, *spec.aliases):
            explicit.setdefault(_key(normalize_name(alias)), spec.name)
    words = {k: next(iter(v)) for k, v in claims.items() if k and len(v) == 1}
    ambiguous = frozenset(k for k, v in claims.items() if len(v) > 1 and k not in explicit)
    words.update(explicit)
    return words, ambiguous


def field_for_word(word: str) -> str | None:
    """The field a localized (or folded) field name stands for, e.g. ``トリガー`` → ``trigger``."""
    return _field_words()[0].get(_key(word))


def ambiguous_field_words() -> frozenset[str]:
    return _field_words()[1]


@cache
def _value_words() -> dict[str, dict[str, frozenset[str]]]:
    out: dict[str, dict[str, set[str]]] = {}

    def shown() -> Iterable[tuple[str, str]]:
        for field, tables in VALUE_LABELS.items():
            for table in tables:
                for value, label in table.items():
                    yield f"{field}\x00{value}", _text(label)

    for tag, word in _in_every_language(shown):
        field, value = tag.split("\x00")
        out.setdefault(field, {}).setdefault(_key(word), set()).add(value)
    return {f: {k: frozenset(v) for k, v in words.items() if k} for f, words in out.items()}


def values_for_word(field: str, word: str) -> frozenset[str]:
    """The stored values a shown word names for ``field`` (``trigger``, ``扉`` → {comeback}); empty
    when it names none."""
    return _value_words().get(field, {}).get(_key(word), frozenset())


def value_words(field: str, value: str, language: str | None = None) -> list[str]:
    """The words that name ``value`` of ``field`` in ``language`` (default: the active one), as the
    pages show them: for the search help."""
    out: list[str] = []
    with translation.override(language or translation.get_language()):
        for table in VALUE_LABELS.get(field, ()):
            label = table.get(value)
            if label is not None:
                word = _text(label)
                if word not in out and word.lower() != value.replace("_", " "):
                    out.append(word)
    return out
