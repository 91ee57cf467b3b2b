"""Card page addresses for pages that link tens of cards (deck page, card page, lists).

``reverse()`` matches the URL patterns and quotes the arguments on every call (70 µs each on the
2-core machine); a deck page links each card three or four times. The address of a card depends
only on the script prefix, the URL configuration, the route name, the game and the code, so it is
computed once per process for each of those (a bounded LRU cache)."""
from __future__ import annotations

from functools import lru_cache

from django.urls import get_script_prefix, get_urlconf, reverse


@lru_cache(maxsize=20_000)
def _reverse(prefix: str, urlconf: str | None, name: str, game: str, code: str) -> str:
    return reverse(name, args=[game, code], urlconf=urlconf)


def card_url(game: str, code: str, name: str = "card-detail") -> str:
    """``reverse(name, args=[game, code])`` (``card-detail`` or ``card-picture``), cached."""
    return _reverse(get_script_prefix(), get_urlconf(), name, game, code)
