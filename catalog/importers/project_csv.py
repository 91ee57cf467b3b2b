"""The project's own card CSV format (``--format csv``), documented in docs/card-format.md.

UTF-8 (a BOM is accepted), comma-separated, RFC 4180 quoting, a header row naming the columns. The
columns are the card fields (``catalog.cardfields.FIELD_ORDER``) plus ``printings``; any subset in
any order is accepted as long as ``code``, ``name`` and ``card_type`` are there (a missing column
means the field's default). Cells:

- text fields: the text itself (newlines inside quotes are kept);
- whole numbers: decimal digits; an empty cell is "no value";
- ``text_modelled``, ``counter``: ``true`` / ``false`` (``1``/``0``, ``yes``/``no`` also read); empty = false;
- lists (``colors``, ``traits``, ``triggers``...): a JSON array (``["soul","draw"]``), which is what
  the exporter writes; a cell not starting with ``[`` is read as ``|``-separated values
  (``soul|draw``), handy when typing by hand;
- ``keywords``, ``effects``, ``cost_detail``, ``translations``, ``printings``: JSON (``keywords``
  also accepts ``|``-separated plain names); ``translations`` is an object,
  ``{"en":{"name":"...","text":"..."}}``.

Records are numbered by the file line they start on (the header is line 1).
"""
from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from catalog.cardfields import BOOL_FIELDS, FIELD_ORDER, INT_FIELDS, LIST_FIELDS, canonical

from . import ImportProblem, ImportRecord, register

COLUMNS: tuple[str, ...] = (*FIELD_ORDER, "printings")
REQUIRED = ("code", "name", "card_type")
_TRUE = {"true", "1", "yes", "y"}
_FALSE = {"false", "0", "no", "n", ""}
csv.field_size_limit(10 * 1024 * 1024)


def _header(head: bytes) -> list[str] | None:
    text = head.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    first = text.splitlines()[0] if text else ""
    try:
        return [c.strip() for c in next(csv.reader([first]))]
    except (StopIteration, csv.Error):
        return None


class ProjectCsv:
    name = "csv"
    description = "the project's card CSV format (header row of card field names, docs/card-format.md)"

    def detect(self, path: Path, head: bytes) -> bool:
        header = _header(head)
        return bool(header) and all(c in header for c in REQUIRED) and set(header) <= set(COLUMNS)

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        source = path.name
        try:
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError as exc:
            yield ImportRecord(0, None, [ImportProblem("file", f"not UTF-8 text: {exc}")], source=source)
            return
        yield from self.read_text(text, game, source)

    def read_text(self, text: str, game: str | None, source: str = "") -> Iterator[ImportRecord]:
        reader = csv.reader(io.StringIO(text, newline=""))
        try:
            header = [c.strip() for c in next(reader)]
        except StopIteration:
            yield ImportRecord(0, None, [ImportProblem("file", "empty file: expected a header row of column names")], source=source)
            return
        except csv.Error as exc:
            yield ImportRecord(0, None, [ImportProblem("file", f"line 1: {exc}")], source=source)
            return
        problems = [ImportProblem(c, f"header (line 1): unknown column {c!r}") for c in header if c not in COLUMNS]
        problems += [ImportProblem(c, f"header (line 1): column {c!r} is missing") for c in REQUIRED if c not in header]
        seen: set[str] = set()
        for c in header:
            if c in seen:
                problems.append(ImportProblem(c, f"header (line 1): column {c!r} appears twice"))
            seen.add(c)
        if problems:
            yield ImportRecord(0, None, problems, source=source)
            return
        line = reader.line_num
        while True:
            start = line + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                yield ImportRecord(0, None, [ImportProblem("file", f"line {reader.line_num}: {exc}")], source=source)
                return
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            yield self._record(start, header, row, game, source)

    def _record(self, number: int, header: list[str], row: list[str], game: str | None, source: str) -> ImportRecord:
        problems: list[ImportProblem] = []
        if len(row) != len(header):
            problems.append(ImportProblem("row", f"{len(row)} cells but the header has {len(header)} columns"))
            return ImportRecord(number, None, problems, source=source)
        card: dict[str, Any] = {}
        printings: list[dict[str, Any]] = []
        for column, cell in zip(header, row, strict=True):
            try:
                value = parse_cell(column, cell)
            except ValueError as exc:
                problems.append(ImportProblem(column, str(exc)))
                continue
            if column == "printings":
                if not isinstance(value, list) or not all(isinstance(p, dict) for p in value):
                    problems.append(ImportProblem("printings", "printings must be a JSON list of {code, rarity, image_url} objects"))
                else:
                    printings = value
            else:
                card[column] = value
        if not card.get("game") and game:
            card["game"] = game
        return ImportRecord(number, card, problems, printings=printings, source=source)

    # -- export ----------------------------------------------------------------------------------
    def write(self, cards: Iterable[tuple[dict[str, Any], list[dict[str, Any]]]], fh: IO[str], game: str) -> int:
        writer = csv.writer(fh, lineterminator="\r\n")  # RFC 4180; also makes cells with a lone \r quoted
        writer.writerow(COLUMNS)
        count = 0
        for card, printings in cards:
            writer.writerow([format_cell(c, printings if c == "printings" else card[c]) for c in COLUMNS])
            count += 1
        return count


def parse_cell(column: str, cell: str) -> Any:
    """One CSV cell to its JSON value; ``ValueError`` with a message naming the problem."""
    stripped = cell.strip()
    if column in INT_FIELDS:
        if not stripped:
            return None
        try:
            return int(stripped)
        except ValueError:
            raise ValueError(f"{column} must be a whole number, got {cell!r}") from None
    if column in BOOL_FIELDS:
        low = stripped.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ValueError(f"{column} must be true or false, got {cell!r}")
    if column in LIST_FIELDS or column == "keywords":
        if not stripped:
            return []
        if stripped.startswith("["):
            return _json(column, stripped)
        return [v.strip() for v in stripped.split("|") if v.strip()]
    if column in ("effects", "printings"):
        return _json(column, stripped) if stripped else []
    if column in ("cost_detail", "translations"):
        return _json(column, stripped) if stripped else {}
    if _NEUTRALISED.match(cell):  # written by format_cell: one apostrophe was put before the value
        return cell[1:]
    return cell


def _json(column: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{column} is not valid JSON ({exc.msg} at position {exc.pos})") from None


# Spreadsheet formula injection (CSV injection): a cell starting with = + - @ (or a tab or carriage
# return) is run as a formula by Excel/LibreOffice/Sheets when the file is opened. Text cells starting
# so, after any apostrophes, get one more apostrophe in front (the spreadsheet convention for "text");
# parse_cell removes exactly one, so the round trip stays lossless ('=x' -> "''=x" -> '=x').
_DANGEROUS = re.compile(r"^'*[=+\-@\t\r]")
_NEUTRALISED = re.compile(r"^'+[=+\-@\t\r]")


def format_cell(column: str, value: Any) -> str:
    if value is None:
        return ""
    if column in BOOL_FIELDS:
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(canonical(value), ensure_ascii=False) if value else ""
    text = str(value)
    if isinstance(value, str) and _DANGEROUS.match(text):
        return "'" + text
    return text


register(ProjectCsv())
