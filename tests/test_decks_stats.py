"""Deck page statistics: charts per game, odds tables, stat lines (pure, on the test pools)."""
from __future__ import annotations

import re

import pytest

from decks.stats import deck_charts, odds_groups, odds_selection, odds_table, stat_line
from decks.testing import legal_deck, test_records
from rules import games as g
from rules.odds import p_at_least

EXPECTED = {
    g.PC: {"curve", "colors", "types", "bonus"},
    g.PHANTASMA: {"curve", "attributes", "types", "spread"},
    g.WS: {"curve", "cost", "colors", "types", "triggers"},
    g.CHAOS: {"attributes", "types", "atk", "def"},
    g.LYCEE: {"curve", "attributes", "types", "ex"},
}


@pytest.mark.parametrize("game", g.GAMES)
def test_charts_per_game_are_accessible_svg(game):
    charts = deck_charts(game, legal_deck(game), test_records(game))
    assert {c["key"] for c in charts} == EXPECTED[game]
    for c in charts:
        svg = str(c["svg"])
        m = re.search(r'aria-labelledby="(chart-t\d+) (chart-d\d+)"', svg)
        assert m and f'<title id="{m.group(1)}">{c["title"]}</title>' in svg and f'<desc id="{m.group(2)}">' in svg
        assert 'role="img"' in svg


def test_ws_chart_values():
    charts = {c["key"]: str(c["svg"]) for c in deck_charts(g.WS, legal_deck(g.WS), test_records(g.WS))}
    assert "CX: 8 cards" in charts["curve"]
    # soul triggers: Idol 3, 7 (4 each), 11 (2) and the 4 Finale 1 climaxes with two soul icons each
    assert "soul: 18 icons" in charts["triggers"] and "draw: 4 icons" in charts["triggers"]


def test_lycee_ex_total_per_attribute():
    chart = next(c for c in deck_charts(g.LYCEE, legal_deck(g.LYCEE), test_records(g.LYCEE)) if c["key"] == "ex")
    recs = test_records(g.LYCEE)
    snow = sum(4 * recs[c].ex for c in legal_deck(g.LYCEE)["main"] if "snow" in recs[c].attributes)
    assert f"snow: {snow} EX" in str(chart["svg"])


def test_odds_table_first_and_second_player():
    rows = odds_table(g.PC, 40, 3, turns=2)
    # PC: opening 6; the first player skips the turn-1 draw
    assert [(r["seen_first"], r["seen_second"]) for r in rows] == [(6, 6), (6, 7), (7, 8)]
    assert rows[1]["first"] == pytest.approx(p_at_least(40, 3, 6))
    assert rows[1]["second"] == pytest.approx(p_at_least(40, 3, 7))
    ws = odds_table(g.WS, 50, 8, turns=1)
    assert ws[1]["seen_first"] == 5 + 1 + 2  # draw + clock draw 2
    assert odds_table(g.PHANTASMA, 60, 4, turns=1, at_least=2)[0]["first"] == pytest.approx(p_at_least(60, 4, 7, 2))


def test_odds_selection_counts_each_card_once():
    recs = test_records(g.WS)
    zones = legal_deck(g.WS)
    groups = odds_groups(g.WS, zones, recs)
    sel = odds_selection(groups, ["type:climax", "card:WST/W01-C1", "trigger:soul"], zones)
    # climaxes 8 + soul-trigger characters Idol 3, 7 (4 each), 11 (2) = 18
    assert sel["copies"] == 18
    assert odds_selection(groups, ["nonsense"], zones) is None


@pytest.mark.parametrize("game,expect", [
    (g.WS, "green · Lv 3 · Cost 2 · 4500 power · Soul 2 · trigger soul"),
    (g.PC, "green · Cost 3 · CP 3000 · RANK 2 · DRAW"),
    (g.CHAOS, "wind · ATK 4 · DEF 1 · partner +2/+1"),
])
def test_stat_line(game, expect):
    code = {g.WS: "WST/W01-007", g.PC: "PCT-003", g.CHAOS: "CHT-003"}[game]
    assert stat_line(test_records(game)[code]) == expect
