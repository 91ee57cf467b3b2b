"""Prism Connect goldfish engine (GAMES.md §1): the state and turn script (``state``), the pilots
(``pilot``) and the event table (``events``), registered here."""
from __future__ import annotations

from rules.engine.core import WIN_TURN_RATIOS, gettext_noop
from rules.engine.goldfish import register_goldfish

from .events import EVENTS, GAME
from .pilot import GreedyPilot
from .state import PCState

__all__ = ["ENGINE", "EVENTS", "GAME", "GreedyPilot", "PCState"]

ENGINE = register_goldfish(
    PCState,
    {"greedy": GreedyPilot},
    describe_options={
        "goldfish_life": gettext_noop("the goldfish's starting life (default 25)"),
    },
    ratios={
        "life_per_attack": ("life_taken", "attacks"),
        "connect_attack_share": ("connect_attacks", "attacks"),
        "bonus_rank_per_game": ("bonus_rank", "games"),
        "bonus_life_per_game": ("bonus_life", "games"),
        "bonus_draw_per_game": ("bonus_draw", "games"),
        "bonus_marks_per_revealed_card": ("bonus_marks", "gauge_facedown_revealed"),
        "rebuilds_per_game": ("rebuilds", "games"),
        **WIN_TURN_RATIOS,
    },
    describe_extras={
        "life_taken": gettext_noop("per-turn series: goldfish life taken on that own turn"),
        "bonus_rank": gettext_noop("RANK+1 marks revealed by connect attacks"),
        "bonus_life": gettext_noop("LIFE+1 marks revealed by connect attacks"),
        "bonus_draw": gettext_noop("DRAW marks revealed by connect attacks"),
        "gauge_facedown_revealed": gettext_noop("face-down gauge cards revealed by connect attacks"),
    },
)
