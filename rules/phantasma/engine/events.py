"""Phantasmagoria's event log: code -> English template (terms translated: why, order, target, paid,
attr/attr2: the attributes)."""
from __future__ import annotations

from rules.engine.core import event_messages, gettext_noop

GAME = "phantasma"
EVENTS = event_messages(GAME, {
    "setup": gettext_noop("shuffle; the player goes {order}; ACE {card}: MHP {mhp} doubled → {ace_mhp}, rested; "
                          "dummy ACE: MHP {dummy_mhp}, martial {martial}, agility {agility}, wisdom {wisdom}, "
                          "craft {craft}, poise {poise}"),
    "draw": gettext_noop("{why}: {cards}"),
    "turn": gettext_noop("turn {turn}: wake up"),
    "battle_card": gettext_noop("place battle card {card} ({attr} / {attr2})"),
    "drop_battle": gettext_noop("discard battle card {card}"),
    "deploy": gettext_noop("deploy {card} (rested; MHP {mhp}), paying: {paid}"),
    "item": gettext_noop("equip {card} to {target}, paying: {paid}"),
    "event": gettext_noop("play {card} on {target}, paying: {paid}"),
    "event_unmodelled": gettext_noop("play {card} on {target}, paying: {paid} (effect not modelled)"),
    "ex": gettext_noop("EX skill {card} on {target} (ACE cost {cost} ≤ condition {condition})"),
    "ex_unmodelled": gettext_noop("EX skill {card} on {target} (ACE cost {cost} ≤ condition {condition}) "
                                  "(effect not modelled)"),
    "hand_limit": gettext_noop("hand limit: {card}"),
    "pay_rest": gettext_noop("rest {card}"),
    "pay_discard": gettext_noop("discard {card}"),
    "battle": gettext_noop("{card} attacks; the dummy ACE must defend (rested); battle card {card2}: {attr} {atk} vs "
                           "{attr2} {dfn} → {damage} damage to the dummy ({dummy_dmg}/{dummy_mhp}); {attr} {back_atk} "
                           "vs {attr2} {back_dfn} → {back} damage back ({dmg}/{mhp})"),
    "defeat": gettext_noop("{card} is defeated ({dmg} ≥ MHP {mhp}) → defeat zone ({count})"),
})
