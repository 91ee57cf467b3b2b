"""Search benchmark: 100,000 synthetic cards in PostgreSQL, 20 representative queries through the API.

    .venv/bin/python bench/search.py [--cards 100000] [--reps 20] [--db postgres://postgres@127.0.0.1:5432/h2bench]

Creates the database if needed, migrates it, fills it with ``generate_cards`` (kept between runs when
the count matches), then for each query: p50/p95 of the full API request (Django test client:
URL routing, query parsing, the count and page queries, serialization, JSON rendering) and p50/p95
of the same SQL that request ran (captured, then executed directly with the cursor), and the ratio
API p50 / SQL p50, and the Python CPU time per request. Prints a table; not a test.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUERIES = [
    "dragon",
    "silent knight",
    "game:ws power>=9000 soul:2 trigger:soul",
    "game:ws t:climax trigger:draw",
    "game:ws level:3 c:red order:power dir:desc",
    "game:pc cp>4000 rank>=2 bonus:draw",
    "game:pc kw:connect_mark c:green",
    "game:phantasma mhp>=600 martial>=300",
    "game:phantasma t:battle aa:agility da:wisdom",
    "game:chaos atk>=4 gender:female",
    "game:chaos kw:penetrate def>=3",
    "game:lycee ap>=3 ability:dash slot:AF-C",
    "game:lycee attr:snow dp>=3 -slot:AF-L",
    "o:stock",
    r"o:/draw [23] card/",
    "trait:music",
    "t:character",
    "",
    "(game:ws or game:pc) c:red -t:event order:cost",
    "set:SYN-LY014",
]


def ensure_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit((parts.scheme.replace("postgres", "postgresql", 1) if parts.scheme == "postgres" else parts.scheme,
                        parts.netloc, "/postgres", "", ""))
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/h2bench"))
    ap.add_argument("--cards", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--regenerate", action="store_true", help="drop and regenerate the synthetic cards")
    args = ap.parse_args()

    ensure_database(args.db)
    os.environ["DATABASE_URL"] = args.db
    os.environ.setdefault("API_THROTTLE_ANON", "10000000/minute")  # measure the search, not the rate limit
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from catalog.models import Card

    call_command("migrate", verbosity=0)
    have = Card.objects.filter(code__startswith="SYN").count()
    if args.regenerate or have != args.cards or Card.objects.count() != args.cards:
        Card.objects.all().delete()
        t0 = time.perf_counter()
        call_command("generate_cards", count=args.cards, seed=args.seed, clear=True)
        print(f"loaded {args.cards} cards in {time.perf_counter() - t0:.1f}s")
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE catalog_card")
        cur.execute("VACUUM ANALYZE catalog_cardfacet")
    settings.DEBUG = False  # no query log overhead in the timed runs
    client = Client()
    total = Card.objects.count()
    print(f"\n{total} cards, PostgreSQL {connection.pg_version}, Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, {args.reps} runs per query (after 2 warm-ups)\n")
    header = (f"{'query':48} {'hits':>7} {'API p50':>8} {'API p95':>8} {'SQL p50':>8} {'SQL p95':>8} {'ratio':>6}"
              f" {'py CPU':>7}")
    print(header)
    print("-" * len(header))
    worst_p95 = worst_ratio = 0.0
    for q in QUERIES:
        url = "/api/v1/cards/?" + urlencode({"q": q})
        for _ in range(2):
            response = client.get(url)
        assert response.status_code == 200, (q, response.content[:300])
        hits = response.json()["count"]
        api, cpu = [], []
        for _ in range(args.reps):
            t0, c0 = time.perf_counter(), time.process_time()
            r = client.get(url)
            api.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            assert r.status_code == 200
        with CaptureQueriesContext(connection) as ctx:
            client.get(url)
        statements = [(qq["sql"]) for qq in ctx.captured_queries]
        sql = []
        with connection.cursor() as cur:
            for _ in range(2):
                for s in statements:
                    cur.execute(s)
                    cur.fetchall()
            for _ in range(args.reps):
                t0 = time.perf_counter()
                for s in statements:
                    cur.execute(s)
                    cur.fetchall()
                sql.append((time.perf_counter() - t0) * 1000)
        a50, a95, s50, s95 = pct(api, 50), pct(api, 95), pct(sql, 50), pct(sql, 95)
        ratio = a50 / s50 if s50 else float("inf")
        worst_p95, worst_ratio = max(worst_p95, a95), max(worst_ratio, ratio)
        label = q if q else "(empty query: all cards)"
        print(f"{label[:48]:48} {hits:>7} {a50:8.1f} {a95:8.1f} {s50:8.1f} {s95:8.1f} {ratio:6.2f}"
              f" {pct(cpu, 50):7.1f}")
    print(f"\nworst API p95 {worst_p95:.1f} ms (target < 50), worst ratio {worst_ratio:.2f} (target < 3)")
    print("ms; 'hits' is the API count (exact up to 1000); 'py CPU' is the benchmark process's CPU time per")
    print("request (p50): the Python share of the API time, which a loaded machine does not inflate.")
    try:
        print(f"load average while measured: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    except OSError:
        pass


if __name__ == "__main__":
    main()
