"""Weiß Schwarz card checks (after the shared ones in ``rules.cards``)."""
from __future__ import annotations

from .. import games as g
from ..cards import CardInput, Problem, enum_errors

MAX_LEVEL = 3


def triggers(card: CardInput) -> list[Problem]:
    return enum_errors(card, "triggers", g.WS_TRIGGERS, many=True)


def climax_has_no_stats(card: CardInput) -> list[Problem]:
    if card.card_type != "climax":
        return []
    return [(stat, f"a ws climax has no {stat} (got {card.data[stat]!r})")
            for stat in ("level", "cost", "power", "soul") if card.get(stat) is not None]


def level_and_cost(card: CardInput) -> list[Problem]:
    if card.card_type == "climax":
        return []
    level = card.get("level")
    if level is None or card.get("cost") is None:
        return [("level", f"a ws {card.card_type} needs a level and a cost")]
    if isinstance(level, int) and level > MAX_LEVEL:
        return [("level", f"ws levels go from 0 to 3 (got {level})")]
    return []


def power_and_soul(card: CardInput) -> list[Problem]:
    if card.card_type == "character" and (card.get("power") is None or card.get("soul") is None):
        return [("power", "a ws character needs power and soul")]
    if card.card_type == "event" and card.get("power") is not None:
        return [("power", "a ws event has no power")]
    return []


CHECKS = (triggers, climax_has_no_stats, level_and_cost, power_and_soul)
