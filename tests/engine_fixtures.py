"""The sample decks of a game as the engines see them: ``fixtures/cards/<game>.json`` and
``fixtures/decks/<game>-*.txt`` (no database). Used by the engine contract suite and the games'
engine tests."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from rules.cards import CardRecord
from rules.decktext import parse_deck_text
from rules.engine.core import Deck, get_engine

ROOT = Path(__file__).resolve().parent.parent


@cache
def fixture_cards(game: str) -> dict[str, CardRecord]:
    """Every fixture card of ``game`` by code (empty when the game has no fixture cards)."""
    path = ROOT / "fixtures" / "cards" / f"{game}.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {c["code"]: CardRecord.from_dict(c, game=game) for c in data["cards"]}


@cache
def fixture_decks(game: str) -> tuple[tuple[str, Deck], ...]:
    """``(name, deck)`` of every sample deck of ``game``."""
    cards = fixture_cards(game)
    out = []
    for path in sorted((ROOT / "fixtures" / "decks").glob(f"{game}-*.txt")):
        parsed = parse_deck_text(path.read_text(encoding="utf-8"))
        assert not parsed.errors, path
        out.append((path.stem, Deck.from_counts(game, parsed.zones(), cards)))
    return tuple(out)


def catalog_options(game: str) -> dict[str, Any]:
    """The engine's catalog-derived options over every fixture card of the game (as the goldfish
    command computes them from the catalog), or ``{}``."""
    engine = get_engine(game)
    if engine.catalog_options is None:
        return {}
    return engine.catalog_options(fixture_cards(game).values())
