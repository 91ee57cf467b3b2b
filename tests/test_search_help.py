"""Every example of the help page (and docs/search.md) returns cards on the sample fixtures."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from catalog.search.help import EXAMPLES, all_examples
from catalog.selectors import card_search
from rules import games as g
from tests.search_testdata import load_fixture_cards

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixtures_loaded():
    assert load_fixture_cards() > 0


def test_examples_for_every_game():
    for game in g.GAMES:
        assert len(EXAMPLES[game]) >= 3, game


def test_every_example_returns_cards(fixtures_loaded):
    empty = [q for q in all_examples() if not card_search(q=q).exists()]
    assert not empty, f"help examples without results on the fixtures: {empty}"


def test_examples_of_a_game_only_return_that_game(fixtures_loaded):
    for game, examples in EXAMPLES.items():
        for q, _ in examples:
            games = set(card_search(q=q).values_list("game", flat=True))
            assert games == {game}, (q, games)


def test_help_page_shows_every_example_and_links_it(client, fixtures_loaded):
    import html as htmllib
    import re
    from urllib.parse import parse_qs, urlsplit

    page = client.get(reverse("search-help")).content.decode()
    linked = set()
    for href in re.findall(r'href="([^"]+)"', page):
        parts = urlsplit(htmllib.unescape(href))
        if parts.path == reverse("card-search"):
            linked.update(parse_qs(parts.query).get("q", []))
    for q in all_examples():
        assert f"<code>{htmllib.escape(q, quote=False)}</code>" in page.replace("&#x27;", "'").replace("&quot;", '"'), q
        assert q in linked, q


def test_help_page_examples_run_through_the_page(client, fixtures_loaded):
    for q in all_examples():
        response = client.get(reverse("card-search"), {"q": q})
        assert response.status_code == 200, q
        assert "No card matches" not in response.content.decode(), q


def test_docs_list_every_example():
    doc = (Path(settings.BASE_DIR) / "docs" / "search.md").read_text(encoding="utf-8")
    missing = [q for q in all_examples() if f"`{q}`" not in doc]
    assert not missing, f"docs/search.md misses: {missing}"


def test_docs_list_every_field_and_alias():
    from catalog.search.fields import FIELDS

    doc = (Path(settings.BASE_DIR) / "docs" / "search.md").read_text(encoding="utf-8")
    missing = [name for f in FIELDS for name in (f.name, *f.aliases) if f"`{name}`" not in doc]
    assert not missing, f"docs/search.md misses fields/aliases (regenerate its tables): {missing}"
