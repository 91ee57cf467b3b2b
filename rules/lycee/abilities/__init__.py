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

from dataclasses import replace
from functools import lru_cache

from rules.abilities import Ability, Effect

from .compiler import NotUnderstood, compile_segment, read_sentence
from .text import SplitText, normalize, split_text
from .vocabulary import ABILITY_KINDS, ALL_KINDS, CONDITION_KINDS, COST_KINDS, EFFECT_KINDS, TRIGGER_KINDS

__all__ = [
    "ABILITY_KINDS", "ALL_KINDS", "CONDITION_KINDS", "COST_KINDS", "EFFECT_KINDS", "TRIGGER_KINDS",
    "NotUnderstood", "SplitText", "clear_caches", "compile_text", "compile_text_cached", "normalize", "split_text",
]


def compile_text(text: str, card_type: str = "character") -> tuple[Ability, ...]:
    """Compile a Lycee card's printed text (raw or NFKC-normalised) into its abilities.

    Parsed sentences are memoised (:func:`.compiler.read_sentence`): a reprinted sentence is
    parsed once per process. The abilities are frozen; do not mutate their params."""
    split = split_text(text, card_type)
    out: list[Ability] = []
    for seg in split.segments:
        ability = compile_segment(seg)
        if ability is None:
            continue
        if out and seg.tags and _awaits_granted(out[-1]):
            out[-1] = _with_granted(out[-1], ability)
            continue
        out.append(ability)
    return tuple(out)


def _awaits_granted(ability: Ability) -> bool:
    """``…は次の能力を得る。``: the ability on the next line is granted, not the card's own."""
    return ability.compiled and any(e.kind == "grant_ability" and "ability" not in e.params for e in ability.effects)


def _with_granted(ability: Ability, granted: Ability) -> Ability:
    effects = tuple(
        Effect(e.kind, {**e.params, "ability": granted.to_dict()}) if e.kind == "grant_ability" and "ability" not in
        e.params else e for e in ability.effects)
    unrecognised = granted.unrecognised
    return replace(ability, text=ability.text + "\n" + granted.text, effects=effects, unrecognised=unrecognised)


def clear_caches() -> None:
    """Forget memoised sentences and texts (benchmarks measure a cold compile)."""
    read_sentence.cache_clear()
    compile_text_cached.cache_clear()


@lru_cache(maxsize=16384)
def compile_text_cached(text: str, card_type: str = "character") -> tuple[Ability, ...]:
    """:func:`compile_text`, memoised (the abilities are shared: do not mutate their params)."""
    return compile_text(text, card_type)
