"""Phantasmagoria goldfish engine (GAMES.md §2): the state and turn script (``state``), cards in
play and battles (``characters``), the dummy ACE (``dummy``), the pilots (``pilot``) and the event
table (``events``), registered here."""
from __future__ import annotations

from rules.engine.core import gettext_noop
from rules.engine.goldfish import register_goldfish

from .characters import ATTRS, Char, Dummy, battle_damage, info_of, modelled_effects
from .dummy import catalog_options, dummy_stats
from .events import EVENTS, GAME
from .pilot import GreedyPilot
from .state import PhantasmaState

__all__ = [
    "ATTRS", "ENGINE", "EVENTS", "GAME", "Char", "Dummy", "GreedyPilot",
    "PhantasmaState", "battle_damage", "catalog_options", "dummy_stats", "info_of", "modelled_effects",
]

ENGINE = register_goldfish(
    PhantasmaState,
    {"greedy": GreedyPilot},
    describe_options={
        "dummy_mhp": gettext_noop("the dummy ACE's MHP (already doubled); default: 2 × the catalog's median printed MHP"),
        "dummy_martial": gettext_noop("the dummy ACE's martial value; default: the catalog's median"),
        "dummy_agility": gettext_noop("the dummy ACE's agility value; default: the catalog's median"),
        "dummy_wisdom": gettext_noop("the dummy ACE's wisdom value; default: the catalog's median"),
        "dummy_craft": gettext_noop("the dummy ACE's craft value; default: the catalog's median"),
        "dummy_poise": gettext_noop("the dummy ACE's poise value; default: the catalog's median"),
        "dummy_deck_size": gettext_noop("cards in the dummy's deck (default 60); it draws 7, then 2 a turn"),
    },
    catalog_options=catalog_options,
    ratios={
        "damage_per_battle": ("damage_dealt", "battles"),
        "damage_taken_per_battle": ("damage_taken", "battles"),
        "own_defeated_per_game": ("own_defeated", "games"),
    },
    describe_extras={
        "damage": gettext_noop("damage dealt to the dummy ACE on each of the player's turns"),
        "damage_dealt": gettext_noop("damage dealt to the dummy ACE in battles"),
        "damage_taken": gettext_noop("counter-damage my attackers took (battles are computed both ways)"),
        "own_defeated": gettext_noop("my characters defeated by counter-damage (three lose the game)"),
    },
)
