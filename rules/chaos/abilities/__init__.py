"""Chaos TCG abilities compiled from the card text.

``compile_text(text, card_type)`` → a tuple of :class:`rules.abilities.Ability`: keywords
(``[Always] Penetrate``), the tagged abilities (``[Always]`` / ``[Ally]`` / ``[Partner]``, with
their triggers), an event's effect with its timing (``[MAIN]`` / ``[BATTLE]``) and ``【Use】``
condition, a Set card's equip and continuous abilities, and the ``【登場】`` / ``【LEVELUP】``
conditions. The real Chaos data (the Korean trial deck) has no effect text; the texts compiled
are the project's own (``fixtures/cards/chaos.json``). Unreadable sentences are kept in
``unrecognised``.
"""
from __future__ import annotations

from functools import lru_cache

from rules.abilities import Ability

from .compiler import NotUnderstood, compile_chaos_text
from .vocabulary import ABILITY_KINDS, ALL_KINDS, CONDITION_KINDS, EFFECT_KINDS, TRIGGER_KINDS

__all__ = [
    "ABILITY_KINDS", "ALL_KINDS", "CONDITION_KINDS", "EFFECT_KINDS", "TRIGGER_KINDS", "NotUnderstood",
    "clear_caches", "compile_text", "compile_text_cached",
]


def compile_text(text: str | None, card_type: str = "character") -> tuple[Ability, ...]:
    """Compile a Chaos card's text (``card_type``: character, extra, event, set)."""
    return compile_chaos_text(text, card_type)


@lru_cache(maxsize=4096)
def compile_text_cached(text: str | None, card_type: str = "character") -> tuple[Ability, ...]:
    """:func:`compile_text`, memoised (the abilities are shared: do not mutate their params)."""
    return compile_text(text, card_type)


def clear_caches() -> None:
    """Forget memoised texts (benchmarks measure a cold compile)."""
    compile_text_cached.cache_clear()
