"""Lycee goldfish engine (GAMES.md §5): the state and turn script (``state``), per-card data
(``info``), payments (``payment``), the field and battles (``field``), printed abilities (what each
does in a goldfish game: ``abilities``; their runtime: ``effects``), the pilots (``pilot``) and the
event table (``events``), registered here with the coverage contract (``classify_ability``,
``plays_card``)."""
from __future__ import annotations

from rules.engine.core import gettext_noop
from rules.engine.goldfish import register_goldfish

from .abilities import analyse, card_plan, classify_ability, plays_card
from .events import EVENTS, GAME
from .field import Char, battle_result, moves
from .info import SLOT_INDEX, SLOTS, CardInfo, cost_of, info_of
from .payment import can_pay, find_payment
from .pilot import GreedyPilot
from .state import LyceeState

__all__ = [
    "ENGINE", "EVENTS", "GAME", "SLOTS", "SLOT_INDEX", "CardInfo", "Char", "GreedyPilot", "LyceeState", "analyse",
    "battle_result", "can_pay", "card_plan", "classify_ability", "cost_of", "find_payment", "info_of", "moves",
    "plays_card",
]

ENGINE = register_goldfish(
    LyceeState,
    {"greedy": GreedyPilot},
    classify_ability=classify_ability,
    plays_card=plays_card,
    describe_options={
        "dummy_deck_size": gettext_noop("cards in the dummy's deck (default 60); it draws 7, then 2 a turn"),
        "opp_field": gettext_noop("scenario tests only: {slot: card} characters the dummy fields (they defend and support)"),
    },
    ratios={
        "milled_per_attack": ("milled", "attacks"),
        "wasted_mana_per_game": ("wasted_mana", "games"),
    },
    describe_extras={
        "milled": gettext_noop("cards the dummy lost to undefended attacks (the DMG of a card that prints DMG, "
                               "else its printed AP) and modelled effects on each turn"),
        "damage_by_dmg": gettext_noop("undefended attacks whose deck damage was the card's DMG (printed, with its "
                                      "changes: Lycee Overture cards)"),
        "damage_by_ap": gettext_noop("undefended attacks whose deck damage was the printed AP (a card without DMG)"),
        "wasted_mana": gettext_noop("EX paid beyond a cost (surplus is lost)"),
        "redraws": gettext_noop("opening hands without a character, shown and redrawn"),
    },
)
