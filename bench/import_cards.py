"""Import/export benchmark: N synthetic Weiß Schwarz cards through ``import_cards`` / ``export_cards``.

    .venv/bin/python bench/import_cards.py [--cards 10000] [--db postgres://postgres@127.0.0.1:5432/h1bench]

Default database: a fresh SQLite file in a temporary folder. With a PostgreSQL URL the database is
created if needed and its cards are deleted first. Times, through the management commands (file
reading, validation, bulk upsert, facets): first import (all created), the same file again (all
unchanged), a file changing every card (all updated), JSON and CSV export, CSV import (unchanged).
Prints wall-clock and this process's CPU seconds (the machine is shared: wall time varies with
load; CPU time excludes the PostgreSQL server's work). Not a test.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COLORS = ("yellow", "green", "red", "blue")
TRIGGERS = ("soul", "draw", "pool", "comeback", "return", "treasure", "shot", "gate", "choice", "standby")


def card(i: int, bump: int = 0) -> dict:
    if i % 9 == 0:
        return {"code": f"BN/W99-{i:05d}", "name": f"Bench Climax {i}", "card_type": "climax", "colors": [COLORS[i % 4]],
                "triggers": ["soul", TRIGGERS[i % 10]], "text": "[CONT] All your characters get +1000 power and +1 soul.",
                "text_modelled": True, "effects": [{"kind": "climax_bonus", "power": 1000 + bump, "soul": 1}],
                "rarity": "CC", "set_code": "BN/W99"}
    level = i % 4
    return {"code": f"BN/W99-{i:05d}", "name": f"Bench Character {i}", "card_type": "character",
            "colors": [COLORS[i % 4]], "level": level, "cost": max(0, level - 1), "power": 1500 + 2500 * level + bump,
            "soul": 1 + (level == 3), "triggers": ["soul"] if level >= 2 else [], "traits": ["Bench", f"Group {i % 50}"],
            "text": f"[AUTO] When this card attacks, draw {i % 3} card(s).", "rarity": "C", "set_code": "BN/W99"}


def ensure_pg(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))
    name = parts.path.lstrip("/")
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=10000)
    ap.add_argument("--db", default="")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-import-"))
    db = args.db or f"sqlite:///{tmp / 'bench.sqlite3'}"
    if db.startswith("postgres"):
        ensure_pg(db)
    os.environ["DATABASE_URL"] = db
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from catalog.models import Card

    call_command("migrate", verbosity=0)
    Card.objects.filter(game="ws").delete()
    n = args.cards
    first, changed = tmp / "cards.json", tmp / "changed.json"
    for path, bump in ((first, 0), (changed, 500)):
        path.write_text(json.dumps({"format": "tcgdb-cards", "version": 1, "game": "ws",
                                    "cards": [card(i, bump) for i in range(1, n + 1)]}))

    def timed(label: str, *cmd: str) -> None:
        out = io.StringIO()
        t, c = time.perf_counter(), time.process_time()
        call_command(*cmd, stdout=out, stderr=io.StringIO())
        dt, cpu = time.perf_counter() - t, time.process_time() - c
        summary = out.getvalue().strip().splitlines()[-1] if out.getvalue().strip() and cmd[0] == "import_cards" else ""
        print(f"| {label} | {dt:.2f} | {cpu:.2f} | {n / dt:,.0f} | {summary} |")

    print(f"{n} cards, database {db.split('://')[0]}, {platform.python_version()}, {os.cpu_count()} cores")
    print("| step | wall s | python cpu s | cards/s (wall) | summary |")
    print("| --- | ---: | ---: | ---: | --- |")
    timed("import, all new", "import_cards", str(first), "--game", "ws")
    timed("same file again (unchanged)", "import_cards", str(first), "--game", "ws")
    timed("every card changed (updated)", "import_cards", str(changed), "--game", "ws")
    timed("dry run of the first file (updated, rolled back)", "import_cards", str(first), "--game", "ws", "--dry-run")
    timed("export json", "export_cards", "--game", "ws", "-o", str(tmp / "out.json"))
    timed("export csv", "export_cards", "--game", "ws", "--format", "csv", "-o", str(tmp / "out.csv"))
    timed("import the csv export (unchanged)", "import_cards", str(tmp / "out.csv"), "--game", "ws")


if __name__ == "__main__":
    main()
