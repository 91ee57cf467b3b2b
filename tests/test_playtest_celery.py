"""Playtest jobs on a real Celery worker with the Redis on this machine (not eager mode).

The fixture starts ``celery -A config worker`` as a subprocess on its own queue, pointed at this
test run's database (the PostgreSQL test database, or on SQLite the file test database that
``tests/conftest.py`` selects when ``celery`` tests run) and at ``redis://127.0.0.1:6379/13``
(override with ``PLAYTEST_TEST_REDIS_URL``). Data is committed (``transactional_db``) so the worker
sees it.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings as dj_settings
from django.db import connection

from playtest.models import PlaytestJob
from playtest.services import deck_from_snapshot, playtest_cancel, playtest_create
from rules.decktext import parse_deck_text
from rules.engine.core import run_games
from tests.test_playtest_pages import deck_text, load_catalog

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]
REDIS_URL = os.environ.get("PLAYTEST_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
BASE = Path(dj_settings.BASE_DIR)


def _redis_ok() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping())
    except Exception:  # noqa: BLE001
        return False


def _database_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        name = str(s["NAME"])
        if "memory" in name:
            pytest.fail("SQLite test database is in memory; tests/conftest.py should have made it a file")
        return f"sqlite:///{name}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@contextlib.contextmanager
def running_worker(settings, tmp_path: Path, broker_url: str, *, prefix: str, concurrency: int,
                   env: dict[str, str] | None = None, queue: str | None = None):
    """A ``celery -A config worker`` subprocess on its own queue at ``broker_url``, with the app in
    this process pointed at it (not eager); yields ``{"proc", "log", "queue"}``. Shared by the
    fault tests (tests/test_faults_redis.py)."""
    from config.celery import app

    queue = queue or f"{prefix}-{uuid.uuid4().hex[:10]}"
    log_path = tmp_path / f"worker-{uuid.uuid4().hex[:6]}.log"
    env = {**os.environ, "CELERY_BROKER_URL": broker_url, "DATABASE_URL": _database_url(),
           "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONUNBUFFERED": "1",
           "CELERY_TASK_DEFAULT_QUEUE": queue, **(env or {})}  # chunks the worker queues itself go there too
    cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "-c", str(concurrency),
           "-P", "prefork", "-n", f"{queue}@%h", "-l", "info", "--without-gossip", "--without-mingle",
           "--without-heartbeat"]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=BASE, env=env, stdout=log, stderr=subprocess.STDOUT)
    old = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "task_default_queue")}
    app.conf.update(broker_url=broker_url, task_always_eager=False, task_default_queue=queue)
    app._pool = None
    app.amqp._producer_pool = None
    settings.PLAYTEST_EXECUTOR = "celery"
    try:
        deadline = time.monotonic() + 60
        while b"ready." not in log_path.read_bytes():
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("celery worker did not start:\n" + log_path.read_text(errors="replace")[-3000:])
            time.sleep(0.2)
        yield {"proc": proc, "log": log_path, "queue": queue}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        with contextlib.suppress(Exception), app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)  # drop what is left on the test queue
        app.conf.update(old)
        app._pool = None
        app.amqp._producer_pool = None


@pytest.fixture
def celery_worker(settings, tmp_path):
    if not _redis_ok():
        pytest.skip(f"needs Redis at {REDIS_URL} (CI starts it)")
    with running_worker(settings, tmp_path, REDIS_URL, prefix="playtest-test", concurrency=2) as worker:
        yield worker


def _zones(name: str) -> dict[str, dict[str, int]]:
    return {"main": parse_deck_text(deck_text(name)).counts("main")}


def _wait(job: PlaytestJob, until, timeout: float = 120.0, seen: list | None = None) -> PlaytestJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if seen is not None and (not seen or seen[-1] != job.progress):
            seen.append(job.progress)
        if until(job):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job.pk} still {job.status} at {job.progress}/{job.games} after {timeout}s")


def test_worker_runs_job_with_progress_and_exact_result(celery_worker, settings):
    load_catalog("ws")
    settings.PLAYTEST_CHUNK_SIZE = 200
    job = playtest_create(game="ws", zones=_zones("ws-skylark"), games=4000, seed=77, session_key="celery")
    assert job.chunks_total == 20
    seen: list[int] = []
    job = _wait(job, lambda j: j.status not in ("queued", "running"), seen=seen)
    log = celery_worker["log"].read_text(errors="replace")
    assert job.status == "done", (job.error, log[-3000:])
    # progress was reported while it ran, in whole chunks, never backwards
    assert any(0 < p < 4000 for p in seen), seen
    assert seen == sorted(seen) and all(p % 200 == 0 for p in seen)
    assert job.progress == 4000 and job.chunks.count() == 20
    assert job.started <= job.finished
    workers = set(job.chunks.values_list("worker", flat=True))
    assert all(celery_worker["queue"] in w for w in workers), workers
    # the combined result is exactly the in-process run with the same seed
    deck = deck_from_snapshot("ws", job.snapshot)
    assert job.result == run_games(deck, 77, range(4000), options=job.options, pilot=job.pilot).to_dict()
    assert "playtest.tasks.playtest_chunk_task" in log


def test_worker_job_can_be_cancelled(celery_worker, settings):
    load_catalog("ws")
    settings.PLAYTEST_CHUNK_SIZE = 250
    settings.PLAYTEST_MAX_GAMES_ANON = 50_000
    job = playtest_create(game="ws", zones=_zones("ws-nocturne"), games=30_000, seed=1, session_key="cancel")
    job = _wait(job, lambda j: j.progress > 0, timeout=60)
    assert playtest_cancel(job=job) is True
    time.sleep(2.0)  # chunks in flight finish or notice the cancellation; the rest are revoked / no-ops
    job.refresh_from_db()
    n_chunks = job.chunks.count()
    time.sleep(1.5)
    job.refresh_from_db()
    assert job.status == "cancelled" and job.result is None
    assert job.chunks.count() == n_chunks < job.chunks_total
    assert job.progress == n_chunks * 250 < 30_000


def test_unreachable_broker_fails_job_with_503(settings):
    """With a broker configured but down, the API answers 503 and the job says why (no eternal queue)."""
    from rest_framework.test import APIClient

    from config.celery import app

    load_catalog("ws")
    old = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "broker_connection_retry",
                                    "broker_connection_max_retries", "broker_transport_options")}
    app.conf.update(broker_url="redis://127.0.0.1:1/0", task_always_eager=False, broker_connection_retry=False,
                    broker_connection_max_retries=0, broker_transport_options={"max_retries": 0})
    app._pool = None
    app.amqp._producer_pool = None
    settings.PLAYTEST_EXECUTOR = "celery"
    try:
        r = APIClient().post("/api/v1/playtests/", {"game": "ws", "text": deck_text("ws-skylark"), "games": 10},
                             format="json")
    finally:
        app.conf.update(old)
        app._pool = None
        app.amqp._producer_pool = None
    assert r.status_code == 503, r.content
    error = r.json()["error"]
    assert r["Retry-After"] and error["code"] == "queue_unavailable" and "could not be reached" in error["message"]
    assert error["params"]["job"]["status"] == "failed"
    assert PlaytestJob.objects.get().status == "failed"


def test_worker_process_killed_mid_chunk_loses_nothing(celery_worker, settings):
    """acks_late + reject_on_worker_lost: a chunk whose process dies is redelivered and played again;
    the job still finishes with exactly the in-process result."""
    import signal

    load_catalog("ws")
    # Chunks long enough (~2 s each here) that a pool process is still inside one when it is killed:
    # 1,000-game chunks took 0.36 s once the engines got faster, and the kill could land between two.
    settings.PLAYTEST_CHUNK_SIZE = 5000
    settings.PLAYTEST_MAX_GAMES_ANON = 50_000
    job = playtest_create(game="ws", zones=_zones("ws-skylark"), games=20_000, seed=13, session_key="kill")
    job = _wait(job, lambda j: j.status == "running", timeout=60)
    time.sleep(0.3)  # both pool processes are inside a chunk now
    children = subprocess.run(["pgrep", "-P", str(celery_worker["proc"].pid)], capture_output=True, text=True)
    pids = [int(p) for p in children.stdout.split()]
    assert pids, "no worker pool processes found"
    os.kill(pids[0], signal.SIGKILL)
    job = _wait(job, lambda j: j.status not in ("queued", "running"), timeout=180)
    log = celery_worker["log"].read_text(errors="replace")
    assert job.status == "done", (job.error, log[-3000:])
    assert "WorkerLostError" in log  # the killed process was inside a chunk
    assert job.chunks.count() == 4 and job.progress == 20_000
    deck = deck_from_snapshot("ws", job.snapshot)
    assert job.result == run_games(deck, 13, range(20_000), options=job.options, pilot=job.pilot).to_dict()
