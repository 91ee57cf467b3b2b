"""Running playtest jobs: play a chunk, combine the chunks into the result, sweep stale jobs.

Who calls what (no import cycle):

- ``playtest.services`` (create, enqueue, cancel) imports this module to run jobs in-process
  (the embedded thread executor and inline mode) and to sweep before creating a job; for Celery
  it queues ``playtest.tasks`` (imported lazily, only in that branch);
- ``playtest.tasks`` (the Celery tasks) are thin wrappers around the functions here;
- this module imports neither ``services`` nor ``tasks``.

Every function here is idempotent: a chunk's statistics are written once per (job, index) and the
job's result is aggregated only from those rows, so retries and redelivered messages never
double-count.
"""
from __future__ import annotations

import logging
import math
import socket
import time
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from rules.cards import CardRecord
from rules.engine.core import Deck, RunStats, coverage_report, game_rng, get_engine, play_game

from . import conf
from .models import PlaytestChunk, PlaytestJob

log = logging.getLogger(__name__)

Status = PlaytestJob.Status


# -- deck snapshots --------------------------------------------------------------------------------
def deck_from_snapshot(game: str, snapshot: Mapping[str, Any]) -> Deck:
    cards = {code: CardRecord.from_dict(data) for code, data in snapshot["cards"].items()}
    return Deck.from_counts(game, snapshot["zones"], cards)


def playtest_run_all(*, job_id: int) -> None:
    """Run every chunk of a job in this process, in order (embedded default and inline mode)."""
    total = PlaytestJob.objects.values_list("chunks_total", flat=True).get(pk=job_id)
    for index in range(total):
        if not playtest_chunk_run(job_id=job_id, index=index) and _status(job_id) not in PlaytestJob.ACTIVE:
            return


# -- chunks ----------------------------------------------------------------------------------------
def _status(job_id: int) -> str | None:
    return PlaytestJob.objects.filter(pk=job_id).values_list("status", flat=True).first()


def playtest_chunk_run(*, job_id: int, index: int, worker: str = "") -> bool:
    """Play chunk ``index`` of a job and store its statistics; True if this call stored them.

    Safe to call any number of times: a chunk already stored, or a job that is finished (done,
    failed, cancelled), is a no-op. A cancellation is noticed between batches inside the chunk.
    """
    job = PlaytestJob.objects.filter(pk=job_id).first()
    if job is None or job.status not in PlaytestJob.ACTIVE:
        return False
    if not 0 <= index < job.chunks_total:
        raise ValueError(f"job {job_id} has chunks 0..{job.chunks_total - 1}, not {index}")
    if PlaytestChunk.objects.filter(job_id=job_id, index=index).exists():
        playtest_finalize(job_id=job_id)
        return False
    now = timezone.now()
    PlaytestJob.objects.filter(pk=job_id, status=Status.QUEUED).update(status=Status.RUNNING, started=now)
    PlaytestJob.objects.filter(pk=job_id).update(heartbeat=now)
    games = job.chunk_range(index)
    step = max(1, int(conf.get("PLAYTEST_CANCEL_CHECK_GAMES")))
    t0 = time.perf_counter()
    try:
        deck = deck_from_snapshot(job.game, job.snapshot)
        stats = RunStats(game=job.game)
        examples: dict[str, dict[str, int]] = {}
        for start in range(games.start, games.stop, step):
            if start != games.start and _status(job_id) not in PlaytestJob.ACTIVE:
                return False
            for i in range(start, min(games.stop, start + step)):
                result, _ = play_game(deck, job.seed, i, options=job.options, pilot=job.pilot)
                stats.add(result)
                examples.setdefault(result.outcome, {}).setdefault(str(result.turn), i)
    except Exception as exc:  # an engine error fails the job with a message (retrying cannot help)
        log.exception("playtest job %s chunk %s failed", job_id, index)
        PlaytestJob.objects.filter(pk=job_id, status__in=PlaytestJob.ACTIVE).update(
            status=Status.FAILED, finished=timezone.now(),
            error=f"the engine failed on games {games.start}-{games.stop - 1}: {type(exc).__name__}: {exc}"[:2000],
        )
        return False
    seconds = time.perf_counter() - t0
    try:
        with transaction.atomic():
            PlaytestChunk.objects.create(
                job_id=job_id, index=index, start=games.start, stop=games.stop, stats=stats.to_dict(), examples=examples,
                seconds=seconds, worker=(worker or socket.gethostname())[:200],
            )
            PlaytestJob.objects.filter(pk=job_id).update(
                progress=F("progress") + len(games), compute_seconds=F("compute_seconds") + seconds,
                heartbeat=timezone.now(),
            )
    except IntegrityError:  # the same chunk finished concurrently elsewhere: it is counted once
        return False
    finally:
        playtest_finalize(job_id=job_id)
    return True


def playtest_finalize(*, job_id: int) -> bool:
    """Combine the chunk rows into the job's result once all of them exist; True if it finished now."""
    job = PlaytestJob.objects.filter(pk=job_id).only("pk", "game", "games", "seed", "options", "snapshot",
                                                     "status", "chunks_total").first()
    if job is None or job.status not in PlaytestJob.ACTIVE:
        return False
    if PlaytestChunk.objects.filter(job_id=job_id).count() < job.chunks_total:
        return False
    sample = opening_hand_sample(job)  # outside the transaction: it plays no game but takes a moment
    coverage = coverage_report(deck_from_snapshot(job.game, job.snapshot))  # what the engine models of the deck
    with transaction.atomic():
        job = PlaytestJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status not in PlaytestJob.ACTIVE:
            return False
        rows = list(PlaytestChunk.objects.filter(job_id=job_id).order_by("index").values_list("stats", "examples"))
        if len(rows) < job.chunks_total:
            return False
        total = RunStats(game=job.game)
        examples: dict[str, dict[str, int]] = {}
        for data, chunk_examples in rows:
            total.merge(RunStats.from_dict(data))
            for outcome, by_turn in (chunk_examples or {}).items():
                dst = examples.setdefault(outcome, {})
                for turn, index in by_turn.items():
                    dst[turn] = min(index, dst.get(turn, index))
        job.result = total.to_dict()
        summary = total.summary()
        summary["opening_hands"] = sample
        summary["coverage"] = coverage
        summary["examples"] = {o: dict(sorted(e.items(), key=lambda kv: int(kv[0]))) for o, e in sorted(examples.items())}
        job.summary = jsonable(summary)
        job.status = Status.DONE
        job.progress = total.games
        job.finished = timezone.now()
        job.started = job.started or job.finished
        job.save(update_fields=["result", "summary", "status", "progress", "finished", "started"])
        return True


OPENING_SAMPLE = 2000


def opening_hand_sample(job: PlaytestJob, limit: int = OPENING_SAMPLE) -> dict[str, Any] | None:
    """Opening hands (before any mulligan) of the job's first ``limit`` games, re-dealt from their seeds:
    ``{"games": n, "holding": {code: games whose opening hand held a copy}}``. None when the engine's
    state does not expose ``hand`` at its first decision."""
    try:
        engine = get_engine(job.game)
        deck = deck_from_snapshot(job.game, job.snapshot)
        opts = {**engine.default_options, **job.options}
        holding: dict[str, int] = {}
        n = min(job.games, limit)
        for i in range(n):
            state = engine.new_state(deck, game_rng(job.seed, i), i, opts, None)
            hand = getattr(state, "hand", None)
            if hand is None:
                return None
            for code in {c.code for c in hand}:
                holding[code] = holding.get(code, 0) + 1
        return {"games": n, "holding": dict(sorted(holding.items()))}
    except Exception:  # noqa: BLE001 - the sample is an extra; never fail a finished job over it
        log.warning("opening-hand sample failed for job %s", job.pk, exc_info=True)
        return None


# -- fair queuing: which chunks go to the queue now ------------------------------------------------
def _player(job: PlaytestJob) -> Q:
    """The jobs of the same player: the owner's, or (anonymous) the same browser session's."""
    if job.owner_id is not None:
        return Q(owner_id=job.owner_id)
    return Q(owner__isnull=True, session_key=job.session_key)


def playtest_claim_chunks(*, job_id: int) -> list[tuple[int, int]]:
    """Chunks to hand to the queue now, as ``(job_id, index)``, marked sent.

    A player (an account, or an anonymous session) has at most ``PLAYTEST_PLAYER_CHUNKS`` chunks in
    the queue or running at a time, taken from their oldest unfinished job first. So one player's
    large jobs never fill the queue ahead of another player's small job (issue 19: 23 s of waiting):
    the queue holds a few chunks per player and the workers take them in turn. Called when a job is
    created and whenever one of the player's chunks finishes."""
    job = PlaytestJob.objects.filter(pk=job_id).only("pk", "owner_id", "session_key").first()
    if job is None:
        return []
    limit = max(1, int(conf.get("PLAYTEST_PLAYER_CHUNKS")))
    claimed: list[tuple[int, int]] = []
    with transaction.atomic():
        jobs = list(PlaytestJob.objects.select_for_update().filter(_player(job), status__in=PlaytestJob.ACTIVE)
                    .order_by("created", "pk").only("pk", "chunks_sent", "chunks_total", "status"))
        done = dict(PlaytestChunk.objects.filter(job__in=[j.pk for j in jobs]).values("job")
                    .annotate(n=Count("pk")).values_list("job", "n"))
        in_flight = sum(j.chunks_sent - done.get(j.pk, 0) for j in jobs)
        for j in jobs:
            while in_flight < limit and j.chunks_sent < j.chunks_total:
                claimed.append((j.pk, j.chunks_sent))
                j.chunks_sent += 1
                in_flight += 1
        for j in jobs:
            PlaytestJob.objects.filter(pk=j.pk, chunks_sent__lt=j.chunks_sent).update(chunks_sent=j.chunks_sent)
    return claimed


# -- lost chunks ---------------------------------------------------------------------------------
def _note(code: str, now: Any, **params: Any) -> dict[str, Any]:
    return {"at": now.isoformat(timespec="seconds"), "code": code, "params": params}


def playtest_recover_stale(*, now: Any = None) -> list[tuple[int, int]]:
    """Jobs with Celery workers whose chunks were lost: a worker killed, or the broker restarted empty
    (its queued messages gone). A running job without a chunk started or finished for
    ``PLAYTEST_STALE_SECONDS`` (more than a chunk's time limit) gets the chunks it sent and never got
    back queued again — returned as ``(job_id, index)`` for the caller to send — at most
    ``PLAYTEST_MAX_REQUEUES`` times, each told in the job's ``notes``; after that it fails with a
    message saying what happened. A queued job nobody started within ``PLAYTEST_QUEUED_TIMEOUT``
    fails. Run by every worker (``tasks``, every ``PLAYTEST_RECOVER_INTERVAL`` seconds) and by the
    web process when a job is created: nothing else has to be started for it."""
    now = now or timezone.now()
    stale = int(conf.get("PLAYTEST_STALE_SECONDS"))
    max_requeues = int(conf.get("PLAYTEST_MAX_REQUEUES"))
    queued = int(conf.get("PLAYTEST_QUEUED_TIMEOUT"))
    resend: list[tuple[int, int]] = []
    refill: list[int] = []
    cutoff = now - timedelta(seconds=stale)
    candidates = PlaytestJob.objects.filter(
        Q(status=Status.RUNNING, heartbeat__lt=cutoff) | Q(status=Status.QUEUED, created__lt=cutoff)
    ).values_list("pk", flat=True)
    for job_id in list(candidates):
        with transaction.atomic():
            job = PlaytestJob.objects.select_for_update().filter(pk=job_id, status__in=PlaytestJob.ACTIVE).first()
            if job is None or (job.heartbeat or job.created) >= cutoff:
                continue  # finished, or another process recovered it meanwhile
            stored = set(PlaytestChunk.objects.filter(job_id=job_id).values_list("index", flat=True))
            lost = [i for i in range(job.chunks_sent) if i not in stored]
            if job.status == Status.QUEUED and job.created < now - timedelta(seconds=queued):
                lost = []  # never started at all: no worker takes this queue
            if lost and job.requeues < max_requeues:
                job.requeues += 1
                job.heartbeat = now
                job.notes = [*job.notes, _note("requeued", now, chunks=lost, seconds=stale, attempt=job.requeues)]
                job.save(update_fields=["requeues", "heartbeat", "notes"])
                resend += [(job_id, i) for i in lost]
                continue
            if not lost and job.chunks_sent < job.chunks_total and job.status == Status.RUNNING:
                job.heartbeat = now  # nothing lost, nothing in the queue: send what is left (below)
                job.save(update_fields=["heartbeat"])
                refill.append(job_id)
                continue
            if job.status == Status.QUEUED and not lost and job.created >= now - timedelta(seconds=queued):
                continue
            if lost:
                message = (f"chunks {', '.join(map(str, lost))} were lost {job.requeues + 1} times (a worker stopped or "
                           f"the queue was emptied, e.g. Redis restarted without its data). Start the job again.")
                code = "lost"
            elif job.status == Status.QUEUED:
                message = f"not started within {queued} seconds: no worker picked it up. Start the job again."
                code = "not_started"
            else:
                message = f"no progress for over {stale} seconds: the worker running it was probably lost. Start the job again."
                code = "stale"
            job.status, job.finished, job.error = Status.FAILED, now, message
            job.notes = [*job.notes, _note(code, now, chunks=lost, seconds=stale)]
            job.save(update_fields=["status", "finished", "error", "notes"])
    for job_id in refill:
        resend += playtest_claim_chunks(job_id=job_id)
    return resend


# -- sweep ---------------------------------------------------------------------------------------
def playtest_sweep_stale(*, now: Any = None) -> int:
    """Fail jobs that stopped making progress (a lost worker or a restarted server). Returns how many."""
    now = now or timezone.now()
    stale = int(conf.get("PLAYTEST_STALE_SECONDS"))
    queued = int(conf.get("PLAYTEST_QUEUED_TIMEOUT"))
    n = PlaytestJob.objects.filter(status=Status.RUNNING, heartbeat__lt=now - timedelta(seconds=stale)).update(
        status=Status.FAILED, finished=now,
        error=f"no progress for over {stale} seconds: the worker running it was probably lost. Start the job again.",
    )
    n += PlaytestJob.objects.filter(status=Status.QUEUED, created__lt=now - timedelta(seconds=queued)).update(
        status=Status.FAILED, finished=now,
        error=f"not started within {queued} seconds: no worker picked it up. Start the job again.",
    )
    return n


# -- helpers ---------------------------------------------------------------------------------------
def jsonable(value: Any) -> Any:
    """JSON-safe copy: NaN/inf become None, tuples become lists, keys become strings."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    return value
