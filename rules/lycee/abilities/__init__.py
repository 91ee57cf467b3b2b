"""Lycee Overture abilities compiled from the printed text.

``compile_text(text, card_type)`` → a tuple of :class:`rules.abilities.Ability`: one per basic
ability token (``[ステップ:[0]]``) and per special ability line (``[誘発]``, ``[宣言]``, ``[常時]``,
``[手札宣言]``, ``[コスト]``, ``[宣言][切札]``), an event's text, and printed rule notes. Text the
compiler cannot read is kept with ``unrecognised`` = the first sentence that failed.

Layout: :mod:`.text` (normalisation, the bracket-aware splitter), :mod:`.grammar` (lark, LALR),
:mod:`.reader` (parse tree → neutral reading), :mod:`.compiler` (reading → effects),
:mod:`.vocabulary` (every kind, documented).
"""
from __future__ import annotations

from functools import lru_cache

from rules.abilities import Ability

from .compiler import NotUnderstood, compile_segment
from .text import SplitText, normalize, split_text
from .vocabulary import ABILITY_KINDS, ALL_KINDS, CONDITION_KINDS, COST_KINDS, EFFECT_KINDS, TRIGGER_KINDS

__all__ = [
    "ABILITY_KINDS", "ALL_KINDS", "CONDITION_KINDS", "COST_KINDS", "EFFECT_KINDS", "TRIGGER_KINDS",
    "NotUnderstood", "SplitText", "compile_text", "compile_text_cached", "normalize", "split_text",
]


def compile_text(text: str, card_type: str = "character") -> tuple[Ability, ...]:
    """Compile a Lycee card's printed text (raw or NFKC-normalised) into its abilities."""
    split = split_text(text, card_type)
    out = []
    for seg in split.segments:
        ability = compile_segment(seg)
        if ability is not None:
            out.append(ability)
    return tuple(out)


@lru_cache(maxsize=16384)
def compile_text_cached(text: str, card_type: str = "character") -> tuple[Ability, ...]:
    """:func:`compile_text`, memoised (the abilities are shared: do not mutate their params)."""
    return compile_text(text, card_type)
