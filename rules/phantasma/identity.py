"""Phantasmagoria copy-limit identity: the series and the card number, counted in the main deck
only (the ACE and the EX skills are outside the deck: an ACE may be a fifth copy, GAMES.md §2)."""
from __future__ import annotations

from ..cards import CardRecord

IDENTITY_WORDS = "the same series and number in the main deck"
COPY_ZONES = ("main",)


def card_identity(card: CardRecord) -> str:
    number = card.number or card.code.rsplit("-", 1)[-1]
    return f"{card.work}|{number.strip()}"
