"""Weiß Schwarz ability compiler: Japanese printed text → :class:`rules.abilities.Ability`.

    from rules.ws.abilities import compile_text
    compile_text("【自】このカードがアタックした時、あなたは1枚引く。")

Pipeline: :func:`.text.normalise` (NFKC, one spelling), :func:`.text.split_abilities` (cut at the
ability markers), the lark LALR grammar (:mod:`.grammar`, built once at import, with a
dictionary lexer) producing the syntax of each ability (:mod:`.syntax`), and the semantic pass
(:mod:`.semantics`) producing the typed abilities. Effect kinds: :mod:`.vocabulary`
(documented in ``docs/abilities.md``). An ability the compiler cannot read is kept with
``unrecognised`` = the first phrase (the clause, up to the next ``、`` / ``。``) that failed.

Vanilla text (empty or ``-``) compiles to no abilities.
"""
from __future__ import annotations

from functools import lru_cache

from lark.exceptions import UnexpectedInput

from rules.abilities import Ability, Effect, abilities_to_json, is_vanilla_text

from .grammar import build_parser
from .semantics import Unrecognised, interpret
from .syntax import ToSyntax
from .text import normalise, split_abilities
from .vocabulary import CONDITIONS, COSTS, EFFECTS, TRIGGERS, Kind

__all__ = [
    "CONDITIONS", "COSTS", "EFFECTS", "TRIGGERS", "Kind", "abilities_to_json", "clear_caches", "compile_ability",
    "compile_ability_cached", "compile_text", "compile_text_cached", "normalise", "split_abilities",
]

_PARSER = build_parser(ToSyntax())
_STOPS = "、。"


def _phrase(text: str, start: int, end: int | None = None) -> str:
    """The clause around ``start``: from after the previous 、/。 to the next one (inclusive)."""
    start = max(0, min(start, len(text)))
    end = start if end is None else max(start, min(end, len(text)))
    lo = max(text.rfind(c, 0, start) for c in _STOPS) + 1 if start else 0
    if end > start and text[end - 1:end] in _STOPS:
        end -= 1
    hi_candidates = [i for i in (text.find(c, end) for c in _STOPS) if i >= 0]
    hi = min(hi_candidates) + 1 if hi_candidates else len(text)
    phrase = text[lo:hi].strip()
    return phrase or text.strip()


def _outside_names(text: str, needle: str) -> int:
    """Where ``needle`` first occurs outside 「names」 (「そして、伝説へ......」 is a name), or -1."""
    pos = text.find(needle)
    while pos >= 0:
        if text.count("「", 0, pos) == text.count("」", 0, pos):
            return pos
        pos = text.find(needle, text.find("」", pos) + 1) if "」" in text[pos:] else -1
    return -1


def _truncated(text: str) -> tuple[str, str] | None:
    """A text the source cut short with ``...``: (the part before the unfinished clause, the rest)."""
    cut = _outside_names(text, "...")
    if cut < 0:
        return None
    head = text[:cut]
    opened = head.rfind("(")
    if opened > head.rfind(")"):  # cut inside a reminder: keep what is before it
        return head[:opened], text[opened:]
    stop = max(head.rfind("、"), head.rfind("。"))
    if stop <= 0:
        return None
    return head[:stop] + "。", text[stop + 1:]


def compile_ability(text: str, card_type: str = "character") -> Ability:
    """One ability's (normalised) text → its compiled :class:`Ability`.

    A text the source cut short (``...``) compiles up to the last whole clause and ends with a
    ``truncated`` effect holding the rest."""
    cut = _truncated(text)
    if cut is not None:
        kept, rest = cut
        head = compile_ability(kept, card_type)
        if not head.compiled:
            return Ability(kind=head.kind, text=text, unrecognised=head.unrecognised)
        return Ability(kind=head.kind, text=text, trigger=head.trigger, conditions=head.conditions, cost=head.cost,
                       effects=(*head.effects, Effect("truncated", {"missing": rest})), keywords=head.keywords,
                       once_per_turn=head.once_per_turn)
    try:
        syntax = _PARSER.parse(text)
    except UnexpectedInput as exc:
        pos = getattr(exc, "pos_in_stream", None)
        if pos is None:
            pos = len(text)
        return Ability(kind=_kind_guess(text, card_type), text=text, unrecognised=_phrase(text, pos))
    try:
        return interpret(syntax, card_type, text, _compile_nested)
    except Unrecognised as exc:
        phrase = exc.phrase or _phrase(text, exc.start, exc.end)
        return Ability(kind=_kind_guess(text, card_type), text=text, unrecognised=phrase)


compile_ability_cached = lru_cache(maxsize=65536)(compile_ability)
compile_ability_cached.__doc__ = ":func:`compile_ability`, memoised by (text, card type)."


def _compile_nested(text: str, card_type: str) -> tuple[Ability, ...]:
    return tuple(compile_ability_cached(t, card_type) for t in split_abilities(normalise(text)))


def _kind_guess(text: str, card_type: str) -> str:
    if card_type == "climax":
        return "climax"
    for marker, kind in (("【カウンター】", "counter"), ("【自】", "auto"), ("【永】", "continuous"), ("【起】", "activated")):
        if text.startswith(marker) or text.startswith("【起】" + marker):
            return kind
    return "event" if card_type == "event" else "continuous"


def compile_text(text: str, card_type: str = "character") -> tuple[Ability, ...]:
    """A card's whole printed text (all abilities concatenated) → its compiled abilities.

    ``card_type``: ``character``, ``event`` or ``climax`` (text without a marker is an event's
    effect; a climax's abilities have kind ``climax``). Vanilla text → ``()``.
    """
    if is_vanilla_text(text):
        return ()
    card_type = (card_type or "character").lower()
    return tuple(compile_ability(t, card_type) for t in split_abilities(normalise(text)))


def compile_text_cached(text: str, card_type: str = "character") -> tuple[Ability, ...]:
    """:func:`compile_text` with each ability memoised by (text, card type): reprints, and the many
    cards sharing an ability (アンコール, 応援, the common climaxes), compile once."""
    if is_vanilla_text(text):
        return ()
    card_type = (card_type or "character").lower()
    return tuple(compile_ability_cached(t, card_type) for t in split_abilities(normalise(text)))


def clear_caches() -> None:
    """Forget every memoised ability (benchmarks start cold)."""
    compile_ability_cached.cache_clear()
