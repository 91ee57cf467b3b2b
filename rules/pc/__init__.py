"""Prism Connect in one place: card checks, deck construction, identity, stat line and the goldfish engine."""
from __future__ import annotations

from .. import games as g
from ..display import gettext_noop
from ..registry import spec_from_modules
from . import cards, construction, display, identity

SPEC = spec_from_modules(
    g.PC, cards, construction, identity, display,
    stats=("cost", "cp", "rank", "bonus_mark", "connect_attack", "colors", "work", "number"),
    aliases=("prism", "prismconnect", "prism_connect"),
    search_examples=(
        ("game:pc cp>4000 rank>=2 bonus:draw", gettext_noop("big characters that draw a card when they give life")),
        ("game:pc connect_attack>=4", gettext_noop("characters with [connect attack: 4] or more")),
        ("game:pc kw:support_mark c:green", gettext_noop("green cards with a support mark")),
        ('game:pc work:"Starlight Relay" cost<=1', gettext_noop("cheap cards of the work Starlight Relay")),
    ),
)
