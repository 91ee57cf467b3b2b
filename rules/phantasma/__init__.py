"""Phantasmagoria in one place: card checks, deck construction, identity, stat line and the goldfish engine."""
from __future__ import annotations

from .. import games as g
from ..display import gettext_noop
from ..registry import GameSpec
from . import cards, construction, display, identity

SPEC = GameSpec(
    game=g.PHANTASMA,
    stats=(
        "cost", "cost_detail", "mhp", "martial", "agility", "wisdom", "craft", "poise",
        "attack_attribute", "defense_attribute", "ex_condition", "attributes", "work", "number",
    ),
    card_checks=cards.CHECKS,
    deck_checks=construction.CHECKS,
    identity=identity.card_identity,
    identity_words=identity.IDENTITY_WORDS,
    stat_line=display.stat_line,
    deck_charts=display.deck_charts,
    cost_total=cards.cost_total,
    aliases=("phantasmagoria", "pg"),
    search_examples=(
        ("game:phantasma mhp>=600 martial>=300", gettext_noop("sturdy characters with a strong martial value")),
        ("game:phantasma t:battle aa:agility", gettext_noop("battle cards that attack with agility")),
        ("game:phantasma t:ex_skill condition<=3", gettext_noop("EX skills usable from cost 3 or less")),
        ("game:phantasma attr:poise order:mhp dir:desc", gettext_noop("poise characters by MHP, highest first")),
    ),
)
