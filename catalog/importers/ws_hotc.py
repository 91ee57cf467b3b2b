"""Weiß Schwarz HeartOfTheCards-style translation blocks (RCyberW/Weiss_Schwarz ``Data/*.txt``).

Blocks are separated by a line of ``=``; each holds a name line (Japanese, often followed by the
English name), ``CODE RARITY``, ``Key: value`` lines (Type, Level, Color, Cost, Trigger, Power,
Soul, ``Traits::`` as ``EN JP,_EN JP``), ``Card Text/Abilities:`` (English lines, then Japanese
lines) and ``Flavor Text:``. One block per rarity printing: blocks with the same code become one
card with several printings. A record number is the line its block starts on. A directory path
reads every ``*.txt`` in it.
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
# English name appended to the Japanese one: an ASCII run after the last non-ASCII character.
_EN_SUFFIX = re.compile(r"(?<=[^\x00-\x7f])\s*(?P<en>[\"'A-Za-z][\x20-\x7e]*)$")


def is_japanese(line: str) -> bool:
    """A Japanese text line (HOTC blocks hold the English translation first, then the Japanese)."""
    s = line.strip()
    if s.startswith(_EN_START):
        return False
    for marker in _JP_START:  # some English lines start with a Japanese marker: judge the rest
        if s.startswith(marker):
            s = s[len(marker):]
            break
    chars = [c for c in s if not c.isspace() and c not in "「」『』"]
    if not chars:
        return line.strip().startswith(_JP_START)
    if not chars:
        return False
    return sum(1 for c in chars if ord(c) > 0x7F) / len(chars) > 0.5


def split_name(line: str) -> tuple[str, str]:
    """``'皆を見送る役目 かなでSending Everyone Off, Kanade'`` → (JP, EN)."""
    line = line.strip()
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
    text = n.nfkc("\n".join(ln for ln in text_lines if is_japanese(ln)))
    flavor = n.nfkc("\n".join(ln for ln in flavor_lines if is_japanese(ln)))
    card: dict[str, Any] = {
        "game": g.WS,
        "code": code,
        "name": name,
        "alt_names": [en_name] if en_name else [],
        "card_type": card_type,
        "colors": colors,
        "rarity": rarity,
        "set_code": set_code,
        "number": number,
        "traits": list(dict.fromkeys(traits)),
        "text": text,
        "flavor": flavor,
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
_PRINTING_FIELDS = {"rarity", "flavor", "alt_names"}


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
