"""Chaos TCG in one place: card checks, deck construction, identity, stat line and the goldfish engine."""
from __future__ import annotations

from .. import games as g
from ..display import gettext_noop
from ..registry import lazy_compiler, spec_from_modules
from . import cards, construction, display, identity

SPEC = spec_from_modules(
    g.CHAOS, cards, construction, identity, display,
    compile_text=lazy_compiler("rules.chaos.abilities"),
    stats=(
        "gender", "attributes", "atk", "defense", "partner_atk", "partner_def", "title", "person",
        "extra_persons", "timing",
    ),
    aliases=("chaostcg",),
    search_examples=(
        ("game:chaos atk>=4 gender:female", gettext_noop("female characters with 4 or more ATK")),
        ("game:chaos kw:penetrate", gettext_noop("cards with penetrate")),
        ("game:chaos t:extra extra:cobalt", gettext_noop("EXTRA characters made from Cobalt")),
        ("game:chaos patk>=3", gettext_noop("characters whose partner bonus gives +3 ATK or more")),
        ("game:chaos t:event timing:battle", gettext_noop("events played in the battle phase")),
    ),
)
