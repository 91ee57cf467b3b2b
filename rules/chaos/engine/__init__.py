"""Chaos TCG goldfish engine (GAMES.md §4): the state and turn script (``state``), characters and
battles (``characters``), the pilots (``pilot``) and the event table (``events``), registered here."""
from __future__ import annotations

from rules.engine.core import gettext_noop
from rules.engine.goldfish import register_goldfish

from .characters import REST, REVERSE, STAND, Char, identity, level_up, partner_char, resolve_block
from .events import EVENTS, GAME
from .pilot import GreedyPilot
from .state import ALLY_SLOTS, PARTNER_SLOT, SLOT_NAMES, ChaosState

__all__ = [
    "ALLY_SLOTS", "ENGINE", "EVENTS", "GAME", "PARTNER_SLOT", "REST", "REVERSE",
    "SLOT_NAMES", "STAND", "Char", "ChaosState", "GreedyPilot", "identity", "level_up", "partner_char",
    "resolve_block",
]

ENGINE = register_goldfish(
    ChaosState,
    {"greedy": GreedyPilot},
    describe_options={
        "dummy_deck_size": gettext_noop("cards in the dummy's deck, its partner included (default 50)"),
        "dummy_partner_copies": gettext_noop("further copies of the dummy partner's title+name in its deck (default 3); "
                                "deck damage stops on each"),
    },
    ratios={
        "deck_damage_per_attack": ("deck_damage", "attacks"),
        "attack_draws_per_game": ("attack_draws", "games"),
        "partner_levelups_per_game": ("partner_levelups", "games"),
        "dummy_partner_levelups_per_game": ("opp_partner_levelups", "games"),
        "stopped_attacks_share": ("damage_stopped", "attacks"),
    },
    describe_extras={
        "milled": gettext_noop("cards the dummy lost to deck damage on each of the player's turns"),
        "deck_damage": gettext_noop("cards milled from the dummy's deck by attacks"),
        "damage_stopped": gettext_noop("attacks whose deck damage stopped on a copy of the dummy partner's title+name"),
        "attack_draws": gettext_noop("cards drawn because the partner attacked"),
        "partner_levelups": gettext_noop("level ups of the player's partner (from hand)"),
        "opp_partner_levelups": gettext_noop("automatic level ups of the dummy partner from deck damage"),
    },
)
