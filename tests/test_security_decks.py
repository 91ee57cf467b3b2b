"""Issue 19, findings 2, 3, 9 and 14: what a share link, the public list and a newly public deck give
away, and a change lost to a concurrent save.

2. A share link pinned to version 1 gave away every version (the API's latest description, counts
   and always-latest link; the page's latest description; forking any version through it).
3. One account's 100 public decks of 2,500 codes slowed the public deck list from 84 ms to 7.8 s:
   every list view validated the decks. Legality is stored when a deck is saved; zones are the game's
   own, sizes sane; decks per account and creations per hour are limited.
9. Creating a share link did not bump the deck's version, so a concurrent save (based on the version
   before) made the deck private again and closed the new link; ``If-Match`` ignored the deck id.
14. Making a deck public exposed its earlier private versions (history, versions, diff, export, fork).
"""
from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from decks.models import Deck, DeckVersion, ShareLink
from decks.services import deck_create, deck_update, share_link_create
from decks.testing import legal_deck
from rules import games as g
from tests.helpers import api_client, web_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_hasher")]


SMALLER = {"main": {**legal_deck(g.WS)["main"]}}


@pytest.fixture
def pinned(cards, alice):
    """Alice's deck: version 1 "plan A"; a link pinned to it (saved as version 2); then version 3 with
    another description and other cards."""
    deck = deck_create(owner=alice, game=g.WS, name="Plan A deck", zones=legal_deck(g.WS), description="plan A")
    link = share_link_create(deck=deck, user=alice, version=1)
    zones = {"main": {**legal_deck(g.WS)["main"]}}
    code = sorted(zones["main"])[0]
    zones["main"][code] -= 1
    deck = deck_update(deck=Deck.objects.get(pk=deck.pk), user=alice, base_version=2, zones=zones,
                       description="plan B: the secret tech", name="Plan B deck")
    assert deck.version == 3
    return deck, link


# -- 2. a pinned share link ----------------------------------------------------------------------
def test_a_pinned_link_shows_that_version_and_nothing_newer_in_the_api(pinned, bob):
    deck, link = pinned
    for reader in (None, bob):
        r = api_client(reader).get(f"/api/v1/shared/{link.slug}/")
        assert r.status_code == 200
        body = r.json()
        text = r.content.decode()
        assert body["version"] == body["shown_version"] == 1
        assert body["description"] == "plan A" and body["name"] == "Plan A deck"
        assert body["zones"] == legal_deck(g.WS) and body["counts"] == {"main": 50}
        assert body["share_url"].endswith(f"/d/{link.slug}/")  # the link itself, not the always-latest one
        assert "plan B" not in text and deck.slug not in text and "Plan B" not in text


def test_a_pinned_link_page_shows_that_version_and_nothing_newer(pinned, bob):
    deck, link = pinned
    for reader in (None, bob):
        html = web_client(reader).get(f"/d/{link.slug}/").content.decode()
        assert "plan A" in html and "Plan A deck" in html
        assert "plan B" not in html and "latest is" not in html and deck.slug not in html


def test_forking_through_a_pinned_link_gives_that_version_only(pinned, bob):
    deck, link = pinned
    for version in (2, 3):
        r = api_client(bob).post(f"/api/v1/shared/{link.slug}/fork/", {"version": version}, format="json")
        assert r.status_code == 400 and r.json()["error"]["fields"]["version"], r.content
    assert not Deck.objects.filter(owner=bob).exists()
    r = api_client(bob).post(f"/api/v1/shared/{link.slug}/fork/", {}, format="json")
    assert r.status_code == 201
    fork = Deck.objects.get(owner=bob)
    assert fork.forked_from_version == 1 and fork.description == "plan A" and fork.zones == legal_deck(g.WS)
    # the always-latest link shows the latest only: an older version cannot be forked through it either
    r = api_client(bob).post(f"/api/v1/shared/{deck.slug}/fork/", {"version": 1}, format="json")
    assert r.status_code == 400
    # and the unlisted deck's versions stay invisible by id
    assert api_client(bob).get(f"/api/v1/decks/{deck.pk}/versions/").status_code == 404


# -- 9. a share link is a new version; If-Match names the deck --------------------------------------
def test_a_new_share_link_is_a_new_version_so_a_stale_save_conflicts(cards, alice):
    c = api_client(alice)
    r = c.post("/api/v1/decks/", {"game": "ws", "name": "d", "zones": legal_deck(g.WS)}, format="json")
    deck_id, etag = r.json()["id"], r["ETag"]
    assert etag == f'"deck-{deck_id}-v1"'
    r = c.post(f"/api/v1/decks/{deck_id}/shares/", {}, format="json")  # another tab shares the deck
    assert r.status_code == 201 and r["ETag"] == f'"deck-{deck_id}-v2"'
    slug = r.json()["slug"]
    # the first tab saves, based on version 1, making the deck private: it must not win silently
    r = c.patch(f"/api/v1/decks/{deck_id}/", {"visibility": "private", "name": "renamed"}, format="json",
                HTTP_IF_MATCH=etag)
    assert r.status_code == 412 and r.json()["error"]["code"] == "precondition_failed"
    assert r.json()["error"]["params"]["current_version"] == 2
    deck = Deck.objects.get(pk=deck_id)
    assert deck.visibility == "unlisted" and deck.name == "d" and deck.version == 2
    assert api_client().get(f"/api/v1/shared/{slug}/").status_code == 200  # the new link still works
    assert DeckVersion.objects.get(deck=deck, number=2).note == "share link created"


def test_if_match_with_another_decks_etag_is_412(cards, alice):
    c = api_client(alice)
    a = c.post("/api/v1/decks/", {"game": "ws", "name": "a", "zones": legal_deck(g.WS)}, format="json").json()["id"]
    b = c.post("/api/v1/decks/", {"game": "ws", "name": "b", "zones": legal_deck(g.WS)}, format="json").json()["id"]
    other = f'"deck-{a}-v1"'  # deck a's ETag: the same version number as deck b's
    r = c.patch(f"/api/v1/decks/{b}/", {"name": "changed"}, format="json", HTTP_IF_MATCH=other)
    assert r.status_code == 412, r.content
    err = r.json()["error"]
    assert err["code"] == "precondition_failed" and err["params"]["other"] == a and err["params"]["id"] == b
    assert r["ETag"] == f'"deck-{b}-v1"'
    r = c.post(f"/api/v1/decks/{b}/versions/1/restore/", {}, format="json", HTTP_IF_MATCH=other)
    assert r.status_code == 412
    assert Deck.objects.get(pk=b).name == "b" and Deck.objects.get(pk=b).version == 1
    r = c.patch(f"/api/v1/decks/{b}/", {"name": "changed"}, format="json", HTTP_IF_MATCH=f'"deck-{b}-v1"')
    assert r.status_code == 200 and r["ETag"] == f'"deck-{b}-v2"'


# -- 14. going public ---------------------------------------------------------------------------
@pytest.fixture
def went_public(cards, alice):
    deck = deck_create(owner=alice, game=g.WS, name="Secret", zones=legal_deck(g.WS), description="secret tech v1")
    deck = deck_update(deck=deck, user=alice, base_version=1, description="secret tech v2")
    deck = deck_update(deck=deck, user=alice, base_version=2, description="the public deck", visibility="public")
    assert deck.version == 3 and deck.public_from_version == 3
    return deck


def test_making_a_deck_public_does_not_expose_its_private_versions(went_public, bob):
    deck = went_public
    for reader in (None, bob):
        c = api_client(reader)
        assert [v["number"] for v in c.get(f"/api/v1/decks/{deck.pk}/versions/").json()] == [3]
        assert c.get(f"/api/v1/decks/{deck.pk}/versions/1/").status_code == 404
        assert c.get(f"/api/v1/decks/{deck.pk}/diff/", {"from": 1, "to": 3}).status_code == 404
        assert c.get(f"/api/v1/decks/{deck.pk}/export/", {"version": 2, "format": "json"}).status_code == 404
        html = web_client(reader).get(f"/decks/{deck.pk}/history/").content.decode()
        assert "secret tech" not in html
        assert "secret tech" not in web_client(reader).get(f"/decks/{deck.pk}/export.txt", {"version": 1}).content.decode()
    r = api_client(bob).post(f"/api/v1/decks/{deck.pk}/fork/", {"version": 1}, format="json")
    assert r.status_code == 400 and not Deck.objects.filter(owner=bob).exists()
    # the owner still has everything
    owner = api_client(deck.owner)
    assert [v["number"] for v in owner.get(f"/api/v1/decks/{deck.pk}/versions/").json()] == [3, 2, 1]
    assert owner.get(f"/api/v1/decks/{deck.pk}/versions/1/").json()["description"] == "secret tech v1"


def test_the_owner_may_choose_to_publish_the_history(went_public, alice, bob):
    deck = went_public
    r = api_client(alice).patch(f"/api/v1/decks/{deck.pk}/", {"publish_history": True}, format="json",
                         HTTP_IF_MATCH=f'"deck-{deck.pk}-v3"')
    assert r.status_code == 200
    assert [v["number"] for v in api_client(bob).get(f"/api/v1/decks/{deck.pk}/versions/").json()] == [3, 2, 1]
    # a deck public from its creation shows every version, as before
    d = deck_create(owner=alice, game=g.WS, name="Open", zones=legal_deck(g.WS), visibility="public")
    d = deck_update(deck=d, user=alice, base_version=1, description="v2")
    assert [v["number"] for v in api_client(bob).get(f"/api/v1/decks/{d.pk}/versions/").json()] == [2, 1]


def test_the_edit_form_offers_the_choice(went_public, alice):
    deck = deck_update(deck=went_public, user=alice, base_version=3, visibility="private")
    r = web_client(alice).post(f"/decks/{deck.pk}/edit/", {
        "name": deck.name, "visibility": "public", "description": "again", "text": "",
        "base_version": deck.version, "publish_history": "on"})
    assert r.status_code == 302, r.content.decode()[:500]
    assert Deck.objects.get(pk=deck.pk).public_from_version == 1


# -- 3. the public list, zones, sizes, quota --------------------------------------------------------
def test_legality_is_stored_when_saved_and_lists_do_not_validate(cards, alice, bob, monkeypatch):
    good = deck_create(owner=alice, game=g.WS, name="good", zones=legal_deck(g.WS), visibility="public")
    bad = deck_create(owner=alice, game=g.WS, name="bad", zones={"main": {"WST/W01-001": 4}}, visibility="public")
    assert (good.legal, good.problems) == (True, 0)
    assert bad.legal is False and bad.problems >= 1
    assert Deck.objects.get(pk=bad.pk).legal is False  # stored, not just set on the object
    for i in range(20):
        deck_create(owner=bob, game=g.WS, name=f"many {i}", visibility="public",
                    zones={"main": {f"NOPE-{i}-{j:03d}": 1 for j in range(150)}})
    import rules.construction

    calls = []
    real = rules.construction.validate_deck
    monkeypatch.setattr(rules.construction, "validate_deck", lambda *a, **k: calls.append(a) or real(*a, **k))
    with CaptureQueriesContext(connection) as queries:
        r = web_client().get("/decks/")
    assert r.status_code == 200 and "many 19" in r.content.decode()
    assert not [q for q in queries.captured_queries if "catalog_card" in q["sql"]], "the list read the catalog"
    assert calls == [], "the list validated decks"
    r = web_client().get("/decks/public/")
    assert r.status_code == 200 and calls == []
    # a deck saved before legality was stored is checked once, then kept
    Deck.objects.filter(pk=good.pk).update(legal=None)
    web_client().get("/decks/")
    assert Deck.objects.get(pk=good.pk).legal is True


def test_the_migration_backfills_legality(cards, alice):
    import importlib

    migration = importlib.import_module("decks.migrations.0004_deck_legality_public_from")
    d = deck_create(owner=alice, game=g.WS, name="old", zones=legal_deck(g.WS))
    Deck.objects.filter(pk=d.pk).update(legal=None, problems=0)
    migration.backfill_legality(apps, None)
    assert Deck.objects.get(pk=d.pk).legal is True


@pytest.mark.parametrize(("zones", "field", "words"), [
    ({"main": legal_deck(g.WS)["main"], "extra": {"WST/W01-001": 1}}, "zones", "no 'extra' zone"),
    ({"side": {"WST/W01-001": 1}}, "zones", "unknown zone"),
    ({"main": {f"X-{i:04d}": 1 for i in range(201)}}, "zones.main", "at most 200 different cards"),
    ({"main": {f"X-{i:03d}": 99 for i in range(6)}}, "zones", "at most 500 cards"),
])
def test_only_the_games_zones_and_sane_sizes(cards, alice, zones, field, words):
    r = api_client(alice).post("/api/v1/decks/", {"game": "ws", "name": "x", "zones": zones}, format="json")
    assert r.status_code == 400, r.content
    err = r.json()["error"]
    assert field in err["fields"] and words in err["message"]
    assert not Deck.objects.exists()


def test_decks_per_account_and_creations_per_hour_are_limited(cards, alice, settings):
    settings.DECKS_MAX_PER_USER = 3
    c = api_client(alice)
    for i in range(3):
        assert c.post("/api/v1/decks/", {"game": "ws", "name": f"d{i}"}, format="json").status_code == 201
    r = c.post("/api/v1/decks/", {"game": "ws", "name": "one too many"}, format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "deck_quota_exceeded"
    assert r.json()["error"]["params"] == {"limit": 3}
    r = c.post(f"/api/v1/decks/{Deck.objects.first().pk}/fork/", {}, format="json")  # forks count too
    assert r.status_code == 403 and Deck.objects.count() == 3
    settings.DECKS_MAX_PER_USER = 100
    settings.DECK_CREATE_RATE = "4/hour"
    assert c.post("/api/v1/decks/", {"game": "ws", "name": "d3"}, format="json").status_code == 201
    r = c.post("/api/v1/decks/", {"game": "ws", "name": "d4"}, format="json")
    assert r.status_code == 429 and r.json()["error"]["code"] == "throttled"
    assert 0 < int(r["Retry-After"]) <= 3600
    assert Deck.objects.count() == 4
    r = web_client(alice).post("/decks/new/", {"game": "ws", "name": "by form", "visibility": "private", "text": ""})
    assert r.status_code == 429 and Deck.objects.count() == 4
    assert ShareLink.objects.count() == 0
