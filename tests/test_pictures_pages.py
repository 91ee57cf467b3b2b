"""Card pictures, sets and series, public decks and "decks using this card", the API index, the deck
page's picture view and sample hand (issue 18 items 1, 5, 6, 8): the server-rendered pages."""
from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalog.models import Card, CardPrinting, CardSet
from decks.models import DeckCard, Visibility
from decks.services import deck_create, deck_update
from decks.testing import cards_create, legal_deck
from rules import games as g
from rules.registry import get_spec

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool():
    cards_create()
    return {game: list(Card.objects.filter(game=game)) for game in g.GAMES}


@pytest.fixture
def owner():
    return get_user_model().objects.create_user("owner", password="x-long-pass-1")


def html_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# -- pictures ---------------------------------------------------------------------------------------
def test_every_game_draws_a_face(pool):
    for game, cards in pool.items():
        for card in cards:
            face = get_spec(game).face(card)
            assert face.corner or face.bottom or face.row or card.card_type in ("event", "set", "extra", "climax", "ex_skill", "area", "item", "scene"), card


def test_grid_shows_images_and_faces(client, pool):
    card = Card.objects.get(game="ws", code="WST/W01-001")
    CardPrinting.objects.create(card=card, game="ws", code=card.code, rarity="R", image_url="https://img.example/ws/1.jpg")
    html = html_of(client.get(reverse("card-search"), {"q": "game:ws", "view": "grid"}))
    img = re.search(r'<img class="pic-img" src="https://img.example/ws/1.jpg"[^>]*>', html).group(0)
    for attr in ('width="240"', 'height="335"', 'alt="Idol 1"', 'loading="lazy"', 'referrerpolicy="no-referrer"'):
        assert attr in img
    # the face under the image is hidden from assistive technology; a card without image is drawn
    assert 'class="face face-ws tone-green type-character" aria-hidden="true"' in html
    assert re.search(r'class="face face-ws [^"]*type-climax" role="img" aria-label="Finale 1"', html)
    assert html.count('class="pic pic-thumb') == 14


def test_list_rows_have_a_preview_link(client, pool):
    html = html_of(client.get(reverse("card-search"), {"q": "game:lycee"}))
    assert 'class="peek" href="/cards/lycee/CH-T001/#picture" data-preview="/cards/lycee/CH-T001/picture/"' in html


def test_preview_fragment_and_printing_codes(client, pool):
    card = Card.objects.get(game="pc", code="PCT-001")
    CardPrinting.objects.create(card=card, game="pc", code="PCT-001S", rarity="SR", image_url="https://img.example/pc/1s.jpg")
    html = html_of(client.get(reverse("card-picture", args=["pc", "PCT-001"])))
    assert "pic-large" in html and "PC Hero 1" in html and "face-pc" in html
    html = html_of(client.get(reverse("card-picture", args=["pc", "PCT-001S"])))
    assert "https://img.example/pc/1s.jpg" in html and "SR" in html
    assert client.get(reverse("card-picture", args=["pc", "NOPE-1"])).status_code == 404
    assert client.get(reverse("card-picture", args=["nogame", "PCT-001"])).status_code == 404


def test_card_page_for_every_game_has_a_picture(client, pool):
    for game, cards in pool.items():
        for card in cards[:3]:
            html = html_of(client.get(reverse("card-detail", args=[game, card.code])))
            assert 'id="picture"' in html and "pic-large" in html and f"face-{game}" in html
            assert "Decks using this card" in html


def test_card_page_groups_printings_and_parallels(client, pool):
    card = Card.objects.get(game="ws", code="WST/W01-003")
    CardPrinting.objects.create(card=card, game="ws", code=card.code, rarity="R")
    CardPrinting.objects.create(card=card, game="ws", code=card.code, rarity="RRR", image_url="https://img.example/3rrr.jpg")
    CardPrinting.objects.create(card=card, game="ws", code="WST/W01-003S", rarity="SP", image_url="https://img.example/3sp.jpg")
    reprint = Card.objects.create(game="ws", code="WST/W02-050", name=card.name, card_type="character", level=3,
                                  cost=2, power=9000, soul=2, set_code="WST/W02", colors=["green"])
    html = html_of(client.get(reverse("card-detail", args=["ws", card.code])))
    section = html[html.index('id="printings-h"'):html.index("This card as JSON")]
    assert section.index("WST/W01-003</code>") < section.index("WST/W01-003S</code>")
    assert section.count("parallel</span>") == 1 and "RRR" in section and "SP" in section
    assert "The same card elsewhere" in section and reprint.code in section
    # the picture shown is the card's own code's (an image URL), not the parallel's
    assert '<figure class="card-picture" id="picture"><span class="pic pic-large has-img"' in html
    assert 'src="https://img.example/3rrr.jpg" width="480" height="670"' in html


def test_uploaded_image_wins_and_gets_thumbnails(client, pool, settings, tmp_path):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image

    settings.MEDIA_ROOT = tmp_path
    settings.SERVE_MEDIA = True
    buf = io.BytesIO()
    Image.new("RGB", (630, 880), (200, 30, 40)).save(buf, "PNG")
    card = Card.objects.get(game="chaos", code=pool["chaos"][0].code)
    CardPrinting.objects.create(card=card, game="chaos", code=card.code, rarity="", image_url="https://img.example/c.jpg")
    up = CardPrinting.objects.create(card=card, game="chaos", code=card.code, rarity="SP",
                                     image=SimpleUploadedFile("scan.png", buf.getvalue(), content_type="image/png"))
    html = html_of(client.get(reverse("card-detail", args=["chaos", card.code])))
    m = re.search(r'<figure class="card-picture" id="picture">.*?<img class="pic-img" src="(/media/[^"]+\.jpg)"', html, re.S)
    assert m, "the uploaded image's large thumbnail is the card page's picture"
    response = client.get(m.group(1))
    assert response.status_code == 200
    thumb = Image.open(io.BytesIO(b"".join(response.streaming_content)))
    assert thumb.size[0] <= 480 and thumb.size[1] <= 670
    assert up.thumbnail.width <= 240
    settings.SERVE_MEDIA = False
    assert client.get(m.group(1)).status_code == 404


def test_admin_upload_form_has_the_image_field(admin_client, pool):
    card = pool["ws"][0]
    html = html_of(admin_client.get(reverse("admin:catalog_card_change", args=[card.pk])))
    assert 'name="printings-__prefix__-image"' in html and 'enctype="multipart/form-data"' in html


# -- sets and series -------------------------------------------------------------------------------
def test_browse_by_series_and_set_names(client, pool):
    Card.objects.filter(game="ws").update(set_code="WST/W01")
    Card.objects.create(game="ws", code="WST/W02-001", name="Idol Two", card_type="character", level=0, cost=0,
                        power=2000, soul=1, set_code="WST/W02", colors=["red"])
    Card.objects.create(game="ws", code="ABC/S01-001", name="Other title", card_type="character", level=0, cost=0,
                        power=2000, soul=1, set_code="ABC/S01", colors=["red"])
    CardSet.objects.create(game="ws", code="WST/W02", name="Second Stage", release_order=1)
    CardSet.objects.create(game="ws", code="WST/W01", name="First Stage", release_order=2)
    html = html_of(client.get(reverse("game-browse", args=["ws"])))
    assert 'href="/cards/ws/series/WST/"' in html and 'href="/cards/ws/series/ABC/"' in html
    table = html[html.index('class="set-table"'):]
    assert table.index("Second Stage") < table.index("First Stage") < table.index("ABC/S01")  # release order first
    html = html_of(client.get(reverse("series-detail", args=["ws", "WST"])))
    assert "Idol Two" in html and "Idol 1" in html and "Other title" not in html
    assert '<ul class="card-grid"' in html  # pictures by default
    assert client.get(reverse("series-detail", args=["ws", "NOPE"])).status_code == 404
    html = html_of(client.get(reverse("set-detail", args=["ws", "WST/W02"])))
    assert "Second Stage" in html and 'href="/cards/ws/series/WST/"' in html
    html = html_of(client.get(reverse("card-detail", args=["ws", "WST/W02-001"])))
    assert 'href="/cards/ws/series/WST/"' in html


def test_series_by_work_in_other_games(client, pool):
    html = html_of(client.get(reverse("game-browse", args=["pc"])))
    assert 'href="/cards/pc/series/Test/"' in html
    html = html_of(client.get(reverse("series-detail", args=["pc", "Test"]), {"view": "list"}))
    assert "PC Hero 1" in html and "PC Spark" in html


def test_load_sets_command(tmp_path, pool):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    f = tmp_path / "sets.csv"
    f.write_text("game,code,name,series,release_date,release_order\nws,WST/W01,Test Booster,,2024-05-01,3\n", encoding="utf-8")
    call_command("load_sets", str(f), stdout=io.StringIO())
    s = CardSet.objects.get(game="ws", code="WST/W01")
    assert s.name == "Test Booster" and str(s.release_date) == "2024-05-01" and s.release_order == 3
    f.write_text("game,code,name\nxx,A,B\n", encoding="utf-8")
    with pytest.raises(CommandError, match="row 1"):
        call_command("load_sets", str(f), stdout=io.StringIO())


# -- public decks and "decks using this card" ----------------------------------------------------------
def _decks(owner):
    other = get_user_model().objects.create_user("other", password="x-long-pass-2")
    ws = legal_deck("ws")
    a = deck_create(owner=owner, game="ws", name="Public idols", zones=ws, visibility=Visibility.PUBLIC)
    b = deck_create(owner=other, game="ws", name="Private idols", zones=ws, visibility=Visibility.PRIVATE)
    c = deck_create(owner=other, game="ws", name="Unlisted idols", zones=ws, visibility=Visibility.UNLISTED)
    three = {"main": {**{k: v for k, v in ws["main"].items() if k != "WST/W01-001"}, "WST/W01-001": 3}}
    d = deck_create(owner=other, game="ws", name="Three copies", zones=three, visibility=Visibility.PUBLIC)
    e = deck_create(owner=owner, game="pc", name="Prism public", zones=legal_deck("pc"), visibility=Visibility.PUBLIC)
    return a, b, c, d, e


def test_deck_cards_index_follows_every_version(owner, pool):
    deck = deck_create(owner=owner, game="ws", name="Idx", zones={"main": {"WST/W01-001": 4}})
    assert list(DeckCard.objects.filter(deck=deck).values_list("code", "copies")) == [("WST/W01-001", 4)]
    deck_update(deck=deck, user=owner, base_version=deck.version, zones={"main": {"WST/W01-001": 2, "WST/W01-002": 1}})
    assert dict(DeckCard.objects.filter(deck=deck).values_list("code", "copies")) == {"WST/W01-001": 2, "WST/W01-002": 1}
    deck_update(deck=deck, user=owner, base_version=deck.version + 1, zones={"main": {"WST/W01-002": 4}})
    assert dict(DeckCard.objects.filter(deck=deck).values_list("code", "copies")) == {"WST/W01-002": 4}


def test_public_list_shows_only_public_decks_and_filters(client, owner, pool):
    _decks(owner)
    html = html_of(client.get(reverse("deck-public")))
    assert "Public idols" in html and "Three copies" in html and "Prism public" in html
    assert "Private idols" not in html and "Unlisted idols" not in html
    html = html_of(client.get(reverse("deck-public"), {"game": "pc"}))
    assert "Prism public" in html and "Public idols" not in html
    html = html_of(client.get(reverse("deck-public"), {"game": "ws", "card": "WST/W01-001"}))
    assert "Public idols" in html and "Three copies" in html
    assert re.search(r"Three copies.*?3 copies of the card", html, re.S)
    html = html_of(client.get(reverse("deck-public"), {"card": "Idol 1"}))  # by exact name, any game
    assert "2 public decks" in html
    Card.objects.filter(game="ws").update(set_code="WST/W01")  # the series is the set code's title part
    cache.clear()  # the sets/series summary is reused for a while (catalog.selectors.SET_PAIRS_SECONDS)
    html = html_of(client.get(reverse("deck-public"), {"game": "ws", "series": "WST"}))
    assert "2 public decks" in html and "Prism public" not in html
    html = html_of(client.get(reverse("deck-public"), {"game": "pc", "series": "Test"}))
    assert "1 public deck" in html and "Prism public" in html
    html = html_of(client.get(reverse("deck-public"), {"card": "no such card"}))
    assert "No card is called" in html
    html = html_of(client.get(reverse("deck-public"), {"q": "three"}))
    assert "Three copies" in html and "Public idols" not in html
    for params in ({"game": "zz"}, {"page": "x"}, {"page": "999"}, {"card": "A" * 5000}, {"series": "B" * 500}):
        assert client.get(reverse("deck-public"), params).status_code == 200
    assert client.get(reverse("deck-public"), {"series": "\x00", "card": "\x00"}).status_code in (200, 400)


def test_public_list_query_count_does_not_grow_with_decks(client, owner, pool):
    _decks(owner)
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("deck-public"))
    for i in range(10):
        deck_create(owner=owner, game="ws", name=f"More {i}", zones=legal_deck("ws"), visibility=Visibility.PUBLIC)
    with CaptureQueriesContext(connection) as many:
        html = html_of(client.get(reverse("deck-public")))
    assert "More 9" in html
    assert len(many) == len(few)


def test_card_page_shows_decks_using_it_and_play_rate(client, owner, pool):
    _decks(owner)
    html = html_of(client.get(reverse("card-detail", args=["ws", "WST/W01-001"])))
    usage = html[html.index('id="usage-h"'):]
    assert 'data-using="2" data-public="2"' in usage and "Played in 2 of 2 public decks (100%)" in usage
    assert "3.5 copies on average" in usage
    assert "Public idols" in usage and "Three copies" in usage and "Private idols" not in usage
    assert re.search(r"Three copies</a></th><td>other</td><td class=\"num\">3×", usage)
    html = html_of(client.get(reverse("card-detail", args=["pc", "PCT-E01"])))
    assert "No public deck plays this card yet" in html


def test_card_page_query_count(client, owner, pool):
    _decks(owner)
    with CaptureQueriesContext(connection) as queries:
        html_of(client.get(reverse("card-detail", args=["ws", "WST/W01-001"])))
    assert len(queries) <= 14, [q["sql"][:120] for q in queries]


# -- the deck page: pictures and a sample hand --------------------------------------------------------
def test_deck_page_picture_view_grouped_by_level(client, owner, pool):
    deck, *_ = _decks(owner)
    html = html_of(client.get(reverse("deck-detail", args=[deck.pk])))
    visual = html[html.index('id="deck-pictures"'):html.index('id="sample-hand"')]
    labels = re.findall(r'<h4 class="visual-group"[^>]*>([^<]+)<', visual)
    assert labels == ["Level 0 ", "Level 1 ", "Level 2 ", "Level 3 ", "Climaxes "]
    assert len(re.findall(r'class="visual-card[ "]', visual)) == len(deck.zones["main"])
    assert "×4" in visual
    html = html_of(client.get(reverse("deck-detail", args=[_decks_pc(owner).pk])))
    visual = html[html.index('id="deck-pictures"'):]
    assert "Characters" in visual and "Level" not in visual[:visual.index("Sample hand")]


def _decks_pc(owner):
    return deck_create(owner=owner, game="pc", name="PC", zones=legal_deck("pc"), visibility=Visibility.PUBLIC)


def test_sample_hand(client, owner, pool):
    deck, *_ = _decks(owner)
    url = reverse("deck-detail", args=[deck.pk])
    html = html_of(client.get(url))
    assert "Draw a hand" in html and 'class="hand-cards"' not in html
    html = html_of(client.get(url, {"hand": "5", "seed": "42"}))
    hand = re.findall(r'<li class="hand-card( drawn)?" data-code="([^"]+)"', html)
    assert len(hand) == 5 and not any(d for d, _ in hand)
    assert html_of(client.get(url, {"hand": "5", "seed": "42"})).count('class="hand-card"') == 5  # same seed, same hand
    html = html_of(client.get(url, {"hand": "7", "seed": "42", "drawn": "2"}))
    hand2 = re.findall(r'<li class="hand-card( drawn)?" data-code="([^"]+)"', html)
    assert len(hand2) == 9 and [d for d, _ in hand2].count(" drawn") == 2
    assert "41 left in the deck" in html and "Mulligan" in html and "Draw the next card" in html
    for params in ({"hand": "99", "seed": "x"}, {"hand": "-1", "seed": "1", "drawn": "1000"}):
        assert client.get(url, params).status_code == 200


# -- the API index ---------------------------------------------------------------------------------
def test_api_index(client):
    response = client.get("/api/v1/")
    assert response.status_code == 200
    data = response.json()
    assert data["resources"]["cards"]["url"].endswith("/api/v1/cards/")
    assert data["resources"]["card"]["url"].endswith("/api/v1/cards/{game}/{code}/")
    assert data["resources"]["deck"]["methods"] == ["GET", "PUT", "PATCH", "DELETE"]
    assert data["docs"].endswith("/api/v1/docs/") and data["schema"].endswith("/api/v1/schema/")
    assert client.get("/api/v1/", HTTP_ACCEPT_LANGUAGE="ja").json()["resources"]["cards"]["description"] != ""
