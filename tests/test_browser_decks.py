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
    row = page.locator(f"table.results tr[data-code='{code}']")
    row.locator("input[name=count]").fill(str(count))
    with page.expect_response(lambda r: "/build/" in r.url and r.request.method == "POST"):
        row.get_by_role("button", name=re.compile("^Add ")).click()
    page.wait_for_selector(f"#deck-panel tr[data-code='{code}']")


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

    # search with the query language and add cards from the results
    page.get_by_role("link", name="Deck builder", exact=True).click()
    page.fill("#builder-q", "type:character")
    page.get_by_role("button", name="Search").click()
    page.wait_for_selector("table.results tr[data-code='WST/W01-001']")
    page.evaluate("window.__noReload = true")
    for i in range(1, 11):
        add_from_search(page, f"WST/W01-{i:03d}", 4)
    add_from_search(page, "WST/W01-011", 2)
    # with JavaScript the adds happened in place (no page load) and kept the search results
    assert page.evaluate("window.__noReload") is True
    # not legal yet: 42 cards
    assert "Not legal" in page.locator("#validation").inner_text()
    assert page.locator("#validation li[data-code=deck_size]").count() == 1

    page.fill("#builder-q", "type:climax")
    page.get_by_role("button", name="Search").click()
    page.wait_for_selector("table.results tr[data-code='WST/W01-C1']")
    add_from_search(page, "WST/W01-C1", 4)
    add_from_search(page, "WST/W01-C2", 4)
    page.wait_for_selector("#validation .verdict.ok")
    assert "Legal Weiß Schwarz deck (50/50 cards)" in page.locator("#validation").inner_text()
    deck.refresh_from_db()
    assert sum(deck.zones["main"].values()) == 50 and deck.version == 14

    # remove one with the − button, re-add it
    with page.expect_response(lambda r: "/build/" in r.url and r.request.method == "POST"):
        page.get_by_role("button", name="Remove one Finale 2").click()
    page.wait_for_selector("#validation .verdict.error")
    with page.expect_response(lambda r: "/build/" in r.url and r.request.method == "POST"):
        page.get_by_role("button", name="Add one Finale 2").click()
    page.wait_for_selector("#validation .verdict.ok")

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
        row = page.locator("table.results tr[data-code='PCT-001']")
        row.locator("input[name=count]").fill("3")
        row.get_by_role("button", name=re.compile("^Add ")).click()
        page.wait_for_selector("#deck-panel tr[data-code='PCT-001']")
        assert "3×" in page.locator("#deck-panel tr[data-code='PCT-001']").inner_text()
        assert page.locator("#builder-q").input_value() == "cost>=0"  # back on the same search
        page.get_by_role("button", name="Remove one PC Hero 1").click()
        page.wait_for_selector("#deck-panel tr[data-code='PCT-001'] >> text=2×")
        assert "the main deck has 2 cards" in page.locator("#validation").inner_text()
    finally:
        context.close()
    deck.refresh_from_db()
    assert deck.zones == {"main": {"PCT-001": 2}}
