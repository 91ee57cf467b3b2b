"""Headless Chromium: sign up, build a deck from search results, see it validated, open its share link
in a fresh browser context (no session), and check the live validation on the edit page."""
from __future__ import annotations

import re

import pytest

from decks.models import Deck
from decks.testing import cards_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def add_from_search(page, code: str, count: int) -> None:
    """The builder's finder: type the count and the code, Enter adds it (tests/test_browser_builder.py
    does the whole keyboard build)."""
    page.fill("#builder-q", f"{count} {code}")
    with page.expect_response(lambda r: "/build/top/" in r.url and r.request.method == "POST"):
        page.press("#builder-q", "Enter")
    page.wait_for_selector(f"#deck-panel li[data-code='{code}']")


def test_build_validate_share(live_server, page, browser):
    cards_create()
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("#id_username", "builder")
    page.fill("#id_password1", "a-long-pass-987")
    page.fill("#id_password2", "a-long-pass-987")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/decks/$"))

    # a new empty deck
    page.get_by_role("link", name=re.compile("New deck")).click()
    page.fill("#id_name", "Browser idols")
    page.select_option("#id_game", "ws")
    page.get_by_role("button", name="Create deck").click()
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    deck = Deck.objects.get(name="Browser idols")

    # search with the query language: results as you type; add from the results and with the finder
    page.get_by_role("link", name="Deck builder", exact=True).click()
    page.wait_for_url(re.compile(r"/build/$"))
    page.wait_for_load_state()
    page.fill("#builder-q", "type:character")
    page.wait_for_selector("#results li.result[data-code='WST/W01-001']")
    page.evaluate("window.__noReload = true")
    for _ in range(2):
        with page.expect_response(lambda r: "/build/" in r.url and r.request.method == "POST"):
            page.locator("#results li.result[data-code='WST/W01-001']").get_by_role("button", name="Add one Idol 1").click()
    page.wait_for_selector("#results li.result[data-code='WST/W01-001'] .in-deck >> text=2×")
    add_from_search(page, "WST/W01-001", 2)
    for i in range(2, 11):
        add_from_search(page, f"WST/W01-{i:03d}", 4)
    add_from_search(page, "WST/W01-011", 2)
    # with JavaScript the adds happened in place (no page load)
    assert page.evaluate("window.__noReload") is True
    # not legal yet: 42 cards
    assert "Not legal" in page.locator("#validation").inner_text()
    assert page.locator("#validation li[data-code=deck_size]").count() == 1

    add_from_search(page, "WST/W01-C1", 4)
    add_from_search(page, "WST/W01-C2", 4)
    page.wait_for_selector("#validation .verdict.ok")
    assert "Legal Weiß Schwarz deck (50/50 cards)" in page.locator("#validation").inner_text()

    # remove one with the − button, re-add it
    with page.expect_response(lambda r: "/build/" in r.url and r.request.method == "POST"):
        page.locator("#deck-panel").get_by_role("button", name="Remove one Finale 2").click()
    page.wait_for_selector("#validation .verdict.error")
    with page.expect_response(lambda r: "/build/" in r.url and r.request.method == "POST"):
        page.locator("#deck-panel").get_by_role("button", name="Add one Finale 2").click()
    page.wait_for_selector("#validation .verdict.ok")
    # all of it is one version, saved with a note
    deck.refresh_from_db()
    assert deck.version == 1
    page.fill("#save-note", "built in the browser")
    with page.expect_response(lambda r: "/build/save/" in r.url):
        page.get_by_role("button", name="Save version").click()
    page.wait_for_selector("#draft-summary [data-unsaved='false']")
    deck.refresh_from_db()
    assert sum(deck.zones["main"].values()) == 50 and deck.version == 2
    assert deck.versions.get(number=2).note == "built in the browser"

    # share it and open the link in a fresh context (no cookies)
    page.goto(f"{live_server.url}/decks/{deck.pk}/")
    page.get_by_role("button", name="Create share link").click()
    page.wait_for_selector("ul.links a")
    share_url = page.locator("ul.links a").first.get_attribute("href")
    assert re.fullmatch(r"/d/[A-Za-z0-9_-]{16,}/", share_url)

    fresh = browser.new_context()
    try:
        other = fresh.new_page()
        other.goto(f"{live_server.url}{share_url}")
        assert other.locator("h1").inner_text() == "Browser idols"
        assert "Legal Weiß Schwarz deck" in other.locator("#validation").inner_text()
        assert other.locator("svg.chart").count() >= 4
        assert other.get_by_role("link", name="Log in to fork this deck").count() == 1
        # the deck id page is not reachable without the link
        resp = other.goto(f"{live_server.url}/decks/{deck.pk}/")
        assert resp.status == 404
    finally:
        fresh.close()


def test_live_validation_on_edit_page(live_server, page):
    cards_create(("pc",))
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("#id_username", "typist")
    page.fill("#id_password1", "a-long-pass-987")
    page.fill("#id_password2", "a-long-pass-987")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/decks/$"))
    page.goto(f"{live_server.url}/decks/new/?game=pc")
    page.fill("#id_text", "4 PCT-001\nbad line here\n")
    page.wait_for_selector("#validation li[data-code=parse_error]")
    assert "line 2" in page.locator("#validation").inner_text()
    assert page.locator("#validation li[data-code=copy_limit]").count() == 1


def test_builder_without_javascript(live_server, browser):
    from django.contrib.auth import get_user_model

    from decks.services import deck_create

    cards_create(("pc",))
    user = get_user_model().objects.create_user("nojs", password="a-long-pass-987")
    deck = deck_create(owner=user, game="pc", name="No script", zones={})
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "nojs")
        page.fill("#id_password", "a-long-pass-987")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()
        page.goto(f"{live_server.url}/decks/{deck.pk}/build/?q=cost%3E%3D0")
        for n in (1, 2, 3):
            page.locator("#results li.result[data-code='PCT-001']").get_by_role("button", name="Add one PC Hero 1").click()
            page.wait_for_selector(f"#deck-panel li[data-code='PCT-001'] >> text={n}×")
        assert page.locator("#builder-q").input_value() == "cost>=0"  # back on the same search
        page.locator("#deck-panel").get_by_role("button", name="Remove one PC Hero 1").click()
        page.wait_for_selector("#deck-panel li[data-code='PCT-001'] >> text=2×")
        assert "the main deck has 2 cards" in page.locator("#validation").inner_text()
        # Enter in the finder searches (the top hit has its own button without JavaScript)
        page.fill("#builder-q", "2 PCT-002")
        page.press("#builder-q", "Enter")
        page.get_by_role("button", name="Add 2× PC Hero 2 (PCT-002)").click()
        page.wait_for_selector("#deck-panel li[data-code='PCT-002'] >> text=2×")
        page.locator("#deck-panel").get_by_role("button", name="Remove one PC Hero 2").click()
        page.locator("#deck-panel").get_by_role("button", name="Remove one PC Hero 2").click()
        page.wait_for_selector("#deck-panel li[data-code='PCT-002']", state="detached")
        page.get_by_role("button", name="Save version").click()
        page.wait_for_selector("#builder-live >> text=Saved as version 2.")
    finally:
        context.close()
    deck.refresh_from_db()
    assert deck.zones == {"main": {"PCT-001": 2}}


def test_live_validation_speaks_the_readers_language(live_server, browser):
    """Issue 18 item 8: the panel that checks deck text as it is typed was English under ja/zh-hans."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    cards_create(("ws",))
    user = get_user_model().objects.create_user("nihongo", password="a-long-pass-987")
    client = Client()
    client.force_login(user)
    for lang, words in (("ja", ("構築チェック", "この行を読み取れません")), ("zh-hans", ("是否合规", "无法读取"))):
        context = browser.new_context(locale=lang, extra_http_headers={"Accept-Language": lang})
        try:
            context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
            page = context.new_page()
            page.goto(f"{live_server.url}/decks/new/?game=ws")
            page.fill("#id_text", "4 WST/W01-001\nfour WST/W01-002\n")
            page.wait_for_selector("#validation li[data-code=parse_error]")
            text = page.locator("#validation").inner_text()
            for w in words:
                assert w in text, (lang, w, text)
            assert "Is it legal" not in text and "Not legal" not in text and "line 2" not in text
        finally:
            context.close()
