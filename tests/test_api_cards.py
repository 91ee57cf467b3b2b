"""The cards API: search, pagination, ordering, filters, detail, error object, schema."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tests.search_testdata import make_card, small_catalog

pytestmark = pytest.mark.django_db
LIST = "/api/v1/cards/"


@pytest.fixture
def cards():
    return small_catalog()


def assert_error(response, status, code, position=None):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    err = body["error"]
    assert {"code", "message", "params"} <= set(err)  # the one error object (config/errors.py)
    assert err["code"] == code and err["message"]
    if position is not None:
        assert err["params"]["position"] == position
    return err


def test_search_with_q(client, cards):
    body = client.get(LIST, {"q": "game:ws power>=9000 soul:2 trigger:soul"}).json()
    assert body["count"] == 1 and body["count_exact"] is True
    card = body["results"][0]
    assert card["code"] == "TST/W01-001" and card["power"] == 10000 and card["triggers"] == ["soul"]
    assert card["url"] == "/cards/ws/TST/W01-001/"
    assert card["api_url"] == "/api/v1/cards/ws/TST/W01-001/"


def test_pagination(client, cards):
    first = client.get(LIST, {"page_size": 5}).json()
    assert first["count"] == 12 and first["pages"] == 3 and len(first["results"]) == 5
    assert first["previous"] is None and "page=2" in first["next"]
    seen = [c["code"] for c in first["results"]]
    for page in (2, 3):
        seen += [c["code"] for c in client.get(LIST, {"page_size": 5, "page": page}).json()["results"]]
    assert len(seen) == len(set(seen)) == 12  # stable order: no card repeated or skipped
    assert_error(client.get(LIST, {"page": 9}), 404, "not_found")
    assert_error(client.get(LIST, {"page": "x"}), 400, "invalid")  # not a page number: a bad parameter


def test_page_size_above_the_maximum_is_refused_not_capped(client, cards):
    assert client.get(LIST, {"page_size": 200}).json()["page_size"] == 200
    assert_error(client.get(LIST, {"page_size": 201}), 400, "invalid")


def test_ordering(client, cards):
    codes = [c["code"] for c in client.get(LIST, {"q": "game:ws", "order": "-power"}).json()["results"]]
    assert codes == ["TST/W01-001", "TST/W01-002", "TST/W01-003"]  # no power (climax) last
    codes = [c["code"] for c in client.get(LIST, {"q": "game:ws order:power"}).json()["results"]]
    assert codes == ["TST/W01-002", "TST/W01-001", "TST/W01-003"]
    names = [c["name"] for c in client.get(LIST, {"game": "lycee", "order": "name"}).json()["results"]]
    assert names == sorted(names)
    assert_error(client.get(LIST, {"order": "flavor"}), 400, "bad_order", 0)


def test_plain_filter_parameters(client, cards):
    body = client.get(LIST, {"game": "ws", "power__gte": 9000}).json()
    assert [c["code"] for c in body["results"]] == ["TST/W01-001"]
    body = client.get(LIST, {"trait": "music", "q": "-trait:strings"}).json()
    assert [c["code"] for c in body["results"]] == ["TST/W01-002"]
    body = client.get(LIST, {"slot": "af-c", "game": "lycee"}).json()
    assert [c["code"] for c in body["results"]] == ["CH-0001"]
    err = assert_error(client.get(LIST, {"power__gte": "abc"}), 400, "invalid")
    assert "power__gte" in err["message"] and err["fields"]["power__gte"]
    assert_error(client.get(LIST, {"game": "mtg"}), 400, "invalid")


@pytest.mark.parametrize("q,code,position", [
    ("game:ws foo:bar", "unknown_field", 8),
    ("power>=9x", "bad_number", 7),
    ("(t:character c:red", "unbalanced_parenthesis", 0),
    ("t:character)", "unbalanced_parenthesis", 11),
    ("o:/(a+)+/", "bad_regex", 2),
    ("o:/[x/", "bad_regex", 2),
    ("game:ws cp>3", "wrong_game", 8),
    ("x" * 1001, "too_long", 1000),
])
def test_query_errors_are_400_with_position(client, cards, q, code, position):
    err = assert_error(client.get(LIST, {"q": q}), 400, code, position)
    assert err["params"]["query"] == q


def test_wrong_game_message(client, cards):
    err = assert_error(client.get(LIST, {"q": "game:ws cp>3"}), 400, "wrong_game")
    assert err["message"] == "cp is a Prism Connect stat, not a Weiß Schwarz one"


def test_detail_with_slash_in_code(client, cards):
    body = client.get("/api/v1/cards/ws/TST/W01-001/").json()
    assert body["name"] == "Crimson Finale Reika" and body["printings"] == []
    assert client.get(reverse("catalog-api:card-detail", kwargs={"game": "ws", "code": "TST/W01-001"})).status_code == 200
    assert_error(client.get("/api/v1/cards/ws/NOPE-1/"), 404, "not_found")
    assert_error(client.get("/api/v1/cards/mtg/TST/W01-001/"), 404, "not_found")
    assert_error(client.post(LIST, {}), 405, "method_not_allowed")
    assert_error(client.get("/api/v1/cards/ws/a%00b/"), 400, "invalid")  # NUL in the address (config/middleware.py)
    assert_error(client.get("/api/v1/cards/ws/" + "x" * 300 + "/"), 404, "not_found")
    assert_error(client.get(LIST, {"name": "a\x00b"}), 400, "invalid")


def test_detail_and_list_expose_translations(client, cards):
    tr = {"ja": {"name": "紅のフィナーレ", "text": "【永】テキスト"}, "en": {"flavor": "The last note."}}
    make_card(game="ws", code="TST/W01-090", name="Translated Reika", card_type="event", level=0, cost=0,
              colors=["red"], translations=tr)
    body = client.get("/api/v1/cards/ws/TST/W01-090/").json()
    assert body["translations"] == tr
    row = client.get(LIST, {"q": "code:TST/W01-090"}).json()["results"][0]
    assert row["translations"] == tr
    assert client.get("/api/v1/cards/ws/TST/W01-001/").json()["translations"] == {}
    # the translated name finds the card
    assert [r["code"] for r in client.get(LIST, {"q": "紅のフィナーレ"}).json()["results"]] == ["TST/W01-090"]


def test_list_has_no_n_plus_one(client, cards):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for i in range(30):
        make_card(game="pc", code=f"NQ-{i:03d}", name=f"Query Count {i}", card_type="event", colors=["red"],
                  traits=["Relay"], cost=1)

    def card_reads(queries) -> list[str]:
        # the search's statement timeout adds its own set_config / savepoint statements (catalog/timeouts.py)
        return [q["sql"] for q in queries.captured_queries if "catalog_" in q["sql"]]

    # count + one page, whatever the page size
    with CaptureQueriesContext(connection) as queries:
        body = client.get(LIST, {"q": "trait:relay", "page_size": 40}).json()
    assert len(body["results"]) == 31 and body["count"] == 31
    assert len(card_reads(queries)) <= 2
    with CaptureQueriesContext(connection) as queries:
        body = client.get(LIST, {"q": "trait:relay", "page_size": 40, "page": 2}).json()
    assert body["error"]["code"] == "not_found"  # page 2 of 1
    assert len(card_reads(queries)) <= 2



def test_schema_and_docs(client):
    schema = client.get("/api/v1/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    assert "/api/v1/cards/" in paths and "/api/v1/cards/{game}/{code}/" in paths
    params = {p["name"] for p in paths["/api/v1/cards/"]["get"]["parameters"]}
    assert {"q", "order", "page", "page_size", "game", "power__gte", "trait"} <= params
    responses = paths["/api/v1/cards/"]["get"]["responses"]
    assert {"200", "400", "404"} <= set(responses)
    assert "ApiError" in schema["components"]["schemas"]
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html and "//cdn" not in html and "unpkg" not in html  # served locally (offline)


def test_count_is_capped_but_every_page_is_reachable(client, cards, monkeypatch):
    import catalog.pagination as pagination

    monkeypatch.setattr(pagination, "COUNT_CAP", 5)
    first = client.get(LIST, {"page_size": 4}).json()
    assert (first["count"], first["count_exact"], first["pages"]) == (5, False, None)
    seen, page = [], first
    for number in range(2, 10):
        seen += [c["code"] for c in page["results"]]
        if not page["next"]:
            break
        page = client.get(LIST, {"page_size": 4, "page": number}).json()
    assert len(seen) == len(set(seen)) == 12 and page["page"] == 3 and page["next"] is None
    assert_error(client.get(LIST, {"page_size": 4, "page": 4}), 404, "not_found")
    exact = client.get(LIST, {"q": "game:ws"}).json()
    assert (exact["count"], exact["count_exact"], exact["pages"]) == (3, True, 1)


def test_list_rows_equal_detail(client, cards):
    """The list's fast path (row JSON built by PostgreSQL, dicts on SQLite) gives the same card JSON
    as the detail endpoint (model instances)."""
    for row in client.get(LIST, {"page_size": 50}).json()["results"]:
        detail = client.get(row["api_url"]).json()
        detail.pop("printings")
        assert row == detail, row["code"]
    lycee = client.get(LIST, {"q": "code:CH-0001"}).json()["results"][0]
    assert lycee["cost_detail"] == {"snow": 2, "star": 1} and lycee["alt_names"] == ["白雪姫", "Shirayuki"]
    assert lycee["counter"] is False and lycee["power"] is None and lycee["keywords"] == ["dash"]


def test_fuzz_api_never_500(client, cards):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    pieces = st.sampled_from(["game:ws", "power>=9000", "(", ")", "-", "or", "o:/dr.w/", "o:/(a+)+/", '"x',
                              "c:red", "slot:af-c", "kw:dash", "order:cp", "dir:desc", " ", "\\", "%", "_"])

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(pieces, max_size=12).map(" ".join), st.sampled_from(["", "-power", "name,code", "x"]))
    def run(q, order):
        response = client.get(LIST, {"q": q, "order": order, "page_size": 5})
        assert response.status_code in (200, 400), (q, order, response.content[:200])
        if response.status_code == 400:
            error = response.json()["error"]
            assert set(error) >= {"code", "message", "params"}
            assert error["code"] == "invalid" or set(error["params"]) >= {"position", "query"}

    run()
