"""Real deck files against the catalog: parse (rules.deckformats), resolve printings, validate.

``deck_file_check(text=..., fmt=None, game=None)`` reads a deck in one of the formats players
exchange (``CODE RARITY`` lines, the AlphaC2 ``<deck>`` XML, the Chaos ``mainDeck { … }``
textproto), maps every printed code to its catalog card (a card code, else a printing code —
``CardPrinting`` rows, e.g. a rarity or variant printing — else left as printed so the validator
reports it as unknown) in two queries, and validates the deck with the game's construction rules.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.deckformats import ImportedDeck, official_ws_code, parse_deck, resolve_codes
from rules.decktext import format_deck_text

from .models import Card, CardPrinting


def card_codes_resolve(*, game: str, codes: Iterable[str]) -> dict[str, str]:
    """Printed code → catalog card code for ``game`` (card codes first, then printing codes)."""
    wanted = {c for c in codes if c}
    if not wanted:
        return {}
    found = {c: c for c in Card.objects.filter(game=game, code__in=wanted).values_list("code", flat=True)}
    rest = wanted - set(found)
    if rest:
        for code, card_code in CardPrinting.objects.filter(game=game, code__in=rest).values_list("code", "card__code"):
            found.setdefault(code, card_code)
    rest = wanted - set(found)
    if rest:  # WS codes written with '-' for '/'
        official = {official_ws_code(c): c for c in rest}
        for code in Card.objects.filter(game=game, code__in=list(official)).values_list("code", flat=True):
            found[official[code]] = code
    return found


def deck_file_check(*, text: str, fmt: str | None = None, game: str | None = None) -> dict[str, Any]:
    """Parse, resolve and validate a deck file; returns
    ``{"format", "game", "zones", "text", "notes", "validation"}`` (parse errors are validation errors)."""
    from decks.selectors import deck_validate

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
