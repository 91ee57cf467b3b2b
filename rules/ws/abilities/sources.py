"""Readers for the two real Weiß Schwarz sources, straight from the files (no database).

``alphac2_cards(root)``: the AlphaC2 JSONL files (``alphac2_jp/*.jsonl``), one :class:`SourceCard`
per record, text = the ``Ability`` field. ``hotc_cards(root)``: the HOTC translation blocks
(``rcyberw_hotc_en_jp/*.txt``), one card per code (the first printing of a code; the other
rarities repeat its text), text = the Japanese lines of ``Card Text/Abilities:`` and ``english`` =
the English ones (a cross-check only: the Japanese text is what compiles). A line's language is
judged by its letters outside 「names」, 《traits》, ［costs］ and 『granted abilities』.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_TYPES = {"CHARACTER": "character", "CLIMAX": "climax", "EVENT": "event"}
_SEPARATOR = re.compile(r"^={10,}\s*$", re.M)
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|《[^》]*》|≪[^≫]*≫|［[^］]*］|\[[^\]]*\]")
_CODE = re.compile(r"^\s*(?:.+?&\s*)?(?P<code>[A-Za-z0-9]+/[A-Za-z]+\d*-[A-Za-z0-9]+)")
_TYPE = re.compile(r"^Type:\s*(?P<type>\w+)", re.M)


@dataclass(frozen=True, slots=True)
class SourceCard:
    source: str  # "alphac2" or "hotc"
    code: str
    card_type: str  # character / climax / event
    text: str
    english: str = ""


def card_type(value: str) -> str:
    return _TYPES.get(value.strip().upper(), value.strip().lower())


def alphac2_cards(root: Path) -> Iterator[SourceCard]:
    """Every record of ``root/alphac2_jp/*.jsonl`` (codes as the source writes them, ``AB-W11-001``)."""
    for path in sorted((root / "alphac2_jp").glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                data = json.loads(line)
                yield SourceCard("alphac2", str(data.get("ID", "")), card_type(str(data.get("Type", ""))),
                                 str(data.get("Ability") or ""))


def is_japanese_line(line: str) -> bool:
    """A HOTC text line is Japanese when its kana/kanji outweigh (x2) its Latin letters."""
    body = _QUOTED.sub("", line)
    ja = sum(1 for c in body if c.isalpha() and not c.isascii())
    en = sum(1 for c in body if c.isalpha() and c.isascii())
    return ja > 0 and 2 * ja >= en


def parse_hotc_block(block: str) -> SourceCard | None:
    lines = block.strip("\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    if len(lines) < 2 or "Card Text/Abilities:" not in block:
        return None
    m = _CODE.match(lines[1])
    t = _TYPE.search(block)
    if not m or not t:
        return None
    section = block.split("Card Text/Abilities:", 1)[1].split("Flavor Text:", 1)[0]
    ja: list[str] = []
    en: list[str] = []
    for raw in section.split("\n"):
        line = raw.strip()
        if line:
            (ja if is_japanese_line(line) else en).append(line)
    return SourceCard("hotc", m["code"], card_type(t["type"]), "\n".join(ja), "\n".join(en))


def hotc_cards(root: Path) -> Iterator[SourceCard]:
    """One card per code of ``root/rcyberw_hotc_en_jp/*.txt`` (its first printing)."""
    seen: set[str] = set()
    for path in sorted((root / "rcyberw_hotc_en_jp").glob("*.txt")):
        for block in _SEPARATOR.split(path.read_text(encoding="utf-8")):
            card = parse_hotc_block(block)
            if card is not None and card.code not in seen:
                seen.add(card.code)
                yield card


def all_cards(root: Path) -> Iterator[SourceCard]:
    yield from alphac2_cards(root)
    yield from hotc_cards(root)
