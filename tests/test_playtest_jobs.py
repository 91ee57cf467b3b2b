"""Playtest job services: creation, chunking and exact aggregation, idempotent retries,
cancellation, limits and the stale-job sweeper (on the toy engine from test_playtest_toy)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from playtest import runner, services
from playtest.models import PlaytestChunk, PlaytestJob
from playtest.services import PlaytestError, deck_from_snapshot, playtest_create
from rules.engine.core import run_games
from tests import test_playtest_toy as toy
from tests.test_playtest_toy import GAME, toy_zones

# fixtures shared with the other playtest test modules
toy_engine, toy_cards, inline_jobs = toy.toy_engine, toy.toy_cards, toy.inline_jobs

pytestmark = pytest.mark.django_db


def make_job(games=50, *, run=False, django_capture_on_commit_callbacks=None, **kw) -> PlaytestJob:
    kw.setdefault("session_key", "s1")
    job = playtest_create(game=GAME, zones=toy_zones(), games=games, seed=kw.pop("seed", 1234), **kw)
    return job


def in_process(job: PlaytestJob):
    deck = deck_from_snapshot(job.game, job.snapshot)
    return run_games(deck, job.seed, range(job.games), options=job.options, pilot=job.pilot)


def test_create_runs_chunks_and_equals_one_in_process_run(toy_engine, toy_cards, inline_jobs,
                                                          django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        job = make_job(50)
    assert len(callbacks) == 1
    job.refresh_from_db()
    assert job.status == "done", job.error
    assert job.chunks_total == 8  # 7 games a chunk, the last one has 1
    assert list(job.chunks.values_list("index", "start", "stop"))[-1] == (7, 49, 50)
    assert job.progress == 50
    expected = in_process(job)
    assert job.result == expected.to_dict()
    assert job.summary["games"] == 50
    assert job.summary["wins"] == expected.outcomes["win"]
    assert job.started and job.finished and job.finished >= job.started


def test_snapshot_freezes_cards_against_later_catalog_edits(toy_engine, toy_cards, inline_jobs,
                                                            django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = make_job(30)
    job.refresh_from_db()
    before = job.result
    assert job.snapshot["cards"]["TOY-005"]["atk"] == 1
    for card in toy_cards:
        card.atk = 9
        card.save()
    assert job.snapshot["cards"]["TOY-005"]["atk"] == 1
    assert in_process(job).to_dict() == before  # replays use the snapshot, not the catalog


def test_same_seed_same_result_any_chunk_size(toy_engine, toy_cards, inline_jobs, settings,
                                              django_capture_on_commit_callbacks):
    results = []
    for size in (1, 13, 1000):
        settings.PLAYTEST_CHUNK_SIZE = size
        with django_capture_on_commit_callbacks(execute=True):
            job = make_job(40, session_key=f"size{size}")
        job.refresh_from_db()
        assert job.chunks.count() == job.chunks_total == -(-40 // size)
        results.append(job.result)
    assert results[0] == results[1] == results[2]


def test_unknown_and_wrong_game_codes_are_named(toy_engine, toy_cards, inline_jobs):
    from catalog.models import Card

    Card.objects.create(game="ws", code="WS/X01-001", name="Other game", card_type="character")
    zones = toy_zones()
    zones["main"].update({"NOPE-1": 2, "NOPE-2": 1, "WS/X01-001": 1})
    with pytest.raises(PlaytestError) as exc:
        playtest_create(game=GAME, zones=zones, games=10, session_key="s")
    codes = {e["code"]: e for e in exc.value.errors}
    assert codes["unknown_card"]["codes"] == ["NOPE-1", "NOPE-2"]
    assert "NOPE-1" in codes["unknown_card"]["message"] and "NOPE-2" in codes["unknown_card"]["message"]
    assert codes["wrong_game"]["codes"] == ["WS/X01-001"]
    assert "ws" in codes["wrong_game"]["message"]
    assert PlaytestJob.objects.count() == 0


def test_bad_zone_empty_deck_pilot_and_options_rejected(toy_engine, toy_cards, inline_jobs):
    with pytest.raises(PlaytestError, match="no 'ace' zone"):
        playtest_create(game=GAME, zones={"main": {"TOY-001": 4}, "ace": {"TOY-002": 1}}, games=1)
    with pytest.raises(PlaytestError, match="main deck is empty"):
        playtest_create(game=GAME, zones={"main": {}}, games=1)
    with pytest.raises(PlaytestError, match="unknown pilot 'wild'"):
        playtest_create(game=GAME, zones=toy_zones(), games=1, pilot="wild")
    with pytest.raises(PlaytestError, match="unknown chaos goldfish option 'speed'"):
        playtest_create(game=GAME, zones=toy_zones(), games=1, options={"speed": 2})
    with pytest.raises(PlaytestError, match="option 'target' must be int"):
        playtest_create(game=GAME, zones=toy_zones(), games=1, options={"target": "many"})
    with pytest.raises(PlaytestError, match="unknown game 'mtg'"):
        playtest_create(game="mtg", zones=toy_zones(), games=1)
    assert PlaytestJob.objects.count() == 0


def test_options_and_pilot_are_recorded_and_used(toy_engine, toy_cards, inline_jobs, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = make_job(20, pilot="patient", options={"target": 8}, turn_cap=12)
    job.refresh_from_db()
    assert job.pilot == "patient" and job.options == {"target": 8, "turn_cap": 12}
    assert job.result == in_process(job).to_dict()
    assert max(int(t) for t in job.result["win_turns"]) <= 12


def test_chunk_task_run_twice_is_counted_once(toy_engine, toy_cards, inline_jobs, django_capture_on_commit_callbacks):
    from playtest.tasks import playtest_chunk_task

    with django_capture_on_commit_callbacks(execute=False):
        job = make_job(20)  # queued, nothing ran
    assert job.chunks_total == 3
    assert playtest_chunk_task.run(job.pk, 1) is True
    assert playtest_chunk_task.run(job.pk, 1) is False  # a redelivered message
    job.refresh_from_db()
    assert job.progress == 7 and job.status == "running"
    assert PlaytestChunk.objects.filter(job=job).count() == 1
    from playtest.selectors import playtest_partial

    part = playtest_partial(job)
    one = PlaytestChunk.objects.get(job=job).stats
    assert part["games"] == 7 and part["wins"] == one["outcomes"]["win"]
    # out of order, with more duplicates
    for index in (2, 0, 2, 1, 0):
        playtest_chunk_task.run(job.pk, index)
    job.refresh_from_db()
    assert job.status == "done" and job.progress == 20
    assert PlaytestChunk.objects.filter(job=job).count() == 3
    assert job.result == in_process(job).to_dict()
    # a chunk arriving after the job finished changes nothing
    assert playtest_chunk_task.run(job.pk, 0) is False
    assert runner.playtest_finalize(job_id=job.pk) is False


def test_cancel_stops_remaining_chunks(toy_engine, toy_cards, inline_jobs, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        job = make_job(30)
    runner.playtest_chunk_run(job_id=job.pk, index=0)
    assert services.playtest_cancel(job=job) is True
    assert job.status == "cancelled" and "cancelled" in job.error
    assert runner.playtest_chunk_run(job_id=job.pk, index=1) is False
    services.playtest_run_all(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "cancelled" and job.progress == 7 and job.result is None
    assert job.chunks.count() == 1
    assert services.playtest_cancel(job=job) is False  # already ended


def test_engine_error_fails_job_with_message(toy_engine, toy_cards, inline_jobs, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        job = make_job(10)
    PlaytestJob.objects.filter(pk=job.pk).update(snapshot={"zones": {"main": {"TOY-001": 4}}, "cards": {}})
    assert runner.playtest_chunk_run(job_id=job.pk, index=0) is False
    job.refresh_from_db()
    assert job.status == "failed"
    assert "games 0-6" in job.error and "KeyError" in job.error


def test_game_limits_anonymous_and_user(toy_engine, toy_cards, inline_jobs, settings, django_user_model):
    settings.PLAYTEST_MAX_GAMES_ANON = 100
    settings.PLAYTEST_MAX_GAMES_USER = 1000
    with pytest.raises(PlaytestError) as exc:
        playtest_create(game=GAME, zones=toy_zones(), games=101, session_key="a")
    assert exc.value.status == 400
    assert "at most 100 games per job for anonymous use (asked for 101)" in str(exc.value)
    assert "1,000" in str(exc.value)
    user = django_user_model.objects.create_user("u1", password="pw-12345-long")
    with pytest.raises(PlaytestError, match="at most 1,000 games per job"):
        playtest_create(game=GAME, zones=toy_zones(), games=1001, owner=user)
    with pytest.raises(PlaytestError, match="at least 1"):
        playtest_create(game=GAME, zones=toy_zones(), games=0, owner=user)
    with pytest.raises(PlaytestError, match="turn_cap must be between 1 and 60"):
        playtest_create(game=GAME, zones=toy_zones(), games=10, owner=user, turn_cap=61)
    assert PlaytestJob.objects.count() == 0


def test_concurrent_job_limits(toy_engine, toy_cards, inline_jobs, settings, django_user_model,
                               django_capture_on_commit_callbacks):
    settings.PLAYTEST_MAX_ACTIVE_ANON = 1
    settings.PLAYTEST_MAX_ACTIVE_USER = 2
    with django_capture_on_commit_callbacks(execute=False):
        make_job(10, session_key="anon1", client_ip="10.0.0.1")
        with pytest.raises(PlaytestError) as exc:
            make_job(10, session_key="anon1", client_ip="10.0.0.1")
        assert exc.value.status == 429 and exc.value.retry_after
        assert "limit is 1" in str(exc.value)
        # another session from the same address is the same anonymous user
        with pytest.raises(PlaytestError, match="limit is 1"):
            make_job(10, session_key="anon2", client_ip="10.0.0.1")
        make_job(10, session_key="anon3", client_ip="10.0.0.2")
        user = django_user_model.objects.create_user("u2", password="pw-12345-long")
        make_job(10, owner=user, session_key="")
        make_job(10, owner=user, session_key="")
        with pytest.raises(PlaytestError, match="for your account; the limit is 2"):
            make_job(10, owner=user, session_key="")
    job = PlaytestJob.objects.filter(owner=user).first()
    services.playtest_cancel(job=job)
    with django_capture_on_commit_callbacks(execute=False):
        make_job(10, owner=user, session_key="")  # a slot is free again


def test_sweeper_fails_stale_jobs(toy_engine, toy_cards, inline_jobs, settings, django_capture_on_commit_callbacks):
    settings.PLAYTEST_STALE_SECONDS = 60
    with django_capture_on_commit_callbacks(execute=False):
        stale = make_job(10, session_key="x1")
        fresh = make_job(10, session_key="x2")
        old_queued = make_job(10, session_key="x3")
    now = timezone.now()
    PlaytestJob.objects.filter(pk=stale.pk).update(status="running", heartbeat=now - timedelta(seconds=120))
    PlaytestJob.objects.filter(pk=fresh.pk).update(status="running", heartbeat=now - timedelta(seconds=10))
    PlaytestJob.objects.filter(pk=old_queued.pk).update(created=now - timedelta(hours=2))
    assert runner.playtest_sweep_stale(now=now) == 2
    statuses = dict(PlaytestJob.objects.values_list("pk", "status"))
    assert statuses == {stale.pk: "failed", fresh.pk: "running", old_queued.pk: "failed"}
    assert "no progress" in PlaytestJob.objects.get(pk=stale.pk).error


def test_share_slugs_are_long_and_distinct(toy_engine, toy_cards, inline_jobs, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        slugs = {make_job(1, session_key=f"k{i}").share_slug for i in range(5)}
    assert len(slugs) == 5
    assert all(len(s) >= 16 for s in slugs)  # 12 random bytes = 96 bits


@pytest.fixture
def drain_threads():
    """Wait for the in-process job thread to go idle before the test's database goes away."""
    yield
    services._thread_pool().submit(lambda: None).result(timeout=60)


def _poll_without_read_locks() -> None:
    """This thread only reads while a job thread writes. SQLite's shared-cache in-memory test database
    locks whole tables (no busy wait), so let this connection read without taking read locks."""
    from django.db import connection

    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = true")


@pytest.mark.django_db(transaction=True)
def test_embedded_default_runs_job_in_background_thread(toy_engine, toy_cards, settings, drain_threads):
    """No broker: the request returns at once and an in-process thread plays the job."""
    import time

    _poll_without_read_locks()

    from playtest import conf

    settings.PLAYTEST_EXECUTOR = None
    settings.CELERY_BROKER_URL = "memory://"
    assert conf.executor() == "thread"
    settings.PLAYTEST_EXECUTOR = "thread"
    settings.PLAYTEST_CHUNK_SIZE = 100
    settings.PLAYTEST_MAX_GAMES_ANON = 100_000
    t0 = time.monotonic()
    job = playtest_create(game=GAME, zones=toy_zones(), games=3000, seed=5, session_key="bg")
    returned_after = time.monotonic() - t0
    seen = set()
    deadline = time.monotonic() + 60
    while job.status in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.02)
        job.refresh_from_db()
        seen.add(job.progress)
    assert job.status == "done", job.error
    assert any(0 < p < 3000 for p in seen), sorted(seen)
    assert job.result == in_process(job).to_dict()
    assert returned_after < (job.finished - job.created).total_seconds()


@pytest.mark.django_db(transaction=True)
def test_cancel_inside_a_chunk_stops_between_batches(toy_engine, toy_cards, settings, drain_threads):
    """One big chunk: a cancellation is noticed between its batches, and nothing is stored."""
    import time

    settings.PLAYTEST_EXECUTOR = "thread"
    settings.PLAYTEST_CHUNK_SIZE = 100_000
    settings.PLAYTEST_CANCEL_CHECK_GAMES = 50
    _poll_without_read_locks()
    settings.PLAYTEST_MAX_GAMES_ANON = 100_000
    job = playtest_create(game=GAME, zones=toy_zones(), games=100_000, seed=5, session_key="bg2")
    deadline = time.monotonic() + 30
    while job.status != "running" and time.monotonic() < deadline:
        time.sleep(0.01)
        job.refresh_from_db()
    assert services.playtest_cancel(job=job)
    time.sleep(0.5)
    job.refresh_from_db()
    assert job.status == "cancelled" and job.chunks.count() == 0 and job.progress == 0


@pytest.mark.django_db(transaction=True)
def test_thread_mode_resumes_jobs_left_by_a_restarted_server(toy_engine, toy_cards, settings, drain_threads):
    import time

    settings.PLAYTEST_EXECUTOR = "inline"
    settings.PLAYTEST_CHUNK_SIZE = 10
    _poll_without_read_locks()
    job = make_job(40, session_key="restart")  # runs inline: now pretend it had stopped half-way
    job.refresh_from_db()
    expected = job.result
    job.chunks.filter(index__gte=2).delete()
    old = timezone.now() - timedelta(seconds=300)
    PlaytestJob.objects.filter(pk=job.pk).update(status="running", progress=20, result=None, summary=None,
                                                 finished=None, heartbeat=old)
    settings.PLAYTEST_EXECUTOR = "thread"
    assert services.playtest_resume_orphans(force=True) == 1
    deadline = time.monotonic() + 30
    while job.status != "done" and time.monotonic() < deadline:
        time.sleep(0.05)
        job.refresh_from_db()
    assert job.status == "done" and job.progress == 40 and job.result == expected
    assert services.playtest_resume_orphans() == 0  # once per process
