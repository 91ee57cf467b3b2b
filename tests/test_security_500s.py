"""Issue 19, finding 5: fourteen anonymous inputs answered 500 (on the production setup, PostgreSQL).

Each is now a 4xx naming the problem (the parameter, the body path or the address), nothing is
written and no traceback is logged. Most of them failed only on PostgreSQL (NUL in text, values out
of a column's range reaching raw SQL); the JSON and deck-file nesting and the replay jump failed on
both databases. Defences: ``config.middleware.RejectNulMiddleware`` (NUL in the address, a parameter
or a form field), ``config.parsers.StrictJSONParser`` (depth, NUL, unpaired surrogates in JSON, keys
included), per-column ranges for the card filters (``catalog.filters``), a nesting limit in
``rules.textproto`` and a checked game number on the replay jump.
"""
from __future__ import annotations

import logging

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from decks.models import Deck, DeckVersion
from playtest.models import PlaytestJob

pytestmark = pytest.mark.django_db
JSON = "application/json"


@pytest.fixture
def job():
    return PlaytestJob.objects.create(game="ws", snapshot={"zones": {"main": {}}, "cards": {}}, games=10,
                                      pilot="default", turn_cap=20, chunk_size=10, chunks_total=1)


def _api() -> APIClient:
    return APIClient(raise_request_exception=False)


def _page() -> Client:
    return Client(raise_request_exception=False)


CASES = [
    # (name, request, expected status, the words the answer names)
    ("level=-1", lambda j: _api().get("/api/v1/cards/", {"level": "-1"}), 400, ["level", "0 to 32767"]),
    ("power=-5", lambda j: _api().get("/api/v1/cards/", {"power": "-5"}), 400, ["power"]),
    ("cost__lt=-3", lambda j: _api().get("/api/v1/cards/", {"cost__lt": "-3"}), 400, ["cost__lt"]),
    ("soul=40000", lambda j: _api().get("/api/v1/cards/", {"soul": "40000"}), 400, ["soul", "32767"]),
    ("JSON nested 950 levels", lambda j: _api().post("/api/v1/decks/validate/", "[" * 950 + "]" * 950,
                                                     content_type=JSON), 400, ["nested deeper than 32"]),
    ("JSON object nested 950 levels", lambda j: _api().post(
        "/api/v1/decks/validate/", '{"a":' * 950 + "1" + "}" * 950, content_type=JSON), 400, ["nested deeper"]),
    ("deck-file text nested 470 levels", lambda j: _api().post(
        "/api/v1/decks/validate/", {"game": "chaos", "text": "mainDeck {" * 470 + "}" * 470}, format="json"),
     200, ["nested deeper than 32 levels", "line 1"]),
    ("%00 share link page", lambda j: _page().get("/d/%00/"), 400, ["NUL"]),
    ("%00 share link API", lambda j: _api().get("/api/v1/shared/%00/"), 400, ["path", "NUL"]),
    ("%00 report page", lambda j: _page().get("/p/%00/"), 400, ["NUL"]),
    ("%00 playtest API", lambda j: _api().get("/api/v1/playtests/%00/"), 400, ["path", "NUL"]),
    ("NUL in a card code (zones key)", lambda j: _api().post(
        "/api/v1/decks/validate/", '{"game": "ws", "zones": {"main": {"A\\u0000": 1}}}', content_type=JSON),
     400, ["zones.main", "NUL"]),
    ("lone surrogate in a card code", lambda j: _api().post(
        "/api/v1/decks/validate/", '{"game": "ws", "zones": {"main": {"A\\ud800": 1}}}', content_type=JSON),
     400, ["zones.main", "surrogate"]),
    ("lone surrogate in the token username", lambda j: _api().post(
        "/api/v1/auth/token/", '{"username": "a\\ud800", "password": "x"}', content_type=JSON),
     400, ["username", "surrogate"]),
    ("index=-1 on the replay jump", lambda j: _page().get(f"/p/{j.share_slug}/games/", {"index": "-1"}),
     400, ["index", "0 to 9"]),
    ("%00 in the deck list search", lambda j: _page().get("/decks/", {"q": "a\x00"}), 400, ["q", "NUL"]),
    ("%00 on the compare page", lambda j: _page().get("/playtests/compare/", {"a": "\x00", "b": "x"}), 400, ["NUL"]),
    ("%00 in the playtest form's share link", lambda j: _page().post("/playtests/new/", {"share": "a\x00"}),
     400, ["share", "NUL"]),
]


@pytest.mark.parametrize(("name", "send", "status", "words"), CASES, ids=[c[0] for c in CASES])
def test_hostile_input_is_a_4xx_naming_the_problem(name, send, status, words, job, caplog):
    User.objects.create_user("owner", password="pw-owner-12345")
    decks, versions = Deck.objects.count(), DeckVersion.objects.count()
    with caplog.at_level(logging.ERROR, logger="django.request"):
        r = send(job)
    assert r.status_code == status, (name, r.status_code, r.content[:300])
    text = r.content.decode()
    for word in words:
        assert word in text, (name, word, text[:400])
    if r["Content-Type"].startswith("application/json") and status >= 400:
        body = r.json()
        assert set(body) == {"error"} and body["error"]["code"] in {"invalid", "parse_error"}
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR], "a server error was logged"
    assert "Traceback" not in text
    assert (Deck.objects.count(), DeckVersion.objects.count()) == (decks, versions)


def test_unpaired_surrogates_and_nul_never_reach_a_saved_deck():
    user = User.objects.create_user("writer", password="pw-writer-12345")
    api = _api()
    api.force_authenticate(user)
    for body in ('{"game": "ws", "name": "n", "zones": {"main": {"A\\ud800": 1}}}',
                 '{"game": "ws", "name": "n", "zones": {"main": {"A\\u0000": 1}}}',
                 '{"game": "ws", "name": "n\\udfff"}', '{"game": "ws", "name": "n", "description": "a\\u0000"}'):
        r = api.post("/api/v1/decks/", body, content_type=JSON)
        assert r.status_code == 400, (body, r.content[:300])
        assert r.json()["error"]["fields"], r.content
    assert not Deck.objects.exists()


def test_ordinary_values_still_work(job):
    api = _api()
    assert api.get("/api/v1/cards/", {"level": "0", "soul": "32767", "power__gte": "9000"}).status_code == 200
    r = api.post("/api/v1/decks/validate/", {"game": "ws", "entries": [{"code": "X/W1-001", "count": 1}]}, format="json")
    assert r.status_code == 200
    r = _page().get(f"/p/{job.share_slug}/games/", {"index": "3"})
    assert r.status_code == 302 and r["Location"].endswith(f"/p/{job.share_slug}/games/3/")
    assert _page().get(f"/p/{job.share_slug}/games/", {"index": "10"}).status_code == 400
