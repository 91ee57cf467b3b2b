"""Headless Chromium: switch the site to Chinese and to Japanese with the language switcher (a plain
form, no JavaScript needed), the choice is remembered across pages, and full-width input finds cards."""
from __future__ import annotations

import re

import pytest

from tests.helpers import wait_until
from tests.search_testdata import make_card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _cards() -> None:
    make_card(game="lycee", code="FB-001", name="AP+3 Charm", card_type="item", cost=1, text="Your character gets AP+3.")
    make_card(game="ws", code="FB/W01-001", name="クリムゾン・フィナーレ", card_type="character", level=3, cost=2,
              power=10000, soul=2, colors=["red"], text="【自】パワーを＋1000。")
    make_card(game="ws", code="FB/W01-002", name="Night／Drive", card_type="character", level=1, cost=0, power=4500,
              soul=1, colors=["green"])


def _switch(page, code: str) -> None:
    page.locator("#language-select").select_option(code)
    page.locator("form.language button[type=submit]").click()
    wait_until(page, f"() => document.documentElement.lang === '{code}'")


def test_switch_to_chinese_and_japanese_and_search_full_width(live_server, page):
    _cards()
    page.goto(f"{live_server.url}/")
    assert page.locator("html").get_attribute("lang") == "en"

    _switch(page, "zh-hans")
    assert page.get_by_role("link", name="卡片检索").first.is_visible()
    box = page.get_by_label("检索卡片")
    box.fill("ＡＰ＋３")
    box.press("Enter")
    page.wait_for_url(re.compile(r"/cards/\?q="))
    assert page.locator("html").get_attribute("lang") == "zh-hans"  # remembered on the next page
    results = page.locator("table.card-list tbody tr")
    assert results.count() == 1 and "AP+3 Charm" in results.first.inner_text()

    _switch(page, "ja")
    assert page.get_by_role("link", name="カード検索").first.is_visible()
    box = page.get_by_label("カードを検索")
    box.fill("ｸﾘﾑｿﾞﾝﾌｨﾅｰﾚ")  # half-width katakana, no middle dot
    page.get_by_role("button", name="検索", exact=True).click()
    page.wait_for_url(re.compile(r"/cards/\?q="))
    results = page.locator("table.card-list tbody tr")
    assert results.count() == 1 and "クリムゾン・フィナーレ" in results.first.inner_text()

    box = page.get_by_label("カードを検索")
    box.fill("ＮＩＧＨＴ／ＤＲＩＶＥ パワー>=4000")
    box.press("Enter")
    page.wait_for_url(re.compile(r"/cards/\?q="))
    assert "Night／Drive" in page.locator("table.card-list tbody").inner_text()

    box = page.get_by_label("カードを検索")
    box.fill("ＦＯＯ:1")
    box.press("Enter")
    alert = page.get_by_role("alert")
    assert "不明なフィールド" in alert.inner_text()

    # a new page in the same browser stays Japanese (the cookie), whatever the browser's language
    page.goto(f"{live_server.url}/decks/")
    assert page.locator("html").get_attribute("lang") == "ja"
    _switch(page, "en")
    assert page.get_by_role("link", name="Card search").first.is_visible()
