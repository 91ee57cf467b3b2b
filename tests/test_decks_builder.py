"""The deck builder without JavaScript and under htmx: the working copy (changes, undo, one version
per save, rebasing on changes made elsewhere), the type-ahead finder (names, codes in any case, the
count typed first, paging, typos), pasting a list, and the edit page's live legality panel."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from catalog.models import Card
from decks.drafts import Change, draft_apply, draft_get, draft_save
from decks.models import Deck, DeckDraft, DeckVersion
from decks.services import deck_create, deck_update
from decks.testing import legal_deck
from decks.typeahead import looks_like_code, split_count, typeahead
from rules import games as g
from tests.helpers import web_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_hasher")]
HX = {"HTTP_HX_REQUEST": "true"}


def zones_of(deck: Deck) -> dict:
    return DeckDraft.objects.get(deck=deck).zones


# -- the working copy ----------------------------------------------------------------------------
def test_changes_go_to_the_working_copy_and_save_makes_one_version(cards, alice):
    deck = deck_create(owner=alice, game="chaos", name="Knights", zones={})
    c = web_client(alice)
    r = c.get(f"/decks/{deck.pk}/build/?q=Knight")
    assert r.status_code == 200
    html = r.content.decode()
    assert "CHT-001" in html and "Make partner" in html
    url = f"/decks/{deck.pk}/build/?q=Knight"
    r = c.post(url, {"op": "add", "code": "CHT-001", "count": 4, "zone": "main"})
    assert r.status_code == 302 and r["Location"].endswith("?q=Knight")
    c.post(url, {"op": "add", "code": "CHT-X01", "count": 2, "zone": "extra", "base_version": 1})
    c.post(url, {"op": "set", "code": "CHT-001", "count": 1, "zone": "partner"})
    c.post(url, {"op": "remove", "code": "CHT-001", "count": 1, "zone": "main"})
    deck.refresh_from_db()
    assert deck.version == 1 and deck.zones == {}  # nothing saved yet
    assert zones_of(deck) == {"main": {"CHT-001": 3}, "extra": {"CHT-X01": 2}, "partner": {"CHT-001": 1}}
    html = c.get(f"/decks/{deck.pk}/build/").content.decode()
    assert 'data-unsaved="true"' in html and "Unsaved: +6 −0 since version 1" in html
    # one version for all of it, with the note
    r = c.post(f"/decks/{deck.pk}/build/save/", {"note": "first build", "q": "Knight"})
    assert r.status_code == 302 and r["Location"].endswith("?q=Knight")
    deck.refresh_from_db()
    assert deck.version == 2
    assert deck.zones == {"main": {"CHT-001": 3}, "extra": {"CHT-X01": 2}, "partner": {"CHT-001": 1}}
    assert DeckVersion.objects.get(deck=deck, number=2).note == "first build"
    assert "Saved as version 2." in c.get(f"/decks/{deck.pk}/build/").content.decode()
    # saving again with nothing changed makes no version
    r = c.post(f"/decks/{deck.pk}/build/save/", {"note": ""}, follow=True)
    assert "Nothing to save" in r.content.decode()
    assert Deck.objects.get(pk=deck.pk).version == 2


def test_twenty_clicks_one_version_with_a_note_listing_them(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={})
    c = web_client(alice)
    for i in range(1, 11):
        for _ in range(2):
            c.post(f"/decks/{deck.pk}/build/", {"op": "add", "code": f"WST/W01-{i:03d}", "count": 1, "zone": "main"})
    assert Deck.objects.get(pk=deck.pk).version == 1
    c.post(f"/decks/{deck.pk}/build/save/", {})
    deck.refresh_from_db()
    assert deck.version == 2 and DeckVersion.objects.filter(deck=deck).count() == 2
    assert sum(deck.zones["main"].values()) == 20
    assert DeckVersion.objects.get(deck=deck, number=2).note.startswith("builder: +2 WST/W01-001, +2 WST/W01-002")


def test_bad_changes_are_refused_and_change_nothing(cards, alice):
    deck = deck_create(owner=alice, game="chaos", name="Knights", zones={})
    c = web_client(alice)
    url = f"/decks/{deck.pk}/build/"
    assert c.post(url, {"op": "explode", "code": "CHT-001", "count": 1, "zone": "main"}).status_code == 400
    r = c.post(url, {"op": "add", "code": "CHT-001", "count": 1, "zone": "ace"})
    assert r.status_code == 400 and "have no ace zone" in r.content.decode()
    c.post(url, {"op": "add", "code": "CHT-001", "count": 99, "zone": "main"})
    r = c.post(url, {"op": "add", "code": "CHT-001", "count": 1, "zone": "main"})
    assert r.status_code == 400 and "At most 99 copies" in r.content.decode()
    assert zones_of(deck) == {"main": {"CHT-001": 99}}
    assert Deck.objects.get(pk=deck.pk).version == 1


def test_undo_the_last_change_and_discard(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={"main": {"WST/W01-001": 4}})
    c = web_client(alice)
    url = f"/decks/{deck.pk}/build/"
    c.post(url, {"op": "add", "code": "WST/W01-002", "count": 3, "zone": "main"})
    c.post(url, {"op": "remove", "code": "WST/W01-001", "count": 1, "zone": "main"})
    assert zones_of(deck) == {"main": {"WST/W01-001": 3, "WST/W01-002": 3}}
    html = c.get(url).content.decode()
    assert "(last change: removing 1× WST/W01-001)" in html
    r = c.post(f"{url}undo/", {}, follow=True)
    assert "Undone: removing 1× WST/W01-001." in r.content.decode()
    assert zones_of(deck) == {"main": {"WST/W01-001": 4, "WST/W01-002": 3}}
    c.post(f"{url}undo/", {})
    assert zones_of(deck) == {"main": {"WST/W01-001": 4}}
    r = c.post(f"{url}undo/", {}, follow=True)
    assert "Nothing to undo." in r.content.decode()
    assert re.search(r'id="undo-btn"[^>]*disabled', r.content.decode())
    # discard drops the unsaved changes; undo brings them back
    c.post(url, {"op": "add", "code": "WST/W01-C1", "count": 4, "zone": "main"})
    r = c.post(f"{url}discard/", {}, follow=True)
    assert "Unsaved changes discarded" in r.content.decode()
    assert zones_of(deck) == {"main": {"WST/W01-001": 4}}
    c.post(f"{url}undo/", {})
    assert zones_of(deck) == {"main": {"WST/W01-001": 4, "WST/W01-C1": 4}}
    assert Deck.objects.get(pk=deck.pk).version == 1


def test_changes_made_elsewhere_meanwhile_are_kept(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={"main": {"WST/W01-001": 4}})
    draft_apply(deck=deck, user=alice, changes=[Change("main", "WST/W01-002", "add", 2)])
    # another tab (or the API, or the text editor) saves version 2 meanwhile
    deck_update(deck=deck, user=alice, base_version=1, zones={"main": {"WST/W01-001": 3, "WST/W01-003": 1}})
    c = web_client(alice)
    html = c.get(f"/decks/{deck.pk}/build/").content.decode()
    assert "The deck had changed elsewhere (now version 2)" in html
    assert zones_of(deck) == {"main": {"WST/W01-001": 3, "WST/W01-002": 2, "WST/W01-003": 1}}
    deck_update(deck=Deck.objects.get(pk=deck.pk), user=alice, base_version=2,
                zones={"main": {"WST/W01-001": 3, "WST/W01-003": 2}})
    result = draft_save(deck=Deck.objects.get(pk=deck.pk), user=alice, note="mine")
    assert result.changed and result.rebased and result.deck.version == 4
    assert result.deck.zones == {"main": {"WST/W01-001": 3, "WST/W01-002": 2, "WST/W01-003": 2}}


def test_only_the_owner_builds(cards, alice):
    bob = get_user_model().objects.create_user("bob", password="pw-bob-123")
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={}, visibility="public")
    c = web_client(bob)
    for url in ("", "cards/?q=Idol", "top/", "paste/", "undo/", "save/", "discard/"):
        method = c.get if url in ("", "cards/?q=Idol") else c.post
        assert method(f"/decks/{deck.pk}/build/{url}", **HX).status_code == 404, url
    assert not DeckDraft.objects.exists()


# -- codes, typos, the top hit -------------------------------------------------------------------
def test_add_by_code_any_case_and_typos_are_never_stored(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={})
    c = web_client(alice)
    url = f"/decks/{deck.pk}/build/"
    c.post(url, {"op": "add", "code": "wst/w01-001", "count": 2, "zone": "main"})
    assert zones_of(deck) == {"main": {"WST/W01-001": 2}}
    r = c.post(url, {"op": "add", "code": "WST/W01-0O1", "count": 1, "zone": "main"})
    assert r.status_code == 302 and "q=WST%2FW01-0O1" in r["Location"]
    html = c.get(r["Location"]).content.decode()
    assert "No Weiß Schwarz card has the code “WST/W01-0O1”; nothing was added." in html
    assert "Did you mean: Idol 1 (WST/W01-001)" in html
    assert zones_of(deck) == {"main": {"WST/W01-001": 2}}


def test_enter_adds_the_top_hit_with_the_count_typed_first(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={})
    c = web_client(alice)
    top = f"/decks/{deck.pk}/build/top/"
    c.post(top, {"q": "4 wst/w01-003"})
    c.post(top, {"q": "4x Idol 10"})
    c.post(top, {"q": "t:climax order:name dir:desc"})  # any query: its first hit (Finale 3)
    c.post(top, {"q": "wst/w01-003", "op": "remove"})
    assert zones_of(deck) == {"main": {"WST/W01-003": 3, "WST/W01-010": 4, "WST/W01-C3": 1}}
    r = c.post(top, {"q": "zzzz qqqq"}, follow=True)
    assert "No card matches “zzzz qqqq”; nothing was added." in r.content.decode()
    r = c.post(top, {"q": "cost<="}, follow=True)
    assert 'class="error"' in r.content.decode()
    assert zones_of(deck) == {"main": {"WST/W01-003": 3, "WST/W01-010": 4, "WST/W01-C3": 1}}


def test_split_count_and_code_shapes():
    assert split_count("4 DC/W01-001") == (4, "DC/W01-001")
    assert split_count("4x音姫") == (4, "音姫")
    assert split_count("４　ｔ:climax") == (4, "t:climax")
    assert split_count("44オートマグ") == (1, "44オートマグ")
    assert split_count("Idol 4") == (1, "Idol 4")
    assert looks_like_code("dc/w01-001") and looks_like_code("PCT-001") and looks_like_code("DC/W01-0")
    assert not looks_like_code("Idol") and not looks_like_code("t:climax") and not looks_like_code("B-Sides")


def test_finder_codes_names_and_typos(cards):
    ta = typeahead(game="ws", q="wst/w01-01")
    assert [c.code for c in ta.cards] == ["WST/W01-010", "WST/W01-011"] and ta.total == 2
    ta = typeahead(game="ws", q="wst/w01-001")
    assert ta.exact.code == "WST/W01-001" and ta.top.code == "WST/W01-001"
    assert typeahead(game="ws", q="wst-w01-001").top.code == "WST/W01-001"  # '-' for '/', any case
    ta = typeahead(game="ws", q="Finale")
    assert [c.code for c in ta.cards] == ["WST/W01-C1", "WST/W01-C2", "WST/W01-C3"]
    ta = typeahead(game="ws", q="Fnale")  # a typo: close names are offered, Enter adds nothing
    assert not ta.cards and ta.top is None
    assert {c.code for c in ta.suggestions} >= {"WST/W01-C1"}
    ta = typeahead(game="ws", q="WST/W01-0Q1")
    assert not ta.cards and [c.code for c in ta.suggestions][:1] == ["WST/W01-001"]
    assert typeahead(game="ws", q="level>").error
    ta = typeahead(game="ws", q="I")  # one character: nothing searched yet
    assert ta.too_short and not ta.cards and ta.top is None
    assert typeahead(game="ws", q="Id").cards


def test_results_are_paged(cards, alice):
    Card.objects.bulk_create([Card(game="ws", code=f"PG/W01-{i:03d}", name=f"Pager {i:03d}", card_type="character",
                                   level=0, cost=0, power=1000, soul=1) for i in range(1, 246)])
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={})
    c = web_client(alice)
    r = c.get(f"/decks/{deck.pk}/build/cards/", {"q": "Pager 00"}, **HX)
    html = r.content.decode()
    assert r.status_code == 200 and html.count('<li class="result') == 11 and "11 cards found" in html  # 001-009, 100, 200
    assert r["HX-Replace-Url"] == f"/decks/{deck.pk}/build/?q=Pager+00"
    r = c.get(f"/decks/{deck.pk}/build/cards/", {"q": "Pager"}, **HX)
    html = r.content.decode()
    assert html.count('<li class="result') == 20 and "Cards 1–20 (more on the next page)" in html
    assert "page=2" in html
    r = c.get(f"/decks/{deck.pk}/build/cards/", {"q": "Pager 1", "page": 2}, **HX)
    html = r.content.decode()  # the names with a 1 in them
    assert "Cards 21–40 (more on the next page)" in html and 'rel="prev"' in html and 'rel="next"' in html
    r = c.get(f"/decks/{deck.pk}/build/cards/", {"q": "Pager 1", "page": 7}, **HX)
    assert "Cards 121–133 of 133" in r.content.decode() and 'rel="next"' not in r.content.decode()
    # without htmx the same URL is the builder page
    r = c.get(f"/decks/{deck.pk}/build/cards/", {"q": "Pager", "page": 13})
    assert r.status_code == 302 and r["Location"] == f"/decks/{deck.pk}/build/?q=Pager&page=13"
    html = c.get(r["Location"]).content.decode()
    assert "Pager 245" in html and 'rel="next"' not in html
    # a page far past the end is empty, not an error
    r = c.get(f"/decks/{deck.pk}/build/", {"q": "Pager", "page": "99999"})
    assert r.status_code == 200
    assert c.get(f"/decks/{deck.pk}/build/", {"q": "Pager", "page": "abc"}).status_code == 200


# -- htmx answers ----------------------------------------------------------------------------------
def test_htmx_change_answers_with_the_changed_parts(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={})
    c = web_client(alice)
    r = c.post(f"/decks/{deck.pk}/build/top/", {"q": "4 WST/W01-001", "page": 1}, **HX)
    assert r.status_code == 200
    html = r.content.decode()
    for part in ('id="builder-live" hx-swap-oob="innerHTML"', 'id="draft-summary" class="draft-summary" hx-swap-oob="true"',
                 'id="deck-side" hx-swap-oob="innerHTML"', 'id="results" hx-swap-oob="innerHTML"',
                 'id="undo-form"'):
        assert part in html, part
    assert "Added 4× Idol 1 (WST/W01-001). 4 copies in the deck now." in html
    assert "4/50 cards" in html and 'id="d-main-WST_2f_W01_2d_001-add"' in html
    assert "<html" not in html
    # errors answer 200 with the message, so htmx shows them
    r = c.post(f"/decks/{deck.pk}/build/", {"op": "add", "code": "NOPE-1", "count": 1, "zone": "main"}, **HX)
    assert r.status_code == 200 and "nothing was added" in r.content.decode()


def test_builder_page_in_japanese_and_chinese(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones=legal_deck(g.WS))
    for lang, words in (("ja", ("カードを探す", "バージョンを保存")), ("zh-hans", ("查找卡片", "保存版本"))):
        html = web_client(alice, HTTP_ACCEPT_LANGUAGE=lang).get(f"/decks/{deck.pk}/build/?q=Idol").content.decode()
        for w in words:
            assert w in html, (lang, w)


# -- paste a list ----------------------------------------------------------------------------------
def test_paste_a_list(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={"main": {"WST/W01-001": 1}})
    c = web_client(alice)
    text = "4 wst/w01-002 Idol 2\n4x WST/W01-003\nfour WST/W01-004\n2 WST/W01-999\n"
    r = c.post(f"/decks/{deck.pk}/build/paste/", {"text": text})
    assert r.status_code == 302
    html = c.get(r["Location"]).content.decode()
    assert "Added 8 cards from the list." in html
    assert "2 lines were not added" in html and "line 3:" in html and "line 4:" in html
    assert "WST/W01-999" in html and "did you mean" in html
    assert re.search(r"<textarea[^>]*>\s*four WST/W01-004\n2 WST/W01-999</textarea>", html)
    assert zones_of(deck) == {"main": {"WST/W01-001": 1, "WST/W01-002": 4, "WST/W01-003": 4}}
    # the leftover box is shown once
    assert "four WST/W01-004" not in c.get(f"/decks/{deck.pk}/build/").content.decode()
    # replacing the deck with a clean list; undo brings the old cards back
    c.post(f"/decks/{deck.pk}/build/paste/", {"text": "\n".join(f"{n} {code}" for code, n in legal_deck(g.WS)["main"].items()),
                                              "replace": "on"})
    assert zones_of(deck) == legal_deck(g.WS)
    c.post(f"/decks/{deck.pk}/build/undo/", {})
    assert zones_of(deck) == {"main": {"WST/W01-001": 1, "WST/W01-002": 4, "WST/W01-003": 4}}
    assert Deck.objects.get(pk=deck.pk).version == 1


def test_paste_under_htmx_keeps_the_lines_to_fix(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={})
    r = web_client(alice).post(f"/decks/{deck.pk}/build/paste/", {"text": "4 WST/W01-002\nnot a line"}, **HX)
    html = r.content.decode()
    assert r.status_code == 200 and 'id="paste-form"' in html and 'hx-swap-oob="true"' in html
    assert re.search(r"<textarea[^>]*>\s*not a line</textarea>", html)
    assert zones_of(deck) == {"main": {"WST/W01-002": 4}}


def test_draft_follows_the_deck_and_is_deleted_with_it(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones=legal_deck(g.WS))
    result = draft_get(deck=deck, user=alice)
    assert result.draft.zones == legal_deck(g.WS) and not result.rebased
    deck.delete()
    assert not DeckDraft.objects.exists()


# -- issue 18, item 8: the live legality panel in the reader's language; the odds picker -----------
def test_live_legality_panel_is_in_the_readers_language(cards, alice):
    c = web_client(alice, HTTP_ACCEPT_LANGUAGE="ja")
    r = c.post("/decks/validate/panel/", {"game": "ws", "text": "4 WST/W01-001\nfour WST/W01-002\n"})
    html = r.content.decode()
    assert r.status_code == 200 and 'id="validation"' in html
    assert "構築チェック" in html and "この行を読み取れません: 「four WST/W01-002」" in html
    assert 'data-code="parse_error"' in html and 'data-code="deck_size"' in html
    assert "Is it legal?" not in html and "Not legal" not in html
    r = web_client(alice).post("/decks/validate/panel/", {"game": "nope", "text": "\x01" * 10})
    assert r.status_code == 200  # an unknown game reads as WS; unreadable text is a problem, not a 500
    assert web_client(alice).get("/decks/validate/panel/").status_code == 405
    html = c.get("/decks/new/?game=ws").content.decode()
    assert 'data-validate-url="/decks/validate/panel/"' in html


def test_odds_picker_is_checkboxes(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones=legal_deck(g.WS), visibility="public")
    html = Client().get(f"/decks/{deck.pk}/", {"odds": ["card:WST/W01-001", "type:climax"]}).content.decode()
    odds = html[html.index('id="odds"'):]
    assert "<select name=\"odds\"" not in odds and "multiple" not in odds
    assert 'type="checkbox" name="odds" value="card:WST/W01-001" checked' in odds
    assert 'type="checkbox" name="odds" value="type:climax" checked' in odds
    assert odds.count('type="checkbox" name="odds"') == len(legal_deck(g.WS)["main"]) + odds.count('value="type:') + odds.count(
        'value="color:') + odds.count('value="trigger:')
    assert "(12 in 50 cards)" in odds  # 4 copies of Idol 1 or any of the 8 climaxes


def test_deck_page_says_when_the_builder_holds_unsaved_changes(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones=legal_deck(g.WS), visibility="public")
    c = web_client(alice)
    assert 'id="unsaved-draft"' not in c.get(f"/decks/{deck.pk}/").content.decode()
    c.get(f"/decks/{deck.pk}/build/")  # opening the builder changes nothing
    assert 'id="unsaved-draft"' not in c.get(f"/decks/{deck.pk}/").content.decode()
    c.post(f"/decks/{deck.pk}/build/", {"op": "add", "code": "WST/W01-C3", "count": 1, "zone": "main"})
    assert 'id="unsaved-draft"' in c.get(f"/decks/{deck.pk}/").content.decode()
    assert 'id="unsaved-draft"' not in Client().get(f"/decks/{deck.pk}/").content.decode()  # only the owner sees it
    c.post(f"/decks/{deck.pk}/build/save/", {})
    assert 'id="unsaved-draft"' not in c.get(f"/decks/{deck.pk}/").content.decode()


HOSTILE = ["", " ", "%", "\\", "'", '"', "(", ")", "((((", "x" * 5000, "４ ＤＣ／Ｗ０１", "code:", "code:\"", "level>",
           "o:/(/", "-", "--", "99999 WST/W01-001", "0 WST/W01-001", "100 WST/W01-001", "%ED%A0%80", "a\u0000b", "💥",
           "<script>alert(1)</script>", "WST/W01-001" * 10, "/", "//", "game:pc", "order:nonsense", "*"]


def test_hostile_input_is_never_a_500(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="Idols", zones={"main": {"WST/W01-001": 4}})
    c = web_client(alice)
    for value in HOSTILE:
        for extra in ({}, HX):
            urls = [("get", f"/decks/{deck.pk}/build/", {"q": value, "page": value}),
                    ("get", f"/decks/{deck.pk}/build/cards/", {"q": value, "page": value}),
                    ("post", f"/decks/{deck.pk}/build/top/", {"q": value, "op": value, "page": value}),
                    ("post", f"/decks/{deck.pk}/build/", {"op": "add", "code": value, "count": value, "zone": value,
                                                          "q": value}),
                    ("post", f"/decks/{deck.pk}/build/", {"op": "remove", "code": value, "count": 1, "zone": "main"}),
                    ("post", f"/decks/{deck.pk}/build/paste/", {"text": value, "replace": value}),
                    ("post", f"/decks/{deck.pk}/build/save/", {"note": value, "q": value}),
                    ("post", "/decks/validate/panel/", {"game": value, "text": value})]
            for method, url, data in urls:
                r = getattr(c, method)(url, data, **extra)
                assert r.status_code < 500, (method, url, repr(value)[:40], r.status_code)
    deck.refresh_from_db()
    assert deck.zones == {"main": {"WST/W01-001": 4}}  # nothing unreadable was saved
    assert "<script>alert(1)</script>" not in c.get(f"/decks/{deck.pk}/build/", {"q": "<script>alert(1)</script>"}).content.decode()
