"""Prism Connect's event log: code -> English template (terms translated: why, order, where)."""
from __future__ import annotations

from rules.engine.core import event_messages, gettext_noop

GAME = "pc"
EVENTS = event_messages(GAME, {
    "rebuild": gettext_noop("deck empty: connect gauge and discard pile shuffled into a new deck ({count} cards)"),
    "draw": gettext_noop("{why}: {card}"),
    "setup": gettext_noop("life {life} each; shuffle; the player goes {order}"),
    "mulligan": gettext_noop("to the bottom: {cards}"),
    "gauge_second": gettext_noop("going second: the top card of the deck face-down into the connect gauge"),
    "turn": gettext_noop("turn {turn}: life {life} vs {opp_life}, hand {hand}, deck {deck}, gauge {gauge}, "
                         "field {field}"),
    "hand_limit": gettext_noop("hand limit 6: {card}"),
    "event": gettext_noop("event {card} (effect not modelled), to the discard pile"),
    "scene": gettext_noop("scene {card} (effect not modelled) to the back area"),
    "deploy": gettext_noop("{card} (cost {cost}, field {field}) to the {where}"),
    "deploy_back_rule": gettext_noop("{card} (cost {cost}, field {field}) to the {where} (no character in hand "
                                     "meets its cost)"),
    "connect_mark": gettext_noop("connect mark of {card}: {card2} from the {where} face-up into the connect gauge"),
    "connect_mark_fizzled": gettext_noop("connect mark of {card}: no card put in, the rest does not resolve"),
    "return": gettext_noop("discard {card2}: {card} returns from the back area to the front line"),
    "connect_attack": gettext_noop("{card} connect attack: consume {count} gauge card(s) ({facedown} face-down "
                                   "revealed: {marks}); RANK {rank}+{count}+{bonus} = {total}"),
    "connect_attack_no_bonus": gettext_noop("{card} connect attack: consume {count} gauge card(s) ({facedown} "
                                            "face-down revealed: no bonus mark); RANK {rank}+{count}+{bonus} = {total}"),
    "attack": gettext_noop("{card} attacks (CP {cp}, RANK {rank})"),
    "gauge_unblocked": gettext_noop("unblocked: the top card of the deck face-down into the connect gauge"),
    "damage": gettext_noop("goldfish loses {amount} life ({life} left)"),
    "block": gettext_noop("goldfish blocks with {card} (CP {cp}, RANK {rank})"),
    "retreat": gettext_noop("{card} retreats to the back area"),
})
