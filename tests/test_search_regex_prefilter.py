"""A /regex/ on PostgreSQL checks the words every match holds in ``Card.text_folded`` before it runs
(``catalog.search.regex.required_words``, migration 0015): the same cards, fewer texts through the
regex engine."""
from __future__ import annotations

import pytest

from catalog.models import Card
from catalog.search import compile_query
from catalog.search.regex import required_words
from catalog.selectors import card_search
from catalog.textnorm import fold
from tests.search_testdata import load_fixture_cards, make_card


@pytest.mark.parametrize("pattern, words", [
    ("draw [23] card", ["draw", "car"]),  # a run's last letter only before an ASCII literal
    ("Draw", ["dra"]),
    (r"\bstock\b", ["stoc"]),
    (r"draw\.xyz", ["draw"]),
    ("(draw) cards.", ["card"]),  # inside a group: not counted
    ("x{2}abcd", ["abc"]),
    ("ab+cde", []),  # repeated, and runs shorter than 3
    ("a|bcde", []),  # alternation at the top
    ("ドロー", []),  # only ASCII letters and digits (folding changes the rest)
    ("one two three four", ["three", "one"]),  # the longest two (the first of equal length)
])
def test_required_words(pattern, words):
    assert required_words(pattern) == words


@pytest.mark.parametrize("text", ["Draw 2 cards.", "DRAW 3 CARD", "draw\u0301 2 card", "Ｄｒａｗ ２ card", "x draw 2 cards x"])
def test_required_words_are_in_the_folded_text_of_every_match(text):
    """What the prefilter relies on: a text the regex matches holds every required word once folded
    (a combining mark after a run, full-width letters the regex does not match anyway)."""
    import re

    for pattern in ["draw [23] card", "draw", "draw [23]", "cards?"]:
        if re.search(pattern, text, re.IGNORECASE):
            assert all(w in fold(text) for w in required_words(pattern)), (pattern, text)


@pytest.mark.django_db
@pytest.mark.postgres
def test_postgres_regex_checks_its_words_first_and_finds_the_same_cards():
    load_fixture_cards()
    texts = ["Draw 2 cards.", "DRAW 3 CARDS", "draw\u0301 2 cards", "Draw 4 cards", "draws 2 card", "【自】 1枚引く"]
    for i, text in enumerate(texts):
        make_card(game="pc", code=f"RX-{i:03d}", name=f"Regex {i}", card_type="event", colors=["red"], cost=1, text=text)
    sql = str(card_search(q="o:/draw [23] card/").query)
    assert "~~@" in sql and sql.index("~~@") < sql.index("~*"), sql  # the words first, then the regex
    for q in ["o:/draw [23] card/", "o:/draw/", "-o:/draw [23] card/ game:pc", "o:/draws?/ or o:/枚引/", "o:/^draw/",
              "o:/\\bcards\\b/", "o:/(draw|cards)/"]:
        plain = Card.objects.filter(compile_query(q, vendor="postgresql", text_prefilter=False).q)
        assert set(card_search(q=q).values_list("code", flat=True)) == set(plain.values_list("code", flat=True)), q
    assert set(card_search(q="o:/draw [23] card/ code:RX*").values_list("code", flat=True)) == {"RX-000", "RX-001"}
    assert set(card_search(q="o:/draw/ code:RX*").values_list("code", flat=True)) == {"RX-000", "RX-001", "RX-002",
                                                                                      "RX-003", "RX-004"}


def test_sqlite_and_databases_without_the_operator_run_the_regex_alone():
    for vendor, prefilter in (("sqlite", True), ("postgresql", False), ("postgresql", lambda: False)):
        assert "~~@" not in str(compile_query("o:/draw [23] card/", vendor=vendor, text_prefilter=prefilter).q)
    assert "~~@" in str(compile_query("o:/draw [23] card/", vendor="postgresql", text_prefilter=lambda: True).q)
