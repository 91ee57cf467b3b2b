"""Deck builder type-ahead benchmark: the results endpoint as a player types, at 100,000 cards.

    .venv/bin/python bench/typeahead.py [--cards 100000] [--reps 20] [--no-real-ws]
        [--db postgres://postgres@127.0.0.1:5432/typeahead_bench]

Creates the database if needed, migrates it, fills it with ``manage.py generate_cards`` (kept between
runs when the count matches) and, unless ``--no-real-ws``, imports the real Weiß Schwarz catalog
(AlphaC2 JSON lines from ../shared/carddata, when present) so that kana, kanji and real codes are
typed too. A signed-in owner's WS deck (40 cards in its working copy) is the deck being built.

Each input below is typed one keystroke at a time (``d``, ``dr``, ``dra``...), as the builder's
``hx-get`` sends it; every prefix is one request to ``GET /decks/<id>/build/cards/?q=...`` with
``HX-Request: true`` through Django's test client (URL routing, session and auth, the owner check,
the working copy, the search, "in deck" counts, the rendered rows). Prints p50/p95 per input and
over all requests of the wall time, and of the CPU time the request cost: this process plus its
PostgreSQL backend, read from ``/proc/<pid>/schedstat`` (nanoseconds) around each request. On a
shared machine the wall time grows with the load average (both are printed); the CPU time does not,
and on an idle machine the wall time is that CPU time plus a fraction of a millisecond of local
round trips. Also the SQL time of the same statements run directly. Not a test.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from search import ensure_database, pct  # noqa: E402  (bench/search.py)

# What players type, keystroke by keystroke (each prefix of at least MIN_CHARS is a request).
INPUTS = [
    "dragon",  # a common word of the synthetic names
    "silent knight",  # two words
    "lonely witch aito",
    "zzyzx",  # nothing: the "did you mean" path
    "4 syn002/w02-0002",  # a count, then a synthetic code in lower case (code prefix search)
    "SYN502/W02-050201",  # a whole code
    "dc/w01-0o1",  # a typo in a code: nothing found, the closest codes offered
    "t:climax trigger:soul",  # the query language
    "level:3 c:red power>=9000",
    "音姫",  # real WS names, kanji
    "おとひめ",  # a reading in kana
    "dc/w01-0",  # a real code prefix
    "ミク",
]
MIN_CHARS = 1


def task_ns(pid: int) -> int:
    """CPU time a task has run, in nanoseconds (Linux ``/proc/<pid>/schedstat``); 0 when unreadable."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default=os.environ.get("BENCH_DATABASE_URL",
                                                   "postgres://postgres@127.0.0.1:5432/typeahead_bench"))
    ap.add_argument("--cards", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-real-ws", action="store_true", help="synthetic cards only")
    args = ap.parse_args()

    ensure_database(args.db)
    os.environ["DATABASE_URL"] = args.db
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from catalog.models import Card
    from decks.drafts import Change, draft_apply
    from decks.models import Deck
    from decks.services import deck_create

    call_command("migrate", verbosity=0)
    if Card.objects.filter(code__startswith="SYN").count() != args.cards:
        t0 = time.perf_counter()
        call_command("generate_cards", count=args.cards, seed=args.seed, clear=True)
        print(f"generated {args.cards} cards in {time.perf_counter() - t0:.1f}s")
    real = Path(settings.SHARED_DIR) / "carddata" / "weiss_schwarz" / "alphac2_jp"
    files = sorted(real.glob("*.jsonl")) if real.is_dir() and not args.no_real_ws else []
    if files and not Card.objects.filter(game="ws").exclude(code__startswith="SYN").exists():
        t0 = time.perf_counter()
        call_command("import_cards", *map(str, files), "--game", "ws", "--allow-skips", verbosity=0)
        print(f"imported the real WS catalog in {time.perf_counter() - t0:.1f}s")
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE catalog_card")
        cur.execute("VACUUM ANALYZE catalog_cardfacet")

    user, _ = get_user_model().objects.get_or_create(username="typeahead-bench")
    Deck.objects.filter(owner=user).delete()
    deck = deck_create(owner=user, game="ws", name="bench", zones={})
    codes = list(Card.objects.filter(game="ws").order_by("code").values_list("code", flat=True)[:10])
    draft_apply(deck=deck, user=user, changes=[Change("main", c, "add", 4) for c in codes])
    settings.DEBUG = False
    client = Client()
    client.force_login(user)
    url = f"/decks/{deck.pk}/build/cards/"
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        backend = cur.fetchone()[0]
    total = Card.objects.count()
    print(f"\n{total} cards ({Card.objects.filter(game='ws').count()} WS), PostgreSQL {connection.pg_version}, "
          f"Python {platform.python_version()}, {os.cpu_count()} cores, {args.reps} runs of every keystroke "
          f"(after a warm-up)\n")
    header = (f"{'typed (every prefix)':28} {'reqs':>5} {'hits':>6} {'wall p50':>9} {'wall p95':>9} {'CPU p50':>8} "
              f"{'CPU p95':>8} {'SQL p50':>8}")
    print(header)
    print("-" * len(header))
    every: list[float] = []
    every_cpu: list[float] = []
    worst_input = ("", 0.0)
    for text in INPUTS:
        prefixes = [text[:i] for i in range(MIN_CHARS, len(text) + 1)]
        api: list[float] = []
        cpu: list[float] = []
        sql: list[float] = []
        hits = 0
        for q in prefixes:
            full = f"{url}?{urlencode({'q': q})}"
            r = client.get(full, HTTP_HX_REQUEST="true")
            assert r.status_code == 200, (q, r.status_code)
            for _ in range(args.reps):
                b0 = task_ns(backend)
                t0, c0 = time.perf_counter(), time.process_time_ns()
                r = client.get(full, HTTP_HX_REQUEST="true")
                api.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time_ns() - c0 + task_ns(backend) - b0) / 1e6)
            hits = r.content.count(b'<li class="result')
            with CaptureQueriesContext(connection) as ctx:
                client.get(full, HTTP_HX_REQUEST="true")
            statements = [s["sql"] for s in ctx.captured_queries if not s["sql"].startswith(("SAVEPOINT", "RELEASE"))]
            with connection.cursor() as cur:
                for _ in range(max(3, args.reps // 4)):
                    t0 = time.perf_counter()
                    for s in statements:
                        cur.execute(s)
                        if cur.description:
                            cur.fetchall()
                    sql.append((time.perf_counter() - t0) * 1000)
        every += api
        every_cpu += cpu
        p95 = pct(api, 95)
        if p95 > worst_input[1]:
            worst_input = (text, p95)
        print(f"{text[:28]:28} {len(prefixes):5d} {hits:6d} {pct(api, 50):9.1f} {p95:9.1f} {pct(cpu, 50):8.1f} "
              f"{pct(cpu, 95):8.1f} {pct(sql, 50):8.1f}")
    print(f"\nall {len(every)} requests: wall p50 {pct(every, 50):.1f} ms, p95 {pct(every, 95):.1f} ms, p99 "
          f"{pct(every, 99):.1f} ms (target p95 < 50); worst input wall p95 {worst_input[1]:.1f} ms ({worst_input[0]!r})")
    print(f"CPU per request (Django + its PostgreSQL backend): p50 {pct(every_cpu, 50):.1f} ms, p95 "
          f"{pct(every_cpu, 95):.1f} ms, p99 {pct(every_cpu, 99):.1f} ms")
    print("ms; 'hits' = rows shown for the whole input (a page holds 20); 'CPU' = this process + its PostgreSQL")
    print("backend (schedstat), which a loaded machine does not inflate; 'SQL p50' = the request's statements run directly.")
    try:
        print(f"load average while measured: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    except OSError:
        pass
    Deck.objects.filter(pk=deck.pk).delete()


if __name__ == "__main__":
    main()
