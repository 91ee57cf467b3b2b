"""Display names of the stored enumerations (card types, colors, attributes, WS triggers) in the
user's language. The stored values and the query language keep the English codes; only what a page
shows goes through here. Words follow locale/glossary/.
"""
from __future__ import annotations

from collections.abc import Callable

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, pgettext_lazy

from rules.display import Labels

TYPE_LABELS: dict[str, Promise] = {
    "area": pgettext_lazy("card type", "area"), "battle": pgettext_lazy("card type", "battle"),
    "character": pgettext_lazy("card type", "character"), "climax": pgettext_lazy("card type", "climax"),
    "event": pgettext_lazy("card type", "event"), "ex_skill": pgettext_lazy("card type", "ex skill"),
    "extra": pgettext_lazy("card type", "extra"), "item": pgettext_lazy("card type", "item"),
    "scene": pgettext_lazy("card type", "scene"), "set": pgettext_lazy("card type", "set"),
}
COLOR_LABELS: dict[str, Promise] = {
    "red": pgettext_lazy("color", "red"), "blue": pgettext_lazy("color", "blue"),
    "yellow": pgettext_lazy("color", "yellow"), "green": pgettext_lazy("color", "green"),
}
ATTRIBUTE_LABELS: dict[str, Promise] = {
    "martial": pgettext_lazy("attribute", "martial"), "agility": pgettext_lazy("attribute", "agility"),
    "wisdom": pgettext_lazy("attribute", "wisdom"), "craft": pgettext_lazy("attribute", "craft"),
    "poise": pgettext_lazy("attribute", "poise"), "earth": pgettext_lazy("attribute", "earth"),
    "water": pgettext_lazy("attribute", "water"), "fire": pgettext_lazy("attribute", "fire"),
    "wind": pgettext_lazy("attribute", "wind"), "light": pgettext_lazy("attribute", "light"),
    "dark": pgettext_lazy("attribute", "dark"), "none": pgettext_lazy("attribute", "none"),
    "snow": pgettext_lazy("attribute", "snow"), "moon": pgettext_lazy("attribute", "moon"),
    "flower": pgettext_lazy("attribute", "flower"), "space": pgettext_lazy("attribute", "space"),
    "sun": pgettext_lazy("attribute", "sun"), "star": pgettext_lazy("attribute", "star"),
}
TRIGGER_LABELS: dict[str, Promise] = {
    "soul": pgettext_lazy("trigger", "soul"), "draw": pgettext_lazy("trigger", "draw"),
    "pool": pgettext_lazy("trigger", "pool"), "comeback": pgettext_lazy("trigger", "comeback"),
    "return": pgettext_lazy("trigger", "return"), "treasure": pgettext_lazy("trigger", "treasure"),
    "shot": pgettext_lazy("trigger", "shot"), "gate": pgettext_lazy("trigger", "gate"),
    "choice": pgettext_lazy("trigger", "choice"), "standby": pgettext_lazy("trigger", "standby"),
}
# What players call a trigger icon by its picture (the search help lists them; the search accepts them).
TRIGGER_ICON_LABELS: dict[str, Promise] = {
    "comeback": pgettext_lazy("trigger icon", "door"), "draw": pgettext_lazy("trigger icon", "book"),
    "pool": pgettext_lazy("trigger icon", "bag"), "return": pgettext_lazy("trigger icon", "wind"),
    "treasure": pgettext_lazy("trigger icon", "gold bar"), "gate": pgettext_lazy("trigger icon", "gate"),
}


def per_language(translate: Callable[[str], str]) -> Callable[[str], str]:
    """``translate`` (a fixed word or code to the reader's words) remembered per language. The pages
    look up the same few hundred words again and again (a deck page ~470 times: each card's stat line
    and face, the groups, the charts); Django's ``gettext`` costs ~10 µs a call (thread-local reads and
    a chain of catalogs), a dictionary lookup well under one. Only plain ``str`` values are remembered
    (never a lazy or safe string), at most ``LIMIT`` per function."""
    memo: dict[tuple[str | None, str], str] = {}

    def lookup(value: str) -> str:
        if type(value) is not str:
            return translate(value)
        key = (get_language(), value)
        found = memo.get(key)
        if found is None:
            found = translate(value)
            if len(memo) < per_language.LIMIT:
                memo[key] = found
        return found

    return lookup


per_language.LIMIT = 5000  # type: ignore[attr-defined]


@per_language
def type_label(value: str) -> str:
    return str(TYPE_LABELS.get(value, value.replace("_", " ")))


@per_language
def color_label(value: str) -> str:
    return str(COLOR_LABELS.get(value) or ATTRIBUTE_LABELS.get(value) or value)


@per_language
def trigger_label(value: str) -> str:
    return str(TRIGGER_LABELS.get(value, value))


GENDER_LABELS: dict[str, Promise] = {
    "female": pgettext_lazy("gender", "female"), "male": pgettext_lazy("gender", "male"),
    "both": pgettext_lazy("gender", "both"),
}


def gender_label(value: str) -> str:
    return str(GENDER_LABELS.get(value, value))


COST_SYMBOL_LABELS: dict[str, Promise] = {  # Phantasmagoria cost_detail keys (docs/card-format.md)
    "white": pgettext_lazy("cost symbol", "white"), "blue": pgettext_lazy("cost symbol", "blue"),
    "red": pgettext_lazy("cost symbol", "red"), "hp": pgettext_lazy("cost symbol", "HP"),
}


def cost_symbol_label(value: str) -> str:
    return str(COST_SYMBOL_LABELS.get(value, value))


# How the stat lines of rules/<game>/display.py reach the reader: translated words and labels.
STAT_LABELS = Labels(text=per_language(gettext), color=color_label, trigger=trigger_label)

# How a goldfish engine treats one printed ability (rules.abilities.COVERAGE_STATUSES): the card page
# and the goldfish report.
COVERAGE_LABELS: dict[str, Promise] = {
    "played": pgettext_lazy("ability coverage", "played"),
    "no_effect": pgettext_lazy("ability coverage", "no effect in goldfish"),
    "not_understood": pgettext_lazy("ability coverage", "not understood"),
    "not_played": pgettext_lazy("ability coverage", "not played"),
}
