"""Lycee copy-limit identity (the card name) and copy limit (a card may print its own)."""
from __future__ import annotations

from ..cards import CardRecord
from ..registry import standard_copy_limit

IDENTITY_WORDS = "the same name"


def card_identity(card: CardRecord) -> str:
    return card.name.strip()


def copy_limit(card: CardRecord) -> int:
    """The card's own ``copy_limit`` when it prints one, else the game's 4."""
    return card.copy_limit or standard_copy_limit(card)
