"""Phantasmagoria card checks (after the shared ones in ``rules.cards``) and the cost-symbol count."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import games as g
from ..cards import CardInput, Problem, cost_count_errors, enum_errors, missing_stats

COST_SYMBOLS = ("white", "blue", "red", "hp")


def cost_total(cost_detail: Mapping[str, Any]) -> int:
    """White and red symbols plus every blue (attribute) symbol; HP payments are not symbols."""
    blue = cost_detail.get("blue") or {}
    return int(cost_detail.get("white", 0)) + int(cost_detail.get("red", 0)) + sum(blue.values())


def total_cost(card: Any) -> int | None:
    """A card's total cost: its ``cost_detail`` symbols when it has them, else its printed ``cost``
    (what an EX skill's usage condition compares with the ACE's)."""
    detail = card.cost_detail
    if detail:
        return cost_total(detail)
    return card.cost


def battle_attributes(card: CardInput) -> list[Problem]:
    errors = [*enum_errors(card, "attack_attribute", g.PHANTASMA_ATTRIBUTES),
              *enum_errors(card, "defense_attribute", g.PHANTASMA_ATTRIBUTES)]
    if card.card_type == "battle" and not (card.get("attack_attribute") and card.get("defense_attribute")):
        errors.append(("attack_attribute", "a battle card needs an attack and a defense attribute"))
    return errors


def character_values(card: CardInput) -> list[Problem]:
    if card.card_type != "character":
        return []
    errors = [] if card.get("mhp") else [("mhp", "a phantasma character needs a positive mhp")]
    return errors + missing_stats(card, g.PHANTASMA_ATTRIBUTES, "a phantasma character needs its {stat} value")


def ex_skill_condition(card: CardInput) -> list[Problem]:
    if card.card_type == "ex_skill" and card.get("ex_condition") is None:
        return [("ex_condition", "an EX skill needs its usage condition (a cost value)")]
    return []


def _blue_cost_errors(value: Any) -> list[Problem]:
    if not isinstance(value, Mapping):
        return [("cost_detail", "blue cost must map attributes to counts")]
    errors: list[Problem] = []
    for attr, n in value.items():
        if attr not in g.PHANTASMA_ATTRIBUTES:
            errors.append(("cost_detail", f"blue cost attribute {attr!r} does not exist"))
        elif not isinstance(n, int) or n < 0:
            errors.append(("cost_detail", f"blue cost for {attr} must be a whole number ≥ 0"))
    return errors


def cost_symbols(card: CardInput) -> list[Problem]:
    errors: list[Problem] = []
    for key, value in card.cost_detail.items():
        if key not in COST_SYMBOLS:
            errors.append(("cost_detail", f"unknown cost symbol {key!r}; expected white, blue, red or hp"))
        elif key == "blue":
            errors += _blue_cost_errors(value)
        else:
            errors += cost_count_errors(key, value)
    return errors


CHECKS = (battle_attributes, character_values, ex_skill_condition, cost_symbols)
