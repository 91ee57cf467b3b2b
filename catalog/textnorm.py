"""Folding of names and texts for search: what users don't type exactly still matches.

``fold`` applies, in order: Unicode NFKC (full-width ``ＡＰ＋３`` → ``AP+3``, half-width katakana →
full-width), case folding, then one translation table: katakana → hiragana, the Simplified,
Traditional and Japanese forms of a kanji → one form (``結弦``, ``结弦`` → ``结弦``; ``沢``, ``澤``,
``泽`` → ``泽``), and removal of the separators names carry (middle dots, slashes, Japanese brackets,
quotation marks, spaces). The same function folds stored columns and queries, so both sides
always agree.

The kanji table is not written by hand: it is built once per process from OpenCC's own dictionaries
(the ``opencc`` package: ``jp2t`` then ``t2s``, character by character, so a character folds the
same wherever it stands and a substring of a folded name is the fold of the substring).
``fold_code`` is the search form of a card code (``ab-w11-002`` and ``ABW11-002`` → ``ABW11002``).
"""
from __future__ import annotations

import unicodedata
from functools import cache

# Separators that names carry but users rarely type: dropped entirely.
_DROP = dict.fromkeys(
    map(ord, "・･·•／/「」『』〔〕【】〈〉《》（）()［］[]｛｝{}〜～ー－-‐―_ 　\t\n\r“”„‘’‚〝〟＂＇\"'"), None
)
# Long vowel mark ー is dropped above: ガーネット and ガネット fold alike only if the user omits it.
# Keep it instead: remove from the drop table.
del _DROP[ord("ー")]

_KATA_START, _KATA_END = 0x30A1, 0x30F6  # ァ .. ヶ
_KANA_SHIFT = 0x60
# Where kanji live: CJK Unified Ideographs, Extension A, and the compatibility block (NFKC maps
# most of those already). Extensions B and later are left as they are.
_HAN_RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))


def _opencc_han_table() -> dict[int, str]:
    """Each kanji → its Simplified form through a Traditional one: OpenCC's ``jp2t`` (Japanese
    shinjitai → Traditional) then ``t2s`` (Traditional → Simplified), one character at a time
    (one character per line: no phrase of OpenCC's dictionaries spans two). Only characters
    that change and stay one character."""
    import opencc

    chars = [chr(o) for lo, hi in _HAN_RANGES for o in range(lo, hi + 1)]
    text = "\n".join(chars)
    out = opencc.OpenCC("t2s.json").convert(opencc.OpenCC("jp2t.json").convert(text)).split("\n")
    if len(out) != len(chars):  # pragma: no cover - a dictionary line that swallowed a newline
        raise RuntimeError("OpenCC changed the number of lines; cannot build the kanji table")
    return {ord(c): f for c, f in zip(chars, out, strict=True) if f != c and len(f) == 1}


@cache
def fold_table() -> dict[int, str | None]:
    """The one translation table ``fold`` applies after NFKC and case folding."""
    table: dict[int, str | None] = dict(_opencc_han_table())
    table.update({o: chr(o - _KANA_SHIFT) for o in range(_KATA_START, _KATA_END + 1)})
    table.update(_DROP)
    return table


def fold(text: str | None) -> str:
    """The search form of ``text``."""
    if not text:
        return ""
    return unicodedata.normalize("NFKC", text).casefold().translate(fold_table())


def fold_code(code: str | None) -> str:
    """The search form of a card code: NFKC, upper case, letters and digits only (the set's slash,
    hyphens, dots and spaces dropped), so ``ab-w11-002``, ``AB/W11-002`` and ``ABW11-002`` agree."""
    if not code:
        return ""
    return "".join(ch for ch in unicodedata.normalize("NFKC", code).upper() if ch.isalnum())


def fold_names(name: str, alt_names: object = ()) -> str:
    """``fold`` of a name and of each alternate name/reading, one per line (a folded query never holds
    a newline, so a match never spans two names). The stored ``Card.name_folded``."""
    names = [name, *(a for a in (alt_names or []) if isinstance(a, str))]  # type: ignore[union-attr]
    return "\n".join(dict.fromkeys(f for f in map(fold, names) if f))


def fold_card(*, code: str, name: str, alt_names: object = (), text: str = "",
              translations: object = None) -> tuple[str, str, str]:
    """The stored search columns of a card: ``(name_folded, text_folded, code_folded)``. Names are
    the name, the alternate names/readings and the translated names; texts the text and the
    translated texts (``Card.fold_fields`` and the data migrations that refold existing rows)."""
    other = [t for t in (translations or {}).values() if isinstance(t, dict)]  # type: ignore[union-attr]
    names = [*(alt_names or []), *(t.get("name") for t in other)]  # type: ignore[union-attr]
    name_folded = fold_names(name, [n for n in names if isinstance(n, str)])
    texts = [text, *(t.get("text") for t in other)]
    text_folded = "\n".join(f for f in (fold(x) for x in texts if isinstance(x, str)) if f)
    return name_folded, text_folded, fold_code(code)[:64]


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
