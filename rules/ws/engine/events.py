"""Weiß Schwarz's event log: code -> English template.

Params are card names, numbers and the short English terms ``playtest/i18n.py`` translates: slot,
why, order, dest, icons, what, outcome, reason.
"""
from __future__ import annotations

from rules.engine.core import event_messages, gettext_noop

GAME = "ws"
EVENTS = event_messages(GAME, {
    "refresh": gettext_noop("deck empty: waiting room ({count} cards) shuffled into a new deck; 1 refresh damage follows"),
    "draw": gettext_noop("{why}: {card}"),
    "level_up": gettext_noop("clock reached 7: {card} to the level zone, 6 cards to the waiting room; now level {level}"),
    "opp_level_up": gettext_noop("clock reached 7: goldfish is now level {level}"),
    "refresh_damage": gettext_noop("refresh damage: {card} to the clock (not cancelled)"),
    "setup": gettext_noop("shuffle; the player goes {order}"),
    "mulligan": gettext_noop("discard {cards}"),
    "opp_draw": gettext_noop("goldfish draws 1 (hand {hand}, deck {deck})"),
    "opp_refresh_damage": gettext_noop("refresh damage: 1 card to the clock (not cancelled)"),
    "opp_discard": gettext_noop("goldfish discards down to 7"),
    "turn": gettext_noop("turn {turn}: level {level}, clock {clock}, stock {stock}, hand {hand}, deck {deck}"),
    "clock": gettext_noop("clock {card}; draw 2"),
    "event": gettext_noop("event {card} (effect not modelled), to the waiting room"),
    "move": gettext_noop("{slot} <-> {slot2}"),
    "climax": gettext_noop("place {card}: all characters +{power} power, +{soul} soul until end of turn"),
    "climax_end": gettext_noop("climax {card} to the waiting room"),
    "hand_limit": gettext_noop("hand limit: {card}"),
    "play": gettext_noop("{card} to {slot} (level {level}, pays {cost} stock)"),
    "waiting": gettext_noop("{card} ({why}) to the waiting room"),
    "encore": gettext_noop("pay 3 stock: {card} back rested to {slot}"),
    "attack": gettext_noop("{card} ({slot}) direct attack, power {power}, soul {soul}+1"),
    "pool": gettext_noop("pool: top card of the deck to stock"),
    "treasure": gettext_noop("treasure: top card of the deck to stock"),
    "comeback": gettext_noop("comeback: {card} from the waiting room to hand"),
    "gate": gettext_noop("gate: {card} from the waiting room to hand"),
    "choice": gettext_noop("choice: {card} to {dest}"),
    "standby": gettext_noop("standby: {card} onto {slot}, rested"),
    "trigger_check": gettext_noop("trigger check: {card} ({icons}) to {dest}; soul now {soul}"),
    "cancel": gettext_noop("{what} {amount}: climax revealed on card {count}; cancelled, {count} card(s) to the "
                           "goldfish's waiting room"),
    "damage": gettext_noop("{what} {amount}: goldfish takes {amount} (clock {clock}, level {level})"),
    "event_played": gettext_noop("event {card}"),
    "ability": gettext_noop("{card}: {text}"),
    "fx_discard": gettext_noop("discard {card}"),
    "fx_move": gettext_noop("{card} to {dest}"),
    "fx_place": gettext_noop("{card} put onto {slot}"),
    "heal": gettext_noop("heal: {card} from the clock to the waiting room"),
    "search": gettext_noop("{card} to hand"),
    "shift": gettext_noop("shift: {card} from the clock to hand, {card2} from hand to the clock"),
    "cancel_taken": gettext_noop("goldfish's {what} {amount}: your climax revealed on card {count}; cancelled, "
                                 "{count} card(s) to your waiting room"),
    "damage_taken": gettext_noop("goldfish's {what} {amount}: you take {amount} (clock {clock}, level {level})"),
})
