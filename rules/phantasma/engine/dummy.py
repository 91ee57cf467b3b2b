"""The dummy ACE's stats: the catalog's medians (``catalog_options``), options override."""
from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from typing import Any

from rules.cards import CardRecord
from rules.engine._zones import DeckCache
from rules.engine.core import Deck

from .characters import ATTRS
from .events import GAME


def _median(values: list[int]) -> int:
    return int(statistics.median(values) + 0.5) if values else 0


def catalog_options(cards: Iterable[CardRecord]) -> dict[str, Any]:
    """The default dummy ACE from every Phantasmagoria character of the catalog (GAMES.md §2)."""
    chars = [c for c in cards if c.game == GAME and c.card_type == "character" and c.mhp]
    if not chars:
        return {}
    out: dict[str, Any] = {"dummy_mhp": 2 * _median([c.mhp for c in chars])}
    for a in ATTRS:
        out[f"dummy_{a}"] = _median([getattr(c, a) or 0 for c in chars])
    return out


_DECK_MEDIANS = DeckCache(lambda deck: catalog_options([*deck.main, *deck.zones.get("ace", ())]))


def dummy_stats(options: Mapping[str, Any], deck: Deck) -> dict[str, int]:
    """Options win; anything missing comes from the deck's own characters (ACE included)."""
    keys = ("dummy_mhp", *(f"dummy_{a}" for a in ATTRS))
    fallback = {} if all(k in options for k in keys) else _DECK_MEDIANS.get(deck)
    stats = {"mhp": int(options.get("dummy_mhp", fallback.get("dummy_mhp", 0)))}
    for a in ATTRS:
        stats[a] = int(options.get(f"dummy_{a}", fallback.get(f"dummy_{a}", 0)))
    if stats["mhp"] <= 0:
        raise ValueError("the dummy ACE needs a positive MHP: pass dummy_mhp or give the deck characters")
    return stats
