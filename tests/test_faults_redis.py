"""Redis (the Celery broker) restarted while a playtest job runs: the job never stays ``running``
forever — it finishes if its chunks survived, else the stale-job sweeper fails it with a message.

Uses a throwaway ``redis-server --port 6390`` (no persistence, like a restarted cache-only Redis:
queued chunk messages are lost), never the machine's shared Redis on 6379, and a real worker
subprocess (as tests/test_playtest_celery.py)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time

import pytest

from playtest.models import PlaytestJob
from playtest.services import playtest_create, playtest_sweep_stale
from tests.test_playtest_celery import _wait, _zones, running_worker
from tests.test_playtest_pages import load_catalog

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]
PORT = int(os.environ.get("FAULTS_REDIS_PORT", "6390"))
URL = f"redis://127.0.0.1:{PORT}/0"


def _start_redis() -> subprocess.Popen:
    proc = subprocess.Popen(["redis-server", "--port", str(PORT), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis

    for _ in range(100):
        try:
            if redis.Redis.from_url(URL, socket_connect_timeout=0.5).ping():
                return proc
        except redis.exceptions.ConnectionError:
            time.sleep(0.05)
    proc.kill()
    pytest.fail(f"redis-server on port {PORT} did not start")


@pytest.fixture
def broker_and_worker(settings, tmp_path):
    if not shutil.which("redis-server"):
        pytest.skip("needs redis-server (Debian's redis-server package; CI has it)")
    state = {"redis": _start_redis()}  # the test replaces it when it restarts Redis
    try:
        with running_worker(settings, tmp_path, URL, prefix="faults", concurrency=1) as worker:
            state.update(worker=worker["proc"], log=worker["log"])
            yield state
    finally:
        state["redis"].send_signal(signal.SIGTERM)
        state["redis"].wait(timeout=20)


def test_redis_restart_mid_job_never_leaves_it_running(broker_and_worker, settings):
    load_catalog("ws")
    settings.PLAYTEST_CHUNK_SIZE = 500
    settings.PLAYTEST_MAX_GAMES_ANON = 50_000
    job = playtest_create(game="ws", zones=_zones("ws-skylark"), games=8000, seed=5, session_key="redis-fault")
    job = _wait(job, lambda j: j.status == "running" and j.progress > 0, timeout=90)
    # Redis dies (SIGKILL, nothing saved) and comes back empty a moment later.
    broker_and_worker["redis"].kill()
    broker_and_worker["redis"].wait()
    time.sleep(1.0)
    broker_and_worker["redis"] = _start_redis()
    # Wait until the job ends or stops making progress.
    settings.PLAYTEST_STALE_SECONDS = 4
    last, still_since = -1, time.monotonic()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status not in PlaytestJob.ACTIVE:
            break
        if job.progress != last:
            last, still_since = job.progress, time.monotonic()
        elif time.monotonic() - still_since > settings.PLAYTEST_STALE_SECONDS + 2:
            playtest_sweep_stale()  # what celery beat / `manage.py playtest_sweep` does on schedule
        time.sleep(0.2)
    job.refresh_from_db()
    print(f"after the Redis restart: {job.status} at {job.progress}/{job.games}: {job.error}")
    assert job.status in ("done", "failed"), f"job still {job.status} at {job.progress}/{job.games}"
    if job.status == "failed":
        assert job.error and ("no progress" in job.error or "queue" in job.error), job.error
        assert job.progress < job.games
    else:
        assert job.progress == job.games and job.result
