"""The engine contract (docs/engine.md), checked for every registered engine.

Engines are found through ``core.all_engines()`` (every game of ``rules.games.GAMES`` with a
``rules.<game>.engine`` package), so a new game is covered as soon as it registers an engine. Each
engine is played with its sample decks (``fixtures/decks/<game>-*.txt``, options derived from the
fixture catalog when the engine has ``catalog_options``) and with the extra cases its own test
module offers. Optional hooks in ``tests/test_engine_<game>.py``:

- ``CONTRACT_CASES``: ``[(name, deck, options)]``, more decks / options to check;
- ``check_state(state)``: the game's own invariants, asserted at every step of random play;
- ``random_decks()``: a hypothesis strategy of arbitrary decks the greedy pilot must finish.

The checks: registration; same seed and index → the same game; the global ``random`` is never
used; the generic ``legal_actions``/``apply`` loop and the fast path (``play_out``) play the same
game (identical event logs and results); random legal play creates or loses no card (every zone
the state lists in ``card_zones()``) and keeps counters non-negative within the turn cap; a
terminal state offers no action and refuses any; illegal actions are refused; chunked runs merged
in any order (also through JSON) equal one run; the turn cap and the ``first`` option.
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import random
from collections import Counter
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.core import (
    OUTCOMES,
    Action,
    Deck,
    EventLog,
    GameEngine,
    RandomPilot,
    RunStats,
    all_engines,
    game_rng,
    get_engine,
    play_game,
    run_games,
)
from tests.engine_fixtures import catalog_options, fixture_decks

ENGINES: list[GameEngine] = all_engines()
GAMES = [e.game for e in ENGINES]


def test_every_game_with_an_engine_package_is_found():
    assert GAMES == ["pc", "phantasma", "ws", "chaos", "lycee"]
    with pytest.raises(KeyError, match="no goldfish engine"):
        get_engine("nosuchgame")


def game_tests(game: str) -> ModuleType | None:
    """The game's own engine test module (for its optional hooks)."""
    try:
        return importlib.import_module(f"tests.test_engine_{game}")
    except ModuleNotFoundError:
        return None


@dataclasses.dataclass(frozen=True)
class Case:
    game: str
    name: str
    deck: Deck
    options: dict[str, Any]

    def __str__(self) -> str:
        return self.name


def cases() -> list[Case]:
    out = []
    for game in GAMES:
        opts = catalog_options(game)
        out += [Case(game, name, deck, opts) for name, deck in fixture_decks(game)]
        module = game_tests(game)
        for name, deck, options in getattr(module, "CONTRACT_CASES", ()):
            out.append(Case(game, f"{game}-{name}", deck, dict(options)))
    return out


CASES = cases()
# one case per game for the more expensive checks
FIRST_CASES = [next(c for c in CASES if c.game == game) for game in GAMES]


def test_every_engine_is_checked_with_its_sample_decks():
    for game in GAMES:
        assert fixture_decks(game), f"{game}: no sample deck in fixtures/decks/{game}-*.txt"
        assert sum(c.game == game for c in CASES) >= 2


# -- registration -------------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES, ids=GAMES)
def test_registration(engine: GameEngine):
    assert get_engine(engine.game) is engine
    assert engine.default_pilot in engine.pilots and engine.default_options.get("first") == "random"
    assert {"first", "turn_cap"} <= set(engine.describe_options)
    assert {"win_rate_going_first", "win_rate_going_second"} <= set(engine.ratios)
    state_class = engine.new_state
    assert all(k in state_class.COUNTERS for k in ("games", "went_first", "first_games", "second_games",
                                                    "first_wins", "second_wins"))


# -- reproducibility ----------------------------------------------------------------------------
def result_dict(result: Any) -> dict[str, Any]:
    d = dataclasses.asdict(result)
    d["counters"] = list(d["counters"].items())  # the order a replay shows them in counts too
    return d


@pytest.mark.parametrize("case", CASES, ids=str)
def test_same_seed_and_index_same_game(case: Case):
    games = [play_game(case.deck, "same", i, options=case.options, log=True) for i in range(6)]
    again = [play_game(case.deck, "same", i, options=case.options, log=True) for i in range(6)]
    for (r1, log1), (r2, log2) in zip(games, again, strict=True):
        assert result_dict(r1) == result_dict(r2)
        assert log1.as_list() == log2.as_list() and len(log1.events) > 5
    assert len({json.dumps(log.as_list()) for _, log in games}) == len(games), "different indices, different games"
    assert [r.index for r, _ in games] == list(range(6))


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_global_random_is_never_used(case: Case, monkeypatch):
    """Scramble the global RNG between games (RLCard-style), then make its functions explode: the
    games (fast path and the generic loop with the random pilot) do not change, and the global
    RNG's state is never touched."""

    def games(scramble: bool) -> list[dict[str, Any]]:
        out = []
        for i in range(4):
            if scramble:
                random.seed(i)
            out.append(result_dict(play_game(case.deck, "g", i, options=case.options)[0]))
        for i in range(2):
            state = new_state(case, "g", i)
            play_generic(state, RandomPilot())
            out.append(result_dict(state.result()))
        return out

    before = games(scramble=True)
    global_state = random.getstate()
    for name in ("random", "shuffle", "randrange", "randint", "choice", "choices", "sample", "uniform", "seed",
                 "getrandbits"):
        monkeypatch.setattr(random, name, lambda *a, **k: (_ for _ in ()).throw(AssertionError("global RNG used")))
    assert games(scramble=False) == before
    assert random.getstate() == global_state


# -- the two paths --------------------------------------------------------------------------------
def new_state(case: Case, seed: Any, index: int, log: EventLog | None = None, **options: Any) -> Any:
    engine = get_engine(case.game)
    opts = {**engine.default_options, **case.options, **options}
    return engine.new_state(case.deck, game_rng(seed, index), index, opts, log)


def play_generic(state: Any, pilot: Any) -> None:
    """The generic contract: ``legal_actions`` / ``apply`` with ``pilot.choose``."""
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions and all(isinstance(a, Action) and a.label for a in actions)
        state.apply(pilot.choose(state, actions))


@pytest.mark.parametrize("case", CASES, ids=str)
def test_generic_loop_and_fast_path_play_the_same_game(case: Case):
    engine = get_engine(case.game)
    for pilot_name, pilot_class in engine.pilots.items():
        for i in range(4):
            fast, fast_log = play_game(case.deck, "paths", i, options=case.options, pilot=pilot_name, log=True)
            log = EventLog()
            state = new_state(case, "paths", i, log)
            play_generic(state, pilot_class())
            assert log.as_list() == fast_log.as_list(), (pilot_name, i)
            assert result_dict(state.result()) == result_dict(fast)


# -- random legal play ----------------------------------------------------------------------------
def expected_cards(state: Any, deck: Deck) -> Counter:
    """The cards the player brings: the main deck and the deck sections the game plays."""
    cards = list(deck.main)
    for zone in state.DECK_ZONES:
        cards += deck.zones.get(zone, ())
    return Counter(c.code for c in cards)


def cards_in_play(state: Any) -> Counter:
    return Counter(c.code for zone in state.card_zones().values() for c in zone)


def check_invariants(state: Any, expected: Counter, game_check: Any) -> None:
    assert cards_in_play(state) == expected, "a card was created or lost"
    assert all(v >= 0 for v in state.counters.values()), state.counters
    assert state.turn <= state.turn_cap
    if game_check is not None:
        game_check(state)


def check_finished(state: Any, expected: Counter, game_check: Any) -> None:
    check_invariants(state, expected, game_check)
    assert state.is_terminal() and state.legal_actions() == []
    with pytest.raises(ValueError):
        state.apply(Action("end", ("end",)))
    r = state.result()
    assert r.outcome in OUTCOMES and r.turn <= state.turn_cap
    assert all(isinstance(v, int) and v >= 0 for v in r.counters.values())
    for series, counter in state.PER_TURN.items():
        values = r.per_turn[series]
        assert len(values) == state.turn and all(v >= 0 for v in values)
        assert sum(values) == r.counters.get(counter, 0), series
    if r.outcome == "capped":
        assert r.turn == state.turn_cap


@pytest.mark.parametrize("case", CASES, ids=str)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), cap=st.integers(1, 10), first=st.sampled_from(["random", "me", "opp"]),
       data=st.data())
def test_random_legal_play_keeps_every_card(case: Case, seed: int, cap: int, first: str, data: Any):
    """Hypothesis picks every action (then the first one offered, after 150 decisions); the
    state holds every card of the deck at every step, counters stay non-negative, the turn cap
    holds, and the finished game offers no action."""
    state = new_state(case, seed, 0, turn_cap=cap, first=first)
    expected = expected_cards(state, case.deck)
    game_check = getattr(game_tests(case.game), "check_state", None)
    steps = 0
    while not state.is_terminal():
        check_invariants(state, expected, game_check)
        actions = state.legal_actions()
        assert actions, "a live state always offers an action"
        state.apply(actions[data.draw(st.integers(0, len(actions) - 1)) if steps < 150 else 0])
        steps += 1
    check_finished(state, expected, game_check)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_random_pilot_keeps_every_card(case: Case):
    """The same with ``RandomPilot`` (the game's own RNG picks) over many seeds."""
    game_check = getattr(game_tests(case.game), "check_state", None)
    for i in range(12):
        state = new_state(case, "rnd", i, turn_cap=10)
        expected = expected_cards(state, case.deck)
        pilot = RandomPilot()
        steps = 0
        while not state.is_terminal():
            check_invariants(state, expected, game_check)
            actions = state.legal_actions()
            state.apply(pilot.choose(state, actions) if steps < 400 else actions[0])
            steps += 1
        check_finished(state, expected, game_check)


@pytest.mark.parametrize("case", FIRST_CASES, ids=str)
def test_a_finished_fast_path_game_offers_no_action(case: Case):
    engine = get_engine(case.game)
    state = new_state(case, "end", 0)
    assert not state.is_terminal()
    with pytest.raises(ValueError, match="illegal"):
        state.apply(Action("no_such_decision", ()))
    state.play_out(engine.pilots[engine.default_pilot]())
    assert state.is_terminal() and state.legal_actions() == []
    with pytest.raises(ValueError):
        state.apply(Action("end", ("end",)))
    check_finished(state, expected_cards(state, case.deck), None)


def deck_cases() -> list[tuple[str, Any]]:
    out = []
    for game in GAMES:
        strategy = getattr(game_tests(game), "random_decks", None)
        if strategy is not None:
            out.append((game, strategy))
    return out


@pytest.mark.parametrize("game, decks", deck_cases(), ids=[g for g, _ in deck_cases()])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 1000), first=st.sampled_from(["me", "opp"]))
def test_the_greedy_pilot_finishes_any_deck_within_the_cap(game: str, decks: Any, data: Any, seed: int,
                                                            first: str):
    """Arbitrary decks (the game's ``random_decks()``): every choice of the default pilot is a
    legal action, no card is created or lost, the game ends within the cap."""
    deck = data.draw(decks())
    engine = get_engine(game)
    case = Case(game, "random", deck, {})
    state = new_state(case, seed, 0, turn_cap=15, first=first)
    expected = expected_cards(state, deck)
    play_generic(state, engine.pilots[engine.default_pilot]())
    check_finished(state, expected, getattr(game_tests(game), "check_state", None))


# -- statistics -----------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=str)
def test_chunked_runs_merge_to_exactly_one_run(case: Case):
    whole = run_games(case.deck, 11, range(90), options=case.options)
    parts = [run_games(case.deck, 11, range(a, b), options=case.options) for a, b in ((60, 90), (0, 27), (27, 60))]
    merged = RunStats(game=case.game)
    for p in parts:
        merged.merge(p)
    assert merged.to_dict() == whole.to_dict()
    assert merged.summary() == whole.summary()
    again = RunStats(game=case.game)  # through JSON, in another order (how chunk results travel)
    for p in reversed(parts):
        again.merge(RunStats.from_dict(json.loads(json.dumps(p.to_dict()))))
    assert again.to_dict() == whole.to_dict()
    assert whole.games == 90 and sum(whole.outcomes.values()) == 90
    assert whole.counters["games"] == 90
    assert whole.counters.get("first_games", 0) + whole.counters.get("second_games", 0) == 90


# -- options every engine understands -------------------------------------------------------------
@pytest.mark.parametrize("case", FIRST_CASES, ids=str)
def test_turn_cap(case: Case):
    stats = run_games(case.deck, 1, range(20), options={**case.options, "turn_cap": 2})
    assert max([*stats.win_turns, *stats.loss_turns, 0]) <= 2
    results = [play_game(case.deck, 1, i, options={**case.options, "turn_cap": 2})[0] for i in range(20)]
    assert all(r.turn == 2 for r in results if r.outcome == "capped")
    assert stats.outcomes["capped"] == sum(r.outcome == "capped" for r in results) > 0


@pytest.mark.parametrize("case", FIRST_CASES, ids=str)
def test_who_goes_first(case: Case):
    def went_first(i: int, first: str) -> int:
        return play_game(case.deck, 1, i, options={**case.options, "first": first})[0].counters.get("went_first", 0)

    assert [went_first(i, "alternate") for i in range(6)] == [1, 0, 1, 0, 1, 0]
    assert all(went_first(i, "opp") == 0 for i in range(3)) and all(went_first(i, "me") == 1 for i in range(3))
    assert 10 < sum(went_first(i, "random") for i in range(60)) < 50
    with pytest.raises(ValueError, match="alternate"):
        play_game(case.deck, 1, 0, options={**case.options, "first": "coin"})
