"""Lycee card checks (after the shared ones in ``rules.cards``) and the cost-symbol count."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import games as g
from ..cards import CardInput, Problem, cost_count_errors, enum_errors, missing_stats


def cost_total(cost_detail: Mapping[str, Any]) -> int:
    """Every attribute symbol counts one."""
    return sum(int(v) for v in cost_detail.values())


def slots(card: CardInput) -> list[Problem]:
    return enum_errors(card, "slots", g.LYCEE_SLOTS, many=True)


def cost_symbols(card: CardInput) -> list[Problem]:
    errors: list[Problem] = []
    for key, value in card.cost_detail.items():
        if key not in g.LYCEE_ATTRIBUTES:
            errors.append(("cost_detail", f"unknown lycee cost symbol {key!r}; "
                                          f"expected one of {', '.join(g.LYCEE_ATTRIBUTES)}"))
        else:
            errors += cost_count_errors(key, value)
    return errors


def character_stats_and_slots(card: CardInput) -> list[Problem]:
    if card.card_type == "character":
        return missing_stats(card, ("ap", "dp", "sp"), "a lycee character needs {stat}")
    if card.get("slots"):
        return [("slots", "only characters have a position restriction")]
    return []


def copy_limit_at_least_one(card: CardInput) -> list[Problem]:
    if card.get("copy_limit") == 0:
        return [("copy_limit", "copy_limit must be at least 1 (leave it empty for the default 4)")]
    return []


CHECKS = (slots, cost_symbols, character_stats_and_slots, copy_limit_at_least_one)
