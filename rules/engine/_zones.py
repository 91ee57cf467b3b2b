"""Small helpers shared by the goldfish engines: zones are plain lists of ``CardRecord``.

Decks keep their **top at the end of the list** (``pop()`` draws in O(1)); every other zone keeps
the order cards arrived in. Options name cards by code, so a decision does not depend on which of
several identical copies is meant.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import partial
from itertools import repeat
from typing import Any

from ..cards import CardRecord


def distinct_codes(cards: Iterable[CardRecord]) -> list[str]:
    """Codes in first-seen order, each once."""
    seen: list[str] = []
    for c in cards:
        code = c.code
        if code not in seen:
            seen.append(code)
    return seen


def take(zone: list[CardRecord], code: str) -> CardRecord:
    """Remove and return the first card with ``code`` from ``zone`` (``ValueError`` if none)."""
    for i, c in enumerate(zone):
        if c.code == code:
            return zone.pop(i)
    raise ValueError(f"no card {code} in that zone")


def find(zone: Iterable[CardRecord], code: str) -> CardRecord | None:
    for c in zone:
        if c.code == code:
            return c
    return None


class DeckCache:
    """Per-deck precomputed data (names, bonuses...), keyed by the deck object's identity.

    Holds a strong reference to each cached deck, so an id is never reused while cached; keeps the
    few most recent decks only.
    """

    def __init__(self, build: Callable[[Any], Any], size: int = 16) -> None:
        self._build = build
        self._size = size
        self._items: OrderedDict[int, tuple[Any, Any]] = OrderedDict()

    def get(self, deck: Any) -> Any:
        key = id(deck)
        hit = self._items.get(key)
        if hit is not None and hit[0] is deck:
            return hit[1]
        value = self._build(deck)
        self._items[key] = (deck, value)
        if len(self._items) > self._size:
            self._items.popitem(last=False)
        return value


def shuffle(rng: Any, cards: list) -> None:
    """Shuffle in place with the game's RNG: a sort on one ``rng.random()`` key per card.

    A uniform random permutation (ties have probability ~0) at about half the cost of
    ``random.shuffle`` in CPython, because the per-card work runs in C. Every engine shuffles
    through here so games stay reproducible from the seed alone.

    ``list.sort`` computes the keys first, card by card in list order; the key of a card is
    ``next(keys, card)`` on an endless iterator of ``rng.random()`` values, so card ``i`` gets the
    ``i``-th value, as with ``key=lambda _: rng.random()``, with no Python frame per card
    (tests/test_engine_core.py compares both over many seeds and sizes; under 8 cards the lambda
    key is the cheaper of the two).
    """
    if len(cards) < 8:  # (a few cards: a Python key costs less than building the C one)
        rnd = rng.random
        cards.sort(key=lambda _: rnd())
    else:
        cards.sort(key=partial(next, map(type(rng).random, repeat(rng))))
