"""Folded (CJK-aware) search benchmark on PostgreSQL: what folding costs on writes and at query time.

    .venv/bin/python bench/fold_search.py [--cards 50000] [--reps 15] [--db postgres://postgres@127.0.0.1:5432/h8bench]

Fills the database with ``generate_cards`` (kept between runs when the count matches), then prints:
``fold()`` throughput (names and texts per second, pure Python: the cost every write adds); and
for name/text queries, the p50/p95 of the search's SQL (count + first page, as the API runs it) on
the folded columns, beside the same substring on the raw column with ``UPPER(..) LIKE`` (what the
search did before folding) — the folded query does strictly more (width, kana, separators). Not a
test; prints a table.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

QUERIES = [("dragon", "name"), ("ＤＲＡＧＯＮ", "name"), ("knight", "name"), ("o:stock", "text"),
           ("o:ＳＴＯＣＫ", "text"), ('o:"draw 1"', "text"), ("zz", "name")]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/h8bench"))
    ap.add_argument("--cards", type=int, default=50_000)
    ap.add_argument("--reps", type=int, default=15)
    args = ap.parse_args()

    from search import ensure_database  # bench/search.py

    ensure_database(args.db)
    os.environ["DATABASE_URL"] = args.db
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from catalog.models import Card
    from catalog.selectors import card_search
    from catalog.textnorm import fold, fold_names

    call_command("migrate", verbosity=0)
    if Card.objects.count() != args.cards or Card.objects.filter(code__startswith="SYN").count() != args.cards:
        Card.objects.all().delete()
        t0 = time.perf_counter()
        call_command("generate_cards", count=args.cards, seed=1, clear=True)
        print(f"loaded {args.cards} cards in {time.perf_counter() - t0:.1f}s")
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE catalog_card")

    rows = list(Card.objects.values_list("name", "alt_names", "text")[:20000])
    t0 = time.perf_counter()
    for name, alt, text in rows:
        fold_names(name, alt)
        fold(text)
    dt = time.perf_counter() - t0
    print(f"fold(): {len(rows) / dt:,.0f} cards/s (name + alternate names + text), "
          f"{dt / len(rows) * 1e6:.1f} µs per card")

    print(f"\n{args.cards:,} cards, {args.reps} runs each (ms)\n")
    print("| query | hits | folded p50 | folded p95 | raw UPPER LIKE hits | raw p50 | raw p95 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for q, kind in QUERIES:
        qs = card_search(q=q)
        raw_value = (q.split(":", 1)[1] if q.startswith("o:") else q).strip('"')
        raw = (Card.objects.filter(text__icontains=raw_value) if kind == "text"
               else Card.objects.filter(name__icontains=raw_value) | Card.objects.filter(alt_names__icontains=raw_value))
        times: dict[str, list[float]] = {"folded": [], "raw": []}
        hits = raw_hits = 0
        for _ in range(args.reps):
            for label, query in (("folded", qs), ("raw", raw.order_by("name", "game", "code"))):
                t0 = time.perf_counter()
                n = query.order_by().count()
                list(query.values_list("id", flat=True)[:50])
                times[label].append((time.perf_counter() - t0) * 1000)
                if label == "folded":
                    hits = n
                else:
                    raw_hits = n
        f, r = times["folded"], times["raw"]
        print(f"| `{q}` | {hits:,} | {pct(f, 50):.1f} | {pct(f, 95):.1f} | {raw_hits:,} | {pct(r, 50):.1f} | {pct(r, 95):.1f} |")


if __name__ == "__main__":
    main()
