"""Prism Connect card checks (after the shared ones in ``rules.cards``)."""
from __future__ import annotations

from .. import games as g
from ..cards import CardInput, Problem, enum_errors


def bonus_mark(card: CardInput) -> list[Problem]:
    return enum_errors(card, "bonus_mark", g.PC_BONUS_MARKS)


def character_needs_cp_and_rank(card: CardInput) -> list[Problem]:
    if card.card_type == "character" and (card.get("cp") is None or card.get("rank") is None):
        return [("cp", "a pc character needs cp and rank")]
    return []


def connect_attack_on_characters(card: CardInput) -> list[Problem]:
    if card.card_type != "character" and card.get("connect_attack") is not None:
        return [("connect_attack", "only characters have [connect attack: X]")]
    return []


CHECKS = (bonus_mark, character_needs_cp_and_rank, connect_attack_on_characters)
