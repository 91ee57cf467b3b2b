"""Diffs between versions: property test that applying the diff of (a, b) to a gives b."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from decks.selectors import zones_diff
from rules.games import ZONES

codes = st.sampled_from([f"C-{i}" for i in range(8)])
zone_cards = st.dictionaries(codes, st.integers(min_value=1, max_value=9), max_size=6)
zones = st.dictionaries(st.sampled_from(ZONES), zone_cards, max_size=3)


def apply(base, diff):
    out = {z: dict(c) for z, c in base.items()}
    for zone, change in diff.items():
        cards = out.setdefault(zone, {})
        for code, n in change["added"].items():
            cards[code] = cards.get(code, 0) + n
        for code, n in change["removed"].items():
            cards[code] -= n
            if not cards[code]:
                del cards[code]
    return {z: c for z, c in out.items() if c}


@given(zones, zones)
def test_diff_applies(a, b):
    d = zones_diff(a, b)
    assert apply(a, d) == {z: c for z, c in b.items() if c}
    for change in d.values():
        assert change["added"] or change["removed"]
        assert not set(change["added"]) & set(change["removed"])
        assert all(n > 0 for n in [*change["added"].values(), *change["removed"].values()])


@given(zones)
def test_diff_with_itself_is_empty(a):
    assert zones_diff(a, a) == {}
