"""Weiß Schwarz in one place: card checks, deck construction, identity, stat line and the goldfish engine."""
from __future__ import annotations

from .. import games as g
from ..display import gettext_noop
from ..registry import lazy_compiler, spec_from_modules
from . import cards, construction, display, identity

SPEC = spec_from_modules(
    g.WS, cards, construction, identity, display,
    compile_text=lazy_compiler("rules.ws.abilities"),
    stats=("level", "cost", "power", "soul", "triggers", "counter", "colors"),
    clock_draws=2,
    aliases=("weiss", "weissschwarz", "weiß", "weißschwarz"),
    search_examples=(
        ("game:ws power>=9000 soul:2 trigger:soul", gettext_noop("level 3 beaters: 9000+ power, 2 soul, a soul trigger")),
        ("game:ws t:climax trigger:draw", gettext_noop("climaxes with a draw trigger icon")),
        ("game:ws counter:yes level<=1", gettext_noop("counter cards (backup) of level 0 or 1")),
        ('game:ws trait:music c:yellow order:power dir:desc', gettext_noop("yellow [Music] characters, strongest first")),
        ("game:ws set:SKY/W90 t:event", gettext_noop("the events of the set SKY/W90")),
    ),
)
