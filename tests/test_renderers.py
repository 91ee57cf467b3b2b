"""The API's orjson renderer gives the same bytes as DRF's JSONRenderer."""
from __future__ import annotations

import datetime as dt
import json
import uuid
from decimal import Decimal

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer

from config.renderers import FastJSONRenderer

PAYLOADS = [
    {"name": "皆を見送る役目 かなで", "text": "【自】 line\u2028sep\u2029end", "n": 3, "f": 0.5, "none": None},
    {"when": dt.datetime(2026, 11, 30, 21, 30, 5, 123456, tzinfo=dt.UTC), "day": dt.date(2026, 11, 30)},
    {"lazy": gettext_lazy("Cards"), "dec": Decimal("1.50"), "id": uuid.UUID(int=7), "t": (1, 2)},
    [{"nested": [{"deep": ["ＡＰ＋３", True, False]}]}],
    {"big": 2**70},  # past orjson's 64-bit integers: DRF's path
]


@pytest.mark.parametrize("data", PAYLOADS)
def test_same_bytes_as_drf(data):
    assert FastJSONRenderer().render(data) == JSONRenderer().render(data)


def test_indent_and_none():
    data = {"a": [1, 2]}
    ctx = {"indent": 2}
    assert FastJSONRenderer().render(data, "application/json", ctx) == JSONRenderer().render(data, "application/json", ctx)
    assert json.loads(FastJSONRenderer().render(data, "application/json", ctx)) == data
    assert FastJSONRenderer().render(None) == b""


@pytest.mark.django_db
def test_api_uses_it(client):
    r = client.get("/api/v1/cards/?page_size=1")
    assert r.status_code == 200 and r["Content-Type"] == "application/json"
    assert r.renderer_context["view"].get_renderers()[0].__class__ is FastJSONRenderer


def test_indent_with_an_orjson_fragment():
    """The cards API's PostgreSQL page is an ``orjson.Fragment`` (JSON texts from the database):
    the indented path (``indent``, the browsable API) renders it too."""
    import orjson

    data = {"count": 1, "results": orjson.Fragment(b'[{"name": "\xe3\x81\x8b", "n": 1}]')}
    out = FastJSONRenderer().render(data, "application/json", {"indent": 4})
    assert json.loads(out) == {"count": 1, "results": [{"name": "か", "n": 1}]}
    assert out == JSONRenderer().render({"count": 1, "results": [{"name": "か", "n": 1}]}, "application/json",
                                        {"indent": 4})


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("params", ["format=api", "indent"])
def test_cards_page_browsable_and_indented_on_postgres(client, params):
    """GET /api/v1/cards/?format=api answered 500 on PostgreSQL (the page is an orjson.Fragment
    DRF's JSON encoder cannot indent)."""
    from tests.search_testdata import small_catalog

    small_catalog()
    if params == "indent":  # DRF reads the indent from the Accept header
        r = client.get("/api/v1/cards/?page_size=2", HTTP_ACCEPT="application/json; indent=2")
    else:
        r = client.get(f"/api/v1/cards/?{params}&page_size=2")
    assert r.status_code == 200, r.content[:2000]
    if params == "format=api":
        assert r["Content-Type"].startswith("text/html")
        assert b"&quot;results&quot;" in r.content or b'"results"' in r.content
    else:
        body = json.loads(r.content)
        assert len(body["results"]) == 2 and body["results"][0]["name"]
