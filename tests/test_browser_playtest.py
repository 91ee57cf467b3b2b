"""Headless Chromium: goldfish a saved deck, watch the report fill in, read the chart and a replay."""
from __future__ import annotations

import pytest

from tests.test_playtest_pages import deck_text, load_catalog

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_goldfish_job_from_deck_shows_chart_and_replay(live_server, page, settings, django_user_model):
    from decks.services import deck_create
    from rules.decktext import parse_deck_text

    settings.PLAYTEST_EXECUTOR = "thread"  # the embedded default: a background thread, live progress
    settings.PLAYTEST_CHUNK_SIZE = 250
    load_catalog("ws")
    owner = django_user_model.objects.create_user("maestro", password="pw-12345-long")
    deck = deck_create(owner=owner, game="ws", name="Skylark Orchestra", visibility="public",
                       zones={"main": parse_deck_text(deck_text("ws-skylark")).counts("main")})

    page.goto(f"{live_server.url}/decks/{deck.pk}/")
    link = page.locator('a[href*="/playtests/new/"]')
    if link.count():  # the deck page's goldfish link, when the deck page offers one
        link.first.click()
    else:
        page.goto(f"{live_server.url}/playtests/new/?deck={deck.pk}")
    assert "Skylark Orchestra" in page.inner_text("main")
    page.fill("input[name=games]", "3000")
    page.fill("input[name=seed]", "42")
    page.click("form.playtest-form button[type=submit]")
    page.wait_for_url("**/p/*/")
    assert "Goldfish report: Skylark Orchestra" in page.inner_text("h1")

    # the page polls while the job runs and shows the report when it is done
    page.wait_for_selector("svg.chart", timeout=60_000)
    chart = page.locator("svg.chart").first
    assert "Turn of win" in chart.locator("title").first.text_content()
    assert page.locator("svg.chart rect").count() > 0
    assert "Win rate" in page.inner_text("main")
    share = page.input_value("#share-url")
    assert share.startswith(live_server.url) and "/p/" in share

    # exactly "Game 3": an example link such as "Game 327: fastest win (turn 4)" also contains it
    page.get_by_role("link", name="Game 3", exact=True).click()
    page.wait_for_url("**/games/3/")
    log = page.inner_text("main")
    assert "Game 3 of Skylark Orchestra" in log and "Turn 1" in log and "opening hand" in log

    # the share link opens the same report in a fresh session
    other = page.context.browser.new_context().new_page()
    other.goto(share)
    assert "Skylark Orchestra" in other.inner_text("h1") and other.locator("svg.chart").count() == 2
    other.context.close()

    from playtest import services

    services._thread_pool().submit(lambda: None).result(timeout=60)  # the job thread is idle before teardown
