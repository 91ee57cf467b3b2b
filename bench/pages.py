"""What one request of each page kind of ``bench/load.py``'s mix costs the web process, measured in
the process through Django's test client (no server, no network): Python function calls and SQL
queries per request (deterministic: the same on a busy machine) and thread CPU per request (the
least and the median of batches of 5: the least is the figure least disturbed by other work).

    .venv/bin/python bench/pages.py [--db postgres://postgres@127.0.0.1:5432/loadbench]
                                    [--kinds deck,cardpage,public,card] [--batches 10]

Uses the database ``bench/load.py`` prepared (100,000 cards and its load-test decks); run that first.
Kinds: ``deck`` (``/decks/<id>/`` of the load-test decks), ``cardpage`` (``/cards/<game>/<code>/``),
``public`` (``/decks/public/``, one in four ``?game=ws``), ``card`` (the card API). To compare two
versions, run this file from each checkout in turn (alternating) and compare. Not a test.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="postgres://postgres@127.0.0.1:5432/loadbench")
    ap.add_argument("--kinds", default="deck,cardpage,public,card")
    ap.add_argument("--batches", type=int, default=10, help="batches of 5 requests timed per kind")
    args = ap.parse_args()
    os.environ.update(DATABASE_URL=args.db, DJANGO_DEBUG="0", DJANGO_SECRET_KEY="bench-" + "x" * 50,
                      DJANGO_SECURE_SSL_REDIRECT="0", DJANGO_ALLOWED_HOSTS="testserver",
                      API_THROTTLE_ANON="100000000/minute", API_THROTTLE_USER="100000000/minute",
                      DATABASE_CONN_MAX_AGE="600", DJANGO_LOG_LEVEL="ERROR")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    warnings.simplefilter("ignore")  # whitenoise: no collected static files here
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from catalog.models import Card
    from decks.models import Deck

    client = Client()
    sample = list(Card.objects.order_by("pk").values_list("game", "code")[:5000:7])
    decks = list(Deck.objects.filter(owner__username="loadtest").order_by("pk").values_list("pk", flat=True))
    if not sample or not decks:
        raise SystemExit(f"{args.db} has no load-test cards or decks: run bench/load.py first")

    def url(kind: str, i: int) -> str:
        game, code = sample[i % len(sample)]
        return {"deck": f"/decks/{decks[i % len(decks)]}/", "cardpage": f"/cards/{game}/{code}/",
                "public": "/decks/public/" + ("?game=ws" if i % 4 == 0 else ""),
                "card": f"/api/v1/cards/{game}/{code}/"}[kind]

    print(f"{ROOT.name} ({ROOT}); load average before {os.getloadavg()[0]:.1f}")
    print(f"{'kind':9} {'calls/req':>10} {'queries/req':>12} {'CPU ms min':>11} {'CPU ms median':>14}")
    for kind in args.kinds.split(","):
        for i in range(20):  # warm-up: imports, template compilation, connections
            client.get(url(kind, i))
        profile = cProfile.Profile()
        with CaptureQueriesContext(connection) as queries:
            profile.enable()
            for i in range(20):
                client.get(url(kind, 100 + i))
            profile.disable()
        calls = pstats.Stats(profile).total_calls / 20
        n_queries = len(queries) / 20  # now: each request clears the connection's query log
        cpu = []
        for b in range(args.batches):
            start = time.thread_time()
            for i in range(5):
                response = client.get(url(kind, 200 + 5 * b + i))
                if response.status_code != 200:
                    raise SystemExit(f"{url(kind, 200 + 5 * b + i)}: {response.status_code}")
            cpu.append((time.thread_time() - start) / 5 * 1000)
        cpu.sort()
        print(f"{kind:9} {calls / 1000:9.1f}k {n_queries:12.1f} {cpu[0]:11.1f} {cpu[len(cpu) // 2]:14.1f}")
    print(f"load average after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
