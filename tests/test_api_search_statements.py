"""The cards API keeps the SQL statement of a search for the next identical request (PostgreSQL,
``catalog.api.views._statements``): the answer is the same, only the parsing and compiling are
skipped — the statement is kept, never the results."""
from __future__ import annotations

from contextlib import nullcontext

import pytest

from catalog.api import views
from catalog.models import Card
from tests.search_testdata import load_fixture_cards, make_card

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@pytest.fixture
def compiles(monkeypatch):
    """Counts the searches the API compiles (``card_search`` calls), with an empty statement cache."""
    views.statement_cache_clear()
    calls: list[str] = []
    real = views.card_search

    def counting(*, q: str, game: str | None = None):
        calls.append(q)
        return real(q=q, game=game)

    monkeypatch.setattr(views, "card_search", counting)
    load_fixture_cards()
    yield calls
    views.statement_cache_clear()


def test_a_search_asked_again_is_not_compiled_again(compiles, client):
    queries = [{"q": "c:red"}, {"q": "c:red", "page_size": "2"}, {"q": "c:red", "page_size": "2", "page": "2"},
               {"q": "c:red", "order": "-cost"}, {"q": "o:/dr.w/"}, {"q": "nothing-matches-this"}, {"q": ""}]
    first = [client.get("/api/v1/cards/", params) for params in queries]
    assert [r.status_code for r in first] == [200] * len(queries)
    assert len(compiles) == len(queries)  # each page, order and query its own statement
    again = [client.get("/api/v1/cards/", params) for params in queries]
    assert [r.json() for r in again] == [r.json() for r in first]
    assert len(compiles) == len(queries)  # none compiled again
    assert first[1].json()["results"] != first[2].json()["results"]


def test_the_statement_is_kept_not_the_results(compiles, client):
    before = client.get("/api/v1/cards/", {"q": "zebracorn"}).json()
    assert before["count"] == 0
    make_card(game="pc", code="ZB-001", name="Zebracorn", card_type="event", colors=["red"], cost=1)
    after = client.get("/api/v1/cards/", {"q": "zebracorn"}).json()
    assert len(compiles) == 1 and after["count"] == 1 and after["results"][0]["code"] == "ZB-001"


def test_filters_errors_and_repeated_parameters_are_not_kept(compiles, client):
    for _ in range(2):
        assert client.get("/api/v1/cards/", {"q": "c:red", "game": "pc"}).status_code == 200
        assert client.get("/api/v1/cards/", {"q": "power>>3"}).status_code == 400
        assert client.get("/api/v1/cards/", {"q": "c:red", "page_size": "0"}).status_code == 400
        assert client.get("/api/v1/cards/?q=c:red&q=c:blue").status_code == 200
    assert compiles.count("c:red") == 4 and compiles.count("power>>3") == 2 and compiles.count("c:blue") == 2
    assert not views._statements.keys() & {k for k in views._statements if k[1] in ("power>>3", "c:blue")}


def test_the_kept_statements_are_bounded(compiles, client, monkeypatch):
    monkeypatch.setattr(views, "STATEMENT_CACHE_SIZE", 3)
    for cost in range(6):
        assert client.get("/api/v1/cards/", {"q": f"cost:{cost}"}).status_code == 200
    assert [k[1] for k in views._statements] == ["cost:3", "cost:4", "cost:5"]
    client.get("/api/v1/cards/", {"q": "cost:3"})  # used: now the most recent
    client.get("/api/v1/cards/", {"q": "cost:9"})
    assert [k[1] for k in views._statements] == ["cost:5", "cost:3", "cost:9"]
    assert Card.objects.exists()


def _prepared_searches() -> list[str]:
    """The search statements prepared on this connection (PostgreSQL's pg_prepared_statements)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE statement LIKE %s", ["%catalog_card%"])
        return [row[0] for row in cursor.fetchall()]


def _timeout_setting() -> tuple[str, str]:
    """The statement timeout and synchronized scans, which a search sets for its own transaction only."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('statement_timeout'), current_setting('synchronize_seqscans')")
        return cursor.fetchone()


@pytest.mark.django_db(transaction=True)
def test_a_kept_search_runs_prepared_and_still_under_the_timeout(client, settings):
    """A search asked again is a prepared statement of the connection (planned once), with the same
    answer; it stays under the statement timeout (503 search_timeout, here while another session
    holds a lock on the cards table), outside a transaction and inside one, and the timeout is gone
    afterwards. With prepared statements off (DATABASE_PREPARED_STATEMENTS=0) the same answers."""
    import psycopg
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    views.statement_cache_clear()
    load_fixture_cards()
    outside = _timeout_setting()
    assert outside[1] == "on"
    with CaptureQueriesContext(connection) as ctx:
        first = client.get("/api/v1/cards/", {"q": "c:red"}).json()
    # the capped count's sequential scan starts at the table's start, not where the last scan stopped
    assert [q["sql"] for q in ctx.captured_queries if "synchronize_seqscans', 'off'" in q["sql"]]
    assert not [s for s in _prepared_searches() if "red'" in s]
    again = client.get("/api/v1/cards/", {"q": "c:red"}).json()
    assert again == first and first["count"] > 0
    prepared = _prepared_searches()
    assert len(prepared) == 1 and "red'" in prepared[0] and "$1" not in prepared[0]  # bound, not generic
    assert client.get("/api/v1/cards/", {"q": "c:red"}).json() == first and _prepared_searches() == prepared
    assert _timeout_setting() == outside

    settings.SEARCH_TIMEOUT_SECONDS = 0.3
    db = connection.settings_dict
    with psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"]) as other:
        other.execute("LOCK TABLE catalog_card IN ACCESS EXCLUSIVE MODE")
        for inside in (False, True):
            with transaction.atomic() if inside else nullcontext():
                expected = outside
                if inside:  # the outer transaction's own settings come back after the search
                    with connection.cursor() as cursor:
                        cursor.execute("SET LOCAL statement_timeout = '7s'")
                    expected = ("7s", "on")
                r = client.get("/api/v1/cards/", {"q": "c:red"})
                assert r.status_code == 503, r.content[:300]
                assert r.json()["error"]["code"] == "search_timeout" and int(r["Retry-After"]) > 0
                assert _timeout_setting() == expected
                if inside:  # and after a search that went well
                    other.rollback()
                    assert client.get("/api/v1/cards/", {"q": "c:red"}).json() == first
                    assert _timeout_setting() == expected
    assert client.get("/api/v1/cards/", {"q": "c:red"}).json() == first
    assert _timeout_setting() == outside

    connection.connection.prepare_threshold = None  # what DATABASE_PREPARED_STATEMENTS=0 gives
    try:
        views.statement_cache_clear()
        client.get("/api/v1/cards/", {"q": "c:red"})
        assert client.get("/api/v1/cards/", {"q": "c:red"}).json() == first
        assert client.get("/api/v1/cards/", {"q": "c:blue"}).json()["count"] > 0
        assert client.get("/api/v1/cards/", {"q": "c:blue"}).status_code == 200
        assert not [s for s in _prepared_searches() if "blue'" in s]
    finally:
        connection.connection.prepare_threshold = 5
    views.statement_cache_clear()


def test_prepared_statements_follow_the_environment():
    """PostgreSQL connections may prepare (psycopg ``prepare_threshold``) unless
    DATABASE_PREPARED_STATEMENTS=0 (a pooler that cannot keep prepared statements); SQLite has none."""
    import json
    import os
    import subprocess
    import sys

    from django.conf import settings

    code = ("import django,json;django.setup();from django.conf import settings as s;"
            "print(json.dumps(s.DATABASES['default'].get('OPTIONS', {}).get('prepare_threshold', 'absent')))")

    def threshold(**env: str) -> object:
        base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PREPARED_STATEMENTS")}
        out = subprocess.run([sys.executable, "-c", code], env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
                             cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=60, check=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    pg = "postgres://postgres@127.0.0.1:5432/x"
    assert threshold(DATABASE_URL=pg) == 5
    assert threshold(DATABASE_URL=pg, DATABASE_PREPARED_STATEMENTS="0") is None
    assert threshold() == "absent"
