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
