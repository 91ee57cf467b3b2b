"""Formats and ban lists (issue 18, item 4): the pure check (rules/formats.py), the loader, the deck's
format through the services, API and pages, the public list's format filter."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from decks.models import Deck, Format
from decks.services import deck_create, deck_update
from decks.testing import cards_create, legal_deck
from rules import games as g
from rules.cards import CardRecord
from rules.formats import FormatRules, apply_format, format_from_dict, validate_format

SAMPLES = Path(settings.BASE_DIR) / "fixtures" / "formats"


def _card(code: str, name: str | None = None) -> CardRecord:
    return CardRecord(game="ws", code=code, name=name or code, card_type="character", set_code=code.split("-")[0])


CARDS = {c.code: c for c in (_card("AA/S01-001", "Alpha"), _card("AA/S01-002", "Beta"), _card("BB/S01-001", "Gamma"),
                             _card("CC/S01-001", "Delta"))}


def codes(problems):
    return [p["code"] for p in problems]


def test_no_format_leaves_the_report_alone():
    report = {"valid": True, "errors": [], "warnings": [], "summary": {}}
    assert apply_format(report, None, {"main": {"AA/S01-001": 4}}, CARDS) is report


def test_banned_by_code_or_name():
    fmt = FormatRules(game="ws", code="std", name="Std", banned=("AA/S01-001", "Gamma"))
    found = validate_format(fmt, {"main": {"AA/S01-001": 1, "BB/S01-001": 2, "AA/S01-002": 4}}, CARDS)
    assert codes(found) == ["banned"]
    assert found[0]["cards"] == ["AA/S01-001", "BB/S01-001"] and found[0]["format"] == "std"


def test_restricted_counts_copies():
    fmt = FormatRules(game="ws", code="std", name="Std", restricted={"Beta": 1})
    assert validate_format(fmt, {"main": {"AA/S01-002": 1}}, CARDS) == []
    found = validate_format(fmt, {"main": {"AA/S01-002": 2}}, CARDS)
    assert codes(found) == ["restricted"] and found[0]["limit"] == 1 and found[0]["count"] == 2


def test_series_groups_and_single_series():
    groups = FormatRules(game="ws", code="neo", name="Neo", groups=(("AA", "BB"), ("CC",)))
    assert validate_format(groups, {"main": {"AA/S01-001": 4, "BB/S01-001": 4}}, CARDS) == []
    found = validate_format(groups, {"main": {"AA/S01-001": 4, "CC/S01-001": 1}}, CARDS)
    assert codes(found) == ["not_in_format"] and found[0]["cards"] == ["CC/S01-001"]
    only = FormatRules(game="ws", code="t", name="T", single_series=True)
    found = validate_format(only, {"main": {"AA/S01-001": 4, "AA/S01-002": 4, "BB/S01-001": 1}}, CARDS)
    assert found[0]["cards"] == ["BB/S01-001"]
    allowed = FormatRules(game="ws", code="s", name="S", series=("AA",))
    assert validate_format(allowed, {"main": {"CC/S01-001": 1}}, CARDS)[0]["code"] == "not_in_format"


def test_apply_format_makes_errors_and_names_the_format():
    report = {"valid": True, "errors": [], "warnings": [], "summary": {}}
    out = apply_format(report, FormatRules(game="ws", code="std", name="Std", banned=("Alpha",)),
                       {"main": {"AA/S01-001": 1}}, CARDS)
    assert out["valid"] is False and out["format"] == {"code": "std", "name": "Std", "valid": False}


def test_format_from_dict_names_the_field():
    with pytest.raises(ValueError, match="restricted"):
        format_from_dict("ws", {"code": "x", "restricted": {"A": "many"}})
    with pytest.raises(ValueError, match="code"):
        format_from_dict("ws", {})


# -- Django ------------------------------------------------------------------------------------
@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password="pw-alice-123")


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["sample-formats.json", "sample-formats.csv"])
def test_load_formats_samples(name):
    call_command("load_formats", str(SAMPLES / name))
    assert list(Format.objects.filter(game="ws").values_list("code", flat=True)) == [
        "standard", "neo-standard", "title-only"]
    std = Format.objects.get(game="ws", code="standard")
    assert std.banned == ["NOC/S90-001"] and std.restricted == {"SKY/W90-002": 1}
    assert Format.objects.get(code="neo-standard").groups == [["NOC"], ["SKY", "ZZZ"]]
    assert Format.objects.get(code="title-only").single_series is True


@pytest.mark.django_db
def test_load_formats_refuses_bad_entries(tmp_path):
    bad = tmp_path / "f.json"
    bad.write_text('[{"game": "ws", "code": "x", "restricted": {"A": "two"}}]')
    with pytest.raises(CommandError, match="entry 1: restricted"):
        call_command("load_formats", str(bad))
    bad.write_text('[{"game": "nope", "code": "x"}]')
    with pytest.raises(CommandError, match="game"):
        call_command("load_formats", str(bad))
    assert not Format.objects.exists()


@pytest.fixture
def ws_formats(db):
    cards_create((g.WS,))
    zones = legal_deck(g.WS)
    first = next(iter(zones["main"]))
    return Format.objects.create(game="ws", code="std", name="Std", banned=[first]), first


@pytest.mark.django_db
def test_deck_format_through_services_and_pages(alice, ws_formats):
    fmt, banned_code = ws_formats
    plain = deck_create(owner=alice, game="ws", name="plain", zones=legal_deck(g.WS))
    assert plain.legal is True and plain.format is None
    deck = deck_create(owner=alice, game="ws", name="fmt", zones=legal_deck(g.WS), format_code="std",
                       visibility="public")
    assert deck.format == fmt and deck.legal is False
    c = Client()
    c.force_login(alice)
    page = c.get(f"/decks/{deck.pk}/").content.decode()
    assert 'data-code="banned"' in page and 'data-format="std"' in page and banned_code in page
    shared = Client().get(f"/d/{deck.slug}/").content.decode()
    assert 'data-code="banned"' in shared and "Std" in shared
    listing = Client().get("/decks/public/?format=std").content.decode()
    assert "fmt" in listing and ">plain<" not in listing
    deck = deck_update(deck=deck, user=alice, base_version=deck.version, format_code="")
    assert deck.format is None and Deck.objects.get(pk=deck.pk).legal is True


@pytest.mark.django_db
def test_deck_format_in_the_api(alice, ws_formats):
    c = Client()
    c.force_login(alice)
    r = c.post("/api/v1/decks/", {"name": "a", "game": "ws", "zones": legal_deck(g.WS), "format": "nope"},
               content_type="application/json")
    assert r.status_code == 400 and "format" in r.content.decode()
    r = c.post("/api/v1/decks/", {"name": "a", "game": "ws", "zones": legal_deck(g.WS), "format": "std"},
               content_type="application/json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["format"] == "std"
    assert "banned" in [e["code"] for e in body["validation"]["errors"]]
    r = c.patch(body["url"], {"format": "", "base_version": body["version"]}, content_type="application/json")
    assert r.status_code == 200 and r.json()["format"] is None and r.json()["validation"]["valid"] is True


@pytest.mark.django_db
def test_deck_form_sets_the_format(alice, ws_formats):
    c = Client()
    c.force_login(alice)
    text = "\n".join(f"{n} {code}" for code, n in legal_deck(g.WS)["main"].items())
    r = c.post("/decks/new/", {"name": "f", "game": "ws", "visibility": "private", "text": text, "deck_format": "nope"})
    assert r.status_code == 400
    r = c.post("/decks/new/", {"name": "f", "game": "ws", "visibility": "private", "text": text, "deck_format": "std"})
    assert r.status_code == 302
    assert Deck.objects.get(name="f").format.code == "std"


@pytest.mark.django_db
def test_formats_api_and_admin(ws_formats, admin_client):
    r = Client().get("/api/v1/formats/?game=ws")
    assert r.status_code == 200 and [f["code"] for f in r.json()["formats"]] == ["std"]
    assert Client().get("/api/v1/formats/?game=nope").status_code == 400
    empty = Client().get("/api/v1/formats/?game=")
    assert empty.status_code == 400 and "game" in empty.json()["error"]["fields"]
    assert "formats" in Client().get("/api/v1/", HTTP_ACCEPT="application/json").content.decode()
    assert admin_client.get("/admin/decks/format/").status_code == 200
    assert admin_client.get(f"/admin/decks/format/{ws_formats[0].pk}/change/").status_code == 200
