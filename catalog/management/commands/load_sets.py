"""``manage.py load_sets FILE``: set names, series and release dates/order from a CSV file (columns
``game,code,name,series,release_date,release_order``; a header row) or a JSON list of such objects.
Rows update the ``CardSet`` of that game and code (created when missing); empty cells leave a value
as it is. Problems name the line and nothing is written."""
from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from catalog.models import CardSet
from rules import games as g

COLUMNS = ("game", "code", "name", "series", "release_date", "release_order")


def _rows(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix.lower() == ".json":
        data = json.loads(text)
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise CommandError(f"{path.name}: expected a JSON list of objects")
        return data
    return list(csv.DictReader(text.splitlines()))


def _clean(row: dict[str, Any], where: str) -> dict[str, Any]:
    game, code = str(row.get("game") or "").strip(), str(row.get("code") or "").strip()
    if game not in g.GAMES:
        raise CommandError(f"{where}: game {game!r} is not one of {', '.join(g.GAMES)}")
    if not code or len(code) > 64:
        raise CommandError(f"{where}: a set code (at most 64 characters) is required")
    out: dict[str, Any] = {"game": game, "code": code}
    for key in ("name", "series"):
        if str(row.get(key) or "").strip():
            out[key] = str(row[key]).strip()[:200 if key == "name" else 128]
    if str(row.get("release_date") or "").strip():
        try:
            out["release_date"] = dt.date.fromisoformat(str(row["release_date"]).strip())
        except ValueError:
            raise CommandError(f"{where}: release_date {row['release_date']!r} is not YYYY-MM-DD") from None
    if str(row.get("release_order") or "").strip():
        try:
            out["release_order"] = int(str(row["release_order"]).strip())
        except ValueError:
            raise CommandError(f"{where}: release_order {row['release_order']!r} is not a whole number") from None
    return out


class Command(BaseCommand):
    help = "Load set names, series and release dates/order (CSV or JSON) into the catalog's CardSet rows."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        if not path.is_file():
            raise CommandError(f"no such file: {path}")
        rows = [_clean(r, f"{path.name} row {i}") for i, r in enumerate(_rows(path), start=1)]
        created = updated = 0
        with transaction.atomic():
            for row in rows:
                values = {k: v for k, v in row.items() if k not in ("game", "code")}
                _, was_created = CardSet.objects.update_or_create(game=row["game"], code=row["code"], defaults=values)
                created += was_created
                updated += not was_created
        self.stdout.write(f"{created} sets created, {updated} updated")
