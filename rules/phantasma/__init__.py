"""Phantasmagoria in one place: card checks, deck construction, identity, stat line and the goldfish engine."""
from __future__ import annotations

from .. import games as g
from ..display import gettext_noop
from ..registry import spec_from_modules
from . import cards, construction, display, identity

SPEC = spec_from_modules(
    g.PHANTASMA, cards, construction, identity, display,
    stats=(
        "cost", "cost_detail", "mhp", "martial", "agility", "wisdom", "craft", "poise",
        "attack_attribute", "defense_attribute", "ex_condition", "attributes", "work", "number",
    ),
    aliases=("phantasmagoria", "pg"),
    search_examples=(
        ("game:phantasma mhp>=600 martial>=300", gettext_noop("sturdy characters with a strong martial value")),
        ("game:phantasma t:battle aa:agility", gettext_noop("battle cards that attack with agility")),
        ("game:phantasma t:ex_skill condition<=3", gettext_noop("EX skills usable from cost 3 or less")),
        ("game:phantasma attr:poise order:mhp dir:desc", gettext_noop("poise characters by MHP, highest first")),
    ),
)
