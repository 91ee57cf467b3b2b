"""card_search against a real database (SQLite, and PostgreSQL when DATABASE_URL points at it)."""
from __future__ import annotations

import pytest

from catalog.search import QueryError
from catalog.selectors import card_get, card_list, card_search
from tests.search_testdata import small_catalog

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards():
    return small_catalog()


def codes(q: str, **kw) -> set[str]:
    return set(card_search(q=q, **kw).values_list("code", flat=True))


def test_bare_words_search_names_and_alt_names(cards):
    assert codes("reika") == {"TST/W01-001"}
    assert codes("crimson reika") == {"TST/W01-001"}  # all words must match
    assert codes("白雪") == {"CH-0001"}  # alternate name (non-ASCII) on every database
    assert codes('"Backup Nene"') == {"TST/W01-002"}


def test_ws_stats_and_facets(cards):
    assert codes("game:ws power>=9000 soul:2 trigger:soul") == {"TST/W01-001"}
    assert codes("trigger:draw") == {"TST/W01-003"}
    assert codes("game:ws counter:yes") == {"TST/W01-002"}
    assert codes("trait:music") == {"TST/W01-001", "TST/W01-002"}
    assert codes("trait:MUSIC -trait:strings") == {"TST/W01-002"}
    assert codes("game:ws level!=3") == {"TST/W01-002"}  # climax has no level: not "!= 3"-matched


def test_pc_phantasma_chaos_lycee(cards):
    assert codes("game:pc cp>4000 rank>=2 bonus:draw") == {"TPC-001"}
    assert codes("kw:connect-mark") == {"TPC-001"}
    assert codes("game:phantasma mhp>=600 martial>=300") == {"TPH-001"}
    assert codes("aa:agility") == {"TPH-002"}
    assert codes("game:chaos atk>=4 gender:female") == {"TCH-001"}
    assert codes("game:chaos patk>=3") == {"TCH-002"}
    assert codes("def>=3 kw:penetrate") == {"TCH-001"}
    assert codes("game:lycee ap>=3 ability:dash slot:AF-C") == {"CH-0001"}


def test_lycee_slot_without_restriction_means_any_slot(cards):
    assert codes("slot:AF-C") == {"CH-0001", "CH-0002"}
    assert codes("slot:DF-L") == {"CH-0002", "CH-0003"}
    assert codes("game:lycee -slot:AF-C") == {"CH-0003"}


def test_or_not_parentheses(cards):
    assert codes("(game:ws or game:pc) c:red") == {"TST/W01-001", "TPC-001"}
    assert codes("game:ws -t:climax") == {"TST/W01-001", "TST/W01-002"}
    assert codes("t:event or t:battle") == {"TPC-002", "TPH-002"}
    assert codes("-(game:ws or game:pc or game:lycee) -game:chaos") == {"TPH-001", "TPH-002"}


def test_text_substring_and_regex(cards):
    assert codes("o:draw") == {"TST/W01-001", "TPC-002"}
    assert codes(r"o:/draw \d/") == {"TPC-002", "TST/W01-001"}
    assert codes(r"o:/\bdraw 2/") == {"TPC-002"}  # \b is translated for PostgreSQL
    assert codes("o:/^\\[counter\\]/") == {"TST/W01-002"}  # case-insensitive


def test_exact_and_prefix_fields(cards):
    assert codes("code:tst/w01-001") == {"TST/W01-001"}
    assert codes("set:TST/W01 t:climax") == {"TST/W01-003"}
    assert codes("code:CH-000*") == {"CH-0001", "CH-0002", "CH-0003"}
    assert codes("r:rr") == {"TST/W01-001"}
    assert codes('work:"starlight"') == {"TPC-001", "TPC-002"}


def test_ordering_and_game_parameter(cards):
    qs = card_search(q="game:ws order:power dir:desc")
    assert list(qs.values_list("code", flat=True))[:2] == ["TST/W01-001", "TST/W01-002"]
    assert list(card_search(q="", game="lycee").values_list("name", flat=True)) == [
        "Fubuki Guard", "Shirayuki Hime, Awakened", "Yukine Frost"]
    with pytest.raises(QueryError) as info:
        card_search(q="cp>3", game="ws")
    assert info.value.code == "wrong_game"


def test_card_list_filters_and_order(cards):
    assert [c.code for c in card_list(filters={"game": "ws", "power__gte": "5000"})] == ["TST/W01-001"]
    assert [c.code for c in card_list(filters={"trait": "Music"}, order="-power")] == ["TST/W01-001", "TST/W01-002"]
    with pytest.raises(QueryError):
        card_list(order="flavor")


def test_card_get(cards):
    assert card_get(game="ws", code="TST/W01-003").name == "Overture of Dawn"
    from django.http import Http404
    with pytest.raises(Http404):
        card_get(game="pc", code="TST/W01-003")


@pytest.mark.parametrize("query", [
    "o:/(a|aa)*b/", "o:/(x+x+)+y/", "o:/" + "a*" * 10 + "b/", "(" * 200, ")" * 5, "\x00", "a:" * 400,
    "o:/" + "x" * 300 + "/", "power>=" + "9" * 50, "'" * 3, "-" * 999, "o:/[/", "o:/\\/",
])
def test_hostile_queries_fail_cleanly(cards, query):
    with pytest.raises(QueryError):
        list(card_search(q=query))


@pytest.mark.parametrize("query", ["\\", "%", "_", "a'b", "Ω", "🂡", "null", "o:%", "name:''", "game:ws ''"])
def test_odd_but_valid_queries_run(cards, query):
    list(card_search(q=query))  # no exception: a plain (possibly empty) result


def test_regex_runs_in_linear_time(cards):
    """``a*a*a*b`` takes seconds on 500 characters with a backtracking engine (Python ``re``); the
    database engines used (PostgreSQL's automaton, RE2 on SQLite) answer at once."""
    import time

    from tests.search_testdata import make_card

    make_card(game="pc", code="RX-1", name="Long text", card_type="event", colors=["red"], cost=1,
              text="a" * 3000)
    start = time.perf_counter()
    assert codes("o:/a*a*a*q/") == set()
    assert codes("o:/a*a*a*$/ game:pc") == {"RX-1", "TPC-001", "TPC-002"}  # every text matches (even empty)
    assert time.perf_counter() - start < 3


def test_regex_must_compile_with_re2(cards):
    with pytest.raises(QueryError) as info:
        card_search(q=r"o:/(?<!x)y/")
    assert info.value.code == "bad_regex"


@pytest.mark.postgres
def test_postgres_serves_search_from_indexes(cards):
    """The trigram and expression indexes exist and match the SQL Django generates."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        assert cursor.fetchone()
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename IN ('catalog_card', 'catalog_cardfacet')")
        names = {row[0] for row in cursor.fetchall()}
        assert {"card_name_trgm_idx", "card_altnames_trgm_idx", "card_text_trgm_idx", "card_text_re_trgm_idx",
                "card_name_order_idx", "card_upper_set_idx", "card_upper_code_idx", "facet_value_card_idx",
                "card_name_folded_trgm_idx", "card_text_folded_trgm_idx", "card_code_folded_idx",
                "card_name_folded_bigram_idx", "card_text_folded_bigram_idx"} <= names
        cursor.execute("SET LOCAL enable_seqscan = off")
        for q, index in [("n:reika", "card_name_folded_trgm_idx"), ("o:draw", "card_text_folded_trgm_idx"),
                         ("o:/dr.w/", "card_text_re_trgm_idx"), ("set:tst/w01", "card_upper_set_idx"),
                         ("code:TST/W01-0*", "card_code_folded_idx"), ("TST/W01", "card_code_folded_idx")]:
            sql, params = card_search(q=q).order_by().values("id").query.sql_with_params()
            cursor.execute("EXPLAIN " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            assert index in plan, (q, plan)
