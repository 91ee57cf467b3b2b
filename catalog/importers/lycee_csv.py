"""The header-less CSV that lycee-tcg.com exports (Lycee Overture card search → CSV).

Columns: card no., title, character name, type, rarity, attribute(s), EX, cost symbols, AP, DP,
SP, DMG, trait/series tag, basic abilities, text, product, brand, (empty). Values are padded with
spaces; a variant number (``LO-0923-A``) is a printing of the base card ``LO-0923``.
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rules import games as g

from . import ImportProblem, ImportRecord, register
from . import normalize as n
from .lycee_jsonl import finish_lycee_card, lycee_stats

COLUMNS = ("code", "title", "person", "type", "rarity", "attributes", "ex", "cost", "ap", "dp", "sp", "dmg",
           "traits", "basic", "text", "product", "brand")
_ROW_START = re.compile(rb"^\s*(?:\xef\xbb\xbf)?[A-Z]{2}-\d{3,5}(?:-[A-Z]+)?\s*,")


def convert_row(row: list[str]) -> tuple[dict[str, Any] | None, list[ImportProblem], list[dict[str, Any]]]:
    problems: list[ImportProblem] = []
    if len(row) < len(COLUMNS):
        return None, [ImportProblem("row", f"{len(row)} columns; expected {len(COLUMNS)} (+1 empty)")], []
    if len(row) > len(COLUMNS) + 1 or (len(row) == len(COLUMNS) + 1 and row[-1].strip()):
        problems.append(ImportProblem("row", f"{len(row)} columns; extra columns ignored"))
    v = {key: n.nfkc(value) for key, value in zip(COLUMNS, row, strict=False)}
    code, variant = n.lycee_base_code(v["code"])
    card_type = n.LYCEE_TYPE_NAMES.get(v["type"])
    if card_type is None:
        return None, [ImportProblem("type", f"unknown type {v['type']!r}")], []
    attributes, attr_problems = n.lycee_attributes(list(v["attributes"].replace(" ", "")))
    cost_detail, cost_problems = n.lycee_cost_text(v["cost"])
    text = v["text"].replace("<br>", "\n")
    card: dict[str, Any] = {
        "game": g.LYCEE,
        "code": code,
        "name": " ".join(p for p in (v["title"], v["person"]) if p),
        "alt_names": [v["person"]] if v["title"] and v["person"] else [],
        "card_type": card_type,
        "attributes": attributes,
        "rarity": v["rarity"],
        "set_code": v["product"],
        "work": v["brand"] if v["brand"] not in ("-", "") else "",
        "traits": [v["traits"]] if v["traits"] else [],
        "text": text,
        "cost": sum(cost_detail.values()),
        "cost_detail": cost_detail,
    }
    problems += attr_problems + cost_problems
    lycee_stats(card, v, problems)
    basic_lines = [v["basic"]] if v["basic"] else []
    problems += finish_lycee_card(card, text, basic_lines)
    if v["basic"]:
        card["text"] = (v["basic"] + "\n" + text).strip()
    if variant:
        problems.append(ImportProblem("code", f"variant {v['code']!r} read as a printing of {code}"))
    return card, problems, [{"code": v["code"].upper(), "rarity": v["rarity"], "image_url": ""}]


class LyceeCsv:
    name = "lycee-csv"
    description = "Lycee Overture official CSV export (header-less, lycee-tcg.com layout)"
    merge_default = True  # a second source merges into the first (import_cards --merge)

    def detect(self, path: Path, head: bytes) -> bool:
        first = head.split(b"\n", 1)[0]
        return bool(_ROW_START.match(first)) and first.count(b",") >= len(COLUMNS) - 1

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        return n.warnings_on_cards(self._read(path, game))

    def _read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        text = path.read_text(encoding="utf-8-sig")
        for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
            if not any(cell.strip() for cell in row):
                continue
            card, problems, printings = convert_row(row)
            yield ImportRecord(number, card, problems, printings, source=path.name)


register(LyceeCsv())
