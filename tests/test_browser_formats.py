"""Headless Chromium (issue 18, items 4 and 7): a deck's format on its edit form, deck page and share
page, the public list's format filter, and a goldfish report that opens with the turn of win."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.PLAYTEST_EXECUTOR = "inline"
    settings.PLAYTEST_CHUNK_SIZE = 100


def test_format_on_the_pages_and_the_report_leads_with_turn_of_win(live_server, page):
    from decks.models import Deck, Format
    from decks.services import deck_create
    from playtest.services import playtest_create
    from rules.decktext import parse_deck_text
    from tests.test_playtest_pages import deck_text, load_catalog

    load_catalog("ws")
    owner = get_user_model().objects.create_user("fmt", password="a-long-pass-987")
    zones = {"main": parse_deck_text(deck_text("ws-skylark")).counts("main")}
    banned = next(iter(zones["main"]))
    Format.objects.create(game="ws", code="standard", name="Standard (sample)", banned=[banned])
    Format.objects.create(game="ws", code="title-only", name="Title-only (sample)", single_series=True)
    deck = deck_create(owner=owner, game="ws", name="Skylark", zones=zones, visibility="public")
    deck_create(owner=owner, game="ws", name="Other", zones=zones, visibility="public", format_code="title-only")

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "fmt")
    page.fill("input[name=password]", "a-long-pass-987")
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_load_state()

    # choose the format on the edit page: the deck page then names it and its problem
    page.goto(f"{live_server.url}/decks/{deck.pk}/edit/")
    page.select_option("#id_deck_format", "standard")
    page.locator("#deck-form [type=submit]").last.press("Enter")
    page.wait_for_url(f"**/decks/{deck.pk}/")
    assert "Format: Standard (sample)" in page.inner_text(".deck-head")
    assert page.locator('#validation li[data-code="banned"]').count() == 1
    assert banned in page.inner_text('#validation li[data-code="banned"]')
    assert Deck.objects.get(pk=deck.pk).legal is False

    # the share page shows it too
    page.goto(f"{live_server.url}/d/{deck.slug}/")
    assert page.locator('#validation [data-format="standard"]').count() == 1

    # the public list filters by format
    page.goto(f"{live_server.url}/decks/public/?game=ws")
    page.select_option("#pub-format", "standard")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()
    names = page.locator(".public-deck .deck-name").all_inner_texts()
    assert names == ["Skylark"]

    # a report opens with the turn of win; no card is dropped from the first-playable table
    job = playtest_create(game="ws", zones=zones, games=100, seed=3, session_key="fmt", turn_cap=3)
    page.goto(f"{live_server.url}/p/{job.share_slug}/")
    assert page.locator("#summary-heading").inner_text() == "Turn of win"
    assert page.locator("dl.stats dt").first.inner_text() == "Mean turn of win"
    rows = page.locator('section[aria-labelledby="fp-heading"] tbody tr')
    assert rows.count() == len(zones["main"])
    assert page.locator(".not-playable").count() >= 1
