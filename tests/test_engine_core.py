"""The engine contract: registry, RNG discipline, chunk-exact statistics, summaries, reports."""
from __future__ import annotations

import json
import random

import pytest

from rules.engine import core
from rules.engine.core import (
    Action,
    GameResult,
    RandomPilot,
    RunStats,
    game_rng,
    get_engine,
    play_game,
    run_games,
    run_report,
    who_goes_first,
)
from tests.test_engine_pc import DECK as PC_DECK
from tests.test_engine_ws import DECK as WS_DECK

DECKS = {"ws": WS_DECK, "pc": PC_DECK}


def test_registry_imports_engines_on_demand():
    for game in ("ws", "pc"):
        engine = get_engine(game)
        assert engine.game == game and engine.default_pilot in engine.pilots
        assert "first" in engine.default_options
    with pytest.raises(KeyError, match="no goldfish engine"):
        get_engine("nosuchgame")


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


@pytest.mark.parametrize("game", ["ws", "pc"])
def test_engines_never_touch_the_global_rng(game, monkeypatch):
    """RLCard-style: scramble the global RNG between games, and make its functions explode."""
    deck = DECKS[game]
    before = [play_game(deck, "g", i)[0] for i in range(5)]
    for name in ("random", "shuffle", "randrange", "randint", "choice", "sample"):
        monkeypatch.setattr(random, name, lambda *a, **k: (_ for _ in ()).throw(AssertionError("global RNG used")))
    after = [play_game(deck, "g", i)[0] for i in range(5)]
    assert before == after


@pytest.mark.parametrize("game", ["ws", "pc"])
def test_chunked_runs_merge_to_exactly_one_run(game):
    deck = DECKS[game]
    whole = run_games(deck, 11, range(120))
    parts = [run_games(deck, 11, range(a, b)) for a, b in ((80, 120), (0, 37), (37, 80))]
    merged = RunStats(game=game)
    for p in parts:
        merged.merge(p)
    assert merged.to_dict() == whole.to_dict()
    assert merged.summary() == whole.summary()
    # and through JSON (how chunk results travel between workers)
    again = RunStats(game=game)
    for p in reversed(parts):
        again.merge(RunStats.from_dict(json.loads(json.dumps(p.to_dict()))))
    assert again.to_dict() == whole.to_dict()


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


def test_run_report_lists_unmodelled_effects_and_options():
    stats = run_games(WS_DECK, 1, range(20), options={"first": "me"})
    report = run_report(WS_DECK, stats, {"first": "me"})
    assert report["unmodelled"] == [{"code": "T/W-03", "name": "char T/W-03", "text": "[AUTO] Something clever."}]
    assert report["options"]["first"] == "me" and report["options"]["dummy_climaxes"] == 8
    assert report["options"]["turn_cap"] == core.DEFAULT_TURN_CAP
    json.dumps(report)  # serialisable as is


@pytest.mark.parametrize("game", ["ws", "pc"])
def test_generic_loop_with_a_pilot_without_decide(game):
    """Any pilot with only ``choose`` plays through legal_actions/apply; games end within the cap."""
    deck = DECKS[game]
    engine = get_engine(game)
    for i in range(5):
        state = engine.new_state(deck, game_rng("r", i), i, {"turn_cap": 12}, None)
        pilot = RandomPilot()
        while not state.is_terminal():
            actions = state.legal_actions()
            assert all(isinstance(a, Action) and a.label for a in actions)
            state.apply(pilot.choose(state, actions))
        assert state.legal_actions() == []
        assert state.result().turn <= 12


def test_turn_cap_counts_as_capped():
    stats = run_games(WS_DECK, 1, range(20), options={"turn_cap": 2})
    assert stats.outcomes["capped"] == 20 and stats.summary()["capped"] == 20


def test_event_log_reads_like_a_rulebook():
    _, log = play_game(WS_DECK, 1, 0, log=True)
    text = log.as_text()
    for word in ("opening hand", "draw", "clock", "play", "attack", "trigger", "damage"):
        assert word in text
    assert text.splitlines()[0].startswith("T 0 me")
    _, none = play_game(WS_DECK, 1, 0)
    assert none is None
