"""Folding of names and texts for search: what users don't type exactly still matches.

``fold`` applies, in order: Unicode NFKC (full-width ``ＡＰ＋３`` → ``AP+3``, half-width katakana →
full-width), case folding, katakana → hiragana, and removal of the separators names carry (middle
dots, slashes, Japanese brackets, quotation marks, spaces). The same function folds stored columns and queries, so
both sides always agree.
"""
from __future__ import annotations

import unicodedata

# Separators that names carry but users rarely type: dropped entirely.
_DROP = dict.fromkeys(
    map(ord, "・･·•／/「」『』〔〕【】〈〉《》（）()［］[]｛｝{}〜～ー－-‐―_ 　\t\n\r“”„‘’‚〝〟＂＇\"'"), None
)
# Long vowel mark ー is dropped above: ガーネット and ガネット fold alike only if the user omits it.
# Keep it instead: remove from the drop table.
del _DROP[ord("ー")]

_KATA_START, _KATA_END = 0x30A1, 0x30F6  # ァ .. ヶ
_KANA_SHIFT = 0x60


def _kata_to_hira(ch: str) -> str:
    o = ord(ch)
    if _KATA_START <= o <= _KATA_END:
        return chr(o - _KANA_SHIFT)
    return ch


def fold(text: str | None) -> str:
    """The search form of ``text``."""
    if not text:
        return ""
    s = unicodedata.normalize("NFKC", text).casefold()
    s = "".join(_kata_to_hira(ch) for ch in s)
    return s.translate(_DROP)


def fold_names(name: str, alt_names: object = ()) -> str:
    """``fold`` of a name and of each alternate name/reading, one per line (a folded query never holds
    a newline, so a match never spans two names). The stored ``Card.name_folded``."""
    names = [name, *(a for a in (alt_names or []) if isinstance(a, str))]  # type: ignore[union-attr]
    return "\n".join(dict.fromkeys(f for f in map(fold, names) if f))


def script_language(text: str | None) -> str:
    """The language a card's printed name/text is written in, judged by its script: ``"ja"`` (any
    kana), ``"ko"`` (any hangul), ``"en"`` (Latin letters and no CJK), else ``""`` (unknown: kanji
    alone do not tell Japanese from Chinese)."""
    kana = hangul = han = latin = 0
    for ch in text or "":
        o = ord(ch)
        if 0x3041 <= o <= 0x30FA or 0x31F0 <= o <= 0x31FF or 0xFF66 <= o <= 0xFF9D:
            kana += 1
        elif 0xAC00 <= o <= 0xD7A3 or 0x1100 <= o <= 0x11FF or 0x3131 <= o <= 0x318E:
            hangul += 1
        elif 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF:
            han += 1
        elif ch.isascii() and ch.isalpha():
            latin += 1
    if kana:
        return "ja"
    if hangul:
        return "ko"
    return "en" if latin and not han else ""
