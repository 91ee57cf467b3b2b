"""Prism Connect goldfish engine: golden scenarios (GAMES.md §1), exact maths.

The contract every engine meets is checked in tests/test_engine_contract.py, with this module's
hooks ``CONTRACT_CASES``, ``check_state`` and ``random_decks``.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st

from rules.cards import CardRecord
from rules.engine.core import Action, Deck, game_rng, play_game
from rules.engine.goldfish import GameOver
from rules.odds import p_at_least
from rules.pc import engine as pc
from tests.engine_fixtures import drive as engine_drive


def char(code: str, cost: int = 0, cp: int = 3000, rank: int = 1, connect: int | None = None,
         mark: str = "", number: str | None = None, text: str = "", keywords: tuple = ()) -> CardRecord:
    return CardRecord(game="pc", code=code, name=f"char {code}", card_type="character", work="TW",
                      number=number or code.split("-")[-1], cost=cost, cp=cp, rank=rank,
                      connect_attack=connect, bonus_mark=mark, text=text, keywords=keywords)


def pc_deck() -> Deck:
    marks = ["", "RANK+1", "LIFE+1", "DRAW"]
    cards: list[CardRecord] = []
    k = 0
    for cost, n_codes, cp, rank, ca in [(0, 4, 3000, 1, None), (1, 3, 4000, 1, 2), (2, 3, 5000, 2, 3),
                                        (3, 2, 6000, 2, 5), (4, 1, 7000, 3, None)]:
        for j in range(n_codes):
            for _ in range(3):
                if len(cards) < 37:
                    cards.append(char(f"TW-{cost}{j:02d}", cost, cp, rank, ca, marks[k % 4]))
            k += 1
    while len(cards) < 40:
        cards.append(CardRecord(game="pc", code="TW-E01", name="an event", card_type="event", work="TW",
                                number="E01", cost=1, text="Draw 2 cards.", bonus_mark="DRAW"))
    return Deck(game="pc", main=tuple(cards))


DECK = pc_deck()
PLAIN = char("TW-900")


def fresh(seed: int = 0) -> pc.PCState:
    state = pc.PCState(DECK, random.Random(seed), 0, {}, None, setup=False)
    state.deck = [PLAIN] * 20
    return state


def drive(state: pc.PCState, steps, answers: dict | None = None) -> list[str]:
    """``answers``: kind -> an option for every such decision, or a list of one-shot answers."""
    return engine_drive(state, steps, pc.GreedyPilot(), answers)


def put_front(state: pc.PCState, card: CardRecord) -> None:
    state.front.append(card)
    state.front_rest.append(False)
    state.front_new.append(False)
    state.front_attacked.append(False)


def connect_setup(state: pc.PCState) -> CardRecord:
    """GAMES.md: CP4000 / RANK1 with [connect attack: 5]; gauge top 5 = 3 face-down (two RANK+1)
    and 2 face-up (whose marks, even RANK+1, give nothing)."""
    attacker = char("TW-CA1", cost=0, cp=4000, rank=1, connect=5)
    put_front(state, attacker)
    state.gauge = [PLAIN, char("G-1", mark="RANK+1"), char("G-2", mark="RANK+1"), char("G-3"),
                   char("G-4", mark="RANK+1"), char("G-5", mark="RANK+1")]
    state.gauge_up = [False, False, True, False, True, False]  # top = end
    return attacker


# -- golden scenarios -----------------------------------------------------------------------------
def test_connect_attack_rank_8():
    state = fresh()
    connect_setup(state)
    state._attack(0, connect=True)
    assert state.opp_life == 25 - 8
    assert state.counters["bonus_rank"] == 2
    assert state.counters["gauge_facedown_revealed"] == 3
    assert len(state.discard) == 5 and state.gauge == [PLAIN]  # consumed cards go to discard
    assert state.counters["gauge_consumed"] == 5


def test_blocked_connect_attack_costs_rank_minus_rank_and_nobody_retreats():
    state = fresh()
    attacker = connect_setup(state)
    state.blocker = char("OPP-1", cp=5000, rank=2)
    state._attack(0, connect=True)
    assert state.opp_life == 25 - 6  # Decision: 8 - 2 = 6 (the seed's example says 7)
    assert state.front == [attacker]  # the attacker never retreats
    assert state.blocker_retreated is False  # CP5000 is not lower than CP4000


def test_blocked_connect_attack_blocker_with_lower_cp_retreats():
    state = fresh()
    connect_setup(state)
    state.blocker = char("OPP-2", cp=3000, rank=1)
    state._attack(0, connect=True)
    assert state.opp_life == 25 - 7 and state.blocker_retreated is True


def test_blocked_plain_attack_lower_cp_retreats_and_no_damage():
    state = fresh()
    weak = char("TW-W", cp=3000)
    put_front(state, weak)
    state.blocker = char("OPP-3", cp=3000, rank=1)
    state._attack(0, connect=False)
    assert state.opp_life == 25 and state.gauge == []
    assert state.front == [] and state.back == [weak]  # equal CP: both retreat
    assert state.blocker_retreated is True


def test_unblocked_attack_adds_the_top_card_face_down_then_rank_damage():
    state = fresh()
    put_front(state, char("TW-R", rank=2))
    top = char("TW-TOP")
    state.deck.append(top)
    state._attack(0, connect=False)
    assert state.gauge == [top] and state.gauge_up == [False]
    assert state.opp_life == 23


def test_life_and_draw_marks():
    state = fresh()
    put_front(state, char("TW-C", connect=2))
    state.gauge = [char("G-L", mark="LIFE+1"), char("G-D", mark="DRAW")]
    state.gauge_up = [False, False]
    state._attack(0, connect=True)
    assert state.life == 26 and len(state.hand) == 1
    assert state.opp_life == 25 - 3
    assert (state.counters["bonus_life"], state.counters["bonus_draw"]) == (1, 1)


def test_cost_rule_counts_characters_on_the_whole_field():
    state = fresh()
    two = char("TW-C2", cost=2)
    state.hand = [two]
    assert ("deploy", "TW-C2", "front") not in state.options_main()
    put_front(state, char("TW-A"))
    state.back = [char("TW-B"), CardRecord(game="pc", code="TW-S", name="scene", card_type="scene", cost=0)]
    state.back_rest = [False, False]
    assert state.field_characters() == 2  # the scene is not a character
    assert ("deploy", "TW-C2", "front") in state.options_main()


def test_no_affordable_character_goes_to_the_back_area_instead():
    state = fresh()
    big = char("TW-BIG", cost=3)
    state.hand = [big]
    options = state.options_main()
    assert ("back", "TW-BIG") in options and ("deploy", "TW-BIG", "front") not in options
    state.deploy("TW-BIG", "back", unaffordable=True)
    assert state.back == [big] and state.deployed
    assert state.options_main() == [("end",)]  # the deploy of the turn is used
    state2 = fresh()
    state2.hand = [big, char("TW-Z", cost=0)]
    assert ("back", "TW-BIG") not in state2.options_main()  # an affordable one exists


def test_deploy_once_per_turn_and_one_copy_on_the_front():
    state = fresh()
    a = char("TW-023", number="023")
    a_foil = char("TW-023a", number="023a")  # the same card for every rule
    state.hand = [a, a_foil]
    state.deploy("TW-023", "front")
    with pytest.raises(ValueError, match="already deployed"):
        state.deploy("TW-023a", "back")
    state.deployed = False
    assert ("deploy", "TW-023a", "front") not in state.options_main()
    assert ("deploy", "TW-023a", "back") in state.options_main()
    with pytest.raises(ValueError):
        state.deploy("TW-023a", "front")


def test_return_discards_an_identical_card_and_moves_it_to_the_front():
    state = fresh()
    back = char("TW-R1", cost=1)
    state.back = [back]
    state.back_rest = [True]
    put_front(state, char("TW-X"))
    state.hand = [char("TW-R1", cost=1)]
    assert ("return", "TW-R1") in state.options_main()
    state.return_character("TW-R1")
    assert state.front[-1] is back and state.front_rest[-1] is True  # in its current state
    assert state.front_new[-1] is True  # cannot attack this turn
    assert len(state.discard) == 1 and state.hand == []
    assert state.returned and ("return", "TW-R1") not in state.options_main()


def test_turn_draw_attack_and_hand_limit():
    state = fresh()
    state.went_first = False
    attacker = char("TW-ATK", rank=3)
    put_front(state, attacker)
    state.hand = [CardRecord(game="pc", code=f"TW-E{i}", name="event", card_type="event", cost=9)
                  for i in range(7)]
    drive(state, state._my_turn())
    assert state.opp_life == 22 and len(state.gauge) == 1
    assert len(state.hand) == 6  # drew 1 (8) then discarded down to 6
    assert state.per_turn() == {"life_taken": [3]}


def test_first_player_skips_the_first_draw_and_second_player_starts_with_a_gauge_card():
    firsts = {}
    for i in range(30):
        state = pc.PCState(DECK, game_rng("order", i), i, {"first": "alternate"}, None)
        while state.pending == "mulligan":
            state.apply(Action("mulligan", ("keep",)))
        firsts[state.went_first] = (len(state.gauge), len(state.hand))
    # the first player's turn 1 began without a draw; the second player's gauge holds 1 card
    assert firsts[True][0] == 0 and firsts[False][0] == 1
    assert firsts[True][1] == 6 and firsts[False][1] == 7


def test_rebuild_from_gauge_and_discard_and_loss_when_all_empty():
    state = fresh()
    state.deck = [PLAIN]
    state.gauge = [char("G-1"), char("G-2")]
    state.gauge_up = [False, True]
    state.discard = [char("D-1")]
    state._draw(1)
    assert len(state.deck) == 3 and state.gauge == [] and state.discard == []
    assert state.counters["rebuilds"] == 1
    state2 = fresh()
    state2.deck = [PLAIN]
    with pytest.raises(GameOver):
        state2._draw(1)
    assert state2.outcome == "loss"


def test_win_when_goldfish_life_reaches_zero_values_floor_at_zero():
    state = fresh()
    state.opp_life = 2
    put_front(state, char("TW-BIG", rank=5))
    with pytest.raises(GameOver):
        state._attack(0, connect=False)
    assert state.outcome == "win" and state.opp_life == 0
    assert state.counters["life_taken"] == 2


def test_connect_mark_puts_another_field_card_face_up_into_the_gauge():
    state = fresh()
    state.went_first = True
    marker = char("TW-CM", cost=0, keywords=("connect_mark",),
                  text="[Connect Mark] When deployed, put 1 other card of your field face-up into your gauge.")
    scene = CardRecord(game="pc", code="TW-SC", name="scene", card_type="scene", cost=0)
    state.back = [scene]
    state.back_rest = [False]
    state.hand = [marker]
    seen = drive(state, state._main(), {"main": [("deploy", "TW-CM", "front")]})
    assert "connect_mark" in seen
    assert state.gauge == [scene] and state.gauge_up == [True] and state.back == []
    assert state.counters["connect_mark_cards"] == 1
    # a face-up gauge card gives nothing when consumed, but still pays the connect attack
    alone = fresh()
    alone.hand = [marker]
    drive(alone, alone._main(), {"main": [("deploy", "TW-CM", "front")]})
    assert alone.counters["connect_mark_fizzled"] == 1 and alone.gauge == []


# -- exact maths ----------------------------------------------------------------------------------
def test_opening_hand_frequency_matches_the_hypergeometric():
    """P(at least 1 of 3 copies of TW-000 among the 6-card opening hand of 40) = 0.3865 (exact);
    4,000 games, tolerance 4 standard errors (~0.031)."""
    copies = sum(1 for c in DECK.main if c.code == "TW-000")
    n = 4000
    hits = 0
    for i in range(n):
        state = pc.PCState(DECK, game_rng("odds", i), i, {}, None)
        assert state.pending == "mulligan" and len(state.hand) == 6
        hits += any(c.code == "TW-000" for c in state.hand)
    p = p_at_least(40, copies, 6)
    se = (p * (1 - p) / n) ** 0.5
    assert abs(hits / n - p) < 4 * se, (hits / n, p)


def test_connect_attack_bonus_frequency_matches_the_hypergeometric():
    """Consuming 3 face-down cards from a shuffled gauge of 12 holding 4 RANK+1 marks reveals at
    least one RANK+1 with probability 1 - C(8,3)/C(12,3); 10,000 trials, 4 standard errors."""
    n = 10000
    hits = 0
    base = [char("G-R", mark="RANK+1")] * 4 + [PLAIN] * 8
    for i in range(n):
        state = fresh()
        rng = game_rng("gauge", i)
        gauge = list(base)
        rng.shuffle(gauge)
        state.gauge = gauge
        state.gauge_up = [False] * 12
        put_front(state, char("TW-C3", connect=3))
        state._attack(0, connect=True)
        hits += state.counters["bonus_rank"] > 0
    p = p_at_least(12, 4, 3)
    se = (p * (1 - p) / n) ** 0.5
    assert abs(hits / n - p) < 4 * se


# -- the engine contract's hooks (tests/test_engine_contract.py) --------------------------------
CONTRACT_CASES = [("test-deck", DECK, {}), ("goldfish-40-life", DECK, {"goldfish_life": 40})]


def check_state(state: pc.PCState) -> None:
    """PC invariants at every step of random play: parallel zone flags, life, the hand limit."""
    assert len(state.gauge) == len(state.gauge_up)
    n = len(state.front)
    assert len(state.front_rest) == len(state.front_new) == len(state.front_attacked) == n
    assert len(state.back) == len(state.back_rest)
    assert state.opp_life >= 0 and state.life >= 0
    # the hand limit is checked at the end of the turn (the discard step): inside the main phase,
    # a connect mark's choice included (it follows a deploy), the hand may hold more
    assert len(state.hand) <= 6 or state.pending in ("main", "connect_mark", "attack", "discard", None)


def test_the_log_reads_like_the_rules():
    text = "\n".join(e["text"] for e in play_game(DECK, 7, 2, log=True)[1].as_list())
    assert "opening hand" in text and "attacks" in text and "goldfish loses" in text


def test_unmodelled_cards_are_listed():
    assert [c.code for c in DECK.unmodelled()] == ["TW-E01"]


def random_decks() -> st.SearchStrategy[Deck]:
    """Decks for the contract's "the greedy pilot finishes any deck" property."""
    return random_pc_decks()


@st.composite
def random_pc_decks(draw):
    n = draw(st.integers(8, 40))
    cards = []
    for i in range(n):
        kind = draw(st.sampled_from(["character", "character", "character", "event", "scene"]))
        mark = draw(st.sampled_from(["", "RANK+1", "LIFE+1", "DRAW"]))
        if kind == "character":
            cards.append(char(f"RD-{i}", draw(st.integers(0, 5)), draw(st.integers(0, 9000)), draw(st.integers(0, 4)),
                              draw(st.one_of(st.none(), st.integers(1, 6))), mark,
                              keywords=("connect_mark",) if draw(st.booleans()) else ()))
        else:
            cards.append(CardRecord(game="pc", code=f"RD-{i}", name=kind, card_type=kind, work="RD", number=str(i),
                                    cost=draw(st.integers(0, 4)), bonus_mark=mark))
    return Deck(game="pc", main=tuple(cards))


# -- issue 16, 8 ----------------------------------------------------------------------------------
def _card(code: str, ctype: str, number: str) -> CardRecord:
    return CardRecord(game="pc", code=code, name=f"{ctype} {number}", card_type=ctype, work="TW", number=number,
                      cost=0, text="Something.")


def test_same_event_once_per_turn_compares_identity_not_code():
    state = fresh()
    ev, ev_foil = _card("TW-E05", "event", "E05"), _card("TW-E05a", "event", "E05a")
    state.hand = [ev, ev_foil]
    state.start(state.scenario(state._main()))
    state.apply(Action("main", ("event", "TW-E05")))
    assert ("event", "TW-E05a") not in state.options_main()
    with pytest.raises(ValueError):
        state.apply(Action("main", ("event", "TW-E05a")))


def test_one_copy_of_the_same_scene_compares_identity_not_code():
    state = fresh()
    scene, scene_foil = _card("TW-S07", "scene", "S07"), _card("TW-S07a", "scene", "S07a")
    state.hand = [scene, scene_foil]
    state.start(state.scenario(state._main()))
    state.apply(Action("main", ("scene", "TW-S07")))
    assert ("scene", "TW-S07a") not in state.options_main()
    with pytest.raises(ValueError):
        state.apply(Action("main", ("scene", "TW-S07a")))


def test_draw_mark_taking_the_last_card_rebuilds_from_the_consumed_gauge_cards():
    state = fresh()
    put_front(state, char("TW-C", connect=2))
    last = char("TW-LAST")
    state.deck = [last]
    g_draw, g_plain = char("G-D", mark="DRAW"), char("G-P")
    state.gauge, state.gauge_up = [g_plain, g_draw], [False, False]
    state._attack(0, connect=True)
    assert state.hand == [last]  # no GameOver: the deck was rebuilt
    assert sorted(c.code for c in state.deck) == ["G-D", "G-P"] and state.discard == []
    assert state.counters["rebuilds"] == 1 and state.resolving == [] and state.opp_life == 25 - 3


def test_mulligan_puts_each_card_under_the_ones_before_it():
    state = fresh()
    state.deck = [char(f"TW-D{i}") for i in range(10)]
    drive(state, state._setup(), {"mulligan": [("bottom", "TW-D9"), ("bottom", "TW-D8"), ("keep",)]})
    assert [c.code for c in state.deck[:2]] == ["TW-D8", "TW-D9"]  # the last chosen ends up lowest


def test_blocked_connect_attack_equal_cp_blocker_retreats():
    state = fresh()
    connect_setup(state)
    state.blocker = char("OPP-E", cp=4000, rank=1)
    state._attack(0, connect=True)
    assert state.opp_life == 25 - 7 and state.blocker_retreated is True
