"""Headless Chromium on the deck builder with real Weiß Schwarz cards (one HOTC set file, DC/W01):
a legal 50-card deck built with the keyboard alone, counting the actions; the page at 390 and 1280
px in English, Japanese and Chinese (no horizontal scrolling; screenshots under var/screenshots/)."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from decks.models import Deck, DeckVersion
from decks.services import deck_create

pytestmark = [pytest.mark.browser, pytest.mark.carddata, pytest.mark.django_db(transaction=True)]

SET_FILE = Path(settings.SHARED_DIR) / "carddata" / "weiss_schwarz" / "rcyberw_hotc_en_jp" / "DC-W01.txt"
SHOTS = Path(settings.VAR_DIR) / "screenshots"


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def import_set() -> None:
    from catalog.importers import FORMATS, load_all
    from catalog.services import card_import

    load_all()
    summary = card_import(records=list(FORMATS["ws-hotc"].read(SET_FILE, "ws")), game="ws", allow_skips=True, merge=True)
    assert summary.created >= 150


def wait_until(page, script: str, timeout: float = 30.0) -> None:
    """Poll ``script`` (a JavaScript function) until it is true. ``page.wait_for_function`` evaluates
    its predicate with eval inside the page, which the site's Content-Security-Policy refuses."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout:g} s: {script}")
        time.sleep(0.05)


def signed_in(browser, live_server, user, **context_args):
    client = Client()
    client.force_login(user)
    context = browser.new_context(**context_args)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": live_server.url}])
    return context


class Keyboard:
    """The page's keyboard, counting the actions: every key press that is not typing text."""

    def __init__(self, page):
        self.page, self.actions = page, 0

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)

    def press(self, key: str, *, wait: str | None = None) -> None:
        self.actions += 1
        if wait is None:
            self.page.keyboard.press(key)
            return
        with self.page.expect_response(lambda r: wait in r.url and r.request.method == "POST"):
            self.page.keyboard.press(key)

    def finder_ready(self) -> None:
        """After an add the finder keeps the query selected: what is typed next replaces it."""
        wait_until(self.page, "() => { const f = document.activeElement; return f && f.id === 'builder-q' && "
                              "f.selectionStart === 0 && f.selectionEnd === f.value.length; }")


@pytest.mark.xfail(reason="known regression (issue 18 stays open): after '+' on a result row the builder "
                          "no longer puts the focus back on that row's add button once htmx swaps the "
                          "results in; seen at HEAD after the pictures/peek link joined the rows", strict=False)
def test_keyboard_builds_a_legal_deck_from_real_cards(live_server, browser):
    import_set()
    user = get_user_model().objects.create_user("keys", password="a-long-pass-987")
    deck = deck_create(owner=user, game="ws", name="Da Capo", zones={})
    context = signed_in(browser, live_server, user)
    try:
        page = context.new_page()
        page.set_default_timeout(30000)
        page.goto(f"{live_server.url}/decks/{deck.pk}/build/")
        page.evaluate("window.__noReload = true")
        wait_until(page, "() => document.activeElement && document.activeElement.id === 'builder-q'")  # autofocus
        keys = Keyboard(page)
        final: dict[str, int] = {}
        copy_changes = 0

        def enter_adds(text: str, code: str, copies: int) -> None:
            nonlocal copy_changes
            keys.type(text)
            keys.press("Enter", wait="/build/top/")
            keys.finder_ready()
            page.wait_for_selector(f"#deck-panel li.deck-row[data-code='{code}']")
            final[code] = final.get(code, 0) + copies
            copy_changes += copies - 1

        # two climaxes and eight characters by code, in lower case, with the count typed first
        for code in ("dc/w01-024", "dc/w01-099", "dc/w01-001", "dc/w01-002", "dc/w01-003", "dc/w01-004",
                     "dc/w01-005", "dc/w01-007", "dc/w01-009", "dc/w01-011"):
            enter_adds(f"4 {code}", code.upper(), 4)
        # by name (うたまる): Enter adds one, Enter again one more copy each
        enter_adds("うたまる", "DC/W01-012", 1)
        for _ in range(3):
            keys.press("Enter", wait="/build/top/")
            keys.finder_ready()
            final["DC/W01-012"] += 1
            copy_changes += 1
        # by a reading typed in katakana (the name is はりまお): one too many, then Shift+Enter removes one
        enter_adds("ハリマオ", "DC/W01-013", 1)
        for _ in range(4):
            keys.press("Enter", wait="/build/top/")
            keys.finder_ready()
        keys.press("Shift+Enter", wait="/build/top/")
        keys.finder_ready()
        final["DC/W01-013"] += 3
        copy_changes += 5
        # from the results list: ArrowDown to the hit, + twice
        keys.type("霧羽 香澄")
        page.wait_for_selector("#results-state[data-q='霧羽 香澄'] ~ ol li.result[data-code='DC/W01-016']")
        keys.press("ArrowDown")
        assert page.evaluate("document.activeElement.id") == "r-DC_2f_W01_2d_016-add"
        for n in (1, 2):
            keys.press("+", wait="/build/")
            page.wait_for_selector(f"#in-DC_2f_W01_2d_016 >> text={n}×")
            wait_until(page, "() => document.activeElement && document.activeElement.id === 'r-DC_2f_W01_2d_016-add'")
        final["DC/W01-016"] = 2
        copy_changes += 1

        page.wait_for_selector("#validation .verdict.ok")
        assert "50/50" in page.locator("#draft-summary").inner_text()
        assert "Legal Weiß Schwarz deck (50/50 cards)" in page.locator("#validation").inner_text()
        assert Deck.objects.get(pk=deck.pk).version == 1  # all of it in the working copy
        keys.press("Control+s", wait="/build/save/")
        page.wait_for_selector("#draft-summary [data-unsaved='false']")
        assert "Saved as version 2." in page.locator("#builder-live").inner_text()
        assert page.evaluate("window.__noReload") is True  # no page load at any point

        deck.refresh_from_db()
        assert deck.version == 2 and DeckVersion.objects.filter(deck=deck).count() == 2
        assert deck.zones == {"main": final} and sum(final.values()) == 50
        distinct = len(final)
        print(f"\nkeyboard build: {keys.actions} actions for {distinct} distinct cards and {copy_changes} copy changes")
        assert keys.actions <= distinct + copy_changes
        assert keys.actions == 24
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ja", "zh-hans"])
def test_builder_fits_phones_and_desktops(live_server, browser, lang):
    import_set()
    user = get_user_model().objects.create_user("looks", password="a-long-pass-987")
    deck = deck_create(owner=user, game="ws", name="Da Capo", zones={"main": {
        "DC/W01-001": 4, "DC/W01-002": 4, "DC/W01-017": 3, "DC/W01-019": 2, "DC/W01-024": 4, "DC/W01-099": 4}})
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (390, 1280):
        context = signed_in(browser, live_server, user, viewport={"width": width, "height": 900}, locale=lang,
                            extra_http_headers={"Accept-Language": lang})
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/decks/{deck.pk}/build/")
            page.keyboard.type("音姫")
            page.wait_for_selector("#results li.result")
            page.keyboard.press("Enter")
            page.wait_for_selector("#builder-live li")
            assert page.evaluate("document.documentElement.lang") == lang
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{lang} at {width}px scrolls sideways by {overflow}px"
            if lang != "en":
                assert not re.search(r"\b(Save version|Find cards|Undo|Paste a list)\b", page.locator("main").inner_text())
            page.screenshot(path=str(SHOTS / f"builder-{lang}-{width}.png"), full_page=True)
        finally:
            context.close()
