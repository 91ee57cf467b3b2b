"""The active-job limit holds under a race: requests arriving at the same moment cannot each see
room for one more job (count and insert happen under one lock; playtest/services.py)."""
from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from playtest import services
from playtest.models import PlaytestJob
from playtest.services import PlaytestError, playtest_create
from tests import test_playtest_toy as toy
from tests.test_playtest_toy import GAME, TOY_CARDS, toy_zones


def _toy_cards() -> None:
    from catalog.models import Card

    for code, name, atk, text in TOY_CARDS:
        Card.objects.create(game=GAME, code=code, name=name, card_type="character", atk=atk, defense=1,
                            title="Toy", person=name, gender="female", attributes=["fire"], text=text)


@pytest.fixture
def queued_only(monkeypatch, settings):
    """Jobs are created but never run, so each stays active (queued)."""
    monkeypatch.setattr(services, "playtest_enqueue", lambda *, job_id: None)
    settings.PLAYTEST_MAX_ACTIVE_USER = 3
    settings.PLAYTEST_MAX_ACTIVE_ANON = 1
    toy.install()
    yield
    toy.uninstall()


def _race(n: int, **kw) -> list[object]:
    barrier = threading.Barrier(n)
    results: list[object] = [None] * n

    def one(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = playtest_create(game=GAME, zones=toy_zones(), games=5, seed=i, **kw).pk
        except PlaytestError as exc:
            results[i] = exc
        except Exception as exc:  # noqa: BLE001 (reported by the assertion below)
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_simultaneous_creates_never_exceed_the_active_job_limit(queued_only):
    _toy_cards()
    user = get_user_model().objects.create_user("racer", password="x" * 12)
    results = _race(8, owner=user, session_key="s-racer")
    created = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if isinstance(r, PlaytestError)]
    assert len(created) == 3 and len(refused) == 5, results
    assert all(e.status == 429 and e.errors[0]["code"] == "too_many_active_jobs" for e in refused)
    assert PlaytestJob.objects.filter(owner=user, status__in=PlaytestJob.ACTIVE).count() == 3
    # anonymous: one per session *and* address; two sessions from one address race for one slot
    barrier_results = _race(6, client_ip="10.9.9.9", session_key="anon-a")
    assert sum(isinstance(r, int) for r in barrier_results) == 1, barrier_results


@pytest.mark.django_db
def test_the_limit_is_checked_again_when_the_job_is_stored(queued_only, monkeypatch):
    """A job stored by another request after the early check (here: while the deck is snapshotted)
    is counted: the second job is refused with 429 instead of being one over the limit."""
    _toy_cards()
    user = get_user_model().objects.create_user("racer", password="x" * 12)
    real_snapshot = services.snapshot_build
    sneaked: list[int] = []

    def snapshot_and_sneak(**kw):
        if not sneaked:  # the "other request": a job stored between the early count and our insert
            for _ in range(3):
                sneaked.append(PlaytestJob.objects.create(
                    owner=user, game=GAME, snapshot={}, games=1, seed=1, pilot="x", options={}, turn_cap=5,
                    chunk_size=1, chunks_total=1).pk)
        return real_snapshot(**kw)

    monkeypatch.setattr(services, "snapshot_build", snapshot_and_sneak)
    with pytest.raises(PlaytestError) as exc:
        playtest_create(game=GAME, zones=toy_zones(), games=5, owner=user)
    assert exc.value.status == 429
    assert PlaytestJob.objects.filter(owner=user).count() == 3
