"""Headless Chromium: a goldfish report says what it covers at the top, beside the turn-of-win figures."""
from __future__ import annotations

import json

import pytest

from tests.test_abilities_catalog import CARDS, CLIMAXES, DECK, VANILLA, fake_engine, import_cards  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_report_page_leads_with_the_coverage_block(live_server, page, client, settings, fake_engine):  # noqa: F811
    from playtest.models import PlaytestJob

    import_cards(CARDS + CLIMAXES + VANILLA)
    settings.PLAYTEST_EXECUTOR = "inline"  # committed for real here: the job runs when the request commits
    text = "".join(f"{n} {code}\n" for code, n in DECK.items())
    r = client.post("/api/v1/playtests/", json.dumps({"game": "ws", "text": text, "games": 20, "seed": 5,
                                                      "name": "Coverage deck"}), content_type="application/json")
    assert r.status_code == 202, r.content
    job = PlaytestJob.objects.get(pk=r.json()["id"])
    assert job.status == "done"

    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}{job.get_absolute_url()}")
    block = page.locator("[data-coverage]")
    assert block.count() == 1 and block.is_visible()
    assert "11 of 13 cards fully modelled (88.0% of copies)" in block.inner_text()
    # at the top: right under the summary numbers (win rate, turn of win), above the charts
    summary = page.locator("#summary-heading").bounding_box()
    chart = page.locator("#hist-heading").bounding_box()
    box = block.bounding_box()
    assert summary["y"] < box["y"] < chart["y"]
    rows = block.locator("tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).inner_text().startswith("4") and "AB/T01-007" in rows.nth(0).inner_text()
    assert "never played" in rows.nth(0).inner_text() and "events are never played" in rows.nth(0).inner_text()
    assert "ほにゃららする。" in rows.nth(1).inner_text() and "not understood" in rows.nth(1).inner_text()
    assert "every card's text in this deck is modelled" not in page.inner_text("main")
    # on a phone the block fits the width
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert page.locator("[data-coverage]").is_visible()
    # in Japanese
    page.context.add_cookies([{"name": "tcgdb_language", "value": "ja", "url": live_server.url}])
    page.reload()
    assert "13 種中 11 種のカードをすべて再現" in page.locator("[data-coverage]").inner_text()
    assert not errors, errors
