"""Phantasmagoria copy-limit identity: the series and the card number."""
from __future__ import annotations

from ..cards import CardRecord

IDENTITY_WORDS = "the same series and number"


def card_identity(card: CardRecord) -> str:
    number = card.number or card.code.rsplit("-", 1)[-1]
    return f"{card.work}|{number.strip()}"
