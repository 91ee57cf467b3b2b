"""The deck text format: one ``COUNT CODE [Name]`` line per entry, ``# zone`` section headers.

Accepted entry forms: ``4 CODE``, ``4x CODE``, ``4 x CODE``, ``4 CODE Name words``. Blank lines and
``//`` comments are ignored; a ``#`` line that names a zone (``# main``, ``# extra``, ``# ace``,
``# ex``, ``# partner``; also ``# Main deck``, ``# Extra deck (10)``, ``# EX skills:``) starts that
section, any other ``#`` line of three words or more is a comment. Entries before the
first header are in ``main``. Every line that cannot be parsed becomes an error with its line number.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from .games import ZONES

MAX_COUNT = 99
MAX_LINES = 5000

_ENTRY = re.compile(r"^(?P<count>[+-]?\d+)\s*(?:[xX×]\s*)?\s+(?P<code>\S+)(?:\s+(?P<name>.*))?$|^(?P<count2>\d+)[xX×](?P<code2>\S+)(?:\s+(?P<name2>.*))?$")
_HEADER = re.compile(
    r"^#+\s*(?P<zone>[A-Za-z]+)(?:[\s_-]+(?:deck|skills?|cards?))?\s*(?:\(\s*\d+\s*\))?\s*:?\s*$", re.IGNORECASE
)


@dataclass(frozen=True)
class DeckEntry:
    zone: str
    code: str
    count: int
    line: int
    name: str = ""


@dataclass(frozen=True)
class LineError:
    line: int
    message: str
    text: str = ""

    def as_dict(self) -> dict:
        return {"code": "parse_error", "line": self.line, "message": self.message, "text": self.text}


@dataclass
class ParsedDeck:
    entries: list[DeckEntry] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)

    def zones(self) -> dict[str, dict[str, int]]:
        """``{zone: {code: count}}``, repeated lines of one code added up."""
        out: dict[str, dict[str, int]] = {}
        for e in self.entries:
            zone = out.setdefault(e.zone, {})
            zone[e.code] = zone.get(e.code, 0) + e.count
        return out

    def counts(self, zone: str = "main") -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.entries:
            if e.zone == zone:
                out[e.code] = out.get(e.code, 0) + e.count
        return out


def _clean(line: str) -> str:
    line = unicodedata.normalize("NFKC", line)
    return "".join(ch for ch in line if ch == "\t" or unicodedata.category(ch)[0] != "C").strip()


def _section(line: str, number: int, raw: str) -> tuple[str | None, LineError | None]:
    """A ``#`` line: the zone it starts, an unknown-section error, or neither (a comment)."""
    m = _HEADER.match(line)
    if m and m.group("zone").lower() in ZONES:
        return m.group("zone").lower(), None
    if m and len(line.split()) <= 2:
        return None, LineError(number, f"unknown section {m.group('zone')!r}; expected one of {', '.join(ZONES)}", raw[:200])
    return None, None


def _entry(line: str, zone: str, number: int, raw: str) -> DeckEntry | LineError:
    m = _ENTRY.match(line)
    if not m:
        return LineError(number, "expected 'COUNT CODE' (e.g. '4 DC/W01-001' or '4x DC/W01-001')", raw[:200])
    count_s = m.group("count") or m.group("count2")
    code = m.group("code") or m.group("code2")
    name = (m.group("name") or m.group("name2") or "").strip()
    if len(count_s.lstrip("+-")) > 4:
        return LineError(number, f"count {count_s} is too large (at most {MAX_COUNT})", raw[:200])
    count = int(count_s)
    if count < 1:
        return LineError(number, f"count must be at least 1 (got {count})", raw[:200])
    if count > MAX_COUNT:
        return LineError(number, f"count {count} is too large (at most {MAX_COUNT})", raw[:200])
    return DeckEntry(zone=zone, code=code, count=count, line=number, name=name)


def parse_deck_text(text: str) -> ParsedDeck:
    """Parse deck text; never raises for bad input, reports it line by line instead."""
    result = ParsedDeck()
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        result.errors.append(LineError(MAX_LINES + 1, f"deck text has {len(lines)} lines; at most {MAX_LINES} are read"))
        return result
    zone = "main"
    for number, raw in enumerate(lines, start=1):
        line = _clean(raw)
        if not line or line.startswith("//"):
            continue
        if line.startswith("#"):
            new_zone, error = _section(line, number, raw)
            zone = new_zone or zone
            if error is not None:
                result.errors.append(error)
            continue
        item = _entry(line, zone, number, raw)
        if isinstance(item, LineError):
            result.errors.append(item)
        else:
            result.entries.append(item)
    return result


def format_deck_text(entries: list[DeckEntry] | list[tuple[str, str, int]], names: dict[str, str] | None = None) -> str:
    """Write entries back as deck text, zones in canonical order."""
    rows = [(e.zone, e.code, e.count) if isinstance(e, DeckEntry) else e for e in entries]
    out: list[str] = []
    for zone in ZONES:
        zone_rows = [r for r in rows if r[0] == zone]
        if not zone_rows:
            continue
        out.append(f"# {zone}")
        for _, code, count in zone_rows:
            name = (names or {}).get(code)
            out.append(f"{count} {code}" + (f" {name}" if name else ""))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
