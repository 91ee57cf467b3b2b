"""Faults: the database connection dropped in the middle of a save, and concurrent saves through the
HTTP API. (A worker SIGKILLed mid-chunk: tests/test_playtest_celery.py; the stale-job sweeper:
tests/test_playtest_jobs.py; Redis restarted under a running job: tests/test_faults_redis.py;
concurrent saves at the service level: tests/test_decks_concurrency.py.)"""
from __future__ import annotations

import threading

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models.signals import pre_save
from django.test import Client
from rest_framework.test import APIClient

from decks.models import Deck, DeckVersion
from decks.services import deck_create

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _dsn() -> str:
    s = connection.settings_dict
    return (f"host={s['HOST'] or '127.0.0.1'} port={s['PORT'] or 5432} dbname={s['NAME']} "
            f"user={s['USER']}" + (f" password={s['PASSWORD']}" if s.get("PASSWORD") else ""))


@pytest.fixture
def owner(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = get_user_model().objects.create_user("olga", password="pw-olga-123456")
    deck = deck_create(owner=user, game="ws", name="steady", zones={"main": {"A": 1}}, visibility="private")
    return user, deck


@pytest.mark.parametrize("via", ["api", "page"])
def test_connection_killed_mid_save_gives_an_error_and_no_corrupted_deck(owner, via):
    """pg_terminate_backend() of the request's own connection after the deck row is written but
    before its version row: the request answers an error (JSON under /api/, a page elsewhere), and
    the deck is exactly as before — the half-done transaction is rolled back by PostgreSQL."""
    user, deck = owner
    killed = []

    def kill_backend(sender, instance, **kwargs):
        if killed:
            return
        pid = connection.connection.info.backend_pid
        with psycopg.connect(_dsn(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        killed.append(pid)

    pre_save.connect(kill_backend, sender=DeckVersion)
    try:
        if via == "api":
            c = APIClient(raise_request_exception=False)
            c.force_authenticate(user)
            r = c.patch(f"/api/v1/decks/{deck.pk}/", {"name": "half", "base_version": 1, "text": "4 B"},
                        format="json")
            assert r.status_code >= 500 and r["Content-Type"] == "application/json", r.status_code
            assert r.json()["error"]["code"] == "server_error"
        else:
            c = Client(raise_request_exception=False)
            c.force_login(user)
            r = c.post(f"/decks/{deck.pk}/edit/", {"name": "half", "text": "4 B", "visibility": "private",
                                                    "base_version": 1, "game": "ws"})
            assert r.status_code >= 500 and "text/html" in r["Content-Type"], r.status_code
    finally:
        pre_save.disconnect(kill_backend, sender=DeckVersion)
        connection.close()
    assert killed, "the save never reached the version row"
    deck.refresh_from_db()
    assert (deck.name, deck.version, deck.zones) == ("steady", 1, {"main": {"A": 1}})
    assert list(DeckVersion.objects.filter(deck=deck).values_list("number", flat=True)) == [1]
    # The site keeps working on a fresh connection.
    c = APIClient()
    c.force_authenticate(user)
    assert c.patch(f"/api/v1/decks/{deck.pk}/", {"name": "after", "base_version": 1}, format="json").status_code == 200


def test_concurrent_api_saves_one_wins_the_other_conflicts(owner):
    """Two people save the same version of a deck at the same moment through the API: one 200, one
    409 naming the current version; no version lost or doubled."""
    user, deck = owner
    barrier = threading.Barrier(2)
    out: list[tuple[int, dict]] = []
    lock = threading.Lock()

    def save(i: int) -> None:
        c = APIClient()
        c.force_authenticate(user)
        try:
            barrier.wait()
            r = c.patch(f"/api/v1/decks/{deck.pk}/", {"name": f"writer {i}", "base_version": 1,
                                                      "text": f"{i + 1} W{i}"}, format="json")
            with lock:
                out.append((r.status_code, r.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(code for code, _ in out)
    assert codes == [200, 409], out
    loser = next(body for code, body in out if code == 409)
    assert loser["error"]["code"] == "conflict"
    assert loser["error"]["params"]["current_version"] == 2 and loser["error"]["params"]["base_version"] == 1
    deck = Deck.objects.get(pk=deck.pk)
    winner = next(body for code, body in out if code == 200)
    assert deck.version == 2 and deck.name == winner["name"]
    assert list(DeckVersion.objects.filter(deck=deck).order_by("number").values_list("number", flat=True)) == [1, 2]
