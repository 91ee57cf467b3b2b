"""Weiß Schwarz copy-limit identity: the card name.

A card reprinted in several sets, or printed in a special version (a holo, a signed card, the
printing before an errata), is one card for the copy limit: every printing carries the same name.
The identity is the name as printed, width-normalised (NFKC), with runs of spaces read as one (none
next to a sign) and a trailing printing marker such as ``(ホロ)`` left out — a marker describes the printing, not the card
(the importers keep it on the printing, ``CardPrinting.marker``; this is the safety net for cards
that still carry one in their name). 4× ``決意`` + 4× ``決意(ホロ)`` are 8 copies of one card.
"""
from __future__ import annotations

import re
import unicodedata

from ..cards import CardRecord

IDENTITY_WORDS = "the same name"

# A trailing printing marker: a holo, foil-stamped or signed version, the printing before an errata,
# a "ver." printing. What is inside the brackets is the marker; the rest is the card's name.
PRINTING_MARKER = re.compile(
    r"\s*\((?P<marker>ホロ|エラッタ前|[^()]*入り|[^()]*ver\.?[^()]*)\)\s*$", re.IGNORECASE)


def split_marker(name: str) -> tuple[str, str]:
    """``'決意(ホロ)'`` → (``'決意'``, ``'ホロ'``); a name without a marker → (name, ``''``).

    ``name`` is expected NFKC-normalised (full-width brackets read as ``()``); a name that is only a
    marker is left whole."""
    m = PRINTING_MARKER.search(name)
    if m and m.start() > 0:
        return name[: m.start()].rstrip(), m["marker"].strip()
    return name, ""


def name_identity(name: str) -> str:
    """The copy-limit key of a WS card name (see the module docstring): a space next to a sign counts
    for nothing (``“頂の座” ヘカテー`` is ``“頂の座”ヘカテー``), a space between words as one."""
    text = " ".join(unicodedata.normalize("NFKC", name or "").split())
    text = re.sub(r"(?<=[^\w\s]) | (?=[^\w\s])", "", text)
    return split_marker(text)[0]


def card_identity(card: CardRecord) -> str:
    return name_identity(card.name)
