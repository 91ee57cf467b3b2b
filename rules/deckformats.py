"""Parsers for the real deck formats players exchange (pure Python), → zones of code counts.

- ``code-rarity``: one physical card per line, ``CODE RARITY`` (RCyberW ``Deck/*``), e.g.
  ``RW/W15-004 R`` repeated once per copy; the rarity names the printing.
- ``ws-xml``: AlphaC2 ``<deck><DeckData>…</DeckData><Card><Desc/><ID/><Quantity/></Card>…</deck>``;
  IDs use ``-`` for ``/`` (``AB-W11-008``); the ``<DeckData>`` totals are cross-checked.
- ``chaos-textproto``: protobuf text with one ``mainDeck { id info { serial … } }`` /
  ``extraDeck { … }`` block per physical card.

Each parser returns an :class:`ImportedDeck`: ``zones`` = ``{zone: {code: count}}`` ready for
``rules.construction.validate_deck``, ``errors`` in the ``LineError.as_dict()`` shape (never raises
for bad content), ``notes`` for oddities that do not make the deck unreadable, and the printings
(code, rarity) seen. :func:`resolve_codes` maps printed codes to catalog card codes.
"""
from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import games as g
from .textproto import TextprotoError, parse_textproto

MAX_LINES = 5000
FORMATS = ("code-rarity", "ws-xml", "chaos-textproto")

_WS_DASH_CODE = re.compile(r"^([A-Za-z0-9]+)-([A-Za-z]+[0-9]*)-([A-Za-z0-9]+)$")
_WS_CODE = re.compile(r"^[A-Za-z0-9]+/[A-Za-z]+[0-9]*-[A-Za-z0-9]+$")
_CODE_RARITY = re.compile(r"^(?P<code>\S+)(?:\s+(?P<rarity>\S+(?:\s+\S+)*))?$")


def official_ws_code(raw: str) -> str:
    """``AB-W11-001`` → ``AB/W11-001`` (codes already official, or of other games, unchanged)."""
    code = unicodedata.normalize("NFKC", raw).strip()
    m = _WS_DASH_CODE.match(code)
    if m and not _WS_CODE.match(code):
        return f"{m[1]}/{m[2]}-{m[3]}".upper()
    return code


@dataclass
class ImportedDeck:
    game: str
    format: str
    zones: dict[str, dict[str, int]] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    printings: dict[str, list[str]] = field(default_factory=dict)  # code → rarities seen
    partner: str | None = None

    def add(self, zone: str, code: str, count: int = 1, rarity: str = "") -> None:
        z = self.zones.setdefault(zone, {})
        z[code] = z.get(code, 0) + count
        if rarity and rarity not in self.printings.setdefault(code, []):
            self.printings[code].append(rarity)
        elif not rarity:
            self.printings.setdefault(code, [])

    def total(self, zone: str = "main") -> int:
        return sum(self.zones.get(zone, {}).values())

    def error(self, line: int, message: str, text: str = "") -> None:
        self.errors.append({"code": "parse_error", "line": line, "message": message, "text": text[:200]})


def parse_code_rarity(text: str, game: str = g.WS) -> ImportedDeck:
    """``CODE RARITY`` per physical card; blank lines and ``#``/``//`` comments are skipped."""
    deck = ImportedDeck(game=game, format="code-rarity")
    lines = text.lstrip("\ufeff").splitlines()
    if len(lines) > MAX_LINES:
        deck.error(MAX_LINES + 1, f"deck has {len(lines)} lines; at most {MAX_LINES} are read")
        return deck
    for number, raw in enumerate(lines, start=1):
        line = unicodedata.normalize("NFKC", raw).strip()
        if not line or line.startswith(("#", "//")):
            continue
        m = _CODE_RARITY.match(line)
        code = official_ws_code(m["code"]) if m else ""
        if not m or ("/" not in code and "-" not in code):
            deck.error(number, "expected 'CODE RARITY' (e.g. 'RW/W15-004 R')", raw)
            continue
        rarity = (m["rarity"] or "").split()
        if len(rarity) > 1:
            deck.notes.append(f"line {number}: rarity {m['rarity']!r} read as {rarity[0]!r}")
        deck.add("main", code, 1, rarity[0] if rarity else "")
    return deck


def parse_ws_xml_deck(text: str) -> ImportedDeck:
    """An AlphaC2 ``<deck>`` XML (Weiß Schwarz) into the main deck."""
    deck = ImportedDeck(game=g.WS, format="ws-xml")
    try:
        root = ET.fromstring(text.lstrip("\ufeff").encode("utf-8"))
    except ET.ParseError as exc:
        line, column = exc.position
        deck.error(line, f"not well-formed XML at line {line}, column {column + 1}")
        return deck
    if root.tag.lower() != "deck":
        deck.error(1, f"root element <{root.tag}>, expected <deck>")
        return deck
    _read_xml_cards(deck, root)
    _check_declared_totals(deck, root)
    return deck


def _read_xml_cards(deck: ImportedDeck, root: ET.Element) -> None:
    """Each ``<Card><ID/><Quantity/></Card>`` into the main deck; bad rows become errors."""
    seen: dict[str, int] = {}
    for index, card in enumerate(root.iter("Card"), start=1):
        raw_id = (card.findtext("ID") or "").strip()
        raw_qty = (card.findtext("Quantity") or "").strip()
        if not raw_id:
            deck.error(index, f"<Card> #{index} has no <ID>")
            continue
        if not raw_qty.isdigit() or int(raw_qty) < 1:
            deck.error(index, f"<Card> #{index} ({raw_id}): quantity {raw_qty!r} is not a positive number")
            continue
        code = official_ws_code(raw_id)
        if code in seen:
            deck.notes.append(f"{code} is listed twice (<Card> #{seen[code]} and #{index}); quantities added")
        else:
            seen[code] = index
        deck.add("main", code, int(raw_qty))


def _check_declared_totals(deck: ImportedDeck, root: ET.Element) -> None:
    """A note when the ``<DeckData>`` level/climax totals disagree with the ``<Card>`` rows."""
    data = root.find("DeckData")
    if data is None:
        return
    declared = sum(int(el.text) for el in data if el.tag in ("LVL0", "LVL1", "LVL2", "LVL3", "C")
                   and (el.text or "").strip().isdigit())
    if declared and declared != deck.total():
        deck.notes.append(f"<DeckData> totals say {declared} cards; the <Card> rows hold {deck.total()}")


def parse_chaos_deck(text: str) -> ImportedDeck:
    deck = ImportedDeck(game=g.CHAOS, format="chaos-textproto")
    try:
        message = parse_textproto(text)
    except TextprotoError as exc:
        deck.error(exc.line or 1, str(exc))
        return deck
    zones = {"mainDeck": "main", "extraDeck": "extra", "main_deck": "main", "extra_deck": "extra"}
    for key, zone in zones.items():
        for index, entry in enumerate(message.all(key), start=1):
            info = entry.first("info") if isinstance(entry, dict) else None
            serial = info.first("serial") if isinstance(info, dict) else None
            if not serial:
                deck.error(index, f"{key} entry #{index} has no info.serial")
                continue
            deck.add(zone, unicodedata.normalize("NFKC", str(serial)).strip().upper())
    for key in ("partner", "partnerCard"):
        entry = message.first(key)
        info = entry.first("info") if isinstance(entry, dict) else None
        if isinstance(info, dict) and info.first("serial"):
            deck.partner = str(info.first("serial"))
    unknown = set(message) - set(zones) - {"partner", "partnerCard", "name", "id"}
    if unknown:
        deck.notes.append(f"fields not read: {', '.join(sorted(unknown))}")
    if not deck.zones and not deck.errors:
        deck.error(1, "no mainDeck { ... } entries")
    return deck


def detect_deck_format(text: str) -> str | None:
    head = text.lstrip("\ufeff \n\r\t")[:4000]
    if head.startswith("<") and re.search(r"<deck[\s>]", head):
        return "ws-xml"
    if re.search(r"^\s*(mainDeck|extraDeck)\s*\{", head, re.M):
        return "chaos-textproto"
    lines = [ln.strip() for ln in head.splitlines() if ln.strip() and not ln.startswith(("#", "//"))]
    if lines and all(re.match(r"^[A-Za-z0-9]+[/-][A-Za-z0-9]+-[A-Za-z0-9]+(\s+\S+)*$", ln) for ln in lines[:20]):
        return "code-rarity"
    return None


def parse_deck(text: str, fmt: str | None = None, game: str = g.WS) -> ImportedDeck:
    """Parse ``text`` in ``fmt`` (or the detected format); an unknown format is a parse error."""
    fmt = fmt or detect_deck_format(text)
    if fmt == "code-rarity":
        return parse_code_rarity(text, game)
    if fmt == "ws-xml":
        return parse_ws_xml_deck(text)
    if fmt == "chaos-textproto":
        return parse_chaos_deck(text)
    deck = ImportedDeck(game=game, format=fmt or "unknown")
    deck.error(1, f"unknown deck format {fmt!r}; expected one of {', '.join(FORMATS)}" if fmt else
               "could not tell the deck format; expected CODE RARITY lines, a <deck> XML or a mainDeck textproto")
    return deck


def resolve_codes(deck: ImportedDeck, lookup: Callable[[str], str | None]) -> ImportedDeck:
    """Map every printed code to its card code with ``lookup`` (e.g. a printing → card table).

    Codes ``lookup`` does not know stay as printed, so the validator reports them as unknown.
    """
    for zone, counts in list(deck.zones.items()):
        resolved: dict[str, int] = {}
        for code, count in counts.items():
            card_code = lookup(code) or code
            if card_code != code:
                deck.notes.append(f"{code} resolved to card {card_code}")
            resolved[card_code] = resolved.get(card_code, 0) + count
        deck.zones[zone] = resolved
    if deck.partner:
        deck.partner = lookup(deck.partner) or deck.partner
    return deck
