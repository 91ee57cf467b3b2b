"""Real deck files against the catalog: read (``decks.reader``), resolve printings, validate.

``deck_file_check(text=..., fmt=None, game=None)`` reads a deck in one of the formats players
exchange (``CODE RARITY`` lines, the AlphaC2 ``<deck>`` XML, the Chaos ``mainDeck { … }``
textproto), maps every printed code to its catalog card (a card code, else a printing code —
``CardPrinting`` rows, e.g. a rarity or variant printing — else left as printed so the validator
reports it as unknown; ``catalog.selectors.card_codes_resolve``), and validates the deck with the
game's construction rules. ``manage.py import_deck`` is its command line.
"""
from __future__ import annotations

from typing import Any

from rules.deckformats import FORMATS
from rules.decktext import format_deck_text

from .reader import read_deck
from .selectors import deck_validate


def deck_file_check(*, text: str, fmt: str | None = None, game: str | None = None) -> dict[str, Any]:
    """Parse, resolve and validate a deck file; returns
    ``{"format", "game", "zones", "text", "notes", "validation"}`` (parse errors are validation errors)."""
    deck = read_deck(text=text, fmt=fmt, game=game, formats=FORMATS)
    game = deck.game
    if deck.problems:
        validation = {"valid": False, "errors": list(deck.problems), "warnings": [], "summary": {}}
    else:
        validation = deck_validate(game=game, zones=deck.zones, partner=deck.partner)
    entries = [(zone, code, n) for zone, counts in deck.zones.items() for code, n in counts.items()]
    return {
        "format": deck.format,
        "game": game,
        "zones": deck.zones,
        "text": format_deck_text(entries) if entries else "",
        "notes": deck.notes,
        "validation": validation,
    }
