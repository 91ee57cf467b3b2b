"""Chaos TCG copy-limit identity: the card name, title+name (【person】) for characters and EXTRAs."""
from __future__ import annotations

from ..cards import CardRecord

IDENTITY_WORDS = "the same card name (title+name for characters)"


def card_identity(card: CardRecord) -> str:
    if card.card_type in ("character", "extra"):
        return f"{card.title.strip()}【{card.person.strip()}】"
    return card.name.strip()
