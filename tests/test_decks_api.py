"""Decks API: validation endpoint, CRUD, permissions, versions, diffs, 409/412, forks, shares, export."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from decks.models import Deck, DeckVersion, ShareLink
from decks.testing import legal_deck
from rules import games as g
from tests.helpers import api_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_hasher")]


def create(user, game=g.WS, **kw):
    body = {"name": "My deck", "game": game, "zones": legal_deck(game), **kw}
    r = api_client(user).post("/api/v1/decks/", body, format="json")
    assert r.status_code == 201, r.content
    return r


# -- validate -------------------------------------------------------------------------------------
def test_validate_entries_anonymous(cards, django_assert_max_num_queries):
    entries = [{"code": code, "count": n, "zone": "main"} for code, n in legal_deck(g.WS)["main"].items()]
    with django_assert_max_num_queries(1):
        r = api_client().post("/api/v1/decks/validate/", {"game": "ws", "entries": entries}, format="json")
    assert r.status_code == 200
    assert r.json()["valid"] is True and r.json()["errors"] == []
    assert r.json()["summary"]["main"] == 50


def test_validate_text_with_bad_lines(cards):
    text = "# main\n4 WST/W01-001\nfour WST/W01-002\n4 NOPE-1\n"
    r = api_client().post("/api/v1/decks/validate/", {"game": "ws", "text": text}, format="json")
    assert r.status_code == 200
    body = r.json()
    assert body["valid"] is False
    codes = [e["code"] for e in body["errors"]]
    assert codes[0] == "parse_error" and body["errors"][0]["line"] == 3
    assert "unknown_card" in codes and "deck_size" in codes


def test_validate_chaos_partner_in_text(cards):
    zones = legal_deck(g.CHAOS)
    text = "\n".join([f"{n} {c}" for c, n in zones["main"].items()] + ["# extra"] +
                     [f"{n} {c}" for c, n in zones["extra"].items()] + ["# partner", "1 CHT-013"])
    body = api_client().post("/api/v1/decks/validate/", {"game": "chaos", "text": text}, format="json").json()
    assert [e["code"] for e in body["errors"]] == ["partner_invalid"]


@pytest.mark.parametrize("payload,field", [
    ({"game": "mtg", "text": "4 A"}, "game"),
    ({"text": "4 A"}, "game"),
    ({"game": "ws"}, "entries"),
    ({"game": "ws", "entries": [{"code": "A", "count": 0}]}, "entries"),
    ({"game": "ws", "entries": [{"code": "A", "count": 4, "zone": "side"}]}, "entries"),
    ({"game": "ws", "entries": "4 A"}, "entries"),
    ({"game": "ws", "text": "4 A", "entries": []}, "text"),
    ({"game": "ws", "zones": {"side": {"A": 1}}}, "zones"),
    ({"game": "ws", "zones": {"main": {"A": "four"}}}, "zones.main.A"),
])
def test_validate_bad_input_is_400(payload, field):
    r = api_client().post("/api/v1/decks/validate/", payload, format="json")
    assert r.status_code == 400, r.content
    names = r.json()["error"]["fields"]  # nested fields by dotted path: entries.0.count
    assert any(name == field or name.startswith(f"{field}.") for name in names), r.json()


# -- create / read / permissions -----------------------------------------------------------------
def test_create_requires_login(cards):
    r = api_client().post("/api/v1/decks/", {"name": "x", "game": "ws", "zones": {}}, format="json")
    assert r.status_code in (401, 403)
    assert Deck.objects.count() == 0


def test_create_from_text_and_read(cards, alice):
    text = "# main\n" + "\n".join(f"{n}x {c}" for c, n in legal_deck(g.PC)["main"].items())
    r = api_client(alice).post("/api/v1/decks/import/", {"name": "Imported", "game": "pc", "text": text}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["version"] == 1 and body["zones"] == legal_deck(g.PC)
    assert body["validation"]["valid"] is True
    assert r["ETag"] == f'"deck-{body["id"]}-v1"'
    assert DeckVersion.objects.filter(deck_id=body["id"]).count() == 1


def test_create_with_unreadable_text_writes_nothing(cards, alice):
    r = api_client(alice).post("/api/v1/decks/", {"name": "x", "game": "pc", "text": "4 A\nbad line\n"}, format="json")
    assert r.status_code == 400
    assert "line 2" in r.json()["error"]["fields"]["text"][0]
    assert Deck.objects.count() == 0


@pytest.mark.parametrize("payload,field", [
    ({"game": "ws", "zones": {}}, "name"),
    ({"name": "x", "zones": {}}, "game"),
    ({"name": "x", "game": "ws", "visibility": "secret"}, "visibility"),
    ({"name": "x", "game": "ws", "zones": {"main": {"A": 120}}}, "zones.main.A"),
    ({"name": "x", "game": "ws", "zones": {"main": {"A B": 1}}}, "zones.main"),
    ({"name": "x", "game": "ws", "zones": [1, 2]}, "zones"),
    ({"name": "", "game": "ws"}, "name"),
])
def test_create_bad_input(alice, payload, field):
    r = api_client(alice).post("/api/v1/decks/", payload, format="json")
    assert r.status_code == 400 and field in r.json()["error"]["fields"], r.content
    assert Deck.objects.count() == 0


def test_visibility_rules(cards, alice, bob):
    private = create(alice, name="Private").json()
    unlisted = create(alice, name="Unlisted", visibility="unlisted").json()
    public = create(alice, name="Public", visibility="public").json()
    anon, bobc, alicec = api_client(), api_client(bob), api_client(alice)
    # by id: private and unlisted are 404 for others
    for c in (anon, bobc):
        assert c.get(f"/api/v1/decks/{private['id']}/").status_code == 404
        assert c.get(f"/api/v1/decks/{unlisted['id']}/").status_code == 404
        assert c.get(f"/api/v1/decks/{public['id']}/").status_code == 200
        assert c.get(f"/api/v1/decks/{private['id']}/versions/").status_code == 404
        assert c.get(f"/api/v1/decks/{private['id']}/export/?format=json").status_code == 404
    # lists: others see only public
    assert [d["name"] for d in anon.get("/api/v1/decks/").json()["results"]] == ["Public"]
    assert [d["name"] for d in alicec.get("/api/v1/decks/?visibility=unlisted").json()["results"]] == ["Unlisted"]
    assert alicec.get("/api/v1/decks/?game=ws&q=pub").json()["count"] == 1
    assert alicec.get("/api/v1/decks/?mine=1&owner=bob").json()["count"] == 0
    bad = anon.get("/api/v1/decks/?game=mtg")
    assert bad.status_code == 400 and "game" in bad.json()["error"]["fields"]
    assert {d["name"] for d in alicec.get("/api/v1/decks/").json()["results"]} == {"Private", "Unlisted", "Public"}
    # links: unlisted reachable by link, private not (even with its slug)
    unlisted_slug = Deck.objects.get(pk=unlisted["id"]).slug
    private_slug = Deck.objects.get(pk=private["id"]).slug
    assert anon.get(f"/api/v1/shared/{unlisted_slug}/").status_code == 200
    assert anon.get(f"/api/v1/shared/{private_slug}/").status_code == 404
    assert alicec.get(f"/api/v1/shared/{private_slug}/").status_code == 200
    assert unlisted["share_url"].endswith(f"/d/{unlisted_slug}/") and private["share_url"] is None


def test_only_owner_edits_and_deletes(cards, alice, bob):
    public = create(alice, visibility="public").json()
    private = create(alice).json()
    bobc = api_client(bob)
    r = bobc.patch(f"/api/v1/decks/{public['id']}/", {"name": "hacked", "base_version": 1}, format="json")
    assert r.status_code == 403
    assert bobc.delete(f"/api/v1/decks/{public['id']}/").status_code == 403
    assert bobc.patch(f"/api/v1/decks/{private['id']}/", {"name": "x", "base_version": 1}, format="json").status_code == 404
    assert api_client().patch(f"/api/v1/decks/{public['id']}/", {"name": "x"}, format="json").status_code in (401, 403)
    assert Deck.objects.get(pk=public["id"]).name == "My deck"
    assert api_client(alice).delete(f"/api/v1/decks/{public['id']}/").status_code == 204
    assert not Deck.objects.filter(pk=public["id"]).exists()


def test_token_auth(cards, alice):
    r = api_client().post("/api/v1/auth/token/", {"username": "alice", "password": "pw-alice-123"}, format="json")
    assert r.status_code == 200
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
    assert c.post("/api/v1/decks/", {"name": "T", "game": "ws"}, format="json").status_code == 201
    bad = api_client().post("/api/v1/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert bad.status_code == 400


# -- versions, diffs, concurrency ------------------------------------------------------------------
def test_versions_and_diff(cards, alice):
    deck = create(alice).json()
    c = api_client(alice)
    zones = legal_deck(g.WS)
    zones["main"]["WST/W01-011"] = 0
    zones["main"]["WST/W01-C3"] = 2
    r = c.patch(f"/api/v1/decks/{deck['id']}/", {"zones": zones, "base_version": 1, "note": "swap"}, format="json")
    assert r.status_code == 200 and r.json()["version"] == 2
    r = c.patch(f"/api/v1/decks/{deck['id']}/", {"name": "Renamed"}, format="json", HTTP_IF_MATCH=r["ETag"])
    assert r.status_code == 200 and r.json()["version"] == 3
    versions = c.get(f"/api/v1/decks/{deck['id']}/versions/").json()
    assert [v["number"] for v in versions] == [3, 2, 1]
    assert versions[1]["note"] == "swap"
    diff = c.get(f"/api/v1/decks/{deck['id']}/diff/?from=1&to=3").json()
    assert diff["zones"] == {"main": {"added": {"WST/W01-C3": 2}, "removed": {"WST/W01-011": 2}}}
    assert diff["name"] == {"from": "My deck", "to": "Renamed"}
    back = c.get(f"/api/v1/decks/{deck['id']}/diff/?from=3&to=1").json()
    assert back["zones"] == {"main": {"added": {"WST/W01-011": 2}, "removed": {"WST/W01-C3": 2}}}
    v1 = c.get(f"/api/v1/decks/{deck['id']}/versions/1/").json()
    assert v1["zones"] == legal_deck(g.WS) and "4 WST/W01-001" in v1["text"]
    assert c.get(f"/api/v1/decks/{deck['id']}/versions/9/").status_code == 404
    assert c.get(f"/api/v1/decks/{deck['id']}/diff/?from=1&to=9").status_code == 404
    assert c.get(f"/api/v1/decks/{deck['id']}/diff/?from=x").status_code == 400


def test_unchanged_save_makes_no_version(cards, alice):
    deck = create(alice).json()
    r = api_client(alice).patch(f"/api/v1/decks/{deck['id']}/", {"name": "My deck", "base_version": 1}, format="json")
    assert r.status_code == 200 and r.json()["version"] == 1


def test_stale_base_version_409_and_stale_etag_412(cards, alice):
    deck = create(alice).json()
    c = api_client(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    etag_v1 = c.get(url)["ETag"]
    assert c.get(url, HTTP_IF_NONE_MATCH=etag_v1).status_code == 304
    zones = legal_deck(g.WS)
    zones["main"]["WST/W01-001"] = 3
    zones["main"]["WST/W01-011"] = 3
    assert c.patch(url, {"zones": zones, "base_version": 1}, format="json").status_code == 200
    # a second tab still on version 1
    r = c.patch(url, {"name": "other tab", "base_version": 1}, format="json")
    assert r.status_code == 409
    body = r.json()["error"]
    assert body["code"] == "conflict" and r["ETag"].endswith('-v2"')
    assert body["params"]["current_version"] == 2 and body["params"]["base_version"] == 1
    assert body["params"]["changes"]["zones"] == {"main": {"added": {"WST/W01-011": 1}, "removed": {"WST/W01-001": 1}}}
    r = c.patch(url, {"name": "other tab"}, format="json", HTTP_IF_MATCH=etag_v1)
    assert r.status_code == 412 and r.json()["error"]["params"]["current_version"] == 2 and r["ETag"].endswith('-v2"')
    assert r.json()["error"]["code"] == "precondition_failed"
    assert Deck.objects.get(pk=deck["id"]).name == "My deck"
    assert DeckVersion.objects.filter(deck_id=deck["id"]).count() == 2
    assert c.get(url, HTTP_IF_NONE_MATCH=etag_v1).status_code == 200
    # no precondition at all: 428; unreadable If-Match: 400
    r = c.patch(url, {"name": "x"}, format="json")
    assert r.status_code == 428 and r.json()["error"]["code"] == "precondition_required"
    assert r.json()["error"]["params"] == {"current_version": 2}
    assert c.patch(url, {"name": "x"}, format="json", HTTP_IF_MATCH="garbage").status_code == 400
    assert c.patch(url, {"name": "x", "game": "pc", "base_version": 2}, format="json").status_code == 400


# -- forks, shares, export ---------------------------------------------------------------------------
def test_fork_public_and_by_link(cards, alice, bob):
    public = create(alice, visibility="public", name="Famous").json()
    unlisted = create(alice, visibility="unlisted", name="Secret sauce").json()
    private = create(alice, name="Mine").json()
    bobc = api_client(bob)
    r = bobc.post(f"/api/v1/decks/{public['id']}/fork/", {}, format="json")
    assert r.status_code == 201
    fork = r.json()
    assert fork["forked_from"] == public["id"] and fork["forked_from_version"] == 1
    assert fork["owner"] == "bob" and fork["visibility"] == "private" and fork["zones"] == legal_deck(g.WS)
    assert bobc.post(f"/api/v1/decks/{unlisted['id']}/fork/", {}, format="json").status_code == 404
    assert bobc.post(f"/api/v1/decks/{private['id']}/fork/", {}, format="json").status_code == 404
    slug = Deck.objects.get(pk=unlisted["id"]).slug
    r = bobc.post(f"/api/v1/shared/{slug}/fork/", {"name": "My sauce"}, format="json")
    assert r.status_code == 201 and r.json()["name"] == "My sauce" and r.json()["forked_from"] == unlisted["id"]
    assert api_client().post(f"/api/v1/shared/{slug}/fork/", {}, format="json").status_code in (401, 403)
    # editing the fork leaves the source alone
    bobc.patch(f"/api/v1/decks/{fork['id']}/", {"zones": {"main": {}}, "base_version": 1}, format="json")
    assert Deck.objects.get(pk=public["id"]).zones == legal_deck(g.WS)


def test_share_link_pins_version(cards, alice, bob):
    deck = create(alice).json()
    c = api_client(alice)
    r = c.post(f"/api/v1/decks/{deck['id']}/shares/", {"version": 1}, format="json")
    assert r.status_code == 201
    link = r.json()
    assert len(link["slug"]) >= 16 and link["version"] == 1
    assert Deck.objects.get(pk=deck["id"]).visibility == "unlisted"
    assert r["ETag"] == f'"deck-{deck["id"]}-v2"'  # the new link is a new version (issue 19)
    c.patch(f"/api/v1/decks/{deck['id']}/", {"zones": {"main": {"WST/W01-001": 4}}, "base_version": 2}, format="json")
    shared = api_client(bob).get(f"/api/v1/shared/{link['slug']}/").json()
    # the pinned version and nothing newer: not even the latest version's number (issue 19)
    assert shared["shown_version"] == 1 and shared["zones"] == legal_deck(g.WS) and shared["version"] == 1
    assert shared["validation"]["valid"] is True
    # bob forks the pinned version
    fork = api_client(bob).post(f"/api/v1/shared/{link['slug']}/fork/", {}, format="json").json()
    assert fork["forked_from_version"] == 1 and fork["zones"] == legal_deck(g.WS)
    assert api_client(bob).post(f"/api/v1/decks/{deck['id']}/shares/", {}, format="json").status_code == 404
    assert c.post(f"/api/v1/decks/{deck['id']}/shares/", {"version": 7}, format="json").status_code == 400
    assert ShareLink.objects.count() == 1
    assert api_client().get("/api/v1/shared/not-a-real-slug/").status_code == 404


def test_export_text_and_json(cards, alice):
    deck = create(alice, game=g.CHAOS, name="Knights").json()
    c = api_client(alice)
    r = c.get(f"/api/v1/decks/{deck['id']}/export/?format=text")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/plain")
    text = r.content.decode()
    assert "# partner\n1 CHT-001 Knight【Hero 1】" in text and "# extra\n2 CHT-X01" in text
    j = c.get(f"/api/v1/decks/{deck['id']}/export/?format=json").json()
    assert j["zones"] == legal_deck(g.CHAOS) and j["game"] == "chaos" and j["version"] == 1
    # the exported text imports back to the same deck
    r = c.post("/api/v1/decks/import/", {"name": "Again", "game": "chaos", "text": text}, format="json")
    assert r.status_code == 201 and r.json()["zones"] == legal_deck(g.CHAOS)


def test_list_and_pages_have_no_n_plus_one(cards, alice, bob, django_assert_max_num_queries):
    for i in range(6):
        create(alice if i % 2 else bob, name=f"deck {i}", visibility="public")
    with django_assert_max_num_queries(3):  # session/user, count, page
        r = api_client(alice).get("/api/v1/decks/")
    assert r.json()["count"] == 6
    from django.test import Client

    c = Client()
    c.force_login(alice)
    deck = Deck.objects.filter(owner=alice).first()
    # session, user, deck, card lookup (one query for every code), share links, the builder's working
    # copy (unsaved changes notice), printings for the pictures (one query for every code)
    with django_assert_max_num_queries(7):
        assert c.get(f"/decks/{deck.pk}/").status_code == 200
    with django_assert_max_num_queries(6):
        assert c.get("/decks/").status_code == 200


def test_restore_old_version(cards, alice, bob):
    deck = create(alice).json()
    c = api_client(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    c.patch(url, {"zones": {"main": {"WST/W01-001": 4}}, "name": "Broken", "base_version": 1}, format="json")
    r = c.post(f"{url}versions/1/restore/", {"base_version": 2}, format="json")
    assert r.status_code == 200
    body = r.json()
    assert body["version"] == 3 and body["zones"] == legal_deck(g.WS) and body["name"] == "My deck"
    assert c.get(f"{url}versions/").json()[0]["note"] == "restored version 1"
    assert c.post(f"{url}versions/1/restore/", {"base_version": 2}, format="json").status_code == 409
    assert c.post(f"{url}versions/1/restore/", {}, format="json", HTTP_IF_MATCH='"deck-1-v2"').status_code == 412
    assert c.post(f"{url}versions/1/restore/", {}, format="json").status_code == 428
    assert c.post(f"{url}versions/9/restore/", {"base_version": 3}, format="json").status_code == 404
    assert api_client(bob).post(f"{url}versions/1/restore/", {"base_version": 3}, format="json").status_code == 404
    assert Deck.objects.get(pk=deck["id"]).version == 3


def test_out_of_range_numbers_are_4xx(alice):
    d = create(alice, visibility="public").json()
    c = api_client(alice)
    big = 10**20
    for url in [f"/api/v1/decks/{big}/", f"/api/v1/decks/{d['id']}/versions/{big}/",
                f"/api/v1/shared/{'x' * 40}/", f"/api/v1/decks/{d['id']}/export/?format=json&version={big}"]:
        assert c.get(url).status_code in (400, 404), url
    assert c.post(f"/api/v1/decks/{d['id']}/versions/{big}/restore/", {"base_version": 1}, format="json").status_code == 404
    assert c.patch(f"/api/v1/decks/{d['id']}/", {"name": "x", "base_version": big}, format="json").status_code in (400, 409)
    assert c.post(f"/api/v1/decks/{d['id']}/shares/", {"version": big}, format="json").status_code == 400
    assert c.post(f"/api/v1/decks/{d['id']}/fork/", {"version": big}, format="json").status_code == 400
    assert Deck.objects.count() == 1 and ShareLink.objects.count() == 0


def test_api_text_accepts_exchange_formats(cards, alice):
    main = legal_deck(g.WS)["main"]
    xml = "<deck>" + "".join(f"<Card><ID>{code}</ID><Quantity>{n}</Quantity></Card>" for code, n in main.items()) + "</deck>"
    body = api_client().post("/api/v1/decks/validate/", {"game": "ws", "text": xml}, format="json").json()
    assert body["valid"] is True and body["zones"] == {"main": main}
    r = api_client(alice).post("/api/v1/decks/import/", {"name": "x", "game": "ws", "text": xml}, format="json")
    assert r.status_code == 201 and r.json()["zones"] == {"main": main}
    bad = "<deck><Card><ID>WST/W01-001</ID><Quantity>0</Quantity></Card></deck>"
    body = api_client().post("/api/v1/decks/validate/", {"game": "ws", "text": bad}, format="json").json()
    assert body["errors"][0]["code"] == "parse_error" and "quantity" in body["errors"][0]["message"]
