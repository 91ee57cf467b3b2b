"""``PUT /api/v1/decks/{id}/`` replaces the whole deck: every field of the representation is
required (a 400 names each missing one and nothing is saved); ``PATCH`` changes only what it is
given. Both keep the version preconditions (If-Match → 412, base_version → 409, neither → 428)."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from decks.models import Deck
from decks.testing import cards_create, legal_deck
from rules import games as g

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cards_create()
    alice = get_user_model().objects.create_user("alice", password="pw-alice-123")
    c = APIClient()
    c.force_authenticate(alice)
    r = c.post("/api/v1/decks/", {"name": "Idols", "game": g.WS, "description": "first",
                                  "visibility": "unlisted", "zones": legal_deck(g.WS)}, format="json")
    assert r.status_code == 201, r.content
    return c, r.json(), r["ETag"]


def full(deck: dict, **changes) -> dict:
    body = {k: deck[k] for k in ("name", "game", "description", "visibility", "zones")}
    return {**body, **changes}


def test_put_with_the_whole_deck_saves_a_new_version(setup):
    c, deck, etag = setup
    r = c.put(f"/api/v1/decks/{deck['id']}/", full(deck, name="Renamed", description=""), format="json",
              HTTP_IF_MATCH=etag)
    assert r.status_code == 200, r.content
    body = r.json()
    assert (body["version"], body["name"], body["description"], body["visibility"]) == (2, "Renamed", "", "unlisted")


@pytest.mark.parametrize("missing", ["name", "game", "description", "visibility"])
def test_put_without_a_field_is_a_400_naming_it_and_saves_nothing(setup, missing):
    c, deck, etag = setup
    body = full(deck, name="Renamed")
    del body[missing]
    r = c.put(f"/api/v1/decks/{deck['id']}/", body, format="json", HTTP_IF_MATCH=etag)
    assert r.status_code == 400, r.content
    assert list(r.json()["error"]["fields"]) == [missing], r.json()
    d = Deck.objects.get(pk=deck["id"])
    assert (d.version, d.name) == (1, "Idols")


def test_put_without_cards_is_a_400_naming_them(setup):
    c, deck, etag = setup
    body = full(deck)
    del body["zones"]
    r = c.put(f"/api/v1/decks/{deck['id']}/", body, format="json", HTTP_IF_MATCH=etag)
    assert r.status_code == 400
    assert "PATCH" in r.json()["error"]["fields"]["zones"][0]
    assert Deck.objects.get(pk=deck["id"]).zones == legal_deck(g.WS)
    # cards as text or entries are the whole deck too
    r = c.put(f"/api/v1/decks/{deck['id']}/", {**body, "text": "4 WST/W01-001"}, format="json", HTTP_IF_MATCH=etag)
    assert r.status_code == 200, r.content
    assert r.json()["zones"] == {"main": {"WST/W01-001": 4}}


def test_an_empty_put_names_every_missing_field(setup):
    c, deck, etag = setup
    r = c.put(f"/api/v1/decks/{deck['id']}/", {}, format="json", HTTP_IF_MATCH=etag)
    assert r.status_code == 400
    assert {"name", "game", "description", "visibility"} <= set(r.json()["error"]["fields"])


def test_patch_still_changes_only_what_it_is_given(setup):
    c, deck, etag = setup
    r = c.patch(f"/api/v1/decks/{deck['id']}/", {"name": "Renamed"}, format="json", HTTP_IF_MATCH=etag)
    assert r.status_code == 200
    assert (r.json()["description"], r.json()["visibility"], r.json()["zones"]) == ("first", "unlisted", legal_deck(g.WS))


def test_put_keeps_the_version_preconditions(setup):
    c, deck, etag = setup
    url = f"/api/v1/decks/{deck['id']}/"
    assert c.put(url, full(deck), format="json").status_code == 428
    r = c.put(url, full(deck, description="second"), format="json", HTTP_IF_MATCH=etag)
    assert (r.status_code, r.json()["version"]) == (200, 2)
    assert c.put(url, full(deck, name="late"), format="json", HTTP_IF_MATCH=etag).status_code == 412
    r = c.put(url, full(deck, name="late", base_version=1), format="json")
    assert r.status_code == 409 and r.json()["error"]["params"]["current_version"] == 2
    assert c.put(url, full(deck, game=g.PC), format="json", HTTP_IF_MATCH='"deck-1-v2"').status_code == 400
    d = Deck.objects.get(pk=deck["id"])
    assert (d.version, d.name, d.description) == (2, "Idols", "second")
