"""Celery tasks: thin wrappers that take IDs and call ``playtest.runner`` (idempotent, safe to retry).

They import only the runner: ``playtest.services`` queues them (by importing this module when it
sends a job to Celery), and this module never imports the services back.

``acks_late`` (with ``task_reject_on_worker_lost`` in settings) means a worker killed in the middle
of a chunk leaves the message on the broker and another worker plays the chunk again; the
``PlaytestChunk`` unique (job, index) row makes that second run count once.

Fair queuing and lost chunks (issue 19): a job's chunks are not all queued at once. ``send_chunks``
queues what ``runner.playtest_claim_chunks`` allows (a few chunks per player), and each finished
chunk claims the player's next ones. Every worker also runs ``recover_and_send`` every
``PLAYTEST_RECOVER_INTERVAL`` seconds (a thread started when the worker is ready), so chunks lost
with a killed worker or an emptied broker are queued again — or the job fails saying why — with
nothing else to start (no beat, no sweeper command).
"""
from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterable

from celery import shared_task
from celery.signals import worker_ready, worker_shutdown
from django.conf import settings

from . import conf, runner

log = logging.getLogger(__name__)
_TIME_LIMIT = int(getattr(settings, "PLAYTEST_CHUNK_TIME_LIMIT", conf.DEFAULTS["PLAYTEST_CHUNK_TIME_LIMIT"]))


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5,
             soft_time_limit=_TIME_LIMIT, time_limit=_TIME_LIMIT + 30)
def playtest_chunk_task(self, job_id: int, index: int) -> bool:
    """Play one chunk of a job and, if it was the last one, combine the job's result; then queue the
    player's next chunks (fair queuing)."""
    worker = f"{self.request.hostname or socket.gethostname()} pid {os.getpid()}"
    try:
        return runner.playtest_chunk_run(job_id=job_id, index=index, worker=worker)
    finally:
        if conf.executor() == "celery":  # (a direct call, as in tests, queues nothing)
            send_chunks(runner.playtest_claim_chunks(job_id=job_id))


@shared_task(acks_late=True, ignore_result=True)
def playtest_finalize_task(job_id: int) -> bool:
    return runner.playtest_finalize(job_id=job_id)


@shared_task(ignore_result=True)
def playtest_sweep_task() -> int:
    """Queue lost chunks again or fail the jobs (the workers do this by themselves; kept for beat)."""
    return len(recover_and_send())


def chunk_task_id(job_id: int, index: int, attempt: int = 0) -> str:
    """Deterministic Celery task id of a chunk (``-r<n>`` when queued again after being lost)."""
    return f"playtest-{job_id}-{index}" + (f"-r{attempt}" if attempt else "")


def send_chunks(pairs: Iterable[tuple[int, int]], *, attempt: int = 0) -> None:
    """Queue ``(job_id, index)`` chunks. Raises the broker's error when it cannot be reached."""
    from .models import PlaytestJob

    by_job: dict[int, list[str]] = {}
    for job_id, index in pairs:
        task_id = chunk_task_id(job_id, index, attempt)
        playtest_chunk_task.apply_async((job_id, index), task_id=task_id)
        by_job.setdefault(job_id, []).append(task_id)
    for job_id, ids in by_job.items():  # remembered for revoking on cancel
        job = PlaytestJob.objects.filter(pk=job_id).only("task_ids").first()
        if job is not None:
            PlaytestJob.objects.filter(pk=job_id).update(task_ids=[*job.task_ids, *ids][-10_000:])


def recover_and_send() -> list[tuple[int, int]]:
    """``runner.playtest_recover_stale`` and queue what it gives back; the chunks sent."""
    pairs = runner.playtest_recover_stale()
    attempt = {}
    if pairs:
        from .models import PlaytestJob

        attempt = dict(PlaytestJob.objects.filter(pk__in={j for j, _ in pairs}).values_list("pk", "requeues"))
    for job_id, index in pairs:
        send_chunks([(job_id, index)], attempt=attempt.get(job_id, 0))
    return pairs


_stop = threading.Event()


def _recover_loop(interval: float) -> None:
    from django.db import close_old_connections, connection

    while not _stop.wait(interval):
        try:
            close_old_connections()
            pairs = recover_and_send()
            if pairs:
                log.warning("playtest: queued %s lost chunk(s) again: %s", len(pairs), pairs[:10])
        except Exception:  # noqa: BLE001 - the loop must outlive a database or broker hiccup
            log.exception("playtest: recovering lost chunks failed")
        finally:
            connection.close()


@worker_ready.connect
def _start_recovery(**kwargs: object) -> None:
    interval = float(conf.get("PLAYTEST_RECOVER_INTERVAL"))
    if interval > 0:
        _stop.clear()
        threading.Thread(target=_recover_loop, args=(interval,), name="playtest-recover", daemon=True).start()


@worker_shutdown.connect
def _stop_recovery(**kwargs: object) -> None:
    _stop.set()
