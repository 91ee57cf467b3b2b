"""Lycee Overture JSON lines (waju893/lycee-overture ``public/cards/LO-*.json``, one object a line).

Fields: ``cardNo title subName name type rarity attributes[] useTarget[] ap dp sp dmg ex costRaw
restrictionRaw typeTagsRaw text sourceUrl`` (+ Japanese/Korean type labels). ``restrictionRaw``
is the position restriction as six marks (``－－－●●●`` = AF-L AF-C AF-R DF-L DF-C DF-R).
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rules import games as g

from . import ImportProblem, ImportRecord, register
from . import normalize as n


def finish_lycee_card(card: dict[str, Any], text: str, basic_lines: list[str] | None = None) -> list[ImportProblem]:
    """Fill text-derived fields of a Lycee card: basic abilities, conversion, copy limit, flags.

    ``basic_lines``: a separate basic-ability field (CSV, digest); otherwise the leading lines of
    ``text`` made only of ``[...]`` tokens are read (and stay in the text as printed).
    """
    problems: list[ImportProblem] = []
    lines = basic_lines if basic_lines is not None else text.split("\n")
    basics = n.lycee_basic_abilities(lines)
    problems += basics.problems
    if basics.keywords:
        card["keywords"] = basics.keywords
    if basics.conversion_target:
        card["conversion_target"] = basics.conversion_target
    limit, flags = n.lycee_text_flags(text)
    problems += flags
    if limit:
        card["copy_limit"] = limit
    if card["card_type"] != "character":
        if basics.keywords:
            problems.append(ImportProblem("keywords", "basic abilities on a non-character kept in text only"))
            card.pop("keywords", None)
        card.pop("conversion_target", None)
    return problems


def lycee_stats(card: dict[str, Any], values: dict[str, Any], problems: list[ImportProblem]) -> None:
    """AP/DP/SP/DMG for characters (None elsewhere; non-zero stats on others reported), EX always."""
    for key in ("ap", "dp", "sp", "dmg"):
        value = n.as_int(values.get(key))
        if card["card_type"] == "character":
            if value is None:
                problems.append(ImportProblem(key, f"{key.upper()} {values.get(key)!r} is not a number"))
            card[key] = value
        elif value:
            problems.append(ImportProblem(key, f"a {card['card_type']} has no {key.upper()}; {value} ignored"))
    ex = n.as_int(values.get("ex"))
    if ex is None and values.get("ex") not in (None, ""):
        problems.append(ImportProblem("ex", f"EX {values.get('ex')!r} is not a number"))
    card["ex"] = ex


class LyceeJsonLines:
    name = "lycee-jsonl"
    description = "Lycee Overture JSON lines (cardNo/title/subName/useTarget/restrictionRaw...)"
    merge_default = True  # a second source merges into the first (import_cards --merge)

    def detect(self, path: Path, head: bytes) -> bool:
        first = head.split(b"\n", 1)[0].strip()
        if not first.startswith(b"{"):
            return False
        try:
            data = json.loads(first)
        except ValueError:
            return False
        return isinstance(data, dict) and {"cardNo", "useTarget"} <= set(data)

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        return n.warnings_on_cards(self._read(path, game))

    def _read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        with open(path, encoding="utf-8-sig") as fh:
            for number, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except ValueError as exc:
                    yield ImportRecord(number, None, [ImportProblem("json", f"not valid JSON: {exc}")], source=path.name)
                    continue
                if not isinstance(data, dict):
                    yield ImportRecord(number, None, [ImportProblem("json", "line is not a JSON object")], source=path.name)
                    continue
                card, problems, printings = convert(data)
                yield ImportRecord(number, card, problems, printings, source=path.name)


def convert(data: dict[str, Any]) -> tuple[dict[str, Any] | None, list[ImportProblem], list[dict[str, Any]]]:
    problems: list[ImportProblem] = []
    raw_code = str(data.get("cardNo") or "")
    code, variant = n.lycee_base_code(raw_code)
    if not code:
        return None, [ImportProblem("cardNo", "card has no number")], []
    card_type = n.LYCEE_TYPE_NAMES.get(n.enum_value(data.get("type"))) or n.LYCEE_TYPE_NAMES.get(
        n.nfkc(data.get("rawTypeJa")))
    if card_type is None:
        return None, [ImportProblem("card_type", f"unknown type {data.get('type')!r}")], []
    title, sub = n.nfkc(data.get("title")), n.nfkc(data.get("subName"))
    name = n.nfkc(data.get("name")) or " ".join(p for p in (title, sub) if p)
    attributes, attr_problems = n.lycee_attributes(data.get("attributes") or [])
    problems += attr_problems
    cost_detail, cost_problems = n.lycee_cost(data.get("useTarget") or [])
    problems += cost_problems
    if not cost_detail and n.nfkc(data.get("costRaw")) not in ("", "0"):
        problems.append(ImportProblem("cost", f"cost written {data.get('costRaw')!r}; read as no cost"))
    text = n.nfkc(data.get("text"))
    if text == "-":
        text = ""
    card: dict[str, Any] = {
        "game": g.LYCEE,
        "code": code,
        "name": name,
        "alt_names": [sub] if title and sub and sub != name else [],
        "card_type": card_type,
        "attributes": attributes,
        "rarity": n.nfkc(data.get("rarity")),
        "traits": [t for t in (n.nfkc(data.get("typeTagsRaw")),) if t],
        "text": text,
        "cost": sum(cost_detail.values()),
        "cost_detail": cost_detail,
    }
    lycee_stats(card, data, problems)
    pattern = n.nfkc(data.get("restrictionRaw"))
    slots = n.lycee_slots_from_pattern(pattern)
    if slots is None:
        problems.append(ImportProblem("slots", f"position restriction {pattern!r} unreadable; left empty"))
    elif slots and card_type == "character":
        card["slots"] = slots
    elif slots:
        problems.append(ImportProblem("slots", f"a {card_type} has no position restriction; {pattern!r} ignored"))
    problems += finish_lycee_card(card, text)
    printing = {"code": n.nfkc(raw_code).upper(), "rarity": card["rarity"], "image_url": ""}
    if variant:
        problems.append(ImportProblem("code", f"variant {raw_code!r} read as a printing of {code}"))
    return card, problems, [printing]


register(LyceeJsonLines())
