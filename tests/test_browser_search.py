"""Headless Chromium against a live server: type a query, see results, switch to the grid, open a card;
a bad query shows its message beside the box. Runs without JavaScript on the page."""
from __future__ import annotations

import re

import pytest

from tests.search_testdata import small_catalog

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_type_query_see_results_open_card(live_server, page):
    small_catalog()
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Card search").first.click()
    box = page.get_by_label("Search cards")
    box.fill("game:ws power>=3000")
    box.press("Enter")
    page.wait_for_url(re.compile(r"/cards/\?q=game%3Aws"))
    assert page.locator("#result-count").inner_text().startswith("2 cards")
    rows = page.locator("table.card-list tbody tr")
    assert rows.count() == 2
    assert rows.first.locator("th a").first.inner_text() == "Backup Nene"  # sorted by name

    page.get_by_role("link", name="Grid").click()
    assert page.locator("ul.card-grid li").count() == 2
    assert page.get_by_label("Search cards").input_value() == "game:ws power>=3000"  # query kept

    page.get_by_role("link", name="Crimson Finale Reika").click()
    page.wait_for_url(re.compile(r"/cards/ws/TST/W01-001/$"))
    assert page.get_by_role("heading", level=1).inner_text() == "Crimson Finale Reika"
    face = page.locator(".card-face")
    assert "10000" in face.inner_text() and "soul" in face.inner_text()


def test_error_shown_beside_the_box(live_server, page):
    small_catalog()
    page.goto(f"{live_server.url}/cards/")
    box = page.get_by_label("Search cards")
    box.fill("game:ws cp>3")
    page.get_by_role("button", name="Search").click()
    alert = page.get_by_role("alert")
    assert "cp is a Prism Connect stat, not a Weiß Schwarz one" in alert.inner_text()
    assert page.get_by_label("Search cards").get_attribute("aria-invalid") == "true"


def test_keyboard_only(live_server, page):
    small_catalog()
    page.goto(f"{live_server.url}/cards/")
    page.keyboard.press("Tab")  # skip link first
    assert page.evaluate("document.activeElement.className") == "skip"
    page.get_by_label("Search cards").focus()
    page.keyboard.type("shirayuki")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"q=shirayuki"))
    link = page.get_by_role("link", name="Shirayuki Hime, Awakened", exact=True)  # not its "Picture of ..." preview link
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/cards/lycee/CH-0001/$"))
    assert page.get_by_role("table", name=re.compile("Position restriction")).is_visible()
