"""Examples shown on the search help page and in docs/search.md (the per-game ones are in the game specs).

Every example must return at least one card on the sample fixtures (``fixtures/cards/*.json``);
``tests/test_search_help.py`` checks that, and that docs/search.md lists them all.
"""
from __future__ import annotations

from django.utils.translation import gettext_noop

from rules.registry import all_specs

# (query, what it finds)
GENERAL_EXAMPLES: list[tuple[str, str]] = [
    ("lantern", gettext_noop("cards whose name (or alternate name) contains “lantern”, in every game")),
    ("t:event", gettext_noop("every event card of every game")),
    ("o:draw -game:ws", gettext_noop("card text mentioning “draw”, outside Weiß Schwarz")),
    ('o:/draw \\d/', gettext_noop("card text matching a regular expression: “draw” followed by a digit")),
    ("(game:ws or game:pc) c:red", gettext_noop("red cards of Weiß Schwarz or Prism Connect")),
    ("rarity:R order:name dir:desc", gettext_noop("rare cards, sorted by name from Z to A")),
    ("《Music》 c:yellow", gettext_noop("yellow cards with the trait Music, written in the brackets cards print traits in")),
    ("「Reika」", gettext_noop("cards whose name contains “Reika”, written in the brackets card texts quote names in")),
    ("sky-w90-001", gettext_noop("a card code: that card first, in any case, with or without the set’s slash")),
    ("SKY/W90-02", gettext_noop("the start of a code: the cards whose codes begin with SKY/W90-02")),
    ("トリガー:扉 t:クライマックス", gettext_noop("Japanese words as the pages show them: climaxes with a comeback (door) trigger")),
    ("触发:灵魂 颜色:黄", gettext_noop("Chinese words as the pages show them: yellow cards with a soul trigger")),
]

# Per game: each game's GameSpec.search_examples (rules/<game>/__init__.py).
EXAMPLES: dict[str, list[tuple[str, str]]] = {spec.game: list(spec.search_examples) for spec in all_specs()}


def all_examples() -> list[str]:
    return [q for q, _ in GENERAL_EXAMPLES] + [q for examples in EXAMPLES.values() for q, _ in examples]
