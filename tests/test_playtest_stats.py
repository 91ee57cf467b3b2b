"""Comparison statistics and SVG charts, checked against values computed independently."""
from __future__ import annotations

import math
import re

import pytest

from playtest import charts
from playtest.stats import (
    betainc,
    compare_results,
    hist_moments,
    mann_whitney,
    t_two_sided_p,
    two_proportion_z,
    welch_t,
)


def test_student_t_p_values_match_tables():
    # two-sided critical values: t(0.975, df) -> p = 0.05
    for t, df in ((12.706, 1), (2.228, 10), (2.042, 30), (1.984, 100)):
        assert t_two_sided_p(t, df) == pytest.approx(0.05, abs=2e-4)
    assert t_two_sided_p(0.0, 5) == pytest.approx(1.0)
    assert t_two_sided_p(2.0, 1e7) == pytest.approx(math.erfc(2 / math.sqrt(2)), rel=1e-4)
    assert betainc(2, 3, 0.4) == pytest.approx(0.5248, abs=1e-4)  # I_0.4(2,3)


def test_two_proportion_z_by_hand():
    r = two_proportion_z(520, 1000, 480, 1000)
    pooled = 0.5
    z = (0.48 - 0.52) / math.sqrt(pooled * pooled * (2 / 1000))
    assert r["z"] == pytest.approx(z) and r["p"] == pytest.approx(math.erfc(abs(z) / math.sqrt(2)))
    assert r["diff"] == pytest.approx(-0.04) and not r["significant"]  # p ~ 0.074
    big = two_proportion_z(5200, 10000, 4800, 10000)
    assert big["significant"] and big["p"] < 1e-7
    assert two_proportion_z(0, 0, 1, 2)["available"] is False


def test_welch_from_histograms_equals_raw_samples():
    a = {4: 3, 5: 5, 6: 2}
    b = {5: 2, 6: 4, 7: 4}
    xa = [4] * 3 + [5] * 5 + [6] * 2
    xb = [5] * 2 + [6] * 4 + [7] * 4
    n, mean, var = hist_moments(a)
    assert (n, mean) == (10, sum(xa) / 10)
    assert var == pytest.approx(sum((x - mean) ** 2 for x in xa) / 9)
    r = welch_t(a, b)
    ma, mb = sum(xa) / 10, sum(xb) / 10
    va = sum((x - ma) ** 2 for x in xa) / 9
    vb = sum((x - mb) ** 2 for x in xb) / 9
    t = (mb - ma) / math.sqrt(va / 10 + vb / 10)
    df = (va / 10 + vb / 10) ** 2 / ((va / 10) ** 2 / 9 + (vb / 10) ** 2 / 9)
    assert r["t"] == pytest.approx(t) and r["df"] == pytest.approx(df)
    assert r["p"] == pytest.approx(t_two_sided_p(t, df)) and r["significant"]
    assert welch_t({3: 1}, b)["available"] is False


def test_mann_whitney_against_direct_count():
    a = {4: 3, 5: 5, 6: 2}
    b = {5: 2, 6: 4, 7: 4}
    xa = [4] * 3 + [5] * 5 + [6] * 2
    xb = [5] * 2 + [6] * 4 + [7] * 4
    u = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in xa for y in xb)  # A above B
    r = mann_whitney(a, b)
    assert r["u"] == pytest.approx(u)
    assert r["prob_a_later"] == pytest.approx(u / 100)
    assert r["z"] < 0 and r["significant"]
    same = mann_whitney(a, a)
    assert same["z"] == pytest.approx(0.0) and not same["significant"]


def test_compare_results_verdicts():
    def result(wins, turns):
        return {"games": 1000, "outcomes": {"win": wins}, "win_turns": turns}

    a = result(900, {5: 300, 6: 400, 7: 200})
    b = result(900, {4: 300, 5: 400, 6: 200})
    cmp = compare_results(a, b)
    assert "not statistically meaningful" in cmp["verdicts"][0]
    assert "B wins sooner" in cmp["verdicts"][1]
    same = compare_results(a, a)
    assert all("not statistically meaningful" in v for v in same["verdicts"])


def test_svg_charts_are_accessible_and_scaled():
    svg = str(charts.bar_chart([("wins", {3: 10, 5: 1500})], title="Turn <of> win", desc="desc & more"))
    assert svg.startswith("<svg") and 'role="img"' in svg
    tid, did = re.search(r'aria-labelledby="(\S+) (\S+)"', svg).groups()
    assert f'<title id="{tid}">Turn &lt;of&gt; win</title>' in svg and f'<desc id="{did}">desc &amp; more</desc>' in svg
    assert ">2,000<" in svg and ">10,000<" not in svg  # nice axis maximum just above 1,500
    assert svg.count("<rect") == 2 and "turn 5: 1,500" in svg
    line = str(charts.line_chart([("A", {1: 0.1, 2: 0.5}), ("B", {1: 0.2, 3: 0.9})], title="t", desc="d"))
    assert line.count("<polyline") == 2 and ">100%<" in line and "by turn 3: 90.0%" in line
    empty = str(charts.bar_chart([("wins", {})], title="t", desc="d"))
    assert "no data" in empty and "No data." in empty
