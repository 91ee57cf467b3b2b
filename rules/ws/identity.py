"""Weiß Schwarz copy-limit identity: the card name."""
from __future__ import annotations

from ..cards import CardRecord

IDENTITY_WORDS = "the same name"


def card_identity(card: CardRecord) -> str:
    return card.name.strip()
