"""Phones and accessibility (issue 18, item 3): the main pages at 390 px and 1280 px in en, ja and
zh-hans never scroll sideways, and axe-core (tests/vendor/axe.min.js, axe-core 4.14.1 from npm, MPL-2.0)
finds no serious or critical violation. One browser context for the whole run, the pages built once."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
LANGS = ("en", "ja", "zh-hans")
WIDTHS = (390, 1280)
OVERFLOW = "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
# The widest elements, to say what overflows when something does.
WIDEST = """() => { const w = document.documentElement.clientWidth; return [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > w + 1).slice(0, 5)
  .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + [...e.classList].join('.')
       + ' ' + Math.round(e.getBoundingClientRect().right)); }"""
AXE_RUN = """async () => { const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})); }"""


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.PLAYTEST_EXECUTOR = "inline"
    settings.PLAYTEST_CHUNK_SIZE = 100


def _pages(live_server) -> dict[str, str]:
    from decks.models import Format, ShareLink
    from decks.services import deck_create
    from playtest.services import playtest_create
    from rules.decktext import parse_deck_text
    from tests.test_playtest_pages import deck_text, load_catalog

    load_catalog("ws")
    owner = get_user_model().objects.create_user("phone", password="a-long-pass-987")
    fmt = Format.objects.create(game="ws", code="standard", name="Standard (sample)", banned=["NOC/S90-001"])
    zones = {"main": parse_deck_text(deck_text("ws-skylark")).counts("main")}
    deck = deck_create(owner=owner, game="ws", name="Skylark Orchestra", zones=zones, visibility="public",
                       format_code=fmt.code)
    link = ShareLink.objects.create(deck=deck, version=deck.version)
    job = playtest_create(game="ws", zones=zones, games=200, seed=7, session_key="phone", owner=owner,
                          source="deck", deck_id=deck.pk, deck_version=deck.version, name=deck.name)
    return {
        "home": "/", "search": "/cards/?q=skylark", "card": "/cards/ws/SKY/W90-001/", "help": "/cards/help/",
        "decks": "/decks/", "public": "/decks/public/", "deck": f"/decks/{deck.pk}/",
        "builder": f"/decks/{deck.pk}/build/?q=sky", "playtest-form": f"/playtests/new/?deck={deck.pk}",
        "report": f"/p/{job.share_slug}/", "share": f"/d/{link.slug}/", "playtests": "/playtests/",
    }, owner


def test_main_pages_fit_phones_and_pass_axe(live_server, browser):
    pages, owner = _pages(live_server)
    context = browser.new_context(bypass_csp=True)  # axe is injected as a script tag
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", owner.username)
    page.fill("input[name=password]", "a-long-pass-987")
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_load_state()
    axe = AXE.read_text()
    failures: list[str] = []
    for lang in LANGS:
        context.add_cookies([{"name": "tcgdb_language", "value": lang, "url": live_server.url}])
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            for name, path in pages.items():
                response = page.goto(live_server.url + path)
                assert response is not None and response.status < 400, (name, lang, response and response.status)
                if shots := os.environ.get("RESPONSIVE_SCREENSHOTS"):  # a folder: one PNG per page, width and language
                    page.screenshot(path=f"{shots}/{name}-{width}-{lang}.png", full_page=width == 390)
                scroll, client = page.evaluate(OVERFLOW)
                if scroll > client:
                    failures.append(f"{lang} {width}px {name}: {scroll} > {client} {page.evaluate(WIDEST)}")
                if width == 390 or lang == "en":
                    page.add_script_tag(content=axe)
                    found = page.evaluate(AXE_RUN)
                    if found:
                        failures.append(f"{lang} {width}px {name}: axe {json.dumps(found)}")
    context.close()
    assert not failures, "\n".join(failures)


def test_phone_header_menu_works_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(live_server.url + "/")
    menu = page.locator("details.site-menu")
    assert menu.count() == 1
    assert not page.locator(".site-menu nav a").first.is_visible()
    menu.locator("summary").click()
    assert page.locator(".site-menu nav a").first.is_visible()
    box = menu.locator("summary").bounding_box()
    assert box and box["height"] >= 40 and box["width"] >= 40
    context.close()
