"""Prism Connect copy-limit identity: the work and the card number, letter suffixes ignored."""
from __future__ import annotations

import re

from ..cards import CardRecord

IDENTITY_WORDS = "the same work and card number (letter suffixes ignored)"
_VARIANT = re.compile(r"^(.*?\d+)[A-Za-z]+$")


def strip_variant(number: str) -> str:
    """A letter suffix on the card number (``023a``) counts as the plain number (``023``)."""
    m = _VARIANT.match(number.strip())
    return m.group(1) if m else number.strip()


def card_identity(card: CardRecord) -> str:
    number = card.number or card.code.rsplit("-", 1)[-1]
    return f"{card.work}|{strip_variant(number)}"
