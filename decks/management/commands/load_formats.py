"""``manage.py load_formats FILE``: formats and their ban lists from JSON or CSV.

JSON: a list of objects ``{"game", "code", "name", "order", "series": [...], "groups": [[...], ...],
"single_series": bool, "banned": [...], "restricted": {card: copies}, "notes"}``.
CSV (a header row): ``game,code,name,order,single_series,series,groups,banned,restricted``; lists are
separated by ``;``, the series of one group by ``+`` (``DC+DS;LB+KW``), restricted cards as ``CARD=N``.

Each entry replaces the format of that game and code (created when missing); formats not in the
file stay. Problems name the entry and the field, and nothing is written.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from decks.models import Format
from rules import games as g
from rules.formats import format_from_dict


def _split(cell: Any, sep: str = ";") -> list[str]:
    return [p.strip() for p in str(cell or "").split(sep) if p.strip()]


def _from_csv(row: dict[str, Any], where: str) -> dict[str, Any]:
    restricted: dict[str, Any] = {}
    for item in _split(row.get("restricted")):
        card, _, n = item.rpartition("=")
        if not card:
            raise CommandError(f"{where}: restricted {item!r} is not CARD=COPIES")
        restricted[card.strip()] = n.strip()
    return {**row, "series": _split(row.get("series")), "banned": _split(row.get("banned")),
            "groups": [_split(grp, "+") for grp in _split(row.get("groups"))], "restricted": restricted,
            "single_series": str(row.get("single_series") or "").strip().lower() in ("1", "true", "yes")}


def _rows(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"{path}: cannot read ({exc.__class__.__name__})") from None
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path.name}: not JSON ({exc})") from None
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise CommandError(f"{path.name}: expected a JSON list of objects")
        return data
    return [_from_csv(r, f"{path.name} line {i}") for i, r in enumerate(csv.DictReader(text.splitlines()), 2)]


def _clean(row: dict[str, Any], where: str) -> dict[str, Any]:
    game = str(row.get("game") or "").strip()
    if game not in g.GAMES:
        raise CommandError(f"{where}: game {game!r} is not one of {', '.join(g.GAMES)}")
    try:
        rules = format_from_dict(game, row)
        order = int(str(row.get("order") or 0).strip() or 0)
    except ValueError as exc:
        raise CommandError(f"{where}: {exc}") from None
    if len(rules.code) > 40 or not rules.code.replace("-", "").replace("_", "").isalnum():
        raise CommandError(f"{where}: code {rules.code!r} must be letters, digits, - or _ (at most 40)")
    return {"game": game, "code": rules.code, "name": rules.name[:80], "order": max(0, min(order, 32767)),
            "series": list(rules.series), "groups": [list(grp) for grp in rules.groups],
            "single_series": rules.single_series, "banned": list(rules.banned), "restricted": dict(rules.restricted),
            "notes": str(row.get("notes") or "")[:2000]}


class Command(BaseCommand):
    help = "Load formats and their ban and restricted lists (JSON or CSV) into decks.Format."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **opts: Any) -> None:
        path: Path = opts["file"]
        rows = [_clean(row, f"{path.name} entry {i}") for i, row in enumerate(_rows(path), 1)]
        with transaction.atomic():
            for row in rows:
                Format.objects.update_or_create(game=row["game"], code=row["code"], defaults=row)
        self.stdout.write(f"{len(rows)} formats loaded from {path.name}")
