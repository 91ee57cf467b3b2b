"""Weiß Schwarz HeartOfTheCards-style translation blocks (RCyberW/Weiss_Schwarz ``Data/*.txt``).

Blocks are separated by a line of ``=``; each holds a name line (Japanese, often followed by the
English name), ``CODE RARITY``, ``Key: value`` lines (Type, Level, Color, Cost, Trigger, Power,
Soul, ``Traits::`` as ``EN JP,_EN JP``), ``Card Text/Abilities:`` (English lines, then Japanese
lines) and ``Flavor Text:``. One block per rarity printing: blocks with the same code become one
card with several printings. A record number is the line its block starts on. A directory path
reads every ``*.txt`` in it.

The Japanese name, text and flavor are the card as printed (``name``, ``text``, ``flavor``); the
English ones go to ``translations["en"]`` (only the parts the block has; the English name is also
kept in ``alt_names``). Each text and flavor line is sorted by the language of its words
(``line_language``), not by its position or marker: a few blocks mix them (``【S】`` before a
Japanese line, ``【自】`` before an English one); such a line gets the marker of its language and
a warning says so.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rules import games as g

from . import ImportProblem, ImportRecord, register
from . import normalize as n
from .ws_jsonl import ws_files

SEPARATOR = re.compile(r"^={10,}\s*$", re.M)
_KEY = re.compile(r"^(?P<key>Type|Level|Color|Colour|Cost|Trigger|Power|Soul|Traits:?)\s*:\s*(?P<value>.*)$")
_CODE_LINE = re.compile(r"^(?:(?P<prefix>.+?)\s*&\s*)?(?P<code>[A-Za-z0-9]+/[A-Za-z]+\d*-[A-Za-z0-9]+)(?:\s+(?P<rarity>.+?))?\s*$")
_JP_START = ("【自】", "【永】", "【起】", "【カウンター】")
_EN_START = ("【A】", "【C】", "【S】", "【Counter】", "[A]", "[C]", "[S]")
# The same ability marker in the other language (a line whose marker and words disagree gets the
# marker of its words: ``【S】［(1)］ そのターン中…`` is a Japanese 【起】 line).
_MARKER_IN = {
    "ja": {"【A】": "【自】", "【C】": "【永】", "【S】": "【起】", "【Counter】": "【カウンター】",
           "[A]": "【自】", "[C]": "【永】", "[S]": "【起】"},
    "en": {"【自】": "【A】", "【永】": "【C】", "【起】": "【S】", "【カウンター】": "【Counter】"},
}
_LANGUAGE_NAMES = {"ja": "Japanese", "en": "English"}
# Spans written the same in both languages' lines (card names, traits, costs, granted abilities):
# left out when judging a text line's language.
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|《[^》]*》|［[^］]*］|\[[^\]]*\]")
# English name appended to the Japanese one: an ASCII run after the last non-ASCII character.
_EN_SUFFIX = re.compile(r"(?<=[^\x00-\x7f])\s*(?P<en>[\"'A-Za-z][\x20-\x7e]*)$")


def _letters(text: str) -> tuple[int, int]:
    """(Japanese score, English score): non-ASCII letters count twice (a kana or kanji carries about
    as much as two Latin letters of its translation)."""
    ja = sum(1 for c in text if c.isalpha() and not c.isascii())
    en = sum(1 for c in text if c.isascii() and c.isalpha())
    return 2 * ja, en


def _by_letters(text: str) -> str:
    ja, en = _letters(text)
    if max(ja, en) < 3:  # "……", "RH「98･･････": too few letters to tell
        return ""
    return "ja" if ja >= en else "en"


def _by_characters(text: str) -> str:
    chars = [c for c in text if not c.isspace()]
    return "ja" if chars and sum(1 for c in chars if not c.isascii()) * 2 > len(chars) else "en"


def split_marker(line: str) -> tuple[str, str]:
    """``'【A】 When…'`` → (``'【A】'``, ``' When…'``); no marker → (``''``, line)."""
    for marker in (*_JP_START, *_EN_START):
        if line.startswith(marker):
            return marker, line[len(marker):]
    return "", line


def line_language(line: str, flavor: bool = False) -> str:
    """``"ja"`` or ``"en"``: the language of one HOTC text or flavor line, judged by its words.

    Text lines leave out what both languages write alike (「names」, 《traits》, ［costs］,
    『granted abilities』); a line's ability marker decides unless the other language has at least
    twice its letters (``【C】 あなたのキャラすべてに…`` is Japanese, an English line with a Japanese
    half glued on stays English). A line with too few letters goes by its characters (``……`` is
    Japanese, ``...`` English)."""
    s = line.strip()
    if flavor:
        return _by_letters(s) or _by_characters(s)
    marker, rest = split_marker(s)
    own = "ja" if marker in _JP_START else "en" if marker else ""
    body = _QUOTED.sub("", rest)
    ja, en = _letters(body)
    if own and max(ja, en) >= 3:
        other, mine = (en, ja) if own == "ja" else (ja, en)
        return own if other < 2 * mine or other < 3 else ("en" if own == "ja" else "ja")
    return _by_letters(body) or _by_letters(rest) or own or _by_characters(rest)


def in_language(line: str, language: str) -> tuple[str, str | None]:
    """The line with its ability marker in ``language`` (and the marker it had, when swapped)."""
    s = line.strip()
    marker, rest = split_marker(s)
    swapped = _MARKER_IN[language].get(marker)
    return (swapped + rest, marker) if swapped else (s, None)


def split_name(line: str) -> tuple[str, str]:
    """``'皆を見送る役目 かなでSending Everyone Off, Kanade'`` → (JP, EN); a Latin-letter name written
    twice, ``'New LifeNew Life'``, is the printed name and its English one (``ペンペン`` is a name)."""
    line = line.strip()
    half = len(line) // 2
    if len(line) % 2 == 0 and line.isascii() and half > 1 and line[:half] == line[half:]:
        # A card printed with a Latin-letter name: HOTC writes it twice ("I WantI Want").
        return line[:half].strip(), line[:half].strip()
    m = _EN_SUFFIX.search(line)
    if m and any(c.isalpha() and c.islower() for c in m["en"]) and (" " in m["en"] or len(m["en"]) > 3):
        return line[: m.start()].strip(), m["en"].strip()
    return line, ""


def parse_block(block: str) -> tuple[dict[str, Any] | None, list[ImportProblem], dict[str, Any]]:
    """One block → (card, problems, printing)."""
    problems: list[ImportProblem] = []
    lines = block.strip("\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    if len(lines) < 2:
        return None, [ImportProblem("block", "block has no name and code lines")], {}
    m = _CODE_LINE.match(n.nfkc(lines[1]))
    if not m:
        return None, [ImportProblem("code", f"second line {lines[1].strip()[:80]!r} is not 'CODE RARITY'")], {}
    code, _ = n.ws_code(m["code"])
    if m["prefix"]:
        problems.append(ImportProblem("code", f"crossover prefix {m['prefix'].strip()!r} before the code {code!r} dropped"))
    rarity_parts = (m["rarity"] or "").split()
    rarity = rarity_parts[0] if rarity_parts else ""
    if len(rarity_parts) > 1:
        problems.append(ImportProblem("rarity", f"rarity {m['rarity']!r} read as {rarity!r}"))
    if not rarity:
        problems.append(ImportProblem("rarity", "no rarity after the code"))
    set_code, number = n.ws_code_parts(code)

    jp_name, en_name = split_name(lines[0])  # before NFKC: full-width signs tell JP from EN
    en_name = n.nfkc(en_name)
    name, marker = n.ws_name(jp_name)
    if marker:
        problems.append(ImportProblem("name", f"printing marker {marker!r} removed from the name"))
    values: dict[str, str] = {}
    text_lines: list[str] = []
    flavor_lines: list[str] = []
    section = "keys"
    for raw in lines[2:]:
        line = raw.rstrip()
        if line.startswith("Card Text/Abilities:"):
            section = "text"
            continue
        if line.startswith("Flavor Text:"):
            section = "flavor"
            rest = line[len("Flavor Text:"):].strip()
            if rest:
                flavor_lines.append(rest)
            continue
        if section == "keys":
            km = _KEY.match(line.strip())
            if km:
                values[km["key"].rstrip(":").lower()] = km["value"].strip()
            elif line.strip():
                problems.append(ImportProblem("block", f"unexpected line {line.strip()[:60]!r} ignored"))
        elif section == "text":
            text_lines.append(line)
        else:
            flavor_lines.append(line)

    raw_type = values.get("type", "")
    card_type = n.enum_value(raw_type)
    if card_type not in g.CARD_TYPES[g.WS]:
        return None, problems + [ImportProblem("card_type", f"unknown type {raw_type!r}")], {}
    colour = n.enum_value(values.get("color") or values.get("colour"))
    colors = [colour] if colour in g.WS_COLORS else []
    if not colors:
        problems.append(ImportProblem("colors", f"{colour!r} is not a WS colour; colour left empty"))
    traits: list[str] = []
    for part in re.split(r",_?", values.get("traits", "")):
        part = n.nfkc(part)
        if not part:
            continue
        jp = " ".join(tok for tok in part.split() if any(ord(c) > 0x7F for c in tok))
        traits.append(jp or part)
    triggers, trig_problems = n.hotc_triggers(values.get("trigger", ""))
    problems += trig_problems
    if not values.get("trigger", "").strip() and card_type != "event":
        problems.append(ImportProblem("triggers", "trigger left blank; read as no trigger"))
    texts: dict[str, list[str]] = {"ja": [], "en": []}
    for ln in text_lines:
        if not ln.strip():
            continue
        lang = line_language(ln)
        line, swapped = in_language(ln, lang)
        if swapped:
            problems.append(ImportProblem(
                "text", f"marker {swapped} before a line in {_LANGUAGE_NAMES[lang]} read as {_MARKER_IN[lang][swapped]}"))
        texts[lang].append(line)
    flavors: dict[str, list[str]] = {"ja": [], "en": []}
    for ln in flavor_lines:
        if ln.strip():
            flavors[line_language(ln, flavor=True)].append(ln)
    text = n.nfkc("\n".join(texts["ja"]))
    flavor = n.nfkc("\n".join(flavors["ja"]))
    english = {"name": en_name, "text": n.nfkc("\n".join(texts["en"])), "flavor": n.nfkc("\n".join(flavors["en"]))}
    english = {k: v for k, v in english.items() if v}
    card: dict[str, Any] = {
        "game": g.WS,
        "code": code,
        "name": name,
        "alt_names": [en_name] if en_name and en_name != name else [],
        "card_type": card_type,
        "colors": colors,
        "rarity": rarity,
        "set_code": set_code,
        "number": number,
        "traits": list(dict.fromkeys(traits)),
        "text": text,
        "flavor": flavor,
        "translations": {"en": english} if english else {},
        "triggers": triggers,
        "counter": n.ws_counter(text),
    }
    if card_type == "climax":
        effects, modelled = n.ws_climax_bonus(text)
        card["effects"] = effects
        card["text_modelled"] = modelled
    else:
        for key in ("level", "cost") + (("power", "soul") if card_type == "character" else ()):
            value = n.as_int(values.get(key))
            if value is None:
                problems.append(ImportProblem(key, f"{key} {values.get(key)!r} is not a number"))
            card[key] = value
    return card, problems, {"code": code, "rarity": rarity, "image_url": ""}


# Fields that may differ between the printings of one card without being an anomaly.
_PRINTING_FIELDS = {"rarity", "flavor", "alt_names", "translations"}


class WsHotc:
    name = "ws-hotc"
    description = "Weiß Schwarz HOTC-style translation blocks (RCyberW Data/*.txt); a directory reads all *.txt"
    merge_default = True  # a second source merges into the first (import_cards --merge)

    def detect(self, path: Path, head: bytes) -> bool:
        text = head.decode("utf-8", "ignore")
        return bool(SEPARATOR.search(text)) and "Traits::" in text and "Card Text/Abilities:" in text

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        return n.warnings_on_cards(self._read(path, game))

    def _read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        for file in ws_files(path, ".txt"):
            text = file.read_text(encoding="utf-8-sig")
            # Group the rarity printings of one code; a card is yielded at its first block.
            cards: dict[str, ImportRecord] = {}
            order: list[ImportRecord] = []
            for block_no, block in _blocks(text):
                card, problems, printing = parse_block(block)
                if card is None:
                    order.append(ImportRecord(block_no, None, problems, source=file.name))
                    continue
                first = cards.get(card["code"])
                if first is None:
                    rec = ImportRecord(block_no, card, problems, [printing], source=file.name)
                    cards[card["code"]] = rec
                    order.append(rec)
                    continue
                if printing not in first.printings:
                    first.printings.append(printing)
                for key, value in card.items():
                    if key in _PRINTING_FIELDS or first.card.get(key) == value:
                        continue
                    first.problems.append(ImportProblem(
                        key, f"printing {card['code']} {card['rarity']} (line {block_no}) has {key} {value!r}, "
                        f"line {first.number} has {first.card.get(key)!r}; kept the first"))
                for p in problems:
                    if p not in first.problems:
                        first.problems.append(p)
            _flag_truncated(order)
            yield from order


def _blocks(text: str) -> Iterator[tuple[int, str]]:
    """(line number of the block's first non-blank line, block text) for every non-empty block."""
    start = 0
    for m in [*SEPARATOR.finditer(text), None]:
        end = m.start() if m else len(text)
        block = text[start:end]
        if block.strip():
            lead = len(block) - len(block.lstrip("\n\r \t"))
            yield text.count("\n", 0, start + lead) + 1, block
        start = m.end() if m else len(text)


def _flag_truncated(records: list[ImportRecord]) -> None:
    """Flag codes whose number has fewer digits than most numbers of the same set (``DC/W01-01``)."""
    widths: dict[str, Counter[int]] = {}
    for rec in records:
        if rec.card and rec.card["number"].isdigit():
            widths.setdefault(rec.card["set_code"], Counter())[len(rec.card["number"])] += 1
    for rec in records:
        if not rec.card or not rec.card["number"].isdigit():
            continue
        usual = widths[rec.card["set_code"]].most_common(1)[0][0]
        if len(rec.card["number"]) < usual:
            rec.problems.append(ImportProblem(
                "code", f"code {rec.card['code']!r} looks truncated (numbers in {rec.card['set_code']} have {usual} digits)"))


register(WsHotc())
