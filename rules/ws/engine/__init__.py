"""Weiß Schwarz goldfish engine (GAMES.md §3): the state and turn script (``state``), the pilots
(``pilot``) and the event table (``events``), registered here."""
from __future__ import annotations

from rules.engine.core import WIN_TURN_RATIOS, gettext_noop
from rules.engine.goldfish import register_goldfish

from .events import EVENTS, GAME
from .pilot import GreedyPilot
from .state import REST, REVERSED, SLOTS, STAND, WSState, climax_bonus

__all__ = [
    "ENGINE", "EVENTS", "GAME", "REST", "REVERSED", "SLOTS", "STAND", "GreedyPilot",
    "WSState", "climax_bonus",
]

ENGINE = register_goldfish(
    WSState,
    {"greedy": GreedyPilot},
    describe_options={
        "dummy_climaxes": gettext_noop("climaxes in the goldfish's 50-card dummy deck (default 8)"),
    },
    ratios={
        "damage_per_attack": ("damage_dealt", "attacks"),
        "soul_per_attack": ("attack_soul", "attacks"),
        "cancel_rate": ("cancels", "damage_events"),
        "refreshes_per_game": ("refreshes", "games"),
        "goldfish_refreshes_per_game": ("opp_refreshes", "games"),
        **WIN_TURN_RATIOS,
    },
    describe_extras={
        "damage_per_attack": gettext_noop("cards put into the goldfish's clock per attack (cancelled attacks count 0)"),
        "soul_per_attack": gettext_noop("damage attempted per attack (soul incl. the +1 of a direct attack and soul triggers)"),
        "cancel_rate": gettext_noop("share of attack damage cancelled by a revealed climax"),
        "refreshes_per_game": gettext_noop("the player's own refreshes per game (each costs 1 refresh damage)"),
        "damage": gettext_noop("per-turn series: cards put into the goldfish's clock by attacks on that own turn"),
    },
)
