"""The Lycee Overture card digest (hifumioshi/lycee-overture-battle ``tools/card-digest.txt``).

One record per ``### `` header line::

    ### LO-6948 岡井 たんぽぽ [キャラクター] 日/日 AP3 DP0 SP0 DMG3 EX2
    基本: [アグレッシブ][チャージ:１]
    效果: [宣言] ...|[誘発] ...|構築制限:【...】

Variant numbers (``-A``, ``-K``, ``-L``) are printings of the base number: consecutive records of
one base number become one card with several printings (differences between them are reported).
The digest has no rarity and no title/character split.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rules import games as g

from . import ImportProblem, ImportRecord, register
from . import normalize as n
from .lycee_jsonl import finish_lycee_card, lycee_stats

_HEADER = re.compile(
    r"^###\s+(?P<code>\S+)\s+(?P<name>.+?)\s+\[(?P<type>[^\]]+)\]\s+(?P<attrs>\S+?)/(?P<cost>\S*)"
    r"\s+AP(?P<ap>\d+)\s+DP(?P<dp>\d+)\s+SP(?P<sp>\d+)\s+DMG(?P<dmg>\d+)\s+EX(?P<ex>\d+)\s*$"
)


def convert(header: str, body: list[str]) -> tuple[dict[str, Any] | None, list[ImportProblem], dict[str, Any]]:
    m = _HEADER.match(n.nfkc(header))
    if not m:
        return None, [ImportProblem("header", f"unreadable header {header.strip()[:80]!r}")], {}
    problems: list[ImportProblem] = []
    code, variant = n.lycee_base_code(m["code"])
    card_type = n.LYCEE_TYPE_NAMES.get(m["type"])
    if card_type is None:
        return None, [ImportProblem("type", f"unknown type {m['type']!r}")], {}
    attributes, attr_problems = n.lycee_attributes(list(m["attrs"]))
    cost_detail, cost_problems = n.lycee_cost_text(m["cost"])
    problems += attr_problems + cost_problems
    basic: list[str] = []
    effects: list[str] = []
    for line in body:
        line = n.nfkc(line)
        if not line:
            continue
        label, _, rest = line.partition(":")
        if label in ("基本",):
            basic.append(rest.strip())
        elif label in ("效果", "効果"):
            effects.extend(part.strip() for part in rest.split("|") if part.strip())
        else:
            problems.append(ImportProblem("text", f"unexpected line {line[:60]!r} ignored"))
    text = "\n".join(effects)
    card: dict[str, Any] = {
        "game": g.LYCEE,
        "code": code,
        "name": m["name"].strip(),
        "card_type": card_type,
        "attributes": attributes,
        "text": "\n".join([*basic, text]).strip(),
        "cost": sum(cost_detail.values()),
        "cost_detail": cost_detail,
    }
    lycee_stats(card, m.groupdict(), problems)
    problems += finish_lycee_card(card, text, basic)
    return card, problems, {"code": n.nfkc(m["code"]).upper(), "rarity": "", "image_url": ""}


class LyceeDigest:
    name = "lycee-digest"
    description = "Lycee Overture card digest (### header per card, 基本:/效果: lines)"
    merge_default = True  # a second source merges into the first (import_cards --merge)

    def detect(self, path: Path, head: bytes) -> bool:
        text = head.decode("utf-8", "ignore").lstrip("\ufeff")
        return bool(re.match(r"^###\s+[A-Z]{2}-\d+", text)) and ("效果:" in text or "基本:" in text or "AP" in text)

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        return n.warnings_on_cards(self._read(path, game))

    def _read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        lines = path.read_text(encoding="utf-8-sig").split("\n")
        records: list[tuple[int, str, list[str]]] = []
        for number, line in enumerate(lines, start=1):
            if line.startswith("###"):
                records.append((number, line, []))
            elif records:
                records[-1][2].append(line)
            elif line.strip():
                yield ImportRecord(number, None, [ImportProblem("line", "text before the first ### record")], source=path.name)
        by_code: dict[str, ImportRecord] = {}
        order: list[ImportRecord] = []
        for number, header, body in records:
            card, problems, printing = convert(header, body)
            if card is None:
                order.append(ImportRecord(number, None, problems, source=path.name))
                continue
            first = by_code.get(card["code"])
            if first is None:
                rec = ImportRecord(number, card, problems, [printing], source=path.name)
                if printing["code"] != card["code"]:
                    rec.problems.append(ImportProblem("code", f"variant {printing['code']} read as a printing of {card['code']}"))
                by_code[card["code"]] = rec
                order.append(rec)
                continue
            first.printings.append(printing)
            for key, value in card.items():
                if first.card.get(key) != value:
                    first.problems.append(ImportProblem(
                        key, f"printing {printing['code']} (line {number}) has {key} {value!r}; kept line {first.number}'s"))
        yield from order


register(LyceeDigest())
