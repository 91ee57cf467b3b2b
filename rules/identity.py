"""Card identity for copy limits: each game defines it in ``rules/<game>/identity.py`` (GAMES.md,
"Deck construction"); these functions dispatch on the card's game through the registry."""
from __future__ import annotations

from .cards import CardRecord
from .registry import get_spec


def strip_variant(number: str) -> str:
    """PC: a letter suffix on the card number (``023a``) counts as the plain number (``023``)."""
    from .pc.identity import strip_variant as pc_strip_variant

    return pc_strip_variant(number)


def card_identity(card: CardRecord) -> str:
    """The key under which copies of ``card`` are counted against the copy limit."""
    return get_spec(card.game).identity(card)


def copy_limit(card: CardRecord) -> int:
    """The most copies of ``card``'s identity a deck may hold (Lycee cards may override it)."""
    return get_spec(card.game).copy_limit(card)
