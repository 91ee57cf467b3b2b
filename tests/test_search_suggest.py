""""Did you mean": a search that finds nothing offers cards whose names are close to its name words
(PostgreSQL: pg_trgm word similarity on the trigram-indexed name; SQLite: the same measure in Python)."""
from __future__ import annotations

import pytest
from django.utils import translation

from catalog.selectors import card_search, card_suggest
from tests.search_testdata import small_catalog

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards():
    return small_catalog()


def names(q: str, **kw) -> list[str]:
    return [c.name for c in card_suggest(q=q, **kw)]


def test_typos_find_the_card(cards):
    for typo, name in [("crimsen finalle", "Crimson Finale Reika"), ("lamplightr", "Kagari the Lamplighter"),
                       ("akari hoshimy", "Akari Hoshimi"), ("ｒｅｌａｙ　ｂａｔｏｎｎ", "Relay Baton")]:
        assert not card_search(q=typo).exists(), typo
        got = card_suggest(q=typo)
        assert got and got[0].name == name, (typo, [c.name for c in got])
        assert 0.3 <= got[0].similarity <= 1


def test_only_name_words_count_and_games_restrict(cards):
    assert names("crimsen finalle power>=9000") == names("crimsen finalle")  # other terms are not names
    assert names("name:lamplightr")[0] == "Kagari the Lamplighter"
    assert names("-lamplightr") == []  # a negated word is not something wanted
    assert names("o:lamplightr") == []  # rules text is not a name
    assert names("game:pc lamplightr") == []  # the only close name is a phantasma card
    assert names("lamplightr", game="pc") == []
    assert names("game:phantasma lamplightr") == ["Kagari the Lamplighter"]


def test_nothing_to_suggest(cards):
    assert names("zq") == []  # fewer than 3 characters
    assert names("qqqqxxxx") == []  # nothing close
    assert names("(") == []  # cannot be parsed: the search itself reports the error
    assert names("/cri.son/") == []  # a regex is not a word


def test_api_lists_suggestions_only_when_nothing_matched(cards, client):
    data = client.get("/api/v1/cards/", {"q": "lamplightr"}).json()
    assert data["count"] == 0
    assert [(s["game"], s["code"], s["name"]) for s in data["suggestions"]] == [
        ("phantasma", "TPH-001", "Kagari the Lamplighter")]
    assert data["suggestions"][0]["url"] == "/cards/phantasma/TPH-001/"
    assert 0.3 <= data["suggestions"][0]["similarity"] <= 1
    data = client.get("/api/v1/cards/", {"q": "lamplighter"}).json()
    assert data["count"] == 1 and data["suggestions"] == []


def test_search_page_offers_the_cards_in_each_language(cards, client):
    body = client.get("/cards/", {"q": "lamplightr"}).content.decode()
    assert "No card matches." in body and "0 cards" in body  # an empty page is still a result
    assert "Did you mean:" in body and 'href="/cards/phantasma/TPH-001/"' in body
    with translation.override("ja"):
        body = client.get("/cards/", {"q": "lamplightr"}, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "もしかして:" in body and 'href="/cards/phantasma/TPH-001/"' in body
    assert "Did you mean" not in client.get("/cards/", {"q": "lamplighter"}).content.decode()
