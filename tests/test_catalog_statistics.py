"""Planner statistics after bulk writes (PostgreSQL): an import or ``generate_cards`` leaves the
card tables analysed, so the first searches after it are planned on what is really there."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from catalog.importers import ImportRecord
from catalog.models import Card
from catalog.services import card_import

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "cards"


def _records(n: int, prefix: str) -> list[ImportRecord]:
    base = [c for c in json.loads((FIXTURES / "ws.json").read_text())["cards"] if c["card_type"] == "character"]
    out = []
    for i in range(n):
        card = {"game": "ws", **{k: v for k, v in base[i % len(base)].items() if k != "printings"}}
        card["code"] = f"{prefix}/W01-{i:04d}"
        out.append(ImportRecord(i + 1, card))
    return out


def _reltuples() -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = 'catalog_card'")
        return float(cursor.fetchone()[0])


@pytest.mark.django_db
def test_sqlite_import_does_not_analyze():
    if connection.vendor == "postgresql":
        pytest.skip("SQLite behaviour; the PostgreSQL tests below cover ANALYZE")
    summary = card_import(records=_records(120, "SQ"), game="ws")
    assert summary.ok and summary.created == 120
    assert summary.analyzed is False and summary.as_dict()["analyzed"] is False


@pytest.mark.postgres
@pytest.mark.django_db
def test_large_import_refreshes_planner_statistics():
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE catalog_card")
    before = _reltuples()
    summary = card_import(records=_records(300, "AN"), game="ws")
    assert summary.ok and summary.created == 300
    assert summary.analyzed is True
    assert _reltuples() == before + 300 == Card.objects.count()


@pytest.mark.postgres
@pytest.mark.django_db
def test_small_import_into_a_large_table_leaves_it_to_autovacuum():
    card_import(records=_records(600, "BG"), game="ws")
    summary = card_import(records=_records(20, "SM"), game="ws")
    assert summary.ok and summary.created == 20
    assert summary.analyzed is False  # 20 < 50 + 10% of 600
    assert _reltuples() == 600


@pytest.mark.postgres
@pytest.mark.django_db
def test_generate_cards_analyzes_and_search_columns_have_fine_statistics(capsys):
    call_command("generate_cards", count=250)
    assert "ANALYZE" in capsys.readouterr().out
    assert _reltuples() == Card.objects.count() == 250
    with connection.cursor() as cursor:
        cursor.execute("SELECT attname, attstattarget FROM pg_attribute WHERE attrelid = 'catalog_card'::regclass "
                       "AND attname IN ('name_folded', 'text_folded')")
        # name_folded keeps 1,000-entry statistics; text_folded went back to the default (-1) in
        # migration 0013: planning a LIKE on Japanese text with 1,000 entries took 12 ms
        assert dict(cursor.fetchall()) == {"name_folded": 1000, "text_folded": -1}
