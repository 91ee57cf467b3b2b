"""The shared engine code: RNG seeds, who goes first, statistics, summaries, reports, pilots.

What every engine must do (reproducibility, both paths, card conservation, chunk-exact statistics,
the turn cap...) is checked for every registered engine in tests/test_engine_contract.py."""
from __future__ import annotations

import json
import random

import pytest

from rules.engine import core
from rules.engine.core import (
    GameResult,
    RunStats,
    ScriptedPilot,
    game_rng,
    play_game,
    run_games,
    run_report,
    who_goes_first,
)
from tests.test_engine_ws import DECK as WS_DECK


def test_game_rng_is_a_string_seed():
    assert game_rng(5, 2).random() == random.Random("5:2").random()
    assert game_rng(5, 2).random() != game_rng(5, 3).random()


def test_who_goes_first():
    rng = random.Random(1)
    assert who_goes_first("me", rng, 3) and not who_goes_first("opp", rng, 0)
    assert [who_goes_first("alternate", rng, i) for i in range(4)] == [True, False, True, False]
    flips = [who_goes_first("random", random.Random(i), 0) for i in range(400)]
    assert 150 < sum(flips) < 250
    with pytest.raises(ValueError, match="alternate"):
        who_goes_first("coin", rng, 0)


def test_from_dict_accepts_older_dicts_without_turns_reached():
    stats = run_games(WS_DECK, 1, range(10))
    d = stats.to_dict()
    d.pop("turns_reached")
    old = RunStats.from_dict(d)
    assert old.games == 10 and old.turns_reached == {}
    assert old.summary()["wins"] == stats.summary()["wins"]


def test_summary_statistics_by_hand():
    stats = RunStats(game="ws")
    for i, (outcome, turn) in enumerate([("win", 5), ("win", 6), ("win", 6), ("win", 8), ("loss", 7), ("capped", 9)]):
        stats.add(GameResult(index=i, outcome=outcome, turn=turn, counters={"attacks": 2, "damage_dealt": 3,
                                                                              "cancels": 1, "damage_events": 4,
                                                                              "games": 1},
                             per_turn={"damage": [1] * turn}, first_playable={"X": 1 + i % 2}))
    s = stats.summary()
    assert (s["games"], s["wins"], s["losses"], s["capped"]) == (6, 4, 1, 1)
    tw = s["turn_of_win"]
    assert tw["mean"] == 6.25 and tw["median"] == 6.0
    assert tw["p10"] == pytest.approx(5.3) and tw["p90"] == pytest.approx(7.4)
    assert tw["ci95"][0] < 6.25 < tw["ci95"][1]
    assert s["cumulative_win_probability"] == {"1": 0, "2": 0, "3": 0, "4": 0, "5": 1 / 6, "6": 0.5,
                                               "7": 0.5, "8": 4 / 6}
    ex = s["extras"]
    assert ex["ratios"]["cancel_rate"]["value"] == 0.25
    assert ex["ratios"]["damage_per_attack"]["value"] == 1.5
    assert ex["counters"]["attacks"] == {"total": 12, "per_game": 2.0}
    # per-turn means are over the games that played that turn
    assert ex["per_turn"]["damage"]["9"] == 1.0 and stats.turns_reached[9] == 1 and stats.turns_reached[1] == 6
    fp = s["first_playable"]["X"]
    assert fp["games"] == 6 and fp["share"] == 1.0 and fp["mean_turn"] == 1.5 and fp["earliest"] == 1


def test_run_report_says_what_it_covers_and_the_options():
    stats = run_games(WS_DECK, 1, range(20), options={"first": "me"})
    report = run_report(WS_DECK, stats, {"first": "me"})
    cov = report["coverage"]
    assert "unmodelled" not in report  # one coverage block (rules.coverage.deck_coverage)
    assert cov["copies"] == len(WS_DECK.main) and cov["cards"] == len({c.code for c in WS_DECK.main})
    # the English text the WS compiler cannot read is the one card not modelled, with its 4 copies
    assert [(c["code"], c["copies"]) for c in cov["not_modelled"]] == [("T/W-03", 4)]
    assert cov["not_modelled"][0]["abilities"][0]["status"] == "not_understood"  # (the compiler normalises spacing)
    assert cov["cards_modelled"] == cov["cards"] - 1 and cov["copies_share"] == round(46 / 50, 4)
    assert report["options"]["first"] == "me" and report["options"]["dummy_climaxes"] == 8
    assert report["options"]["turn_cap"] == core.DEFAULT_TURN_CAP
    json.dumps(report)  # serialisable as is


def test_event_log_reads_like_a_rulebook():
    _, log = play_game(WS_DECK, 1, 0, log=True)
    text = log.as_text()
    for word in ("opening hand", "draw", "clock", "play", "attack", "trigger", "damage"):
        assert word in text
    assert text.splitlines()[0].startswith("T 0 me")
    _, none = play_game(WS_DECK, 1, 0)
    assert none is None


def test_scripted_pilots_dispatch_their_d_methods():
    class Base(ScriptedPilot):
        def d_keep(self, state):
            return ("keep",)

    class Child(Base):
        def d_end(self, state):
            return ("end",)

    class Custom(ScriptedPilot):
        def decide(self, state, kind):
            return (kind,)

    assert set(Child.dispatch) == {"keep", "end"} and set(Base.dispatch) == {"keep"}
    assert Child().decide(None, "keep") == ("keep",) and Child().decide(None, "end") == ("end",)
    assert Custom.dispatch is None and Custom().decide(None, "x") == ("x",)


def test_per_turn_series_count_what_each_own_turn_added():
    from rules.engine.core import Deck
    from rules.engine.goldfish import GoldfishState

    class Two(GoldfishState):
        GAME = ""
        COUNTERS = ("x", "y")
        PER_TURN = {"xs": "x", "ys": "y"}

        def _new_game(self, deck, options):
            pass

    class One(Two):
        PER_TURN = {"xs": "x"}

    for cls in (Two, One):
        state = cls(Deck(game="t", main=()), random.Random(1), setup=False)
        assert state.per_turn() == {name: [] for name in cls.PER_TURN}
        for i in range(3):
            state._new_turn()
            state.counters["x"] += i
            state.counters["y"] += 2 * i
        assert state.per_turn() == {"xs": [0, 1, 2], "ys": [0, 2, 4]} if cls is Two else {"xs": [0, 1, 2]}
        assert state.turn == 3


def _shuffle_by_lambda(rng: random.Random, cards: list) -> None:
    """The shuffle as it was written first (a Python key function per card)."""
    rnd = rng.random
    cards.sort(key=lambda _: rnd())


def test_the_shuffle_is_the_sort_on_one_random_key_per_card():
    # _zones.shuffle gives exactly the permutation (and leaves the RNG in exactly the state) of the
    # sort keyed by one rng.random() per card, for every deck size the engines shuffle and then some
    from rules.engine._zones import shuffle

    for seed in range(3000):
        for n in (0, 1, 2, 3, 7, 30, 49, 50, 60, 61, 100):
            a, b = list(range(n)), list(range(n))
            ra, rb = random.Random(f"{seed}:{n}"), random.Random(f"{seed}:{n}")
            shuffle(ra, a)
            _shuffle_by_lambda(rb, b)
            assert a == b
            assert ra.getstate() == rb.getstate()
    # a shuffled list is a permutation of the cards (nothing lost or added)
    deck = list(range(50))
    shuffle(random.Random(7), deck)
    assert sorted(deck) == list(range(50)) and deck != list(range(50))
