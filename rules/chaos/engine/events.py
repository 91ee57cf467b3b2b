"""Chaos TCG's event log: code -> English template (terms translated: why, order, slot)."""
from __future__ import annotations

from rules.engine.core import event_messages, gettext_noop

GAME = "chaos"
EVENTS = event_messages(GAME, {
    "draw": gettext_noop("{why}: {cards}"),
    "setup": gettext_noop("shuffle; the player goes {order}"),
    "partner": gettext_noop("partner {card} revealed: {atk}/{dfn} with bonus +{bonus_atk}/+{bonus_dfn} → "
                            "{total_atk}/{total_dfn}"),
    "maintain_skipped": gettext_noop("{card} turns face-down (maintain not paid)"),
    "levelup": gettext_noop("level up: {card} on the partner → {atk}/{dfn}, standing"),
    "face_up": gettext_noop("{card} turns face-up"),
    "hand_limit": gettext_noop("hand limit: {card}"),
    "maintain": gettext_noop("pay maintain of {card}"),
    "leaves": gettext_noop("{card} leaves {slot} for the waiting room"),
    "summon": gettext_noop("summon {card} ({atk}/{dfn}) to {slot}"),
    "extra": gettext_noop("EXTRA {card} ({atk}/{dfn}) on {slot}"),
    "attack": gettext_noop("{card} attacks ({atk} ATK); the dummy does not defend"),
    "deck_damage": gettext_noop("deck damage {amount}: {count} card(s) milled; {left} left"),
    "levelup_extra": gettext_noop("level up: {card} on the EXTRA in {slot} ({discarded} discarded) → {atk}/{dfn}, standing"),
    "event": gettext_noop("event {card}"),
    "stat_mod": gettext_noop("{card} is now {atk}/{dfn}"),
    "to_hand": gettext_noop("{card} into the hand"),
    "equip": gettext_noop("equip {card} to {target} → {atk}/{dfn}"),
    "release": gettext_noop("{card} goes to the waiting room (upkeep not paid)"),
    "deck_damage_stopped": gettext_noop("deck damage {amount}: {count} card(s) milled — stopped on the partner's "
                                        "name: the dummy partner levels up; {left} left"),
})
