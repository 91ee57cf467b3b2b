"""Search benchmark on PostgreSQL: 100,000 synthetic cards plus the real Weiß Schwarz catalog, 20
synthetic queries and 30 real player queries through the API.

    .venv/bin/python bench/search.py [--cards 100000] [--reps 20] [--db postgres://postgres@127.0.0.1:5432/search_bench]
        [--real-ws ../shared/carddata/weiss_schwarz] [--only player|synthetic] [--query Q ...]

Creates the database if needed, migrates it, fills it with ``generate_cards`` and imports the real WS
catalog (both sources, AlphaC2 then HOTC, as docs/importing.md; kept between runs when the counts
match), then for each query: p50/p95 of the full API request (Django test client: URL routing,
query parsing, the count and page queries, serialization, JSON rendering) and p50/p95 of the same SQL
that request ran (captured, then executed directly with the cursor), the ratio API p50 / SQL p50, and
the Python CPU time per request. Prints a Markdown table; not a test. Targets (issue 17): API p95
< 30 ms for every query, ratio < 2.

"WSGI" times the same request without the test client: the environ a WSGI server would pass,
handed to Django's ``WSGIHandler`` and the body read, as a server does (the test client adds work
no server does: it copies the request, connects template and exception signals on every request and
decorates the response); "WSGI ratio" is WSGI p50 / SQL p50. Production serves ASGI (uvicorn,
config/gunicorn.conf.py), which adds its own thread hop for a sync view on top of this.

The API request, the WSGI request, the SQL and the DB run are timed alternately, one of each per
round (``--reps`` rounds after 2 warm-up rounds), so a change in the machine's load reaches all of
them alike: a ratio is never an API time taken in a busy moment over an SQL time taken in a quiet
one (or the reverse). The statements are captured before the rounds from one request of the query.

"SQL" is that request's SQL as text (the statement timeout and the search statement, bound, sent
as one simple-protocol query on the benchmark's connection, results fetched): what the search costs
the database sent as SQL, parsed and planned every time. The API runs a search asked again as a
server-side prepared statement of its connection (catalog.selectors.card_rows_from_statement: planned
once), so its database time is below the SQL column; "DB" times exactly that part alone (the kept
statement through ``card_rows_from_statement``, prepared as the API runs it, rows fetched), and
API − DB is the request's Python and WSGI/Django work.

The cards API keeps the statement of a search asked again (catalog.api.views): the timed runs repeat
one request, so they are answered from a kept statement, as a repeated search or another page view
of it is. "new p50" is the test client's p50 with the kept statements forgotten before each request:
a query the process has not seen (parsed, compiled, turned into SQL again and planned by PostgreSQL).
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

# What players type (issue 17): names, traits, levels, triggers and text in kana, kanji and English,
# codes as printed or typed loosely, the interface's words in Japanese and Chinese.
PLAYER_QUERIES = [
    "《音楽》",
    "「結弦」",
    "结弦",
    "AB/W11-002",
    "ab-w11-002",
    "AB/W11",
    "トリガー:扉",
    "トリガー:ソウル 色:黄",
    "t:クライマックス トリガー:門",
    "色:黄 レベル:3",
    "game:ws 《音楽》 レベル>=2",
    "かなで",
    "ハルヒ",
    "初音ミク",
    "涼宮",
    "o:アンコール",
    "o:助太刀",
    'o:"1枚引く"',
    "o:encore",
    'o:"draw a card"',
    "misaka",
    "《魔法》 パワー>=9000",
    "game:ws level:0 cost:0 power>=3000",
    "t:イベント 色:青",
    "トリガー:本 or トリガー:宝",
    "《死》",
    "颜色:红 等级:3",
    "t:高潮卡 触发:门",
    "o:経験",
    "-《音楽》 game:ws level:3 c:red",
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
    ap.add_argument("--db", default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/search_bench"))
    ap.add_argument("--real-ws", default=str(ROOT.parent / "shared" / "carddata" / "weiss_schwarz"),
                    help="the real WS catalog (alphac2_jp/*.jsonl then rcyberw_hotc_en_jp/*.txt); '' for none")
    ap.add_argument("--only", choices=("player", "synthetic"), help="run one of the two query lists")
    ap.add_argument("--query", action="append", default=[], help="run this query (repeatable) instead of the lists")
    ap.add_argument("--cards", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--regenerate", action="store_true", help="drop and regenerate the synthetic cards")
    args = ap.parse_args()

    ensure_database(args.db)
    os.environ["DATABASE_URL"] = args.db
    os.environ.setdefault("API_THROTTLE_ANON", "10000000/minute")  # measure the search, not the rate limit
    os.environ.setdefault("API_THROTTLE_USER", "10000000/minute")  # (UserRateThrottle counts anonymous clients too)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client, RequestFactory
    from django.test.utils import CaptureQueriesContext

    from catalog.api import views
    from catalog.api.views import statement_cache_clear
    from catalog.models import Card
    from catalog.selectors import card_rows_from_statement
    from catalog.timeouts import timeout_seconds

    call_command("migrate", verbosity=0)
    have = Card.objects.filter(code__startswith="SYN").count()
    real = Path(args.real_ws) if args.real_ws else None
    if args.regenerate or have != args.cards:
        Card.objects.all().delete()
        t0 = time.perf_counter()
        call_command("generate_cards", count=args.cards, seed=args.seed, clear=True)
        print(f"loaded {args.cards} cards in {time.perf_counter() - t0:.1f}s")
    if real is not None and not Card.objects.filter(game="ws").exclude(code__startswith="SYN").exists():
        t0 = time.perf_counter()
        for files in (sorted((real / "alphac2_jp").glob("*.jsonl")), sorted((real / "rcyberw_hotc_en_jp").glob("*.txt"))):
            call_command("import_cards", *map(str, files), game="ws", allow_skips=True, verbosity=0,
                         stdout=open(os.devnull, "w"), stderr=open(os.devnull, "w"))
        print(f"imported the real WS catalog in {time.perf_counter() - t0:.1f}s")
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE catalog_card")
        cur.execute("VACUUM ANALYZE catalog_cardfacet")
    settings.DEBUG = False  # no query log overhead in the timed runs
    client = Client()
    handler = WSGIHandler()
    base_environ = RequestFactory()._base_environ()
    total = Card.objects.count()
    real_ws = Card.objects.filter(game="ws").exclude(code__startswith="SYN").count()
    print(f"\n{total} cards ({real_ws} real WS), PostgreSQL {connection.pg_version}, Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, {args.reps} runs per query (after 2 warm-ups), load average {_load()}\n")
    print("| query | hits | API p50 | API p95 | SQL p50 | SQL p95 | ratio | py CPU | WSGI p50 | WSGI p95 | WSGI ratio "
          "| DB p50 | new p50 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    worst_p95 = worst_ratio = worst_wsgi_p95 = worst_wsgi_ratio = 0.0
    over_p95, over_ratio, over_wsgi_ratio = [], [], []

    def wsgi_get(query_string: str) -> bytes:
        environ = {**base_environ, "PATH_INFO": "/api/v1/cards/", "QUERY_STRING": query_string}
        status: list[str] = []
        body = handler(environ, lambda s, headers, exc_info=None: status.append(s))
        try:
            data = b"".join(body)
        finally:
            body.close()
        assert status[0].startswith("200"), (status, data[:300])
        return data

    queries = args.query or {"player": PLAYER_QUERIES, "synthetic": QUERIES}.get(args.only or "", PLAYER_QUERIES + QUERIES)
    for q in queries:
        query_string = urlencode({"q": q})
        url = "/api/v1/cards/?" + query_string
        for _ in range(2):
            response = client.get(url)
            wsgi_get(query_string)
        assert response.status_code == 200, (q, response.content[:300])
        hits = response.json()["count"]
        with CaptureQueriesContext(connection) as ctx:
            client.get(url)
        # The request's statements as one simple-protocol query (one round trip, as the request's).
        statement = "; ".join(qq["sql"] for qq in ctx.captured_queries)
        kept = next(reversed(views._statements.items()))
        assert kept[0][1] == q, (kept[0], q)

        def run_sql(statement: str = statement) -> None:
            with connection.cursor() as cur:
                cur.execute(statement)
                while True:
                    if cur.description is not None:
                        cur.fetchall()
                    if not cur.nextset():
                        break

        def run_db(kept: tuple = kept) -> None:
            card_rows_from_statement(kept[1], timeout=timeout_seconds(), urls=kept[0][-1], prepare=True)

        api, cpu, wsgi, sql, db = [], [], [], [], []
        for rep in range(args.reps + 2):  # 2 warm-up rounds
            t0, c0 = time.perf_counter(), time.process_time()
            r = client.get(url)
            t1, c1 = time.perf_counter(), time.process_time()
            assert r.status_code == 200
            wsgi_get(query_string)
            t2 = time.perf_counter()
            run_sql()
            t3 = time.perf_counter()
            run_db()
            t4 = time.perf_counter()
            if rep >= 2:
                api.append((t1 - t0) * 1000)
                cpu.append((c1 - c0) * 1000)
                wsgi.append((t2 - t1) * 1000)
                sql.append((t3 - t2) * 1000)
                db.append((t4 - t3) * 1000)
        new = []
        for _ in range(args.reps):
            statement_cache_clear()
            t0 = time.perf_counter()
            client.get(url)
            new.append((time.perf_counter() - t0) * 1000)
        a50, a95, s50, s95 = pct(api, 50), pct(api, 95), pct(sql, 50), pct(sql, 95)
        w50, w95 = pct(wsgi, 50), pct(wsgi, 95)
        ratio = a50 / s50 if s50 else float("inf")
        wsgi_ratio = w50 / s50 if s50 else float("inf")
        worst_p95, worst_ratio = max(worst_p95, a95), max(worst_ratio, ratio)
        worst_wsgi_p95, worst_wsgi_ratio = max(worst_wsgi_p95, w95), max(worst_wsgi_ratio, wsgi_ratio)
        label = f"`{q}`" if q else "(empty query: all cards)"
        over_p95 += [label] if a95 >= 30 else []
        over_ratio += [label] if ratio >= 2 else []
        over_wsgi_ratio += [label] if wsgi_ratio >= 2 else []
        shown = f"{hits}" if hits < 1000 else "1000+"
        print(f"| {label} | {shown} | {a50:.1f} | {a95:.1f} | {s50:.1f} | {s95:.1f} | {ratio:.2f} | {pct(cpu, 50):.1f} "
              f"| {w50:.1f} | {w95:.1f} | {wsgi_ratio:.2f} | {pct(db, 50):.2f} | {pct(new, 50):.1f} |")
    n = len(queries)
    print(f"\nworst API p95 {worst_p95:.1f} ms (target < 30), worst ratio {worst_ratio:.2f} (target < 2); "
          f"worst WSGI p95 {worst_wsgi_p95:.1f} ms, worst WSGI ratio {worst_wsgi_ratio:.2f}")
    print(f"API p95 < 30 ms: {n - len(over_p95)} of {n}{' (over: ' + ', '.join(over_p95) + ')' if over_p95 else ''}")
    print(f"ratio < 2: {n - len(over_ratio)} of {n}; WSGI ratio < 2: {n - len(over_wsgi_ratio)} of {n}")
    print("ms; 'hits' is the API count (exact up to 1000); 'py CPU' is the benchmark process's CPU time per")
    print("request (p50): the Python share of the API time, which a loaded machine does not inflate. 'DB' is the")
    print("API's own database part (the kept statement, prepared); API, WSGI, SQL and DB alternate in each round.")
    print(f"load average after: {_load()}")


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


if __name__ == "__main__":
    main()
