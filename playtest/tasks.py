"""Celery tasks: thin wrappers that take IDs and call ``playtest.runner`` (idempotent, safe to retry).

They import only the runner: ``playtest.services`` queues them (by importing this module when it
sends a job to Celery), and this module never imports the services back.

``acks_late`` (with ``task_reject_on_worker_lost`` in settings) means a worker killed in the middle
of a chunk leaves the message on the broker and another worker plays the chunk again; the
``PlaytestChunk`` unique (job, index) row makes that second run count once.
"""
from __future__ import annotations

import os
import socket

from celery import shared_task

from . import runner


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def playtest_chunk_task(self, job_id: int, index: int) -> bool:
    """Play one chunk of a job and, if it was the last one, combine the job's result."""
    worker = f"{self.request.hostname or socket.gethostname()} pid {os.getpid()}"
    return runner.playtest_chunk_run(job_id=job_id, index=index, worker=worker)


@shared_task(acks_late=True, ignore_result=True)
def playtest_finalize_task(job_id: int) -> bool:
    return runner.playtest_finalize(job_id=job_id)


@shared_task(ignore_result=True)
def playtest_sweep_task() -> int:
    """Fail stale jobs; schedule it with celery beat (e.g. every 5 minutes) on a worker deployment."""
    return runner.playtest_sweep_stale()
