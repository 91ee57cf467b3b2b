"""Examples shown on the search help page and in docs/search.md.

Every example must return at least one card on the sample fixtures (``fixtures/cards/*.json``);
``tests/test_search_help.py`` checks that, and that docs/search.md lists them all.
"""
from __future__ import annotations

from django.utils.translation import gettext_noop

from rules import games as g

# (query, what it finds)
GENERAL_EXAMPLES: list[tuple[str, str]] = [
    ("lantern", gettext_noop("cards whose name (or alternate name) contains “lantern”, in every game")),
    ("t:event", gettext_noop("every event card of every game")),
    ("o:draw -game:ws", gettext_noop("card text mentioning “draw”, outside Weiß Schwarz")),
    ('o:/draw \\d/', gettext_noop("card text matching a regular expression: “draw” followed by a digit")),
    ("(game:ws or game:pc) c:red", gettext_noop("red cards of Weiß Schwarz or Prism Connect")),
    ("rarity:R order:name dir:desc", gettext_noop("rare cards, sorted by name from Z to A")),
]

EXAMPLES: dict[str, list[tuple[str, str]]] = {
    g.WS: [
        ("game:ws power>=9000 soul:2 trigger:soul", gettext_noop("level 3 beaters: 9000+ power, 2 soul, a soul trigger")),
        ("game:ws t:climax trigger:draw", gettext_noop("climaxes with a draw trigger icon")),
        ("game:ws counter:yes level<=1", gettext_noop("counter cards (backup) of level 0 or 1")),
        ('game:ws trait:music c:yellow order:power dir:desc', gettext_noop("yellow [Music] characters, strongest first")),
        ("game:ws set:SKY/W90 t:event", gettext_noop("the events of the set SKY/W90")),
    ],
    g.PC: [
        ("game:pc cp>4000 rank>=2 bonus:draw", gettext_noop("big characters that draw a card when they give life")),
        ("game:pc connect_attack>=4", gettext_noop("characters with [connect attack: 4] or more")),
        ("game:pc kw:support_mark c:green", gettext_noop("green cards with a support mark")),
        ('game:pc work:"Starlight Relay" cost<=1', gettext_noop("cheap cards of the work Starlight Relay")),
    ],
    g.PHANTASMA: [
        ("game:phantasma mhp>=600 martial>=300", gettext_noop("sturdy characters with a strong martial value")),
        ("game:phantasma t:battle aa:agility", gettext_noop("battle cards that attack with agility")),
        ("game:phantasma t:ex_skill condition<=3", gettext_noop("EX skills usable from cost 3 or less")),
        ("game:phantasma attr:poise order:mhp dir:desc", gettext_noop("poise characters by MHP, highest first")),
    ],
    g.CHAOS: [
        ("game:chaos atk>=4 gender:female", gettext_noop("female characters with 4 or more ATK")),
        ("game:chaos kw:penetrate", gettext_noop("cards with penetrate")),
        ("game:chaos t:extra extra:cobalt", gettext_noop("EXTRA characters made from Cobalt")),
        ("game:chaos patk>=3", gettext_noop("characters whose partner bonus gives +3 ATK or more")),
        ("game:chaos t:event timing:battle", gettext_noop("events played in the battle phase")),
    ],
    g.LYCEE: [
        ("game:lycee ap>=3 ability:dash slot:AF-C", gettext_noop("dash attackers that may enter the center attack slot")),
        ("game:lycee attr:snow dp>=3", gettext_noop("snow characters with 3 or more DP")),
        ("game:lycee t:character -slot:AF-L", gettext_noop("characters that cannot enter the left attack slot")),
        ("game:lycee conversion:\"Shirayuki\"", gettext_noop("cards converting from Shirayuki")),
        ("game:lycee t:item attr:moon", gettext_noop("moon items")),
    ],
}


def all_examples() -> list[str]:
    return [q for q, _ in GENERAL_EXAMPLES] + [q for examples in EXAMPLES.values() for q, _ in examples]
