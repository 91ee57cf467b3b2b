"""Real deck files against the catalog: parse (rules.deckformats), resolve printings, validate.

``deck_file_check(text=..., fmt=None, game=None)`` reads a deck in one of the formats players
exchange (``CODE RARITY`` lines, the AlphaC2 ``<deck>`` XML, the Chaos ``mainDeck { … }``
textproto), maps every printed code to its catalog card (a card code, else a printing code —
``CardPrinting`` rows, e.g. a rarity or variant printing — else left as printed so the validator
reports it as unknown) in two queries, and validates the deck with the game's construction rules.
"""
from __future__ import annotations

from typing import Any

from catalog.selectors import card_codes_resolve
from rules.deckformats import ImportedDeck, parse_deck, resolve_codes
from rules.decktext import format_deck_text


def deck_file_check(*, text: str, fmt: str | None = None, game: str | None = None) -> dict[str, Any]:
    """Parse, resolve and validate a deck file; returns
    ``{"format", "game", "zones", "text", "notes", "validation"}`` (parse errors are validation errors)."""
    from .selectors import deck_validate

    deck: ImportedDeck = parse_deck(text, fmt, game or "ws")
    game = game or deck.game
    codes = {code for zone in deck.zones.values() for code in zone}
    if deck.partner:
        codes.add(deck.partner)
    mapping = card_codes_resolve(game=game, codes=codes)
    resolve_codes(deck, mapping.get)
    if deck.errors:
        validation = {"valid": False, "errors": list(deck.errors), "warnings": [], "summary": {}}
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
