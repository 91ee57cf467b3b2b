"""Deck validation benchmark: construction rules alone, and the validate API end to end.

    .venv/bin/python bench/decks.py [--cards 100000] [--reps 50] [--db postgres://postgres@127.0.0.1:5432/h3bench]

Fills the database with ``generate_cards`` (kept between runs when the count matches) plus the small
test pools of ``decks.testing``; then for each game's legal test deck prints
- ``rules`` : p50/p95 of ``rules.construction.validate_deck`` on records already in memory;
- ``API``   : p50/p95 of ``POST /api/v1/decks/validate/`` with the deck as text (parse, one catalog
  query, rules, JSON), through the Django test client;
- the number of SQL queries of one API call and whether the code lookup uses the (game, code) index.
Not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def ensure_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/h3bench"))
    ap.add_argument("--cards", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=50)
    args = ap.parse_args()

    if args.db.startswith("postgres"):
        ensure_database(args.db)
    os.environ["DATABASE_URL"] = args.db
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from catalog.models import Card
    from decks.selectors import cards_resolve
    from decks.testing import cards_create, legal_deck
    from rules import games as g
    from rules.construction import validate_deck
    from rules.decktext import format_deck_text

    call_command("migrate", verbosity=0)
    if Card.objects.filter(code__startswith="SYN").count() != args.cards:
        t0 = time.perf_counter()
        call_command("generate_cards", count=args.cards, clear=True, verbosity=0)
        print(f"generated {args.cards} cards in {time.perf_counter() - t0:.1f}s")
    cards_create()
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE catalog_card")
    settings.DEBUG = False
    client = Client()
    print(f"\n{Card.objects.count()} cards, {connection.vendor}, Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, {args.reps} runs (after 3 warm-ups)\n")
    header = f"{'game':10} {'lines':>5} {'rules p50':>10} {'rules p95':>10} {'API p50':>9} {'API p95':>9} {'queries':>7}  lookup"
    print(header)
    print("-" * (len(header) + 12))
    for game in g.GAMES:
        zones = legal_deck(game)
        rows = [(z, c, n) for z, cards in zones.items() for c, n in cards.items()]
        text = format_deck_text(rows)
        records = cards_resolve(game=game, codes={c for _, c, _ in rows})
        rules_ms = []
        for _ in range(args.reps * 4):
            t0 = time.perf_counter()
            report = validate_deck(game, zones, records)
            rules_ms.append((time.perf_counter() - t0) * 1000)
        assert report["valid"], report["errors"]
        body = json.dumps({"game": game, "text": text})
        for _ in range(3):
            r = client.post("/api/v1/decks/validate/", body, content_type="application/json")
        assert r.status_code == 200 and r.json()["valid"], r.content[:300]
        api_ms = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            client.post("/api/v1/decks/validate/", body, content_type="application/json")
            api_ms.append((time.perf_counter() - t0) * 1000)
        with CaptureQueriesContext(connection) as ctx:
            client.post("/api/v1/decks/validate/", body, content_type="application/json")
        plan = ""
        if connection.vendor == "postgresql":
            with connection.cursor() as cur:
                cur.execute("EXPLAIN " + ctx.captured_queries[0]["sql"])
                plan = " ".join(row[0] for row in cur.fetchall())
        lookup = "index" if "Index" in plan else ("seq scan" if plan else "-")
        print(f"{game:10} {len(text.splitlines()):5d} {pct(rules_ms, 50):9.3f}ms {pct(rules_ms, 95):9.3f}ms "
              f"{pct(api_ms, 50):8.2f}ms {pct(api_ms, 95):8.2f}ms {len(ctx.captured_queries):7d}  {lookup}")


if __name__ == "__main__":
    main()
