"""Card identity for copy limits, one definition per game (GAMES.md, "Deck construction")."""
from __future__ import annotations

import re
from collections.abc import Callable

from . import games as g
from .cards import CardRecord

_VARIANT = re.compile(r"^(.*?\d+)[A-Za-z]+$")


def strip_variant(number: str) -> str:
    """PC: a letter suffix on the card number (``023a``) counts as the plain number (``023``)."""
    m = _VARIANT.match(number.strip())
    return m.group(1) if m else number.strip()


def _pc(card: CardRecord) -> str:
    number = card.number or card.code.rsplit("-", 1)[-1]
    return f"{card.work}|{strip_variant(number)}"


def _phantasma(card: CardRecord) -> str:
    number = card.number or card.code.rsplit("-", 1)[-1]
    return f"{card.work}|{number.strip()}"


def _ws(card: CardRecord) -> str:
    return card.name.strip()


def _chaos(card: CardRecord) -> str:
    if card.card_type in ("character", "extra"):
        return f"{card.title.strip()}【{card.person.strip()}】"
    return card.name.strip()


def _lycee(card: CardRecord) -> str:
    return card.name.strip()


IDENTITY: dict[str, Callable[[CardRecord], str]] = {
    g.PC: _pc,
    g.PHANTASMA: _phantasma,
    g.WS: _ws,
    g.CHAOS: _chaos,
    g.LYCEE: _lycee,
}


def card_identity(card: CardRecord) -> str:
    """The key under which copies of ``card`` are counted against the copy limit."""
    return IDENTITY[card.game](card)


def copy_limit(card: CardRecord) -> int:
    """The most copies of ``card``'s identity a deck may hold (Lycee cards may override it)."""
    if card.game == g.LYCEE and card.copy_limit:
        return card.copy_limit
    return g.CONSTANTS[card.game].copy_limit
