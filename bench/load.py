"""Load test: gunicorn on PostgreSQL with ~100,000 cards, a fixed request mix from N concurrent
users on loopback, for a bounded time. Prints throughput, p50/p95/p99 per kind and overall, errors.

    .venv/bin/python bench/load.py [--db postgres://postgres@127.0.0.1:5432/loadbench] [--cards 100000]
                                   [--users 50] [--think 1] [--seconds 30] [--workers 3] [--threads 8]

The script creates the database if needed, migrates it, tops it up to ``--cards`` synthetic cards
(``manage.py generate_cards``, which analyses the tables after), adds one public deck per game for
the deck page and validates, starts gunicorn on 127.0.0.1 (production settings, throttling raised out of
the way: this measures the site, not the rate limit), runs the mix and stops gunicorn.
Mix (weights): search 35 (API ``q`` queries), card detail 20 (API), deck validate 10 (API POST),
deck page 15 (HTML, ``/decks/<id>/``: pictures, sample hand, the WS deck checked against a format),
card page 12 (HTML, ``/cards/<game>/<code>/``: picture, printings, decks using the card), public decks 8
(HTML, ``/decks/public/``, one in four filtered by game). Each user waits ``--think`` seconds (mean) between requests
like a person reading a page; ``--think 0`` sends flat out and measures the saturation throughput. Only 127.0.0.1 is contacted; loops are bounded in time
and count. Not a test.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST, PORT = "127.0.0.1", 8765
QUERIES = ["game:ws power>=9000", "name:runner", "game:pc cost<=2", "t:character game:chaos", "captain",
           "game:lycee ap>=2", "game:phantasma mhp>=300", "o:draw game:ws", "maid", "game:ws level:3 soul>=2"]


def ensure_database(db: str) -> None:
    """Create the PostgreSQL database named in ``db`` if it does not exist yet."""
    import psycopg
    from psycopg import sql

    base, _, name = db.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"created database {name}")


def prepare(db: str, cards: int) -> dict:
    ensure_database(db)
    os.environ["DATABASE_URL"] = db
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from catalog.models import Card
    from decks.models import Deck
    from decks.services import deck_create

    call_command("migrate", verbosity=0)
    n = Card.objects.count()
    if n < cards:  # top up with synthetic cards (about 50 s for 100,000 on this machine); analyses after
        real = Card.objects.exclude(code__startswith="SYN").count()
        print(f"{db} holds {n} cards; generating {cards - real} synthetic ones")
        call_command("generate_cards", count=cards - real, clear=True)
        n = Card.objects.count()
    from decks.models import Format

    user, _ = get_user_model().objects.get_or_create(username="loadtest")
    fmt, _ = Format.objects.get_or_create(game="ws", code="standard", defaults={"name": "Standard (load test)"})
    decks, texts = [], []
    for game in ("ws", "pc", "chaos", "lycee", "phantasma"):
        codes = list(Card.objects.filter(game=game).order_by("pk").values_list("code", flat=True)[:20])
        zones = {"main": {c: 2 for c in codes}}
        deck = Deck.objects.filter(owner=user, game=game).first() or deck_create(
            owner=user, game=game, name=f"load {game}", zones=zones, visibility="public",
            format_code=fmt.code if game == "ws" else None)
        if game == "ws" and deck.format_id is None:  # a deck made by an earlier run: check it against the format too
            Deck.objects.filter(pk=deck.pk).update(format=fmt)
        decks.append(deck.pk)
        texts.append((game, "\n".join(f"2 {c}" for c in codes)))
    sample = list(Card.objects.order_by("?").values_list("game", "code")[:500])
    return {"cards": n, "decks": decks, "texts": texts, "sample": sample}


def start_server(db: str, workers: int, threads: int, server: str = "asgi") -> subprocess.Popen:
    """gunicorn on 127.0.0.1:PORT: ``asgi`` is the production configuration (config/gunicorn.conf.py:
    uvicorn workers reading whole requests, Django in ``threads`` threads each); ``gthread`` the earlier
    one (gunicorn's threads read the requests themselves)."""
    env = {**os.environ, "DATABASE_URL": db, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
           "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_ALLOWED_HOSTS": HOST,
           "API_THROTTLE_ANON": "100000000/minute", "API_THROTTLE_USER": "100000000/minute",
           "DATABASE_CONN_MAX_AGE": "600", "DJANGO_LOG_LEVEL": "ERROR"}
    import socket

    with socket.socket() as probe:  # another server there would answer for ours
        if probe.connect_ex((HOST, PORT)) == 0:
            raise SystemExit(f"{HOST}:{PORT} is in use; choose another --port")
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    if server == "asgi":
        env["GUNICORN_THREADS"] = str(threads)
        cmd = [gunicorn, "-c", "config/gunicorn.conf.py", "-b", f"{HOST}:{PORT}", "-w", str(workers),
               "--log-level", "warning", "--keep-alive", "75"]
    else:
        cmd = [gunicorn, "config.wsgi", "-b", f"{HOST}:{PORT}", "-w", str(workers), "-k", "gthread",
               "--threads", str(threads), "--log-level", "warning", "--backlog", "512", "--keep-alive", "75"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)
    import httpx

    for _ in range(100):
        try:
            if httpx.get(f"http://{HOST}:{PORT}/api/v1/cards/?page_size=1", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("gunicorn did not answer")


async def run(data: dict, users: int, seconds: float, max_requests: int, think: float = 0.0) -> dict:
    import httpx

    kinds = (["search"] * 35 + ["card"] * 20 + ["validate"] * 10 + ["deck"] * 15 + ["cardpage"] * 12
             + ["public"] * 8)
    lat: dict[str, list[float]] = {k: [] for k in set(kinds)}
    errors: dict[str, int] = {}
    deadline = time.perf_counter() + seconds
    sent = 0
    limits = httpx.Limits(max_connections=users, max_keepalive_connections=users)

    async def user(i: int, client: httpx.AsyncClient) -> None:
        nonlocal sent
        rng = random.Random(i)
        if think:  # users arrive spread over one think time, not all in the same millisecond
            await asyncio.sleep(rng.uniform(0, think))
        while time.perf_counter() < deadline and sent < max_requests:
            sent += 1
            kind = rng.choice(kinds)
            if kind == "search":
                req = client.get("/api/v1/cards/", params={"q": rng.choice(QUERIES)})
            elif kind == "card":
                game, code = rng.choice(data["sample"])
                req = client.get(f"/api/v1/cards/{game}/{code}/")
            elif kind == "validate":
                game, text = rng.choice(data["texts"])
                req = client.post("/api/v1/decks/validate/", json={"game": game, "text": text})
            elif kind == "cardpage":
                game, code = rng.choice(data["sample"])
                req = client.get(f"/cards/{game}/{code}/")
            elif kind == "public":
                req = client.get("/decks/public/", params={"game": "ws"} if rng.random() < 0.25 else None)
            else:
                req = client.get(f"/decks/{rng.choice(data['decks'])}/")
            t = time.perf_counter()
            try:
                r = await req
                ok = r.status_code == 200
                label = str(r.status_code)
            except httpx.HTTPError as exc:
                ok, label = False, type(exc).__name__
            lat[kind].append(time.perf_counter() - t)
            if not ok:
                errors[f"{kind} {label}"] = errors.get(f"{kind} {label}", 0) + 1
            if think:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))

    async with httpx.AsyncClient(base_url=f"http://{HOST}:{PORT}", limits=limits, timeout=30) as client:
        t0 = time.perf_counter()
        await asyncio.gather(*(user(i, client) for i in range(users)))
        wall = time.perf_counter() - t0
    return {"lat": lat, "errors": errors, "wall": wall}


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU jiffies of the whole machine so far (/proc/stat; zeros elsewhere)."""
    try:
        fields = [float(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0, 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return sum(fields) - idle, sum(fields)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1] * 1000 if len(values) > 1 else values[0] * 1000


def main() -> None:
    global PORT
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="postgres://postgres@127.0.0.1:5432/loadbench",
                    help="PostgreSQL database (created if missing)")
    ap.add_argument("--cards", type=int, default=100_000, help="fill the database up to this many cards first")
    ap.add_argument("--users", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--workers", type=int, default=3)
    ap.add_argument("--threads", type=int, default=8, help="Django threads per worker")
    ap.add_argument("--server", choices=["asgi", "gthread"], default="asgi",
                    help="asgi: the production configuration (config/gunicorn.conf.py); gthread: the earlier one")
    ap.add_argument("--max-requests", type=int, default=200_000)
    ap.add_argument("--port", type=int, default=PORT, help=f"port on 127.0.0.1 (default {PORT}; must be free)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds each user waits between requests (uniform 0.5x-1.5x); 0 = flat out")
    args = ap.parse_args()
    PORT = args.port
    data = prepare(args.db, args.cards)
    load_before = os.getloadavg()
    server = start_server(args.db, args.workers, args.threads, args.server)
    try:
        asyncio.run(run(data, min(args.users, 10), 3, 2000))  # warm-up: connections, caches
        busy0, total0 = machine_busy()
        client0 = time.process_time()
        res = asyncio.run(run(data, args.users, args.seconds, args.max_requests, args.think))
        client_cpu = time.process_time() - client0
        busy1, total1 = machine_busy()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    server_cpu = sum(os.times()[2:4])  # gunicorn master + its workers (reaped), incl. warm-up
    everything = [x for v in res["lat"].values() for x in v]
    total = len(everything)
    print(f"machine: {platform.node()} {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{data['cards']} cards; gunicorn {args.workers} workers "
          f"({'uvicorn, config/gunicorn.conf.py' if args.server == 'asgi' else 'gthread'}) x {args.threads} threads; "
          f"{args.users} users, think time {args.think:g}s, for {res['wall']:.1f}s")
    print(f"{'kind':10} {'requests':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for kind in ("search", "card", "validate", "deck", "cardpage", "public"):
        v = res["lat"][kind]
        print(f"{kind:10} {len(v):9d} {pct(v, 50):8.1f} {pct(v, 95):8.1f} {pct(v, 99):8.1f}")
    print(f"{'all':10} {total:9d} {pct(everything, 50):8.1f} {pct(everything, 95):8.1f} {pct(everything, 99):8.1f}")
    print(f"throughput: {total / res['wall']:.1f} requests/s; errors: {sum(res['errors'].values())} "
          f"{res['errors'] or ''}")
    busy = (busy1 - busy0) / (total1 - total0) if total1 > total0 else float("nan")
    print(f"CPU: machine {100 * busy:.0f}% busy ({os.cpu_count()} cores) during the run; load generator "
          f"{1000 * client_cpu / max(total, 1):.1f} ms/request; gunicorn {1000 * server_cpu / max(total, 1):.1f} ms/request "
          f"(incl. warm-up); the rest is PostgreSQL and the system")
    load_after = os.getloadavg()
    print(f"load average (1/5/15 min): before {load_before[0]:.2f}/{load_before[1]:.2f}/{load_before[2]:.2f}, "
          f"after {load_after[0]:.2f}/{load_after[1]:.2f}/{load_after[2]:.2f} (other work on the machine shows here)")
    p95 = pct(everything, 95)
    print(f"target (zero errors, p95 < 100 ms): {'met' if p95 < 100 and not res['errors'] else 'MISSED'}")


if __name__ == "__main__":
    main()
