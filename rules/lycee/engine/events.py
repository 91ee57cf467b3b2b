"""Lycee's event log: code -> English template (terms translated: why, order, tax, keyword, when,
result/result2, paid; ``payment`` is a submessage)."""
from __future__ import annotations

from rules.engine.core import event_messages, gettext_noop

GAME = "lycee"
EVENTS = event_messages(GAME, {
    "draw": gettext_noop("{why}: {cards}"),
    "effect_draw": gettext_noop("{card} ({when}): {cards}"),
    "turn": gettext_noop("turn {turn}"),
    "hand_limit": gettext_noop("hand limit: {card}"),
    "setup": gettext_noop("shuffle; the player goes {order}"),
    "redraw": gettext_noop("no character: {cards} — redraw"),
    "opening_hand": gettext_noop("opening hand: {cards}"),
    "tax_paid": gettext_noop("pay {tax} of {card}: {cards}"),
    "no_wakeup": gettext_noop("{card} does not wake up (tax wakeup not paid)"),
    "move_cost": gettext_noop("{keyword} cost: {cards}"),
    "move": gettext_noop("{card} moves {slot} → {slot2}"),
    "touch": gettext_noop("Touch: {card} ({slot}) and {card2} ({slot2}) swap places"),
    "paying": gettext_noop(", paying {paid}"),
    "paying_wasted": gettext_noop(", paying {paid}; {wasted} wasted"),
    "convert_return": gettext_noop("{card} returns to the hand"),
    "deploy": gettext_noop("deploy {card} (AP{ap}/DP{dp}/SP{sp}) to {slot}{payment}"),
    "convert": gettext_noop("convert {card} (AP{ap}/DP{dp}/SP{sp}) to {slot}{payment}"),
    "item": gettext_noop("equip {card} to {card2}{payment}"),
    "area": gettext_noop("area {card} on {slot}{payment}"),
    "event": gettext_noop("play {card}{payment}"),
    "event_unmodelled": gettext_noop("play {card}{payment} (effect not modelled)"),
    "mill": gettext_noop("{card} ({when}): the dummy mills {count}"),
    "leave": gettext_noop("{card} goes to the dust box ({why})"),
    "leave_to": gettext_noop("{card} leaves the field for the {to} ({why})"),
    "engage": gettext_noop("{card} engages onto {card2}"),
    "effect_deploy": gettext_noop("{card} enters {slot} by an effect"),
    "ability": gettext_noop("{card} uses: {text}"),
    "ability_cost": gettext_noop("cost of {card}'s ability: {cards}"),
    "mana": gettext_noop("{card} produces mana: {text}"),
    "effect": gettext_noop("{card}: {what} {card2} ({n})"),
    "opp_draw": gettext_noop("{card}: the dummy draws {count}"),
    "recover": gettext_noop("{card}: my deck recovers {count}"),
    "search": gettext_noop("{card}: search {card2} into the hand"),
    "support": gettext_noop("{card} supports {card2}: +{sp} {stat}"),
    "attack": gettext_noop("{card} attacks column {column}, undefended: the dummy mills {count} (printed AP {ap}), "
                           "{left} left"),
    "attack_dmg": gettext_noop("{card} attacks column {column}, undefended: the dummy mills {count} (DMG {ap}), "
                               "{left} left"),
    "battle": gettext_noop("{card} (AP{ap}/DP{dp}) attacks column {column}; {card2} (AP{ap2}/DP{dp2}) defends → "
                           "attacker {result}, defender {result2}"),
})
