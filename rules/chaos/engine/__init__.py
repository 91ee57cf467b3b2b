"""Chaos TCG goldfish engine (GAMES.md §4): the state and turn script (``state``), characters and
battles (``characters``), what it plays of the compiled abilities (``abilities``: the coverage
contract's ``classify_ability`` and ``plays_card``), the pilots (``pilot``) and the event table
(``events``), registered here."""
from __future__ import annotations

from rules.engine.core import gettext_noop
from rules.engine.goldfish import register_goldfish

from .abilities import classify_ability, plays_card
from .characters import REST, REVERSE, STAND, Char, identity, level_up, partner_char, resolve_block
from .events import EVENTS, GAME
from .pilot import GreedyPilot
from .state import ALLY_SLOTS, PARTNER_SLOT, SLOT_NAMES, ChaosState

__all__ = [
    "ALLY_SLOTS", "ENGINE", "EVENTS", "GAME", "PARTNER_SLOT", "REST", "REVERSE",
    "SLOT_NAMES", "STAND", "Char", "ChaosState", "GreedyPilot", "classify_ability", "identity", "level_up",
    "partner_char", "plays_card", "resolve_block",
]

ENGINE = register_goldfish(
    ChaosState,
    {"greedy": GreedyPilot},
    classify_ability=classify_ability,
    plays_card=plays_card,
    describe_options={
        "dummy_deck_size": gettext_noop("cards in the dummy's deck, its partner included (default 50)"),
        "dummy_partner_copies": gettext_noop("further copies of the dummy partner's title+name in its deck (default 3); "
                                "deck damage stops on each"),
    },
    ratios={
        "deck_damage_per_attack": ("deck_damage", "attacks"),
        "attack_draws_per_game": ("attack_draws", "games"),
        "partner_levelups_per_game": ("partner_levelups", "games"),
        "events_per_game": ("events_played", "games"),
        "sets_per_game": ("sets_equipped", "games"),
        "dummy_partner_levelups_per_game": ("opp_partner_levelups", "games"),
        "stopped_attacks_share": ("damage_stopped", "attacks"),
    },
    describe_extras={
        "milled": gettext_noop("cards the dummy lost to deck damage on each of the player's turns"),
        "deck_damage": gettext_noop("cards milled from the dummy's deck by attacks"),
        "damage_stopped": gettext_noop("attacks whose deck damage stopped on a copy of the dummy partner's title+name"),
        "attack_draws": gettext_noop("cards drawn because the partner attacked"),
        "partner_levelups": gettext_noop("level ups of the player's partner (from hand)"),
        "extra_levelups": gettext_noop("level ups of an EXTRA on the field (a card naming one of its persons "
                                       "discarded, an identical EXTRA put on it)"),
        "events_played": gettext_noop("events played (their compiled effects)"),
        "sets_equipped": gettext_noop("Set cards equipped"),
        "effect_draws": gettext_noop("cards drawn by effects"),
        "opp_partner_levelups": gettext_noop("automatic level ups of the dummy partner from deck damage"),
    },
)
