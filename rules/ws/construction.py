"""Weiß Schwarz deck rules: the climax limit (and the usual count), and the summary's climax total."""
from __future__ import annotations

from typing import Any

from ..construction import DeckState, Problems, plural, problem

CLIMAX_LIMIT = 8


def _climaxes(deck: DeckState) -> dict[str, int]:
    return {c: n for c, n in deck.counted("main").items() if deck.own[c].card_type == "climax"}


def climax_count(deck: DeckState) -> Problems:
    """At most 8 climaxes (an error); fewer than 8 is a warning."""
    climax_cards = _climaxes(deck)
    climaxes = sum(climax_cards.values())
    if climaxes > CLIMAX_LIMIT:
        return [problem(
            "climax_limit", f"{plural(climaxes, 'climax')} in the deck; at most {CLIMAX_LIMIT} are allowed",
            climax_cards, zone="main", count=climaxes, limit=CLIMAX_LIMIT,
        )]
    if climaxes < CLIMAX_LIMIT:
        return [problem(
            "climax_count",
            f"only {plural(climaxes, 'climax')}; decks usually play {CLIMAX_LIMIT} "
            "(fewer climaxes cancel less damage and trigger less)",
            climax_cards, count=climaxes, limit=CLIMAX_LIMIT,
        )]
    return []


def summary(deck: DeckState) -> dict[str, Any]:
    return {"climaxes": sum(_climaxes(deck).values())}


CHECKS = (climax_count,)
