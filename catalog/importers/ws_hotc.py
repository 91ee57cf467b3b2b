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


_CJK_BRACKETS = frozenset("「」『』【】")


def _japanese(ch: str) -> bool:
    """A character only a Japanese name is written with: kana, kanji, CJK punctuation, full-width
    letters and digits. Full-width punctuation (``！？＆（）``) is not: HOTC's English names use it too
    (``“Speed Challenge！”Koutarou``)."""
    o = ord(ch)
    if ch in _CJK_BRACKETS:  # 「name」 and 『title』 are quoted alike in the English name
        return False
    return (0x3000 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF
            or 0x31F0 <= o <= 0x31FF or 0xFF10 <= o <= 0xFF19 or 0xFF21 <= o <= 0xFF3A or 0xFF41 <= o <= 0xFF5A
            or 0xFF66 <= o <= 0xFF9F)


# A closing bracket after the last Japanese character closes a bracket the Japanese part opened.
_CLOSERS = {")": "(", "）": "（", "”": "“", "]": "[", "」": "「", "』": "『", "’": "‘"}
# ``陽気なダンサーTKCheerful Dancer, TK``: a capitals run glued to the English name that the English
# name repeats is the end of the Japanese one.
_GLUED_CAPS = re.compile(r"^(?P<own>[A-Z0-9]{2,})(?=[A-Z][a-z])")
_OPENERS = "\"'“‘(（[「『【"
# A one-word English name: a capitalised word (``Hypnotism``, ``Yuu``, ``Fuji-Master``, ``Cheerio!``),
# not a Latin-letter word a Japanese name ends with (``才能の集合 Genius4``, ``トランス系アイドルKoKoRo``).
_ONE_WORD = re.compile(r"^[\W_]*[A-Z][a-zà-ÿæœ']+(?:[-,.]+[A-Za-zà-ÿæœ']+)*[\W_]*$")


def split_name(line: str) -> tuple[str, str]:
    """``'皆を見送る役目 かなでSending Everyone Off, Kanade'`` → (JP, EN).

    The English name starts after the last Japanese character (``_japanese``): closing brackets the
    Japanese part opened and symbols such as ``♪`` stay with it, and so does a capitals run the English
    name repeats (``陽気なダンサーTK`` + ``Cheerful Dancer, TK``). The English part holds non-ASCII
    letters and signs too (``Black★Rock Shooter``, ``VB-6 König Monster``, ``“Angel”``). A Latin-letter
    name written twice, ``'New LifeNew Life'``, is the printed name and its English one (``ペンペン``
    is a name)."""
    line = line.strip()
    twice = line.replace("\\'", "'")
    half = len(twice) // 2
    if not any(c.isalpha() and not c.isascii() for c in twice):
        # A card printed with a Latin-letter name: HOTC writes it twice ("I WantI Want", "I Want I Want",
        # "L･O･B･ML･O･B･M").
        if len(twice) % 2 == 0 and half > 1 and twice[:half] == twice[half:]:
            return twice[:half].strip(), twice[:half].strip()
        if len(twice) % 2 == 1 and half > 1 and twice[half] == " " and twice[:half] == twice[half + 1:]:
            return twice[:half].strip(), twice[:half].strip()
    last = max((i for i, c in enumerate(line) if _japanese(c)), default=-1)
    if last < 0:
        return line, ""
    head, tail = line[: last + 1], line[last + 1:]
    while tail and (
        (tail[0] in _CLOSERS and head.count(_CLOSERS[tail[0]]) > head.count(tail[0]))
        or not (tail[0].isalnum() or tail[0].isspace() or tail[0] in _OPENERS)
    ):
        head, tail = head + tail[0], tail[1:]
    m = _GLUED_CAPS.match(tail)
    if m and re.search(r"\b" + re.escape(m["own"]) + r"\b", tail[m.end():]):
        head, tail = head + m["own"], tail[m.end():]
    english = tail.strip()
    letters = [c for c in english if c.isalpha()]
    if len(letters) < 3 or not any(c.islower() for c in letters):
        return line, ""
    if " " not in english and not _ONE_WORD.match(english):
        return line, ""
    return head.strip(), english


def strip_number(name: str, number: str) -> tuple[str, str]:
    """``'44オートマグ096'`` (PT/W07-096) → (``'44オートマグ'``, ``'096'``): the card number glued on the
    name (the files of PT/W07 and LB/W02 do it for most cards). A glued number that is not the
    card's own (``“犬まみれ”佐々美114`` for LB/W02-121) is cut too; the caller reports it."""
    own = re.search(r"\s*" + re.escape(number) + r"$", name) if number else None
    m = own or re.search(r"(?<=[^\d\s(（])\s?(?:[A-Z]\d{2,3}|\d{3})$", name)
    if m and m.start() > 0:
        return name[: m.start()].rstrip(), m.group(0).strip()
    return name, ""


def numbered_names(blocks: list[str]) -> bool:
    """True when the name lines of a file carry the card number (a quarter of them or more end with
    their own number): then every name line is read without it (``strip_number``)."""
    own = 0
    for block in blocks:
        lines = [ln for ln in block.strip("\n").split("\n") if ln.strip()]
        if len(lines) < 2:
            continue
        m = _CODE_LINE.match(n.nfkc(lines[1]))
        number = n.ws_code_parts(n.ws_code(m["code"])[0])[1] if m else ""
        if number and n.nfkc(lines[0]).endswith(number):
            own += 1
    return own >= 10 and own * 4 >= len(blocks)


def parse_block(block: str, numbered: bool = False) -> tuple[dict[str, Any] | None, list[ImportProblem], dict[str, Any]]:
    """One block → (card, problems, printing). ``numbered``: the file glues the card number on the
    name line (``numbered_names``)."""
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

    name_line = lines[0].strip()
    if numbered:
        name_line, glued = strip_number(name_line, number)
        if glued and glued != number:
            problems.append(ImportProblem("name", f"number {glued!r} glued on the name (the card is {code}) removed"))
    jp_name, en_name = split_name(name_line)  # before NFKC: full-width signs tell JP from EN
    en_name = n.nfkc(en_name)
    name, marker = n.ws_name(jp_name)
    if marker:
        problems.append(ImportProblem("name", f"printing marker '({marker})' removed from the name; kept on the printing"))
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
        reminder = n.ws_reminder_conflict(card_type, triggers, text)
        if reminder:
            problems.append(ImportProblem(
                "triggers", f"trigger icons {triggers} disagree with the reminder text (which describes {reminder!r})"))
    else:
        for key in ("level", "cost") + (("power", "soul") if card_type == "character" else ()):
            value = n.as_int(values.get(key))
            if value is None:
                problems.append(ImportProblem(key, f"{key} {values.get(key)!r} is not a number"))
            card[key] = value
    printing = {"code": code, "rarity": rarity, "image_url": ""}
    if marker:
        printing["marker"] = marker
    return card, problems, printing


# Fields that may differ between the printings of one card without being an anomaly.
_PRINTING_FIELDS = {"rarity", "flavor", "alt_names", "translations"}
# Fields read from the text: they follow it.
_DERIVED = {"counter", "effects", "text_modelled"}
_EMPTY = (None, "", [], {})


class WsHotc:
    name = "ws-hotc"
    description = "Weiß Schwarz HOTC-style translation blocks (RCyberW Data/*.txt); a directory reads all *.txt"
    merge_default = True  # a second source merges into the first (import_cards --merge)
    repair_names = True  # names cut short in one source repaired from the other printings

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
            blocks = list(_blocks(text))
            numbered = numbered_names([b for _, b in blocks])
            for block_no, block in blocks:
                card, problems, printing = parse_block(block, numbered)
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
                    if key in _PRINTING_FIELDS or key in _DERIVED or first.card.get(key) == value:
                        continue
                    if first.card.get(key) in _EMPTY:
                        # MB/S10-054: the first block has only the English lines, the second the Japanese
                        first.card[key] = value
                        if key == "text":
                            first.card.update({k: card[k] for k in _DERIVED if k in card})
                        first.problems.append(ImportProblem(
                            key, f"{key} taken from printing {card['code']} {card['rarity']} (line {block_no}): "
                            f"the first block (line {first.number}) has none"))
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
