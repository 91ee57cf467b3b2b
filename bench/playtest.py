"""Playtest job overhead: a job through the database (chunks, progress, finalize) against the same
games played in one loop, and optionally against real Celery workers.

    .venv/bin/python bench/playtest.py                       # WS sample deck, 5,000 games, SQLite in a temp dir
    .venv/bin/python bench/playtest.py --games 20000 --chunk 1000 --game ws --deck ws-skylark
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_playtest .venv/bin/python bench/playtest.py
    .venv/bin/python bench/playtest.py --celery redis://127.0.0.1:6379/12 --workers 2

Prints, for the same deck, seed and games:
- in-process: ``run_games`` in one loop (the engine alone), games/s;
- job (inline): ``playtest_create`` + every chunk + finalize in this process (snapshot, one DB row and
  progress update per chunk, aggregation, the 2,000-game opening-hand sample), games/s and the
  overhead against in-process;
- job (celery, optional): the job queued to ``--workers`` worker processes started here on their own
  queue, wall time from creation to done, games/s, and the number of distinct worker processes used.
The results of all runs are checked to be identical.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="ws")
    ap.add_argument("--deck", default="ws-skylark")
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--chunk", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--celery", default="", help="broker URL: also run the job on real workers")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    if "DATABASE_URL" not in os.environ:
        tmp = tempfile.mkdtemp(prefix="bench-playtest-")
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from catalog.models import Card
    from playtest.models import PlaytestJob
    from playtest.services import deck_from_snapshot, playtest_create
    from rules.decktext import parse_deck_text
    from rules.engine.core import run_games

    data = json.loads((ROOT / "fixtures" / "cards" / f"{args.game}.json").read_text())
    Card.objects.filter(game=args.game).delete()
    Card.objects.bulk_create([Card(game=args.game, **c) for c in data["cards"]])
    parsed = parse_deck_text((ROOT / "fixtures" / "decks" / f"{args.deck}.txt").read_text())
    zones = {z: parsed.counts(z) for z in {e.zone for e in parsed.entries}}
    settings.PLAYTEST_CHUNK_SIZE = args.chunk
    settings.PLAYTEST_MAX_GAMES_ANON = settings.PLAYTEST_MAX_GAMES_USER = 10**7
    settings.PLAYTEST_MAX_ACTIVE_ANON = 100

    settings.PLAYTEST_EXECUTOR = "inline"
    t = time.perf_counter()
    job = playtest_create(game=args.game, zones=zones, games=args.games, seed=args.seed, session_key=uuid.uuid4().hex)
    inline_s = time.perf_counter() - t
    job.refresh_from_db()
    assert job.status == "done", job.error
    deck = deck_from_snapshot(args.game, job.snapshot)
    t = time.perf_counter()
    expected = run_games(deck, args.seed, range(args.games), options=job.options, pilot=job.pilot).to_dict()
    loop_s = time.perf_counter() - t
    assert job.result == expected, "job result differs from the in-process run"
    db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"{args.game} {args.deck}: {args.games:,} games, chunks of {args.chunk:,} ({job.chunks_total} chunks), {db}")
    print(f"  in-process loop : {loop_s:7.2f} s  {args.games / loop_s:8,.0f} games/s")
    print(f"  job (inline)    : {inline_s:7.2f} s  {args.games / inline_s:8,.0f} games/s  "
          f"overhead {100 * (inline_s / loop_s - 1):+.1f}%")

    if args.celery:
        from config.celery import app

        queue = f"bench-{uuid.uuid4().hex[:8]}"
        env = {**os.environ, "CELERY_BROKER_URL": args.celery}
        log = open(Path(tempfile.gettempdir()) / f"{queue}.log", "wb")
        proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "-c",
                                 str(args.workers), "-n", f"{queue}@%h", "-l", "warning", "--without-gossip",
                                 "--without-mingle", "--without-heartbeat"], cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT)
        try:
            app.conf.update(broker_url=args.celery, task_always_eager=False, task_default_queue=queue)
            app._pool = None
            settings.PLAYTEST_EXECUTOR = "celery"
            time.sleep(6)  # worker start-up, not measured
            t = time.perf_counter()
            job = playtest_create(game=args.game, zones=zones, games=args.games, seed=args.seed,
                                  session_key=uuid.uuid4().hex)
            while job.status in (PlaytestJob.Status.QUEUED, PlaytestJob.Status.RUNNING):
                time.sleep(0.05)
                job.refresh_from_db()
            wall = time.perf_counter() - t
            assert job.status == "done", job.error
            assert job.result == expected, "celery result differs from the in-process run"
            procs = len(set(job.chunks.values_list("worker", flat=True)))
            print(f"  job (celery x{args.workers}) : {wall:7.2f} s  {args.games / wall:8,.0f} games/s  "
                  f"({procs} worker process(es) took chunks)")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print("  results identical: yes")


if __name__ == "__main__":
    main()
