"""Weiß Schwarz goldfish engine (GAMES.md §3): the state and turn script (``state``), the pilots
(``pilot``), the event table (``events``), which compiled abilities it plays (``abilities``) and how
(``effects``), registered here with the coverage contract (``classify_ability``, ``plays_card``)."""
from __future__ import annotations

from rules.engine.core import WIN_TURN_RATIOS, gettext_noop
from rules.engine.goldfish import register_goldfish

from .abilities import analyse, card_programs, classify_ability, plays_card
from .events import EVENTS, GAME
from .pilot import GreedyPilot
from .state import REST, REVERSED, SLOTS, STAND, WSState, climax_bonus

__all__ = [
    "ENGINE", "EVENTS", "GAME", "REST", "REVERSED", "SLOTS", "STAND", "GreedyPilot",
    "WSState", "analyse", "card_programs", "classify_ability", "climax_bonus", "plays_card",
]

ENGINE = register_goldfish(
    WSState,
    {"greedy": GreedyPilot},
    describe_options={
        "dummy_climaxes": gettext_noop("climaxes in the goldfish's 50-card dummy deck (default 8)"),
        "dummy_pressure": gettext_noop("on (default): the goldfish attacks you on each of its turns, through your "
                                       "real damage step, and you lose at level 4; off: the pure goldfish, which "
                                       "never attacks"),
        "dummy_attacks": gettext_noop("the goldfish's attacks per turn with pressure on (default 3; 1 on the first "
                                      "player's first turn)"),
        "dummy_soul": gettext_noop("damage of each of the goldfish's attacks (default 2)"),
    },
    ratios={
        "damage_per_attack": ("damage_dealt", "attacks"),
        "soul_per_attack": ("attack_soul", "attacks"),
        "cancel_rate": ("cancels", "damage_events"),
        "refreshes_per_game": ("refreshes", "games"),
        "goldfish_refreshes_per_game": ("opp_refreshes", "games"),
        "damage_taken_per_goldfish_attack": ("damage_taken", "opp_attacks"),
        "cancel_rate_taken": ("damage_taken_cancels", "damage_taken_events"),
        "abilities_per_game": ("abilities", "games"),
        "burn_damage_per_game": ("burn_damage", "games"),
        **WIN_TURN_RATIOS,
    },
    describe_extras={
        "damage_per_attack": gettext_noop("cards put into the goldfish's clock by attacks, per attack: a cancelled "
                                          "attack's damage counts 0, the 1 damage of its shot trigger counts"),
        "soul_per_attack": gettext_noop("damage attempted per attack (soul incl. the +1 of a direct attack, soul "
                                        "triggers and abilities)"),
        "cancel_rate": gettext_noop("share of attack damage cancelled by a revealed climax"),
        "refreshes_per_game": gettext_noop("the player's own refreshes per game (each costs 1 refresh damage)"),
        "damage": gettext_noop("per-turn series: cards put into the goldfish's clock by attacks on that own turn"),
        "damage_taken_per_goldfish_attack": gettext_noop("cards put into your clock per attack of the goldfish "
                                                         "(dummy pressure; a cancelled attack counts 0)"),
        "cancel_rate_taken": gettext_noop("share of the goldfish's attacks (and self-damage) your climaxes cancelled"),
        "abilities_per_game": gettext_noop("printed abilities the engine resolved per game"),
        "burn_damage_per_game": gettext_noop("damage dealt to the goldfish by abilities (burn) per game"),
    },
    classify_ability=classify_ability,
    plays_card=plays_card,
)
