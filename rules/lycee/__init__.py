"""Lycee in one place: card checks, deck construction, identity, stat line and the goldfish engine."""
from __future__ import annotations

from .. import games as g
from ..display import gettext_noop
from ..registry import lazy_compiler, spec_from_modules
from . import cards, construction, display, identity

SPEC = spec_from_modules(
    g.LYCEE, cards, construction, identity, display,
    compile_text=lazy_compiler("rules.lycee.abilities"),
    stats=(
        "attributes", "cost", "cost_detail", "slots", "ap", "dp", "sp", "ex", "dmg",
        "conversion_target", "copy_limit",
    ),
    aliases=("lyceeoverture",),
    search_examples=(
        ("game:lycee ap>=3 ability:dash slot:AF-C", gettext_noop("dash attackers that may enter the center attack slot")),
        ("game:lycee attr:snow dp>=3", gettext_noop("snow characters with 3 or more DP")),
        ("game:lycee t:character -slot:AF-L", gettext_noop("characters that cannot enter the left attack slot")),
        ("game:lycee conversion:\"Shirayuki\"", gettext_noop("cards converting from Shirayuki")),
        ("game:lycee t:item attr:moon", gettext_noop("moon items")),
    ),
)
