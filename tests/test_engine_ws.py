"""Weiß Schwarz goldfish engine: golden scenarios (GAMES.md §3), exact-maths checks.

The contract every engine meets (reproducibility, both paths, no card created or lost under random
play, chunked runs...) is checked in tests/test_engine_contract.py, with this module's hooks:
``CONTRACT_CASES``, ``check_state`` and ``random_decks``.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st

from rules.cards import CardRecord
from rules.engine.core import Action, Deck, game_rng, play_game, run_games
from rules.engine.goldfish import GameOver
from rules.odds import p_at_least
from rules.ws import engine as ws
from tests.engine_fixtures import drive as engine_drive

YELLOW, RED = ("yellow",), ("red",)


def char(code: str, level: int = 0, cost: int = 0, soul: int = 1, power: int = 3000,
         colors: tuple = YELLOW, triggers: tuple = (), text: str = "") -> CardRecord:
    return CardRecord(game="ws", code=code, name=f"char {code}", card_type="character", level=level,
                      cost=cost, power=power, soul=soul, colors=colors, triggers=triggers, text=text)


def climax(code: str, colors: tuple = YELLOW, triggers: tuple = ("soul",), soul: int = 1,
           power: int = 1000) -> CardRecord:
    return CardRecord(game="ws", code=code, name=f"climax {code}", card_type="climax", colors=colors,
                      triggers=triggers, text="[CONT] All your characters get +1000 power and +1 soul.",
                      text_modelled=True, effects=({"kind": "climax_bonus", "power": power, "soul": soul},))


def ws_deck(n_climax: int = 8) -> Deck:
    """A 50-card test deck: 16 level 0, 12 level 1, 8 level 2, 6 level 3 and 8 climaxes, two colors,
    several trigger icons, one card with unmodelled text."""
    cards: list[CardRecord] = []
    for i in range(16):
        cards.append(char(f"T/W-0{i % 4}", 0, 0, 1, 2500 + 500 * (i % 4), YELLOW if i % 2 else RED,
                          text="[AUTO] Something clever." if i % 4 == 3 else ""))
    for i in range(12):
        cards.append(char(f"T/W-1{i % 3}", 1, i % 2, 1, 5000, YELLOW if i % 2 else RED,
                          ("soul",) if i % 3 == 0 else ("pool",) if i % 3 == 1 else ()))
    for i in range(8):
        cards.append(char(f"T/W-2{i % 2}", 2, 1, 2, 8000, YELLOW if i % 2 else RED, ("soul",)))
    for i in range(50 - 36 - n_climax):
        cards.append(char(f"T/W-3{i % 2}", 3, 2, 2, 10000, YELLOW if i % 2 else RED, ("soul",)))
    icons = [("soul", "soul"), ("draw",), ("comeback",), ("gate",)]
    for i in range(n_climax):
        cards.append(climax(f"T/W-9{i % 4}", YELLOW if i % 2 else RED, icons[i % 4]))
    return Deck(game="ws", main=tuple(cards))


DECK = ws_deck()
FILLER = char("F/W-00")
EVENT = CardRecord(game="ws", code="E/W-00", name="an event", card_type="event", level=0, cost=0)


def fresh(deck: Deck = DECK, seed: int = 0, options: dict | None = None) -> ws.WSState:
    """A state with nothing set up: every zone empty, ready for a scenario."""
    state = ws.WSState(deck, random.Random(seed), 0, options or {}, None, setup=False)
    state.deck = []
    state.odeck = []
    return state


def drive(state: ws.WSState, steps, answers: dict | None = None) -> list[str]:
    """Run ``steps`` as the state's script; answer each decision from ``answers`` (kind -> option)
    or with the greedy pilot. Returns the decision kinds met."""
    return engine_drive(state, steps, ws.GreedyPilot(), answers)


# -- golden scenarios from GAMES.md ---------------------------------------------------------------
def test_goldfish_levels_up_at_7_clock_and_the_8th_card_stays():
    state = fresh()
    state.oclock = [FILLER] * 5
    state.odeck = [FILLER] * 10  # no climax: the damage is not cancelled
    dealt = state._damage(3)
    assert dealt == 3
    assert len(state.olevel) == 1
    assert len(state.owaiting) == 6
    assert len(state.oclock) == 1  # the 8th card goes to the clock after the level up


def test_player_levels_up_at_7_clock_choosing_the_level_card():
    state = fresh()
    cards = [char(f"C/W-{i}", colors=RED if i == 3 else YELLOW) for i in range(6)]
    state.clock = cards
    state.hand = [char("H/W-1")]
    state.deck = [FILLER] * 10

    def clock_phase():
        state.clock.append(state.hand.pop())
        yield from state._level_up_me()

    seen = drive(state, clock_phase(), {"level_up": ("level", "C/W-3")})
    assert seen == ["level_up"]
    assert [c.code for c in state.level] == ["C/W-3"]
    assert len(state.waiting) == 6 and state.clock == []
    assert state.my_level() == 1


def test_player_reaching_level_4_loses():
    state = fresh()
    state.level = [FILLER] * 3
    state.clock = [FILLER] * 6
    state.hand = [FILLER]
    state.deck = [FILLER] * 10
    state.turn = 5

    def clock_phase():
        state.clock.append(state.hand.pop())
        yield from state._level_up_me()

    drive(state, clock_phase())
    assert state.outcome == "loss" and "level 4" in state.reason
    assert state.is_terminal() and state.legal_actions() == []


def test_goldfish_reaching_level_4_is_a_win():
    state = fresh()
    state.olevel = [FILLER] * 3
    state.oclock = [FILLER] * 6
    state.odeck = [FILLER] * 5
    with pytest.raises(GameOver):
        state._damage(1)
    assert state.outcome == "win" and "level 4" in state.reason


def test_climax_cancel_sends_every_revealed_card_to_the_waiting_room():
    state = fresh()
    cx = climax("X/W-CX")
    a, b = char("A/W-1"), char("B/W-1")
    state.odeck = [FILLER] * 5 + [cx, b, a]  # top is the end: a, then b, then the climax
    dealt = state._damage(4)
    assert dealt == 0
    assert state.owaiting == [a, b, cx]
    assert state.oclock == []
    assert len(state.odeck) == 5  # the 4th card was never revealed


def test_refresh_mid_damage_keeps_revealed_cards_out_then_refresh_damage():
    state = fresh()
    state.odeck = [FILLER, FILLER]
    state.owaiting = [char(f"W/W-{i}") for i in range(10)]
    revealed_before = list(reversed(state.odeck))

    def attack_damage():
        state._damage(3)
        yield from state._settle()

    drive(state, attack_damage())
    assert state.counters["opp_refreshes"] == 1
    # 3 damage (2 from the old deck, 1 from the new) + 1 refresh damage, never cancelled
    assert len(state.oclock) == 4
    assert state.oclock[:2] == revealed_before
    assert len(state.odeck) == 10 - 2  # one damage card and the refresh damage card came from it
    assert state.owaiting == []


def test_refresh_damage_is_not_cancelled_by_a_climax():
    state = fresh()
    state.odeck = [FILLER]
    cx = climax("X/W-CX")
    state.owaiting = [cx, cx]  # the new deck is all climaxes: the refresh damage still sticks

    def step():
        state._damage(1)
        yield from state._settle()

    drive(state, step())
    assert state.oclock == [FILLER, cx]
    assert state.counters["opp_refresh_damage"] == 1


def test_player_refresh_penalty_goes_to_the_clock():
    state = fresh()
    last = char("L/W-0")
    state.deck = [last]
    state.waiting = [char(f"W/W-{i}") for i in range(5)]

    def draw_step():
        state._draw(1)
        yield from state._settle()

    drive(state, draw_step())
    assert state.hand == [last]
    assert state.counters["refreshes"] == 1
    assert len(state.clock) == 1 and len(state.deck) == 4 and state.waiting == []


def test_player_refresh_with_an_empty_waiting_room_loses():
    state = fresh()
    state.deck = [FILLER]

    def draw_step():
        state._draw(1)
        yield from state._settle()

    drive(state, draw_step())
    assert state.is_terminal()
    assert state.outcome == "loss" and "empty waiting room" in state.reason


def test_play_requires_level_stock_and_color():
    state = fresh()
    l1_red = char("R/W-1", level=1, cost=1, colors=RED)
    l0_red = char("R/W-0", level=0, cost=0, colors=RED)
    assert state.can_play(l0_red)  # level 0 ignores color
    assert not state.can_play(l1_red)  # level 0 player
    state.level = [char("Y/W-0")]
    assert not state.can_play(l1_red)  # no stock, no red
    state.stock = [FILLER]
    assert not state.can_play(l1_red)  # no red card in clock or level
    state.clock = [char("R/W-9", colors=RED)]
    assert state.can_play(l1_red)
    cx = climax("X/W-9", colors=("blue",))
    assert not state.can_play(cx)  # Decision: a climax needs its color too


def test_a_turn_pays_stock_places_climax_and_attacks_directly_with_soul_bonus():
    state = fresh()
    state.turn = 2
    state.went_first = False
    state.level = [char("Y/W-0")]
    l1 = char("P/W-1", level=1, cost=1, soul=1)
    cx = climax("X/W-9", triggers=(), soul=1)
    state.hand = [l1, cx]
    state.stock = [FILLER, FILLER]
    state.deck = [EVENT] * 20  # triggers: no icon (and the pilot does not play events)
    state.odeck = [FILLER] * 30  # no climax: nothing is cancelled
    state.clock = [char("Y/W-8")]

    drive(state, state._my_turn(), {"clock": ("skip",)})
    assert state.counters["characters_played"] == 1
    assert len(state.stock) == 1 + 1  # paid 1, then the trigger card went to stock
    assert state.counters["attacks"] == 1
    # soul 1 + climax 1 + direct attack 1
    assert state.counters["attack_soul"] == 3 and state.counters["damage_dealt"] == 3
    assert cx in state.waiting and state.climax is None  # the climax leaves at end of turn
    assert state.per_turn() == {"damage": [3]}


def test_first_player_attacks_only_once_on_turn_one():
    state = fresh()
    state.went_first = True
    state.hand = [char(f"A/W-{i}") for i in range(3)]
    state.deck = [EVENT] * 20
    state.odeck = [FILLER] * 30
    drive(state, state._my_turn(), {"clock": ("skip",)})
    assert sum(1 for c in state.stage if c is not None) == 3
    assert state.counters["attacks"] == 1
    state2 = fresh()
    state2.went_first = False
    state2.hand = [char(f"A/W-{i}") for i in range(3)]
    state2.deck = [EVENT] * 20
    state2.odeck = [FILLER] * 30
    drive(state2, state2._my_turn(), {"clock": ("skip",)})
    assert state2.counters["attacks"] == 3


def test_triggers_soul_draw_pool_treasure_and_shot():
    def attack_with_trigger(icons, odeck):
        state = fresh()
        state.stage[0] = char("A/W-0", soul=1)
        trig = char("T/W-T", triggers=icons)
        state.deck = [FILLER] * 5 + [trig]
        state.odeck = odeck
        state.attacks_left = 1
        drive(state, state._attack(0))
        return state, trig

    state, _ = attack_with_trigger(("soul", "soul"), [FILLER] * 10)
    assert state.counters["attack_soul"] == 1 + 1 + 2
    state, trig = attack_with_trigger(("draw",), [FILLER] * 10)
    assert len(state.hand) == 1 and trig in state.stock
    state, _ = attack_with_trigger(("pool",), [FILLER] * 10)
    assert len(state.stock) == 2
    state, trig = attack_with_trigger(("treasure",), [FILLER] * 10)
    assert trig in state.hand and len(state.stock) == 1
    cx = climax("X/W-CX")
    state, _ = attack_with_trigger(("shot",), [FILLER] * 5 + [cx])  # cancelled at once, then 1 damage
    assert state.counters["cancels"] == 1 and state.counters["shot_damage"] == 1
    assert len(state.oclock) == 1


def test_triggers_comeback_gate_choice_and_standby_rested():
    def attack(icons, waiting):
        state = fresh()
        state.stage[0] = char("A/W-0")
        state.deck = [FILLER] * 5 + [char("T/W-T", triggers=icons)]
        state.odeck = [FILLER] * 10
        state.waiting = list(waiting)
        state.attacks_left = 1
        drive(state, state._attack(0))
        return state

    big = char("B/W-2", level=2, soul=2, triggers=("soul",))
    cx = climax("X/W-CX")
    state = attack(("comeback",), [FILLER, big])
    assert big in state.hand
    state = attack(("gate",), [FILLER, cx])
    assert cx in state.hand
    state = attack(("choice",), [FILLER, big])
    assert big in state.hand
    state = attack(("standby",), [char("S/W-1", level=1)])
    assert state.stage[1] is not None and state.stage_state[1] == ws.REST


def test_encore_pays_three_stock_and_returns_rested():
    state = fresh()
    hero = char("H/W-1")
    state.stage[0] = hero
    state.stage_state[0] = ws.REVERSED
    state.stock = [FILLER] * 4
    state.deck = [FILLER] * 10
    state.odeck = [FILLER] * 10

    def encore_step():
        yield from state._leave_stage(0, "reversed")

    seen = drive(state, encore_step())
    assert seen == ["encore"]
    assert state.stage[0] is hero and state.stage_state[0] == ws.REST
    assert len(state.stock) == 1 and len(state.waiting) == 3
    assert state.counters["encores"] == 1


def test_end_of_turn_hand_limit_is_seven():
    state = fresh()
    state.went_first = False
    state.hand = [climax(f"X/W-{i}", colors=("blue",)) for i in range(9)]
    state.deck = [FILLER] * 20
    state.odeck = [FILLER] * 30
    drive(state, state._my_turn(), {"clock": ("skip",)})
    assert len(state.hand) == 7


def test_goldfish_draws_and_discards_down_to_seven():
    state = fresh(options={"dummy_pressure": "off"})
    state.odeck = [FILLER] * 10
    state.ohand = [FILLER] * 7
    assert state._opp_turn() is None  # the pure goldfish asks nothing on its turn
    assert len(state.ohand) == 7 and len(state.owaiting) == 1 and len(state.odeck) == 9


# -- exact mathematics --------------------------------------------------------------------------
def test_opening_hand_frequency_matches_the_hypergeometric():
    """P(at least 1 of the 4 copies of T/W-00 in the 5-card opening hand) = 0.3516 (exact);
    4,000 games give a standard error of 0.0075; tolerance 4 standard errors."""
    target = "T/W-00"
    copies = sum(1 for c in DECK.main if c.code == target)
    assert copies == 4
    n = 4000
    hits = 0
    for i in range(n):
        state = ws.WSState(DECK, game_rng("odds", i), i, {}, None)  # stops at the mulligan
        assert state.pending == "mulligan" and len(state.hand) == 5
        hits += any(c.code == target for c in state.hand)
    p = p_at_least(50, copies, 5)
    se = (p * (1 - p) / n) ** 0.5
    assert abs(hits / n - p) < 4 * se, (hits / n, p)


@pytest.mark.parametrize("deck_size,climaxes,soul", [(20, 4, 3), (30, 6, 2), (12, 3, 5)])
def test_cancel_frequency_matches_the_hypergeometric(deck_size, climaxes, soul):
    """A goldfish deck of ``deck_size`` cards holding ``climaxes`` climaxes cancels a damage of
    ``soul`` exactly when a climax is among the top ``soul`` cards: P = hypergeometric.
    20,000 trials, tolerance 4 standard errors (< 0.014)."""
    cx = climax("X/W-CX")
    n = 20000
    cancels = 0
    base = [cx] * climaxes + [FILLER] * (deck_size - climaxes)
    for i in range(n):
        state = fresh(seed=i)
        rng = game_rng("cancel", i)
        deck = list(base)
        rng.shuffle(deck)
        state.odeck = deck
        if state._damage(soul) == 0:
            cancels += 1
    p = p_at_least(deck_size, climaxes, soul)
    se = (p * (1 - p) / n) ** 0.5
    assert abs(cancels / n - p) < 4 * se, (cancels / n, p)


def test_dummy_climax_option_changes_the_cancel_rate():
    none = run_games(DECK, 1, range(100), options={"dummy_climaxes": 0}).counters
    assert none.get("cancels", 0) == 0
    many = run_games(DECK, 1, range(100), options={"dummy_climaxes": 16}).counters
    assert many["cancels"] > run_games(DECK, 1, range(100)).counters["cancels"]
    with pytest.raises(ValueError, match="dummy_climaxes"):
        play_game(DECK, 1, 0, options={"dummy_climaxes": 60})


# -- the engine contract's hooks (tests/test_engine_contract.py) --------------------------------
# A deck of real cards whose printed abilities the engine plays (AlphaC2 / HOTC texts, © Bushiroad,
# test data): climaxes that draw, charge stock and add soul, a burn combo, a brainstorm, searches,
# heals, a change, an encore, a shift, a cannot-attack, a trigger on the goldfish's turn, an event.
_ABILITY_CARDS = [
    # (copies, code, type, level, cost, soul, colors, traits, triggers, text)
    (4, "AB/W31-112", "climax", None, None, None, ("yellow",), (), ("soul", "soul"),
     "【自】このカードが手札からクライマックス置場に置かれた時、あなたは1枚引き、自分のキャラを1枚選び、そのターン中、"
     "パワーを+2000し、ソウルを+1。"),
    (2, "AB/W11-074", "climax", None, None, None, ("yellow",), (), ("soul", "soul"),
     "【自】このカードが手札からクライマックス置場に置かれた時、あなたは自分の山札の上から1枚を、ストック置場に置き、"
     "自分のキャラすべてに、そのターン中、ソウルを+1。"),
    (2, "AB/W11-024", "climax", None, None, None, ("yellow",), (), ("soul", "shot"),
     "【永】あなたのキャラすべてに、パワーを+1000し、ソウルを+1。"),
    (4, "AB/W11-002", "character", 3, 2, 2, ("yellow",), ("死",), ("soul",),
     "【自】このカードが手札から舞台に置かれた時、あなたは自分のクロックの上から1枚を、控え室に置いてよい。"),
    (4, "AB/W31-106", "character", 3, 2, 2, ("yellow",), ("死",), ("soul",),
     "【自】[(1)]あなたのクライマックス置場に「いつかどこかで」が置かれた時、前列にこのカードがいるなら、あなたは"
     "コストを払ってよい。そうしたら、あなたは自分の山札を見て《死》のキャラを1枚まで選び、舞台の好きな枠に置き、"
     "その山札をシャッフルする。"),
    (4, "FS/S03-089", "character", 0, 0, 1, ("yellow",), (), (),
     "【起】集中[(1)]あなたは自分の山札の上から2枚をめくり、控え室に置く。それらのカードのクライマックス1枚につき、"
     "あなたは1枚引く。"),
    (4, "BD/W47-036", "character", 1, 0, 1, ("yellow",), ("死",), (),
     "【自】このカードが手札から舞台に置かれた時、あなたは自分の山札を見て《死》のキャラを1枚まで選んで相手に見せ、"
     "手札に加え、その山札をシャッフルする。"),
    (4, "AB/W11-056", "character", 2, 1, 2, ("yellow",), ("死",), ("soul",),
     "【自】[(1)]このカードがアタックした時、クライマックス置場に「舞い降りる天使」があるなら、あなたはコストを払って"
     "よい。そうしたら、相手に1ダメージを与える。(ダメージキャンセルは発生する)"),
    (4, "DC3/W18-082", "character", 1, 0, 1, ("yellow",), (), (),
     "【自】チェンジ[(1)手札を1枚控え室に置き、このカードを思い出にする]あなたのアンコールステップの始めに、"
     "このカードが【レスト】しているなら、あなたはコストを払ってよい。そうしたら、あなたは自分の控え室のレベル2以下の"
     "「AB/W11-056」を1枚選び、このカードがいた枠に置く。"),
    (4, "RG/W10-107", "character", 1, 0, 1, ("yellow",), (), (),
     "【自】アンコール[(2)](このカードが舞台から控え室に置かれた時、あなたはコストを払ってよい。そうしたら、"
     "このカードがいた枠に【レスト】して置く)"),
    (3, "GC/S16-106", "character", 1, 0, 1, ("yellow",), (), (),
     "【自】【クロック】シフトレベル1(あなたのメインフェイズの始めに、あなたは自分の手札の黄のカードを1枚と"
     "クロック置場のこのカードを選び、入れ替えてよい)"),
    (3, "DC/W23-043", "character", 0, 0, 1, ("yellow",), (), (), "【永】このカードはダイレクトアタックできない。"),
    (4, "AOT/S50-007", "character", 0, 0, 1, ("yellow",), (), (),
     "【自】相手のターン中、あなたの受けたダメージがキャンセルされなかった時、前列にこのカードがいるなら、あなたは"
     "自分の山札を上から1枚見て、山札の上か控え室に置く。"),
    (2, "DC/W01-095", "event", 1, 1, None, ("yellow",), (), (),
     "あなたは自分のクロックを2枚まで選び、控え室に置く。このカードを思い出にする。"),
    (2, "DC/WE08-65", "event", 0, 0, None, ("yellow",), (), (),
     "あなたは自分の《死》のキャラを1枚選び、そのターン中、パワーを+2000し、ソウルを+2。ターンの終わりに、そのキャラを"
     "思い出にする。"),
]


_NAMES = {"AB/W11-024": "舞い降りる天使", "AB/W31-112": "いつかどこかで"}


def ability_deck() -> Deck:
    """50 real cards with played abilities (the texts above), for the contract suite."""
    cards = []
    for n, code, kind, level, cost, soul, colors, traits, triggers, text in _ABILITY_CARDS:
        card = CardRecord(game="ws", code=code, name=_NAMES.get(code, code), card_type=kind,
                          level=level, cost=cost, soul=soul, power=3000 if kind == "character" else None,
                          colors=colors, traits=traits, triggers=triggers, text=text)
        cards += [card] * n
    assert len(cards) == 50
    return Deck(game="ws", main=tuple(cards))


ABILITY_DECK = ability_deck()
CONTRACT_CASES = [(f"{n}-climaxes", ws_deck(n), {}) for n in (0, 4, 8)] + [
    ("dummy-16-climaxes", DECK, {"dummy_climaxes": 16}), ("pure-goldfish", DECK, {"dummy_pressure": "off"}),
    ("real-abilities", ABILITY_DECK, {}), ("real-abilities-pure", ABILITY_DECK, {"dummy_pressure": "off"})]


def check_state(state: ws.WSState) -> None:
    """WS invariants at every step of random play: the goldfish's 50 cards, levels below 4."""
    assert sum(len(z) for z in state.goldfish_zones().values()) == 50
    assert len(state.level) <= 4 and len(state.olevel) <= 4


def test_illegal_actions_are_refused():
    state = ws.WSState(DECK, game_rng(1, 0), 0, {}, None)
    with pytest.raises(ValueError, match="illegal"):
        state.apply(Action("main", ("end",)))
    with pytest.raises(ValueError, match="illegal"):
        state.apply(Action("mulligan", ("discard", "NOPE")))


def test_unmodelled_cards_are_listed():
    assert [c.code for c in DECK.unmodelled()] == ["T/W-03"]


def random_decks() -> st.SearchStrategy[Deck]:
    """Decks for the contract's "the greedy pilot finishes any deck" property."""
    return random_ws_decks()


@st.composite
def random_ws_decks(draw):
    """Any mix of characters, events and climaxes with any stats and icons (10-50 cards)."""
    n = draw(st.integers(10, 50))
    cards = []
    for i in range(n):
        kind = draw(st.sampled_from(["character", "character", "event", "climax"]))
        colors = (draw(st.sampled_from(["yellow", "green", "red", "blue"])),)
        icons = tuple(draw(st.lists(st.sampled_from(ws_triggers), max_size=2)))
        if kind == "climax":
            cards.append(climax(f"R/W-{i}", colors, icons, soul=draw(st.integers(0, 2))))
        elif kind == "event":
            cards.append(CardRecord(game="ws", code=f"R/W-{i}", name="e", card_type="event", colors=colors,
                                    level=draw(st.integers(0, 3)), cost=draw(st.integers(0, 3)), triggers=icons))
        else:
            cards.append(char(f"R/W-{i}", draw(st.integers(0, 3)), draw(st.integers(0, 3)), draw(st.integers(0, 3)),
                              draw(st.integers(0, 12000)), colors, icons))
    return Deck(game="ws", main=tuple(cards))


ws_triggers = ("soul", "draw", "pool", "comeback", "return", "treasure", "shot", "gate", "choice", "standby")
