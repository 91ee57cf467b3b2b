"""Statistical comparison of two playtest results (pure Python, from the integer histograms).

- win rate: two-proportion z-test (pooled), with a 95% interval for the difference;
- turn of win: Welch's t-test on the two win-turn distributions, and the Mann-Whitney U test
  (normal approximation with tie correction), which does not assume normal turn counts.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_noop

ALPHA = 0.05

# Verdict code -> English template; ``compare_results`` gives the English sentences (``verdicts``)
# and the codes with their params (``verdict_codes``) that pages render in the reader's language.
VERDICTS: dict[str, str] = {
    "win_rate_differs": gettext_noop("The win rates differ meaningfully (p = %(p)s < %(alpha)s): %(better)s wins "
                                     "more often."),
    "win_rate_same": gettext_noop("The difference in win rate is not statistically meaningful (p = %(p)s)."),
    "turn_differs": gettext_noop("The turn of win differs meaningfully (Welch p = %(p)s, Mann-Whitney p = %(p2)s): "
                                 "%(faster)s wins sooner."),
    "turn_one_test": gettext_noop("The turn of win differs by one test only (Welch p = %(p)s, Mann-Whitney p = "
                                  "%(p2)s): treat it as weak evidence and run more games."),
    "turn_same": gettext_noop("The difference in turn of win is not statistically meaningful (Welch p = %(p)s, "
                              "Mann-Whitney p = %(p2)s)."),
}


def normal_two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction for the incomplete beta function (Lentz's method)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-14:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln)
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    if not math.isfinite(t):
        return 0.0
    if df <= 0:
        return float("nan")
    return betainc(df / 2, 0.5, df / (df + t * t))


def two_proportion_z(w1: int, n1: int, w2: int, n2: int) -> dict[str, Any]:
    """Compare win rates w1/n1 and w2/n2."""
    if not n1 or not n2:
        return {"available": False, "reason": gettext_noop("a run has no games")}
    p1, p2 = w1 / n1, w2 / n2
    pooled = (w1 + w2) / (n1 + n2)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    diff = p2 - p1
    if se0 == 0:
        z, p = 0.0, 1.0
    else:
        z = diff / se0
        p = normal_two_sided_p(z)
    return {"available": True, "a": p1, "b": p2, "diff": diff, "ci95": [diff - 1.96 * se, diff + 1.96 * se],
            "z": z, "p": p, "significant": p < ALPHA}


def _int_hist(hist: Mapping[Any, int]) -> dict[int, int]:
    return {int(k): int(v) for k, v in hist.items() if int(v) > 0}


def hist_moments(hist: Mapping[Any, int]) -> tuple[int, float, float]:
    """(n, mean, sample variance) of a value -> count histogram."""
    h = _int_hist(hist)
    n = sum(h.values())
    if not n:
        return 0, float("nan"), float("nan")
    mean = sum(k * c for k, c in h.items()) / n
    var = sum(c * (k - mean) ** 2 for k, c in h.items()) / (n - 1) if n > 1 else float("nan")
    return n, mean, var


def welch_t(h1: Mapping[Any, int], h2: Mapping[Any, int]) -> dict[str, Any]:
    n1, m1, v1 = hist_moments(h1)
    n2, m2, v2 = hist_moments(h2)
    if n1 < 2 or n2 < 2:
        return {"available": False, "reason": gettext_noop("each run needs at least 2 wins")}
    se2 = v1 / n1 + v2 / n2
    diff = m2 - m1
    if se2 == 0:
        return {"available": True, "a": m1, "b": m2, "diff": diff, "t": 0.0 if diff == 0 else math.inf,
                "df": float(n1 + n2 - 2), "p": 1.0 if diff == 0 else 0.0, "significant": diff != 0}
    t = diff / math.sqrt(se2)
    df = se2 ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1)) if (v1 or v2) else float(n1 + n2 - 2)
    p = t_two_sided_p(t, df)
    half = 1.96 * math.sqrt(se2)
    return {"available": True, "a": m1, "b": m2, "diff": diff, "ci95": [diff - half, diff + half],
            "t": t, "df": df, "p": p, "significant": p < ALPHA}


def mann_whitney(h1: Mapping[Any, int], h2: Mapping[Any, int]) -> dict[str, Any]:
    """Mann-Whitney U on two histograms (normal approximation, tie-corrected, no continuity)."""
    a, b = _int_hist(h1), _int_hist(h2)
    n1, n2 = sum(a.values()), sum(b.values())
    if not n1 or not n2:
        return {"available": False, "reason": gettext_noop("each run needs at least 1 win")}
    rank_sum_a = 0.0
    below = 0
    ties = 0.0
    for v in sorted(set(a) | set(b)):
        ca, cb = a.get(v, 0), b.get(v, 0)
        t = ca + cb
        avg_rank = below + (t + 1) / 2
        rank_sum_a += ca * avg_rank
        below += t
        ties += t ** 3 - t
    u1 = rank_sum_a - n1 * (n1 + 1) / 2
    n = n1 + n2
    mu = n1 * n2 / 2
    sigma2 = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))) if n > 1 else 0.0
    if sigma2 <= 0:
        return {"available": True, "u": u1, "z": 0.0, "p": 1.0, "significant": False,
                "prob_a_later": 0.5}
    z = (u1 - mu) / math.sqrt(sigma2)
    p = normal_two_sided_p(z)
    # probability that a random win of A comes on a later turn than one of B (ties count half)
    return {"available": True, "u": u1, "z": z, "p": p, "significant": p < ALPHA, "prob_a_later": u1 / (n1 * n2)}


def compare_results(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Compare two ``RunStats.to_dict()`` results (b relative to a)."""
    wins_a, wins_b = a["outcomes"].get("win", 0), b["outcomes"].get("win", 0)
    rate = two_proportion_z(wins_a, a["games"], wins_b, b["games"])
    welch = welch_t(a["win_turns"], b["win_turns"])
    mw = mann_whitney(a["win_turns"], b["win_turns"])
    codes: list[dict[str, Any]] = []
    if rate.get("available"):
        if rate["significant"]:
            codes.append({"code": "win_rate_differs", "params": {
                "p": f"{rate['p']:.3g}", "alpha": str(ALPHA), "better": "B" if rate["diff"] > 0 else "A"}})
        else:
            codes.append({"code": "win_rate_same", "params": {"p": f"{rate['p']:.3g}"}})
    if welch.get("available") and mw.get("available"):
        ps = {"p": f"{welch['p']:.3g}", "p2": f"{mw['p']:.3g}"}
        if welch["significant"] and mw["significant"]:
            codes.append({"code": "turn_differs", "params": {**ps, "faster": "B" if welch["diff"] < 0 else "A"}})
        elif welch["significant"] or mw["significant"]:
            codes.append({"code": "turn_one_test", "params": ps})
        else:
            codes.append({"code": "turn_same", "params": ps})
    return {"win_rate": rate, "turn_of_win_welch": welch, "turn_of_win_mann_whitney": mw, "alpha": ALPHA,
            "verdicts": [VERDICTS[c["code"]] % c["params"] for c in codes], "verdict_codes": codes}
