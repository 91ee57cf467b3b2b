"""Concurrent saves on PostgreSQL: two writers based on the same version — exactly one wins, the other
gets a conflict naming the current version; no version is lost or duplicated."""
from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from decks.models import Deck, DeckVersion
from decks.services import DeckConflict, deck_create, deck_update

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_writers_same_base_version():
    user = get_user_model().objects.create_user("racer", password="x")
    deck = deck_create(owner=user, game="ws", name="race", zones={"main": {"A": 1}})
    barrier = threading.Barrier(4)
    results: list[str] = []
    lock = threading.Lock()

    def writer(i: int) -> None:
        try:
            barrier.wait()
            d = Deck.objects.get(pk=deck.pk)
            deck_update(deck=d, user=user, base_version=1, zones={"main": {f"W{i}": 1}})
            outcome = "ok"
        except DeckConflict as exc:
            outcome = f"conflict v{exc.current_version}"
        finally:
            connection.close()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict v2", "conflict v2", "conflict v2", "ok"]
    deck.refresh_from_db()
    assert deck.version == 2
    assert list(DeckVersion.objects.filter(deck=deck).order_by("number").values_list("number", flat=True)) == [1, 2]
    assert DeckVersion.objects.get(deck=deck, number=2).zones == deck.zones
