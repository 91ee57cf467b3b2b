"""Query parameters of the API lists are read strictly: a value that cannot be read is a 400 JSON error
naming the parameter (in each API's documented error shape), never ignored or replaced by a
default. Before: ``mine=null``/``mine=maybe`` listed everything, ``level=0.5`` and ``deck_id=abc``
answered 200, ``page_size=abc`` gave the default size, ``page=abc`` a 404, ``?format=xml`` a bare
"Not found."."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from decks.services import deck_create
from decks.testing import cards_create, legal_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cards_create()
    user = get_user_model().objects.create_user("pat", password="x" * 12)
    other = get_user_model().objects.create_user("quinn", password="x" * 12)
    mine = deck_create(owner=user, game="ws", name="mine", zones=legal_deck("ws"), visibility="private")
    deck_create(owner=other, game="ws", name="theirs", zones=legal_deck("ws"), visibility="public")
    c = APIClient()
    c.force_authenticate(user)
    c.deck_id = mine.pk  # ids are not 1 on PostgreSQL (sequences are not reset between tests)
    return c


@pytest.mark.parametrize(("query", "param"), [
    ("level=0.5", "level"), ("level__gte=1e3", "level__gte"), ("power=1.0", "power"), ("cost=abc", "cost"),
    ("level=99999999999999999999", "level"), ("level=", "level"), ("game=", "game"),
    ("counter=maybe", "counter"), ("counter=null", "counter"), ("level=%25", "level"), ("counter=%25s", "counter"),
    ("page=abc", "page"), ("page=0", "page"), ("page=1.5", "page"), ("page=-1", "page"), ("page=", "page"),
    ("page_size=abc", "page_size"), ("page_size=0", "page_size"), ("page_size=201", "page_size"),
])
def test_card_list_refuses_unreadable_values(api, query, param):
    r = api.get(f"/api/v1/cards/?{query}")
    assert r.status_code == 400, (query, r.content)
    error = r.json()["error"]
    assert error["code"] == "invalid" and error["message"].startswith(f"{param}:"), error
    assert param in error["fields"]


@pytest.mark.parametrize("query", ["level=3", "level__gte=0", "counter=true", "counter=0", "page_size=200",
                                   "page=1", "order=-power,name", "name=", "q="])
def test_card_list_accepts_good_values(api, query):
    assert api.get(f"/api/v1/cards/?{query}").status_code == 200, query


def test_card_list_unknown_order_and_missing_page(api):
    r = api.get("/api/v1/cards/?order=bogus")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_order"
    r = api.get("/api/v1/cards/?page=999")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"  # a page past the end


@pytest.mark.parametrize(("query", "param"), [
    ("mine=null", "mine"), ("mine=maybe", "mine"), ("mine=", "mine"), ("game=nope", "game"), ("game=", "game"),
    ("visibility=secret", "visibility"), ("page=abc", "page"), ("page=0", "page"), ("page_size=x", "page_size"),
    ("page_size=1000", "page_size"),
])
def test_deck_list_refuses_unreadable_values(api, query, param):
    r = api.get(f"/api/v1/decks/?{query}")
    assert r.status_code == 400, (query, r.content)
    assert list(r.json()["error"]["fields"]) == [param], r.json()


def test_deck_list_mine_and_paging(api):
    names = lambda q: sorted(d["name"] for d in api.get(f"/api/v1/decks/?{q}").json()["results"])  # noqa: E731
    assert names("mine=true") == names("mine=1") == names("mine=YES") == ["mine"]
    assert names("mine=false") == names("mine=0") == names("") == ["mine", "theirs"]
    body = api.get("/api/v1/decks/?page_size=1&page=2").json()
    assert body["count"] == 2 and len(body["results"]) == 1 and body["previous"]
    r = api.get("/api/v1/decks/?page=3&page_size=1")
    assert r.status_code == 404 and "no page 3" in r.json()["error"]["message"]


@pytest.mark.parametrize(("query", "param"), [
    ("deck_id=0.5", "deck_id"), ("deck_id=abc", "deck_id"), ("deck_id=0", "deck_id"), ("deck_id=", "deck_id"),
    ("status=zz", "status"), ("game=zz", "game"), ("game=", "game"), ("page=abc", "page"), ("page_size=-1", "page_size"),
])
def test_playtest_list_refuses_unreadable_values(api, query, param):
    r = api.get(f"/api/v1/playtests/?{query}")
    assert r.status_code == 400, (query, r.content)
    assert list(r.json()["error"]["fields"]) == [param], r.json()


def test_playtest_list_accepts_good_values(api):
    for query in ("deck_id=1", "status=done&status=failed", "game=ws", "page=1&page_size=5"):
        assert api.get(f"/api/v1/playtests/?{query}").status_code == 200, query


@pytest.mark.parametrize(("url", "param"), [
    ("/api/v1/decks/{id}/diff/?from=x", "from"), ("/api/v1/decks/{id}/diff/?to=%C2%B2", "to"),
    ("/api/v1/decks/{id}/diff/?from=0", "from"), ("/api/v1/decks/{id}/export/?version=1.5&format=json", "version"),
])
def test_version_parameters(api, url, param):
    r = api.get(url.format(id=api.deck_id))
    assert r.status_code == 400, (url, r.content)
    assert list(r.json()["error"]["fields"]) == [param], r.json()


def test_unknown_export_format_is_a_400_naming_it(api):
    r = api.get(f"/api/v1/decks/{api.deck_id}/export/?format=xml")  # the export's own default media type: text
    assert r.status_code == 400 and r.content.decode().startswith("format: unknown format 'xml'"), r.content


def test_plain_text_errors_are_readable(api):
    r = api.get(f"/api/v1/decks/{api.deck_id}/export/?version=x")
    assert r.status_code == 400 and r["Content-Type"].startswith("text/plain")
    assert r.content.decode().startswith("version: must be a version number"), r.content


def test_bodies_with_nested_cards_are_json_only(api):
    """A form body cannot carry ``entries``; it used to be dropped silently. Now 415."""
    r = api.post("/api/v1/decks/validate/", {"game": "ws", "text": "4 WST/W01-001"})  # multipart
    assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type"
    r = api.post("/api/v1/decks/validate/", {"game": "ws", "text": "4 WST/W01-001"}, format="json")
    assert r.status_code == 200


def test_messages_are_translated(api):
    r = api.get("/api/v1/decks/?mine=maybe", HTTP_ACCEPT_LANGUAGE="ja")
    mine = r.json()["error"]["fields"]["mine"][0]
    assert "true" in mine and "maybe" in mine
    assert mine != "must be true or false (or 1/0), got 'maybe'"


@pytest.mark.parametrize(("url", "body", "field"), [
    ("/api/v1/decks/validate/", {"game": "ws", "text": 5}, "text"),
    ("/api/v1/decks/validate/", {"game": "ws", "text": "4 WST/W01-001", "partner": 1.5}, "partner"),
    ("/api/v1/decks/", {"game": "ws", "name": 7, "text": "4 WST/W01-001"}, "name"),
    ("/api/v1/decks/", {"game": "ws", "name": "n", "text": ["4 WST/W01-001"]}, "text"),
])
def test_numbers_are_not_read_as_text(api, url, body, field):
    r = api.post(url, body, format="json")
    assert r.status_code == 400 and field in r.json()["error"]["fields"], r.content


def test_playtest_text_must_be_a_string(api):
    r = api.post("/api/v1/playtests/", {"game": "ws", "text": 123, "games": 5}, format="json")
    assert r.status_code == 400 and "text" in str(r.json()), r.content
