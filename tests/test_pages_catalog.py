"""Server-rendered catalog pages: search list/grid, errors beside the box, detail per game, browse, help."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.search_testdata import small_catalog

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards():
    return small_catalog()


def get(client, url, **params):
    response = client.get(url, params)
    return response, response.content.decode()


def test_search_page_list_and_grid(client, cards):
    response, html = get(client, reverse("card-search"), q="game:ws")
    assert response.status_code == 200
    assert '<table class="card-list stack">' in html and "3 cards" in html
    assert 'href="/cards/ws/TST/W01-001/"' in html
    assert 'role="search"' in html and '<label for="search-q">' in html
    assert "view=grid" in html
    response, html = get(client, reverse("card-search"), q="game:ws", view="grid")
    assert '<ul class="card-grid"' in html and "10000 power" in html
    assert '<span aria-current="true">Grid</span>' in html


def test_search_error_is_shown_beside_the_box(client, cards):
    response, html = get(client, reverse("card-search"), q="game:ws cp>3")
    assert response.status_code == 400
    assert 'role="alert"' in html and 'aria-invalid="true"' in html
    assert "cp is a Prism Connect stat, not a Weiß Schwarz one" in html
    assert "at character 8" in html
    assert '<pre class="query-marker" aria-hidden="true">game:ws <mark>cp&gt;3</mark></pre>' in html
    assert 'value="game:ws cp&gt;3"' in html  # the query stays in the box to be fixed


def test_search_pagination_links(client):
    from tests.search_testdata import make_card

    for i in range(65):
        make_card(game="pc", code=f"PG-{i:03d}", name=f"Paged {i:03d}", card_type="event", colors=["red"], cost=1)
    _, html = get(client, reverse("card-search"), q="paged")
    assert "page 1 of 2" in html and 'rel="next"' in html and "page=2" in html
    _, html = get(client, reverse("card-search"), q="paged", page=2)
    assert "Paged 064" in html and 'rel="prev"' in html
    response, _ = get(client, reverse("card-search"), q="paged", page="999")
    assert response.status_code == 200  # clamped to the last page


def test_empty_search_page_and_home(client, cards):
    response, html = get(client, reverse("card-search"))
    assert response.status_code == 200 and "Browse a game" in html
    response, html = get(client, reverse("home"))
    assert response.status_code == 200 and 'action="/cards/"' in html


@pytest.mark.parametrize("game,code,expected", [
    ("ws", "TST/W01-001", ["Level", ">3<", "Power", ">10000<", "Soul", "trigger-soul", "Music"]),
    ("pc", "TPC-001", [">CP<", ">5500<", ">RANK<", ">2<", "DRAW", "Connect attack", "connect_mark"]),
    ("phantasma", "TPH-001", ["MHP and abilities", ">700<", ">martial<", ">400<", ">poise<"]),
    ("phantasma", "TPH-002", ["Attack attribute", "agility", "Defense attribute", "wisdom"]),
    ("chaos", "TCH-001", [">ATK<", ">5<", ">DEF<", ">3<", "Partner bonus", "ATK +2 / DEF +1", ">Mina Aozora<", ">Sunrise Stage<"]),
    ("lycee", "CH-0001", ["Position restriction", ">AP<", ">4<", ">DP<", ">SP<", ">EX<", "白雪姫"]),
])
def test_card_detail_per_game(client, cards, game, code, expected):
    response, html = get(client, reverse("card-detail", kwargs={"game": game, "code": code}))
    assert response.status_code == 200
    assert 'id="card-name"' in html
    for text in expected:
        assert text in html, text


def test_lycee_slot_grid_is_an_accessible_table(client, cards):
    _, html = get(client, reverse("card-detail", kwargs={"game": "lycee", "code": "CH-0003"}))
    table = html[html.index('<table class="slot-grid">'):html.index("</table>")]
    assert "<caption>Position restriction" in table
    assert table.count('scope="col"') == 3 and table.count('scope="row"') == 2
    cells = re.findall(r'<td class="(slot-ok|slot-no)">', table)
    assert cells == ["slot-no"] * 3 + ["slot-ok"] * 3  # defense row only
    assert "(AF-L)" in table and "(DF-R)" in table
    _, html = get(client, reverse("card-detail", kwargs={"game": "lycee", "code": "CH-0002"}))
    assert "any slot" in html and "slot-no" not in html


def test_detail_404s(client, cards):
    assert client.get("/cards/ws/NOPE/").status_code == 404
    assert client.get("/cards/mtg/TST/W01-001/").status_code == 404
    # NUL in the address: a 400 naming it, before any view (config/middleware.py, issue 19)
    assert client.get("/cards/ws/a%00b/").status_code == 400
    assert client.get("/cards/ws/sets/a%00b/").status_code == 400
    assert client.get("/cards/", {"q": "a\x00b", "game": "x\x00"}).status_code == 400


def test_browse_by_set(client, cards):
    response, html = get(client, reverse("game-browse", kwargs={"game": "ws"}))
    assert response.status_code == 200
    assert 'href="/cards/ws/sets/TST/W01/"' in html and "<td>3</td>" in html
    response, html = get(client, reverse("set-detail", kwargs={"game": "ws", "set_code": "TST/W01"}))
    assert response.status_code == 200 and "Overture of Dawn" in html and "3 cards" in html
    assert client.get("/cards/ws/sets/NOPE/").status_code == 404
    assert client.get("/cards/mtg/").status_code == 404


def test_help_page_lists_fields_and_games(client):
    response, html = get(client, reverse("search-help"))
    assert response.status_code == 200
    for text in ("<code>power</code>", "<code>trigger</code>", "<code>slot</code>", "<code>def</code>",
                 "Prism Connect", "Phantasmagoria", "Weiß Schwarz", "Chaos TCG", "Lycee", "unknown_field"):
        assert text in html, text


def test_nav_links_to_search_and_help(client):
    _, html = get(client, reverse("home"))
    assert 'href="/cards/"' in html and 'href="/cards/help/"' in html


def test_sort_menu(client, cards):
    _, html = get(client, reverse("card-search"), q="game:ws", order="power", dir="desc")
    names = re.findall(r'<th scope="row"><a href="[^"]+">([^<]+)</a>', html)
    assert names == ["Crimson Finale Reika", "Backup Nene", "Overture of Dawn"]  # no power last
    assert '<option value="power" selected>' in html and '<option value="desc" selected>' in html
    _, html = get(client, reverse("card-search"), q="game:ws", order="flavor")  # not offered: ignored
    assert re.findall(r'<th scope="row"><a href="[^"]+">([^<]+)</a>', html)[0] == "Backup Nene"
