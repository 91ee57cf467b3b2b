"""Hostile and broken input end to end: card import files, deck texts, search queries, request
bodies. Each gets a clear 4xx (or exit code ≠ 0) naming the problem, in bounded time, and
nothing is written."""
from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from rest_framework.test import APIClient

from catalog.models import Card
from decks.models import Deck, DeckVersion
from decks.testing import cards_create

pytestmark = pytest.mark.django_db
GOOD = {"code": "MA-900", "name": "Good Card", "card_type": "character", "rarity": "C", "set_code": "MA-09",
        "work": "W", "number": "900", "attributes": ["dark"], "gender": "female", "atk": 3, "defense": 3,
        "partner_atk": 2, "partner_def": 2, "title": "W", "person": "P"}


def _card_file(tmp_path, cards, name="cards.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"format": "tcgdb-cards", "version": 1, "game": "chaos", "cards": cards}))
    return path


def _import_fails(path, *words: str) -> str:
    before = Card.objects.count()
    with pytest.raises(CommandError) as exc:
        call_command("import_cards", str(path), "--game", "chaos", verbosity=0)
    message = str(exc.value)
    assert exc.value.returncode != 0
    assert Card.objects.count() == before, "a refused import wrote cards"
    for w in words:
        assert w in message, (w, message)
    return message


@pytest.mark.parametrize("bad, words", [
    ({"atk": "three"}, ["atk"]),
    ({"attributes": "dark"}, ["attributes"]),
    ({"name": None}, ["name"]),
    ({"card_type": "dragon"}, ["card_type"]),
    ({"atk": 10**30}, ["atk"]),
], ids=["string-number", "string-list", "null-name", "unknown-type", "huge-number"])
def test_import_wrong_types_name_record_and_field(tmp_path, bad, words, capsys):
    cards = [GOOD, {**GOOD, "code": "MA-901", **bad}]
    msg = _import_fails(_card_file(tmp_path, cards)) + capsys.readouterr().err + capsys.readouterr().out
    for w in words:
        assert w in msg


def test_import_missing_fields_and_duplicates_write_nothing(tmp_path, capsys):
    missing = {k: v for k, v in GOOD.items() if k != "name"}
    _import_fails(_card_file(tmp_path, [GOOD, {**missing, "code": "MA-902"}]))
    out = capsys.readouterr()
    assert "name" in out.err + out.out
    _import_fails(_card_file(tmp_path, [GOOD, dict(GOOD)], name="dup.json"))
    out = capsys.readouterr()
    assert "record 2 (MA-900)" in out.err and "already appears in record 1" in out.err


def test_import_non_utf8_and_not_json(tmp_path, capsys):
    raw = tmp_path / "latin1.json"
    raw.write_bytes(json.dumps({"format": "tcgdb-cards", "version": 1, "game": "chaos",
                                "cards": [{**GOOD, "name": "Caf\u00e9"}]}, ensure_ascii=False).encode("latin-1"))
    _import_fails(raw)
    out = capsys.readouterr()
    assert "utf-8" in (out.err + out.out).lower() or "UTF-8" in out.err + out.out
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\x00\xff{{{not json")
    _import_fails(junk)


def test_import_huge_file_is_refused_in_bounded_time(tmp_path, capsys):
    """20,000 records, the last one bad: refused as a whole, quickly, with the record number."""
    cards = [{**GOOD, "code": f"MA-{i:05d}", "number": str(i)} for i in range(20_000)]
    cards[-1] = {**cards[-1], "atk": "x"}
    path = _card_file(tmp_path, cards, name="huge.json")
    t = time.perf_counter()
    _import_fails(path)
    assert time.perf_counter() - t < 60
    out = capsys.readouterr()
    assert "20000" in out.err + out.out or "20,000" in out.err + out.out


@pytest.fixture
def alice(db):
    cards_create()
    return get_user_model().objects.create_user("alice", password="pw-alice-123456")


BAD_DECKS = {
    "absurd-count": ("1000000000000 WST/W01-001\n", "1"),
    "negative-count": ("-4 WST/W01-001\n", "1"),
    "unknown-zone": ("4 WST/W01-001\n[Graveyard]\n4 WST/W01-002\n", "Graveyard"),
    "nul": ("4 WST/W01-001\n4 WST\x00/W01-002\n", "text"),
}


@pytest.mark.parametrize("case", list(BAD_DECKS))
def test_bad_deck_text_is_a_4xx_naming_the_line_and_writes_nothing(alice, case):
    text, needle = BAD_DECKS[case]
    c = APIClient()
    c.force_authenticate(alice)
    r = c.post("/api/v1/decks/validate/", {"game": "ws", "text": text}, format="json")
    body = json.dumps(r.json())
    assert r.status_code == 400 or (r.status_code == 200 and r.json()["valid"] is False), (r.status_code, body)
    where = "text" if case == "nul" else "line"  # NUL is refused for the whole field by DRF
    assert where in body.lower() and needle in body, body
    r = c.post("/api/v1/decks/", {"game": "ws", "name": "bad", "text": text}, format="json")
    assert r.status_code == 400, (case, r.status_code, r.content[:300])
    assert where in json.dumps(r.json()).lower()
    assert not Deck.objects.exists() and not DeckVersion.objects.exists()
    page = Client()
    page.force_login(alice)
    r = page.post("/decks/new/", {"game": "ws", "name": "bad", "text": text, "visibility": "private"})
    assert r.status_code in (200, 400) and not Deck.objects.exists()


def test_control_characters_never_reach_storage(alice):
    """The deck text parser drops control characters (rules/decktext.py ``_clean``): a terminal
    escape or bell inside a code leaves a harmless unknown code, reported, and nothing stored."""
    text = "4 WST/W01-001\n4 WST\x1b[31m/W01-\x07002\u202e\n"
    c = APIClient()
    c.force_authenticate(alice)
    r = c.post("/api/v1/decks/validate/", {"game": "ws", "text": text}, format="json")
    assert r.status_code == 200 and r.json()["valid"] is False
    assert not any(ch in r.content.decode() for ch in "\x1b\x07\u202e")
    assert any(e["code"] == "unknown_card" for e in r.json()["errors"])
    r = c.post("/api/v1/decks/", {"game": "ws", "name": "ctl\x1b[2J", "text": text}, format="json")
    if r.status_code == 201:
        deck = Deck.objects.get()
        stored = json.dumps(deck.zones) + deck.name
        assert "\x1b" not in json.dumps(deck.zones) and "\x07" not in stored, stored
    else:
        assert r.status_code == 400 and not Deck.objects.exists()


def test_hundred_thousand_line_deck_text_is_refused_quickly(alice):
    text = "1 WST/W01-001\n" * 100_000
    c = APIClient()
    c.force_authenticate(alice)
    t = time.perf_counter()
    for url in ("/api/v1/decks/validate/", "/api/v1/decks/"):
        r = c.post(url, {"game": "ws", "name": "long", "text": text}, format="json")
        assert r.status_code in (400, 413), (url, r.status_code)
        assert "text" in json.dumps(r.json())
    assert time.perf_counter() - t < 20
    assert not Deck.objects.exists()


@pytest.mark.parametrize("q", [
    "o:/(a+)+$/", "o:/(a|aa)*$/", "o:/(.*a){20}/", "o:/" + "a?" * 40 + "a" * 40 + "/",
    "(" * 500 + "x" + ")" * 500, "-" * 2000 + "x", "name:" + "a" * 100_000, "x " * 5000,
    "o:/[/", "power>99999999999999999999",
])
def test_hostile_search_queries_answer_fast(q):
    """Catastrophic regexes, deep nesting and very long input: a 400 with a message (or a fast
    empty answer), never a hang or a 500."""
    cards_create()
    Card.objects.filter(game="ws").update(text="a" * 5000 + "!")
    c = APIClient()
    t = time.perf_counter()
    r = c.get("/api/v1/cards/", {"q": q})
    elapsed = time.perf_counter() - t
    assert r.status_code in (200, 400), (q[:40], r.status_code)
    assert elapsed < 2.0, f"{q[:40]!r} took {elapsed:.2f}s"
    if r.status_code == 400:
        assert r.json()["error"]["message"]
    t = time.perf_counter()
    r = Client().get("/cards/", {"q": q})
    assert r.status_code in (200, 400) and time.perf_counter() - t < 3.0


@pytest.mark.parametrize("body, ctype", [
    ("[1, 2, 3]", "application/json"), ('"text"', "application/json"), ("null", "application/json"),
    ("{not json", "application/json"), ("game=ws&text=1", "text/plain"), ("<deck/>", "application/xml"),
    ('{"game": ["ws"], "text": {"a": 1}}', "application/json"),
])
def test_json_bodies_that_are_not_objects_or_of_wrong_type(alice, body, ctype):
    c = APIClient()
    c.force_authenticate(alice)
    for url in ("/api/v1/decks/validate/", "/api/v1/decks/", "/api/v1/playtests/"):
        r = c.generic("POST", url, body, content_type=ctype)
        assert r.status_code in (400, 415), (url, body, r.status_code, r.content[:200])
        assert isinstance(r.json(), dict) and r.json()
    assert not Deck.objects.exists()


def test_huge_body_is_refused(alice, settings):
    """Bodies above DATA_UPLOAD_MAX_MEMORY_SIZE (Django's 2.5 MB default) are refused, not read."""
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 10 * 2**20
    c = APIClient()
    c.force_authenticate(alice)
    huge = json.dumps({"game": "ws", "name": "x", "text": "1 WST/W01-001\n" * 300_000})
    for url in ("/api/v1/decks/validate/", "/api/v1/decks/"):
        r = c.generic("POST", url, huge, content_type="application/json")
        assert r.status_code in (400, 413), (url, r.status_code)
        assert isinstance(r.json(), dict)
    page = Client()
    page.force_login(alice)
    r = page.generic("POST", "/decks/new/", "text=" + "x" * 3_000_000, content_type="application/x-www-form-urlencoded")
    assert r.status_code in (400, 403, 413)
    assert not Deck.objects.exists()
