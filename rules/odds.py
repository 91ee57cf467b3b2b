"""Exact draw odds (hypergeometric), used by deck pages, reports and the engines' statistical tests."""
from __future__ import annotations

from math import comb

from .registry import get_spec


def p_at_least(deck_size: int, copies: int, drawn: int, k: int = 1) -> float:
    """P(at least ``k`` of ``copies`` successes among ``drawn`` cards from a deck of ``deck_size``)."""
    if not 0 <= copies <= deck_size:
        raise ValueError(f"copies must be between 0 and {deck_size} (got {copies})")
    drawn = max(0, min(drawn, deck_size))
    total = comb(deck_size, drawn)
    miss = sum(comb(copies, i) * comb(deck_size - copies, drawn - i) for i in range(0, min(k, copies + 1)))
    return 1.0 - miss / total


def cards_seen(game: str, turn: int, first_player: bool = True) -> int:
    """Cards seen by the start of the player's own turn ``turn`` (0 = the opening hand only).

    Counts the opening hand plus the normal draws of each game, and the spec's ``clock_draws`` (WS:
    the clock's 2 draws, as if the player clocks every turn). Mulligans are not included.
    """
    spec = get_spec(game)
    c = spec.constants
    seen = c.opening_hand
    for t in range(1, turn + 1):
        seen += c.first_turn_draws if t == 1 and first_player else c.draws_per_turn
        seen += spec.clock_draws
    return seen


def p_by_turn(game: str, deck_size: int, copies: int, turn: int, first_player: bool = True) -> float:
    """P(at least one of ``copies`` seen by own turn ``turn``, 0 = opening hand)."""
    return p_at_least(deck_size, copies, cards_seen(game, turn, first_player))
