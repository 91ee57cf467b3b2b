"""The Lycee engine's views reused across versions (``field_view``, ``hand_view``, ``hand_order``
answer a later version with the views built before when the field's characters, the hand and the
free attack slots are as they were) and the pilot's check before a payment search (a card whose
symbols the rest of a one-attribute hand lacks is never searched for): on real games, at every
main-phase decision, each agrees with what is computed from scratch."""
from __future__ import annotations

import pytest

from bench.lycee_real import title_deck
from rules.engine.core import play_game
from rules.lycee.engine.pilot import GreedyPilot
from rules.lycee.engine.state import LyceeState

pytestmark = pytest.mark.carddata


_VIEW_STATE = ("_memo", "_field_last", "_hand_last", "_order_last", "_field_at", "_hand_at", "_order_at",
               "_field_now", "_hand_now", "_order_now")


def _fresh(state: LyceeState) -> tuple:
    saved = [getattr(state, name) for name in _VIEW_STATE]
    state._memo, state._field_last, state._hand_last, state._order_last = {}, None, None, None
    state._field_at = state._hand_at = state._order_at = -1
    try:
        return state.field_view(), state.hand_view(), list(state.hand_order())
    finally:
        for name, value in zip(_VIEW_STATE, saved, strict=True):
            setattr(state, name, value)


def test_reused_views_and_the_payment_check_agree_with_fresh_ones(monkeypatch):
    _, deck = title_deck()
    seen = {"decisions": 0, "reused": 0, "short": 0}
    d_main = GreedyPilot.d_main

    def checked(self: GreedyPilot, state: LyceeState) -> tuple:
        reused = state._field_last is not None and state._field_at != state.version
        views = state.field_view(), state.hand_view(), list(state.hand_order())
        assert views == _fresh(state)
        seen["decisions"] += 1
        seen["reused"] += reused and state._field_last[1] is views[0]
        infos, mana, pool, _ = views[1]
        if pool is not None and not (state.has_mana and state.mana_sources()):
            for info in infos:
                ex, own = info.ex, info.attr1
                if info.is_char and info.cost and any(pool.get(a, 0) - (ex if a == own else 0) < n
                                                      for a, n in info.symbols):
                    seen["short"] += 1
                    assert state._payment(info.cost, info.cost_key, info.code) is None
        return d_main(self, state)

    monkeypatch.setattr(GreedyPilot, "dispatch", {**GreedyPilot.dispatch, "main": checked})
    for i in range(150):
        play_game(deck, "views", i)
    print(seen)
    assert seen["decisions"] > 1000 and seen["reused"] > 100 and seen["short"] > 100
