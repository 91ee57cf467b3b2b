"""Headless Chromium (Debian's): card pictures and their drawn faces, previews on hover and tap, the
picture grid, sets and series, public decks and "decks using this card", the deck page's pictures
and sample hand, the curator's image upload, the API index, and the small defects of issue 18
(Phantasmagoria's stat table inside its frame, card codes whole in deck tables)."""
from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model

from catalog.models import Card, CardPrinting
from decks.models import Visibility
from decks.services import deck_create
from decks.testing import cards_create, legal_deck
from tests.helpers import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_OVERFLOW = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(live_server):
    """The five test pools, a missing and a working picture, and public and private decks."""
    cards_create()
    Card.objects.filter(game="ws").update(set_code="WST/W01")
    one = Card.objects.get(game="ws", code="WST/W01-001")
    CardPrinting.objects.create(card=one, game="ws", code=one.code, rarity="R",
                                image_url=f"{live_server.url}/static/no-such-picture.jpg")
    owner = get_user_model().objects.create_user("maker", password="a-long-pass-987")
    other = get_user_model().objects.create_user("other", password="a-long-pass-987")
    public = deck_create(owner=owner, game="ws", name="Public idols", zones=legal_deck("ws"), visibility=Visibility.PUBLIC)
    three = {"main": {**legal_deck("ws")["main"], "WST/W01-001": 3, "WST/W01-011": 3}}
    deck_create(owner=other, game="ws", name="Three of them", zones=three, visibility=Visibility.PUBLIC)
    deck_create(owner=other, game="ws", name="Secret idols", zones=legal_deck("ws"), visibility=Visibility.PRIVATE)
    deck_create(owner=owner, game="phantasma", name="Lantern", zones=legal_deck("phantasma"), visibility=Visibility.PUBLIC)
    return {"public": public, "owner": owner}


def test_a_picture_that_fails_shows_the_drawn_face(world, live_server, page):
    page.goto(f"{live_server.url}/cards/ws/WST/W01-001/")
    page.wait_for_selector("#picture .pic.img-failed")
    face = page.locator("#picture [data-face]")
    assert face.is_visible() and face.get_attribute("role") == "img" and face.get_attribute("aria-label") == "Idol 1"
    assert face.get_attribute("aria-hidden") is None
    assert not page.locator("#picture img.pic-img").is_visible()
    assert "Idol 1" in face.inner_text() and "2500" in face.inner_text()


def test_picture_grid_and_every_game_drawn(world, live_server, page):
    page.set_viewport_size({"width": 390, "height": 800})
    for game in ("pc", "phantasma", "ws", "chaos", "lycee"):
        page.goto(f"{live_server.url}/cards/?game={game}&view=grid")
        tiles = page.locator("ul.card-grid li.card-tile")
        assert tiles.count() >= 5
        assert page.locator(f"ul.card-grid .face-{game}").count() == tiles.count()
        box = tiles.first.locator(".pic").bounding_box()
        assert box["width"] > 100 and abs(box["height"] / box["width"] - 88 / 63) < 0.02  # a card's shape
        assert page.evaluate(NO_OVERFLOW), game


def test_hover_and_tap_previews(world, live_server, browser, page):
    page.goto(f"{live_server.url}/cards/?q=game:ws+t:character")
    name = page.locator("table.card-list th a", has_text="Idol 2").first
    name.hover()
    preview = page.locator("#card-preview")
    preview.wait_for(state="visible")
    assert preview.locator(".pic-large .face-ws").count() == 1 and "Idol 2" in preview.inner_text()
    page.keyboard.press("Escape")
    preview.wait_for(state="hidden")
    # keyboard: focusing the picture link shows it too
    page.locator("a.peek").first.focus()
    preview.wait_for(state="visible")

    phone = browser.new_context(viewport={"width": 390, "height": 800}, has_touch=True, is_mobile=True)
    try:
        tap = phone.new_page()
        tap.goto(f"{live_server.url}/cards/?q=game:ws+t:character")
        peek = tap.get_by_role("link", name="Picture of Idol 3")
        peek.tap()
        box = tap.locator("#card-preview")
        box.wait_for(state="visible")
        assert tap.url.endswith("t:character") or "q=" in tap.url  # stayed on the list
        assert box.get_by_role("button", name="Close").count() == 1
        right = box.bounding_box()["x"] + box.bounding_box()["width"]
        assert right <= 390
        box.get_by_role("button", name="Close").tap()
        box.wait_for(state="hidden")
    finally:
        phone.close()

    nojs = browser.new_context(java_script_enabled=False)
    try:
        plain = nojs.new_page()
        plain.goto(f"{live_server.url}/cards/?q=game:ws+t:character")
        plain.get_by_role("link", name="Picture of Idol 3").click()
        plain.wait_for_url(re.compile(r"/cards/ws/WST/W01-003/#picture$"))
        assert plain.locator("#picture .face-ws").count() == 1
    finally:
        nojs.close()


def test_series_and_sets(world, live_server, page):
    page.goto(f"{live_server.url}/cards/ws/")
    page.get_by_role("link", name="WST", exact=True).click()
    page.wait_for_url(re.compile(r"/cards/ws/series/WST/$"))
    assert page.locator("h1").inner_text().startswith("WST")
    assert page.locator("ul.card-grid li").count() == 14
    page.get_by_role("link", name="Public decks of this series").click()
    page.wait_for_url(re.compile(r"/decks/public/\?"))
    assert "2 public decks" in page.locator("#public-count").inner_text()


def test_public_decks_and_decks_using_a_card(world, live_server, page):
    page.goto(f"{live_server.url}/cards/ws/WST/W01-001/")
    usage = page.locator("section.card-usage")
    assert "Played in 2 of 2 public decks (100%)" in usage.inner_text()
    assert "3.5 copies on average" in usage.inner_text()
    assert usage.get_by_role("link", name="Secret idols").count() == 0
    page.goto(f"{live_server.url}/decks/public/")
    assert page.locator("li.public-deck").count() == 3
    page.select_option("#pub-game", "ws")
    page.fill("#pub-card", "Idol 11")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(re.compile(r"card=Idol"))
    decks = page.locator("li.public-deck")
    assert decks.count() == 2
    assert "3 copies of the card" in page.locator("li.public-deck", has_text="Three of them").inner_text()
    assert page.locator("li.public-deck .pic").count() == 2  # a cover picture per deck
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.evaluate(NO_OVERFLOW)


def test_deck_page_pictures_and_sample_hand(world, live_server, page):
    deck = world["public"]
    page.goto(f"{live_server.url}/decks/{deck.pk}/")
    groups = page.locator("#deck-pictures h4.visual-group").all_inner_texts()
    assert [re.sub(r"\s*\(\d+\)", "", t) for t in groups] == ["Level 0", "Level 1", "Level 2", "Level 3", "Climaxes"]
    # beside the list on a wide screen
    list_box = page.locator("#deck-panel").bounding_box()
    pics_box = page.locator("#deck-pictures").bounding_box()
    assert pics_box["x"] > list_box["x"] + list_box["width"] - 1 and abs(pics_box["y"] - list_box["y"]) < 30
    # codes stay whole in the deck table
    for code in page.locator("table.deck-cards td code").all()[:5]:
        assert code.evaluate("e => e.getClientRects().length") == 1
    page.get_by_role("button", name="Draw a hand").click()
    page.wait_for_selector("ol.hand-cards li")
    assert page.locator("ol.hand-cards li").count() == 5
    first = page.locator("ol.hand-cards li").evaluate_all("els => els.map(e => e.dataset.code)")
    page.get_by_role("link", name="Draw the next card").click()
    page.wait_for_selector("ol.hand-cards li:nth-child(6)")
    assert page.locator("ol.hand-cards li.drawn").count() == 1
    assert page.locator("ol.hand-cards li").evaluate_all("els => els.map(e => e.dataset.code)")[:5] == first
    page.select_option("#hand-size", "7")
    page.get_by_role("button", name="Mulligan (new hand)").click()
    wait_until(page, "() => document.querySelectorAll('ol.hand-cards li').length === 7")
    assert page.locator("ol.hand-cards li.drawn").count() == 0
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.evaluate(NO_OVERFLOW)
    for code in page.locator("table.deck-cards td code").all()[:5]:
        assert code.evaluate("e => e.getClientRects().length") == 1


def test_phantasmagoria_stat_table_inside_its_frame(world, live_server, page):
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/cards/phantasma/PHT-001/")
        face = page.locator(".card-face").bounding_box()
        table = page.locator(".card-face table.abilities").bounding_box()
        assert table["x"] >= face["x"] and table["x"] + table["width"] <= face["x"] + face["width"], width
        assert page.evaluate(NO_OVERFLOW)
        for th in page.locator(".card-face table.abilities thead th").all():  # words are not cut in two
            assert th.evaluate("e => e.getClientRects().length") == 1 and th.evaluate(
                "e => e.scrollWidth <= e.clientWidth + 1")


def test_curator_uploads_a_picture(world, live_server, page, settings, tmp_path):
    from PIL import Image

    settings.MEDIA_ROOT = tmp_path
    settings.SERVE_MEDIA = True
    get_user_model().objects.create_superuser("curator", "c@example.com", "a-long-pass-987")
    card = Card.objects.get(game="lycee", code="CH-T001")
    printing = CardPrinting.objects.create(card=card, game="lycee", code=card.code, rarity="R")
    buf = io.BytesIO()
    Image.new("RGB", (630, 880), (30, 120, 200)).save(buf, "PNG")
    scan = tmp_path / "scan.png"
    scan.write_bytes(buf.getvalue())

    page.goto(f"{live_server.url}/admin/login/?next=/admin/catalog/card/{card.pk}/change/")
    page.fill("#id_username", "curator")
    page.fill("#id_password", "a-long-pass-987")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/change/$"))
    page.set_input_files("#id_printings-0-image", str(scan))
    page.locator("input[name=_continue]").click()
    page.wait_for_selector(".messagelist .success")
    printing.refresh_from_db()
    assert printing.image.name.startswith("cards/")

    page.goto(f"{live_server.url}/cards/lycee/CH-T001/")
    img = page.locator("#picture img.pic-img")
    wait_until(page, "() => { const i = document.querySelector('#picture img.pic-img'); return i && i.complete && i.naturalWidth > 0; }")
    assert img.get_attribute("src").startswith("/media/") and img.get_attribute("alt") == card.name
    assert img.get_attribute("width") == "480" and img.get_attribute("height") == "670"
    assert img.evaluate("i => i.naturalWidth") <= 480
    # lists use the small thumbnail, lazily
    page.goto(f"{live_server.url}/cards/?q=game:lycee&view=grid")
    tile = page.locator("li.card-tile", has_text=card.name).locator("img.pic-img")
    assert tile.get_attribute("loading") == "lazy" and tile.get_attribute("width") == "240"


def test_api_index(live_server, page):
    response = page.goto(f"{live_server.url}/api/v1/?format=json")
    assert response.status == 200
    data = response.json()
    assert data["resources"]["cards"]["url"] == f"{live_server.url}/api/v1/cards/"
    assert data["docs"] == f"{live_server.url}/api/v1/docs/"
