"""Issue 19, findings 6 and 13, on real Celery workers and Redis.

6. Killing the worker's main process, or Redis restarting empty, left a job "running" for 11–13
   minutes, then failed it only if someone ran the sweeper (nothing did by default). Now every
   worker looks for lost chunks itself (``tasks.recover_and_send`` every
   ``PLAYTEST_RECOVER_INTERVAL``): the job's lost chunks are queued again and it finishes with
   exactly the in-process result, its ``notes`` saying what happened. Nothing else is started here:
   no beat, no sweeper command.
13. One player's large job no longer makes another player's small job wait behind all its chunks:
   each player has at most ``PLAYTEST_PLAYER_CHUNKS`` chunks queued or running.

Timing knobs (stale after 4 s, looked for every second) go to the worker subprocesses through their
environment. Bounded: every wait has a deadline; the throwaway Redis is on its own port.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from playtest.models import PlaytestJob
from playtest.services import deck_from_snapshot, playtest_create
from rules.engine.core import run_games
from tests.test_faults_redis import URL as THROWAWAY_URL
from tests.test_faults_redis import _start_redis
from tests.test_playtest_celery import REDIS_URL, _redis_ok, _zones, running_worker
from tests.test_playtest_pages import load_catalog

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]
KNOBS = {"PLAYTEST_STALE_SECONDS": "4", "PLAYTEST_RECOVER_INTERVAL": "1", "PLAYTEST_PLAYER_CHUNKS": "2",
         "PLAYTEST_MAX_GAMES_ANON": "50000", "PLAYTEST_MAX_GAMES_USER": "50000"}


@pytest.fixture
def knobs(settings):
    for name, value in KNOBS.items():
        setattr(settings, name, int(value))
    settings.PLAYTEST_CHUNK_SIZE = 250
    load_catalog("ws")


def _in_process(job: PlaytestJob) -> dict:
    deck = deck_from_snapshot(job.game, job.snapshot)
    return run_games(deck, job.seed, range(job.games), options=job.options, pilot=job.pilot).to_dict()


def _until(job: PlaytestJob, done, timeout: float) -> PlaytestJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if done(job):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job.pk} is {job.status} at {job.progress}/{job.games} after {timeout} s; "
                         f"notes {job.notes}, error {job.error!r}")


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def test_killing_the_worker_main_process_loses_no_job(knobs, settings, tmp_path):
    if not _redis_ok():
        pytest.skip(f"needs Redis at {REDIS_URL} (CI starts it)")
    with running_worker(settings, tmp_path, REDIS_URL, prefix="recover", concurrency=1, env=KNOBS) as first:
        job = playtest_create(game="ws", zones=_zones("ws-skylark"), games=3000, seed=19, session_key="kill-main")
        job = _until(job, lambda j: j.progress > 0, timeout=90)
        # the worker's main process dies (SIGKILL, no clean-up), and its pool children with it
        pids = [first["proc"].pid, *_children(first["proc"].pid)]
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        first["proc"].wait()
        queue = first["queue"]
    killed_at = time.monotonic()
    # a worker comes back (as a supervisor restarts it); nobody runs a sweeper
    with running_worker(settings, tmp_path, REDIS_URL, prefix="recover", concurrency=1, env=KNOBS, queue=queue):
        job = _until(job, lambda j: j.status not in PlaytestJob.ACTIVE, timeout=120)
    print(f"after the kill: {job.status} in {time.monotonic() - killed_at:.1f} s; notes {job.notes}")
    assert job.status == "done", (job.error, job.notes)
    assert job.result == _in_process(job)  # every game counted exactly once
    # (the killed chunk comes back by itself: unacknowledged, Redis redelivers it; what the old
    # worker's queue still held was dropped with it and is queued again by the new worker)


def test_redis_restarting_empty_loses_no_job(knobs, settings, tmp_path):
    if not shutil.which("redis-server"):
        pytest.skip("needs redis-server (Debian's redis-server package; CI has it)")
    redis = _start_redis()
    try:
        with running_worker(settings, tmp_path, THROWAWAY_URL, prefix="recover-redis", concurrency=1, env=KNOBS):
            job = playtest_create(game="ws", zones=_zones("ws-skylark"), games=3000, seed=7, session_key="redis-empty")
            job = _until(job, lambda j: j.progress > 0, timeout=90)
            redis.kill()  # SIGKILL, nothing saved: the queued chunk messages are gone
            redis.wait()
            time.sleep(1.0)
            redis = _start_redis()
            restarted = time.monotonic()
            job = _until(job, lambda j: j.status not in PlaytestJob.ACTIVE, timeout=120)
        print(f"after the Redis restart: {job.status} in {time.monotonic() - restarted:.1f} s; notes {job.notes}")
        assert job.status == "done", (job.error, job.notes)
        assert job.result == _in_process(job)
        assert any(n["code"] == "requeued" for n in job.notes), job.notes
    finally:
        redis.send_signal(signal.SIGTERM)
        try:
            redis.wait(timeout=20)
        except subprocess.TimeoutExpired:
            redis.kill()


def test_one_players_large_job_does_not_make_anothers_small_job_wait(knobs, settings, tmp_path):
    if not _redis_ok():
        pytest.skip(f"needs Redis at {REDIS_URL} (CI starts it)")
    with running_worker(settings, tmp_path, REDIS_URL, prefix="fair", concurrency=1, env=KNOBS):
        big = playtest_create(game="ws", zones=_zones("ws-skylark"), games=4000, seed=1, session_key="player-a")
        big = _until(big, lambda j: j.progress > 0, timeout=90)
        small = playtest_create(game="ws", zones=_zones("ws-skylark"), games=100, seed=2, session_key="player-b")
        started = time.monotonic()
        small = _until(small, lambda j: j.status not in PlaytestJob.ACTIVE, timeout=120)
        waited = time.monotonic() - started
        big.refresh_from_db()
        print(f"small job done in {waited:.1f} s; the large one at {big.progress}/{big.games}")
        assert small.status == "done"
        # it waited for at most the large job's chunks already queued (2), not for all 16
        assert big.status in PlaytestJob.ACTIVE and big.progress <= big.games // 2, (big.progress, big.games)
        big = _until(big, lambda j: j.status not in PlaytestJob.ACTIVE, timeout=180)
        assert big.status == "done" and big.result == _in_process(big)
