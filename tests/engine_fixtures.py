"""Helpers of the engine tests: the sample decks of a game as the engines see them
(``fixtures/cards/<game>.json`` and ``fixtures/decks/<game>-*.txt``, no database) and ``drive``,
which plays a scenario through the generic contract."""
from __future__ import annotations

import json
from collections.abc import Mapping
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


def drive(state: Any, steps: Any, pilot: Any, answers: Mapping[str, Any] | None = None) -> list[str]:
    """Run ``steps`` (one turn or one step of a hand-built state) through the generic contract.

    Each decision is answered from ``answers`` — ``{kind: [option, ...]}`` consumed in order, or
    ``{kind: option}`` for every decision of that kind — and otherwise by ``pilot.decide``; every
    answer must be one of the legal actions. Returns the decision kinds met."""
    queues = {kind: list(v) if isinstance(v, list) else v for kind, v in (answers or {}).items()}
    seen = []
    state.start(state.scenario(steps))
    while not state.is_terminal():
        kind = state.pending
        seen.append(kind)
        planned = queues.get(kind)
        if isinstance(planned, list):
            planned = planned.pop(0) if planned else None
        option = planned or pilot.decide(state, kind)
        actions = state.legal_actions()
        match = [a for a in actions if a.args == option]
        assert match, f"{option} is not legal at {kind}: {[a.args for a in actions]}"
        state.apply(match[0])
    return seen
