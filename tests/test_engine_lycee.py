"""Lycee goldfish engine: golden scenarios (GAMES.md §5), exact-maths checks.

The contract every engine meets is checked in tests/test_engine_contract.py, with this module's
hooks ``CONTRACT_CASES`` and ``check_state``.
"""
from __future__ import annotations

import random

import pytest

from rules.cards import CardRecord
from rules.engine.core import Action, Deck, EventLog, game_rng, play_game, run_games
from rules.lycee import engine as lycee
from rules.odds import p_at_least
from tests.engine_fixtures import drive as engine_drive
from tests.engine_fixtures import fixture_decks


def ch(code: str, name: str = "", attrs: tuple = ("flower",), cost: dict | None = None, ap: int = 1,
       dp: int = 1, sp: int = 1, ex: int = 1, slots: tuple = (), keywords: tuple = (),
       keyword_costs: dict | None = None, effects: tuple = (), text: str = "", **kw) -> CardRecord:
    cost = {"flower": 1} if cost is None else cost
    return CardRecord(game="lycee", code=code, name=name or f"girl {code}", card_type="character",
                      attributes=attrs, cost=sum(cost.values()), cost_detail=cost, ap=ap, dp=dp, sp=sp, ex=ex,
                      slots=slots, keywords=keywords, keyword_costs=keyword_costs or {}, effects=effects,
                      text=text, text_modelled=bool(effects), **kw)


def card(code: str, ctype: str, attrs: tuple = ("flower",), cost: dict | None = None, ex: int = 1,
         effects: tuple = (), text: str = "") -> CardRecord:
    cost = {"star": 1} if cost is None else cost
    return CardRecord(game="lycee", code=code, name=f"{ctype} {code}", card_type=ctype, attributes=attrs,
                      cost=sum(cost.values()), cost_detail=cost, ex=ex, effects=effects, text=text,
                      text_modelled=bool(effects))


FILLER = ch("CH-9999", "filler", ap=1, dp=1, ex=1)
# the worked example's cards (seed 004): エーデルフェルト姉妹（偽） AP3/DP3, エウリュアレ AP1/DP2, ステンノ SP2
SISTERS = ch("CH-0587", "Edelfelt sisters", attrs=("moon", "space"), ap=3, dp=3, sp=1)
EURYALE = ch("CH-0598", "Euryale", ap=1, dp=2, sp=1, ex=2)
STHENO = ch("CH-0597", "Stheno", ap=1, dp=1, sp=2, ex=2)


def lycee_deck() -> Deck:
    """60 cards: 11 characters ×4 over the attributes, a DF stepper, an aggressive one, 16 events
    (four with unmodelled text)."""
    cards: list[CardRecord] = []
    attrs = ("snow", "moon", "flower", "space", "sun")
    for i in range(11):
        a = attrs[i % 5]
        cost = {a: 1, "star": i % 3} if i % 3 else {a: 1}
        kw: tuple = ()
        slots: tuple = ()
        if i == 3:
            kw = ("aggressive",)
        if i == 4:
            kw, slots = ("step",), ("DF-L", "DF-C", "DF-R")
        if i == 5:
            slots = ("AF-C",)
        cards += [ch(f"CH-{i:04}", attrs=(a,), cost=cost, ap=1 + i % 3, dp=1 + (i + 1) % 3, ex=1 + i % 2,
                     keywords=kw, slots=slots)] * 4
    for i in range(16):
        cards.append(card(f"EV-{i % 8:04}", "event", attrs=(attrs[i % 5],), ex=2,
                          text="Draw a card and do something." if i % 8 == 7 else ""))
    return Deck(game="lycee", main=tuple(cards))


DECK = lycee_deck()


def fresh(hand=(), field=None, opp_field=None, deck_size: int = 30, odeck: int = 40,
          log: EventLog | None = None, turn: int = 1) -> lycee.LyceeState:
    """A hand-built state: ``field`` is ``{slot: card}`` (deployed earlier), the player's turn ``turn``
    comes next (going second: 2 draws)."""
    state = lycee.LyceeState(DECK, random.Random(0), 0, {"opp_field": opp_field or {}}, log, setup=False)
    state.deck = [FILLER] * deck_size
    state.hand = list(hand)
    for slot, c in (field or {}).items():
        state.field[lycee.SLOT_INDEX[slot]] = lycee.Char(c, 0)
    state.odeck = odeck
    state.went_first = False
    state.turn = turn - 1
    state.rescan()  # the cards put in by hand count for what the engine and the pilot look for
    return state


def drive(state: lycee.LyceeState, answers: list[tuple] | None = None) -> list[str]:
    """Play one turn of ``state`` through the generic contract; ``answers`` are consumed in order
    for the ``main`` decisions (then the greedy pilot decides). Returns the decision kinds met."""
    return engine_drive(state, state._my_turn(), lycee.GreedyPilot(), {"main": list(answers or [])})


# -- golden scenarios from GAMES.md ---------------------------------------------------------------
def test_battle_result_of_the_worked_example():
    # AP3/DP3 attacks AP1/DP2: the defender is downed, the attacker survives
    assert lycee.battle_result(3, 3, 1, 2) == (False, True)
    # with an SP2 supporter the defender has DP 4 > 3: nobody is downed
    assert lycee.battle_result(3, 3, 1, 2 + 2) == (False, False)
    # both downed; Dash keeps its character when the other one is downed
    assert lycee.battle_result(3, 1, 3, 1) == (True, True)
    assert lycee.battle_result(3, 1, 3, 1, att_dash=True) == (False, True)
    assert lycee.battle_result(3, 1, 3, 1, def_dash=True) == (True, False)


def test_worked_example_defended_the_defender_is_downed():
    log = EventLog()
    state = fresh(field={"AF-C": SISTERS}, opp_field={"DF-C": EURYALE}, log=log)
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.ofield[4] is None, "Euryale (DP2) is downed by AP3"
    assert state.field[1] is not None and not state.field[1].standing, "the attacker survives, rested"
    assert state.odeck == 40 and state.counters["milled"] == 0
    assert state.counters["downed_opp"] == 1 and state.counters["downed_own"] == 0
    assert "defender downed" in log.as_text()


def test_worked_example_with_an_sp2_supporter_nobody_is_downed():
    state = fresh(field={"AF-C": SISTERS}, opp_field={"DF-C": EURYALE, "AF-C": STHENO})
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.ofield[4] is not None and state.ofield[4].card is EURYALE, "DP 2+2 = 4 > AP 3"
    assert not state.ofield[1].standing, "Stheno rested to support"
    assert state.field[1] is not None
    assert state.counters["supports"] == 1 and state.counters["downed_opp"] == 0


def test_worked_example_undefended_mills_the_printed_ap():
    state = fresh(field={"AF-C": SISTERS})
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.odeck == 40 - 3 and state.per_turn() == {"milled": [3]}
    # an item's AP bonus does not change the mill: the printed AP counts
    state = fresh(field={"AF-C": SISTERS})
    state.field[1].item = card("IT-0001", "item", effects=({"kind": "stat_mod", "ap": 2},))
    state._recompute(state.field[1], 1)
    assert state.field[1].ap == 5
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.odeck == 37


def test_cost_three_paid_by_two_ex2_cards_wastes_one():
    sakura = ch("CH-0404", "Matou Sakura", cost={"flower": 3}, ap=2)
    escort = card("EV-0194", "event", attrs=("flower",), ex=2)
    state = fresh(hand=[sakura, STHENO, escort])
    state.deck = [FILLER] * 30
    drive(state, [("deploy", "CH-0404", 0), ("end",)])
    assert state.field[0] is not None and state.field[0].card is sakura
    assert sorted(c.code for c in state.dust) == ["CH-0597", "EV-0194"]
    assert state.counters["wasted_mana"] == 1
    assert lycee.can_pay({"flower": 3}, [STHENO, escort])
    assert not lycee.can_pay({"flower": 3}, [STHENO])


def test_star_and_colorless_payment_rules():
    colorless = card("EV-0001", "event", attrs=("star",), ex=2)
    snow = card("EV-0002", "event", attrs=("snow",), ex=1)
    rainbow = card("EV-0003", "event", attrs=("snow", "moon", "flower", "space", "sun"), ex=1)
    assert lycee.can_pay({"star": 2}, [colorless]), "a star symbol takes any mana, colorless too"
    assert not lycee.can_pay({"snow": 1}, [colorless]), "colorless mana pays only star symbols"
    assert lycee.can_pay({"snow": 1, "star": 2}, [snow, colorless])
    assert not lycee.can_pay({"snow": 2}, [snow, colorless])
    assert lycee.can_pay({"moon": 1}, [rainbow]) and lycee.can_pay({"sun": 1}, [rainbow])
    assert not lycee.can_pay({"moon": 1, "sun": 1}, [rainbow]), "one card gives one attribute"
    assert lycee.can_pay({"moon": 1, "sun": 1}, [rainbow, rainbow])
    # the least valuable cards are chosen, and none that the payment does not need
    hand = [snow, colorless, rainbow]
    assert lycee.find_payment({"snow": 1}, hand, [1, 0, 2]) == (0,)
    assert lycee.find_payment({"star": 1}, hand, [1, 0, 2]) == (1,)
    assert lycee.find_payment({"snow": 1, "moon": 1}, hand, [0, 1, 2]) == (0, 2)
    assert lycee.find_payment({"snow": 3}, hand, [0, 1, 2]) is None


def test_position_restriction_and_same_name_rule():
    centre = ch("CH-0100", "centre only", slots=("AF-C",))
    back = ch("CH-0101", "defender", slots=("DF-L", "DF-C", "DF-R"))
    twin = ch("CH-0102", "Sakura", alt_names=("Dark Sakura",))
    dark = ch("CH-0103", "Dark Sakura")
    state = fresh(hand=[centre, back, twin, FILLER, FILLER, FILLER], field={"AF-L": dark})
    state.start(state.scenario(state._my_turn()))
    opts = state.options_main()
    assert {o[2] for o in opts if o[:2] == ("deploy", "CH-0100")} == {1}
    assert {o[2] for o in opts if o[:2] == ("deploy", "CH-0101")} == {3, 4, 5}
    assert not [o for o in opts if o[:2] == ("deploy", "CH-0102")], "an alias of a name on the field"
    # the slot taken by the centre-only card disappears from the others' options
    state.apply(Action("main", ("deploy", "CH-0100", 1)))
    assert all(o[2] != 1 for o in state.options_main() if o[0] == "deploy")


def test_new_characters_attack_only_next_turn_unless_aggressive():
    plain = ch("CH-0200", "plain", ap=2)
    aggressive = ch("CH-0201", "rusher", ap=2, keywords=("aggressive",))
    state = fresh(hand=[plain, aggressive, FILLER, FILLER, FILLER])
    state.start(state.scenario(state._my_turn()))
    state.apply(Action("main", ("deploy", "CH-0200", 0)))
    state.apply(Action("main", ("deploy", "CH-0201", 2)))
    attacks = [o for o in state.options_main() if o[0] == "attack"]
    assert attacks == [("attack", 2, 2)]
    state.apply(Action("main", ("attack", 2, 2)))
    assert state.odeck == 38


def test_step_moves_a_back_row_character_up_and_the_pilot_uses_it():
    stepper = ch("CH-0300", "stepper", ap=2, keywords=("step",), slots=("DF-C",))
    state = fresh(field={"DF-C": stepper})
    drive(state)  # the greedy pilot
    assert state.field[4] is None and state.field[1] is not None and state.field[1].card is stepper
    assert state.counters["moves"] == 1 and state.odeck == 40 - 2
    # a Step with a cost pays it (the least valuable card); without the means it cannot move
    paid = ch("CH-0302", "paid stepper", ap=2, keywords=("step",), keyword_costs={"step": {"star": 1}},
              slots=("DF-L",))
    state = fresh(field={"DF-L": paid})
    drive(state)
    assert state.field[0] is not None and state.field[0].card is paid and len(state.dust) >= 1
    state = fresh(field={"DF-L": paid})
    state.hand = []
    assert state.move_keyword(3, 0) is None
    state.hand = [FILLER]
    state.version += 1  # zones edited by hand: drop the memoised payments
    assert state.move_keyword(3, 0) == ("step", (0,))
    # sidestep only sideways, orderstep only forwards/backwards, jump anywhere
    assert set(lycee.moves(4, "sidestep")) == {3, 5}
    assert set(lycee.moves(4, "orderstep")) == {1}
    assert set(lycee.moves(0, "step")) == {1, 3}
    assert len(lycee.moves(0, "jump")) == 5


def test_sideattack_may_choose_a_neighbouring_column():
    side = ch("CH-0301", "flanker", ap=1, keywords=("sideattack",))
    state = fresh(field={"AF-L": side, "AF-R": FILLER}, opp_field={"DF-L": EURYALE})
    state.start(state.scenario(state._my_turn()))
    attacks = [o for o in state.options_main() if o[0] == "attack"]
    assert ("attack", 0, 0) in attacks and ("attack", 0, 1) in attacks
    assert ("attack", 2, 1) not in attacks, "no sideattack: own column only"
    state.apply(Action("main", ("attack", 0, 1)))  # column C is undefended: mill the printed AP
    assert state.odeck == 39 and state.ofield[3] is not None


def test_supporter_supports_without_resting_and_attacker_overrides_the_stat():
    attacker = ch("CH-0400", "attacker", ap=2, dp=2)
    helper = ch("CH-0401", "helper", sp=1, keywords=("supporter",))
    state = fresh(field={"AF-C": attacker, "AF-L": helper}, opp_field={"DF-C": EURYALE})
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.ofield[4] is None, "AP 2+1 = 3 > DP 2"
    assert state.field[0].standing and state.field[0].supported, "Supporter: no rest, once a turn"
    # an Attacker defender gets its supporters' SP on AP even in DF: AP 2+2 = 4 > DP 3
    hitter = ch("CH-0402", "counter", ap=2, dp=5, keywords=("attacker",))
    state = fresh(field={"AF-C": SISTERS}, opp_field={"DF-C": hitter, "AF-C": STHENO})
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.field[1] is None and state.counters["downed_own"] == 1
    assert SISTERS in state.dust and state.ofield[4] is not None


def test_taxes_trash_and_wakeup():
    trash = ch("CH-0500", "taxed", ap=2, keywords=("tax_trash", "penalty"),
               keyword_costs={"tax_trash": {"snow": 1}}, effects=({"kind": "draw", "n": 1, "when": "penalty"},))
    sleepy = ch("CH-0501", "sleepy", ap=2, keywords=("tax_wakeup",), keyword_costs={"tax_wakeup": {"star": 1}})
    # nothing in hand: the trash tax cannot be paid → dust box, and its Penalty draws 1
    state = fresh(field={"AF-L": trash})
    seen = drive(state)
    assert seen[0] == "tax" and trash in state.dust
    assert all(c is None or c.card is not trash for c in state.field)
    assert len(state.hand) + len(state.dust) + state.counters["deployed"] == 1 + 1 + 2, "penalty 1 + draw 2"
    # unpaid tax wakeup: it stays rested and cannot attack
    state = fresh(field={"AF-R": sleepy})
    state.field[2].standing = False
    drive(state)
    assert not state.field[2].standing and state.odeck == 40
    # paid with the least valuable card: it stays and attacks
    state = fresh(hand=[card("EV-0900", "event", attrs=("snow",))], field={"AF-L": trash})
    drive(state)
    assert state.counters["taxes_paid"] == 1 and state.field[0] is not None and state.odeck == 38


def test_bonus_resolves_after_downing_the_defender():
    bonus = ch("CH-0601", "bonus", ap=3, dp=3, keywords=("bonus",),
               effects=({"kind": "draw", "n": 2, "when": "bonus"},))
    state = fresh(field={"AF-C": bonus}, opp_field={"DF-C": EURYALE})
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.ofield[4] is None and len(state.hand) == 2 + 2


def test_deck_bonus_resolves_after_deck_damage():
    bonus = ch("CH-0600", "bonus", ap=2, keywords=("deck_bonus",),
               effects=({"kind": "opp_mill", "n": 1, "when": "deck_bonus"}, {"kind": "draw", "n": 1, "when": "deck_bonus"}))
    state = fresh(field={"AF-L": bonus})
    drive(state, [("attack", 0, 0), ("end",)])
    assert state.odeck == 40 - 2 - 1 and len(state.hand) == 2 + 1


def test_items_areas_and_conversion():
    girl = ch("CH-0700", "Sakura", ap=1, dp=1)
    convert = ch("CH-0701", "Dark Sakura", ap=3, conversion_target="Sakura")
    sword = card("IT-0700", "item", effects=({"kind": "stat_mod", "ap": 1, "dp": 2},))
    garden = card("AR-0700", "area", effects=({"kind": "stat_mod", "sp": 1},))
    spare = card("EV-0701", "event")  # the least valuable cards pay first
    state = fresh(hand=[spare, spare, convert, sword, garden, FILLER], field={"AF-L": girl})
    state.start(state.scenario(state._my_turn()))
    opts = state.options_main()
    assert ("convert", "CH-0701", 0) in opts
    assert ("item", "IT-0700", 0) in opts and ("area", "AR-0700", 5) in opts
    state.apply(Action("main", ("item", "IT-0700", 0)))
    assert (state.field[0].ap, state.field[0].dp) == (2, 3)
    assert not [o for o in state.options_main() if o[0] == "item"], "one item per character"
    state.apply(Action("main", ("area", "AR-0700", 0)))
    assert state.field[0].sp == 2
    state.apply(Action("main", ("convert", "CH-0701", 0)))
    assert state.field[0].card is convert and girl in state.hand and sword in state.dust
    assert "Sakura" in state.field[0].names


def test_hand_limit_and_first_player_draws_one():
    state = fresh(hand=[card(f"EV-08{i:02}", "event") for i in range(7)], deck_size=30)
    seen = drive(state, [("end",)])
    assert seen.count("discard") == 2 and len(state.hand) == 7
    state = lycee.LyceeState(DECK, game_rng(1, 0), 0, {"first": "me"}, None)
    assert state.turn == 1 and len(state.hand) == 8 and len(state.deck) == 60 - 8


def test_win_and_loss_by_deck_out():
    state = fresh(field={"AF-L": SISTERS}, odeck=3)
    drive(state, [("attack", 0, 0)])
    assert state.outcome == "win" and state.odeck == 0
    state = fresh(deck_size=2)
    drive(state, [])
    assert state.outcome == "loss" and "0 cards" in state.reason


def test_opening_hand_always_holds_a_character():
    """4 copies of X and 4 other characters in 60: the opening 7 is redrawn while it has no
    character, so P(X in hand) = P(X in 7) / P(any character in 7). 4,000 games, 4 standard errors."""
    x = ch("CH-1000", "X")
    other = ch("CH-1001", "Y")
    ev = card("EV-1000", "event")
    deck = Deck(game="lycee", main=(x,) * 4 + (other,) * 4 + (ev,) * 52)
    n = 4000
    hits = redraws = 0
    for i in range(n):
        state = lycee.LyceeState(deck, game_rng("odds", i), i, {}, None)
        hand = state.opening_hand
        assert len(hand) == 7 and any(c.card_type == "character" for c in hand)
        hits += x in hand
        redraws += state.counters["redraws"]
    p = p_at_least(60, 4, 7) / p_at_least(60, 8, 7)
    se = (p * (1 - p) / n) ** 0.5
    assert abs(hits / n - p) < 4 * se, (hits / n, p)
    assert redraws > 0


# -- the engine contract's hooks (tests/test_engine_contract.py) --------------------------------
CONTRACT_CASES = [("test-deck", DECK, {}), ("test-deck-small-dummy", DECK, {"dummy_deck_size": 20})]
try:  # the real legal 60-card deck of one title (bench/lycee_real.py), when the card data is there
    from bench.lycee_real import JSONL as _JSONL
    from bench.lycee_real import title_deck as _title_deck

    if _JSONL.exists():
        CONTRACT_CASES.append(("real-title-deck", _title_deck()[1], {}))
except ImportError:  # pragma: no cover - the bench is part of the repository
    pass


def check_state(state: lycee.LyceeState) -> None:
    """Lycee invariants at every step of random play: the dummy's counts, the same-name rule."""
    assert state.odeck >= 0 and state.ohand >= 0 and state.odust >= 0
    assert len([c for c in state.field if c is not None]) <= 6
    names = [c.card.name for c in state.field if c is not None]
    assert len(names) == len(set(names)), "two characters of the same name"


def test_the_log_and_the_statistics():
    text = play_game(DECK, "s", 3, log=True)[1].as_text()
    assert "opening hand" in text and "undefended: the dummy mills" in text
    whole = run_games(DECK, 9, range(60))
    assert whole.outcomes["win"] == 60 and sum(whole.per_turn["milled"].values()) == whole.counters["milled"]
    assert whole.first_playable and whole.summary()["extras"]["ratios"]["milled_per_attack"]["value"] > 1


def test_illegal_actions_are_refused():
    state = lycee.LyceeState(DECK, game_rng(1, 0), 0, {}, None)
    with pytest.raises(ValueError, match="illegal"):
        state.apply(Action("main", ("deploy", "NOPE", 0)))
    with pytest.raises(ValueError, match="dummy_deck_size"):
        lycee.LyceeState(DECK, game_rng(1, 0), 0, {"dummy_deck_size": 3}, None)


def test_unmodelled_cards_are_listed():
    assert [c.code for c in DECK.unmodelled()] == ["EV-0007"]


# -- the sample decks -----------------------------------------------------------------------------
@pytest.mark.parametrize("name,deck", fixture_decks("lycee"), ids=lambda x: x if isinstance(x, str) else "")
def test_every_sample_deck_plays(name, deck):
    assert len(deck.main) == 60
    stats = run_games(deck, "fixtures", range(40))
    assert stats.games == 40 and stats.outcomes["win"] + stats.outcomes["loss"] + stats.outcomes["capped"] == 40
    assert stats.outcomes["win"] > 30, stats.outcomes
    log = play_game(deck, "fixtures", 0, log=True)[1].as_text()
    assert "deploy" in log and "attacks" in log


# -- issue 16: battles (wrong result 5) and DMG (wrong result 6) ---------------------------------------
SNOW_FILLER = ch("CH-9998", "snow filler", attrs=("snow",), cost={"snow": 1}, ap=1, dp=1, ex=1)


def test_a_rested_supporter_cannot_support():
    attacker = ch("CH-0410", "attacker", ap=2, dp=2)
    helper = ch("CH-0411", "helper", sp=1, keywords=("supporter",))
    state = fresh(field={"AF-C": attacker, "AF-L": helper}, opp_field={"DF-C": EURYALE})
    state.start(state.scenario(state._my_turn()))
    state.field[0].standing = False  # rested after the wake-up (it attacked earlier this turn)
    state.apply(Action("main", ("attack", 1, 1)))
    assert state.ofield[4] is not None, "AP 2 against DP 2: nobody supports, Euryale survives"
    assert state.counters["supports"] == 0 and state.counters["downed_opp"] == 0
    assert (state.field[0].standing, state.field[0].supported) == (False, False)


def test_a_supporter_pays_its_printed_support_cost():
    attacker = ch("CH-0420", "attacker", ap=2, dp=2)
    helper = ch("CH-0421", "paid helper", sp=1, keywords=("supporter",), keyword_costs={"supporter": {"flower": 1}})
    coin = card("EV-0420", "event", attrs=("flower",), ex=1)
    # the cost is paid from the hand (the least valuable card): it supports without resting
    state = fresh(hand=[coin], field={"AF-C": attacker, "AF-L": helper}, opp_field={"DF-C": EURYALE})
    state.deck = [SNOW_FILLER] * 30
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.ofield[4] is None, "AP 2+1 = 3 > DP 2"
    assert coin in state.dust and coin not in state.hand
    assert (state.field[0].standing, state.field[0].supported) == (True, True)
    # nothing in hand pays flower: it supports like any character, resting
    state = fresh(field={"AF-C": attacker, "AF-L": helper}, opp_field={"DF-C": EURYALE})
    state.deck = [SNOW_FILLER] * 30
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.ofield[4] is None and state.dust == []
    assert (state.field[0].standing, state.field[0].supported) == (False, False)
    # the dummy has no hand: its Supporter with a cost rests to support
    state = fresh(field={"AF-C": SISTERS}, opp_field={"DF-C": EURYALE, "AF-C": helper})
    drive(state, [("attack", 1, 1), ("end",)])
    assert (state.ofield[1].standing, state.ofield[1].supported) == (False, False)
    assert state.ofield[4] is not None, "DP 2+1 = 3 is not lower than AP 3: Euryale survives"


def test_a_converted_character_cannot_be_converted_again():
    girl = ch("CH-0710", "Sakura", ap=1, dp=1)
    dark = ch("CH-0711", "Dark Sakura", ap=3, conversion_target="Sakura")
    other = ch("CH-0712", "Sakura Alter", ap=4, conversion_target="Sakura")
    state = fresh(hand=[dark, other, FILLER, FILLER, FILLER, FILLER], field={"AF-L": girl})
    state.start(state.scenario(state._my_turn()))
    assert {o for o in state.options_main() if o[0] == "convert"} == {("convert", "CH-0711", 0),
                                                                      ("convert", "CH-0712", 0)}
    state.apply(Action("main", ("convert", "CH-0711", 0)))
    assert state.field[0].card is dark and "Sakura" in state.field[0].names
    assert not [o for o in state.options_main() if o[0] == "convert"], "Dark Sakura is a converted character"


def test_bonus_resolves_even_when_the_attacker_is_downed():
    bonus = ch("CH-0602", "bonus", ap=3, dp=1, keywords=("bonus",), effects=({"kind": "draw", "n": 2, "when": "bonus"},))
    brute = ch("CH-0603", "brute", ap=3, dp=2)
    state = fresh(field={"AF-C": bonus}, opp_field={"DF-C": brute})
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.ofield[4] is None and state.field[1] is None, "AP 3 > DP 2 and AP 3 > DP 1: both downed"
    assert bonus in state.dust and len(state.hand) == 2 + 2, "turn draw 2 + bonus draw 2"


def test_a_card_that_prints_dmg_deals_its_dmg_to_the_deck():
    printed = ch("CH-0900", "Overture girl", ap=3, dmg=1)
    classic = ch("CH-0901", "classic girl", ap=3)
    log = EventLog()
    state = fresh(field={"AF-L": printed, "AF-R": classic}, log=log)
    drive(state, [("attack", 0, 0), ("attack", 2, 2), ("end",)])
    assert state.odeck == 40 - 1 - 3, "DMG 1 (not AP 3), then the printed AP 3 of a card without DMG"
    assert (state.counters["damage_by_dmg"], state.counters["damage_by_ap"]) == (1, 1)
    text = log.as_text()
    assert "the dummy mills 1 (DMG 1)" in text and "the dummy mills 3 (printed AP 3)" in text
    # a DMG change counts (the card's own text beats the basic rule); an AP change never does
    state = fresh(field={"AF-L": printed})
    state.field[0].item = card("IT-0900", "item", effects=({"kind": "stat_mod", "ap": 2, "dmg": 2},))
    state._recompute(state.field[0], 0)
    drive(state, [("attack", 0, 0), ("end",)])
    assert state.odeck == 40 - 3
    # the report names which value was used
    deck = Deck(game="lycee", main=(printed,) * 30 + (classic,) * 30)
    report = run_games(deck, 1, range(20)).summary()["extras"]
    assert report["counters"]["damage_by_dmg"]["total"] > 0 and report["counters"]["damage_by_ap"]["total"] > 0
    assert "DMG" in report["descriptions"]["damage_by_dmg"]


# -- issue 16: Escape and Touch; items and areas on the dummy's side ---------------------------------
def test_escape_sends_a_standing_character_to_the_dust_box():
    runner = ch("CH-0950", "runner", ap=0, keywords=("escape",))
    paid = ch("CH-0951", "paid runner", ap=0, keywords=("escape",), keyword_costs={"escape": {"snow": 1}})
    state = fresh(field={"AF-L": runner, "AF-C": paid})
    state.deck = [FILLER] * 30  # flower cards: the snow cost cannot be paid
    state.start(state.scenario(state._my_turn()))
    assert ("escape", 0) in state.options_main() and ("escape", 1) not in state.options_main()
    state.apply(Action("main", ("escape", 0)))
    assert state.field[0] is None and state.dust == [runner] and state.counters["escapes"] == 1
    # a rested character cannot escape
    state = fresh(field={"AF-L": runner})
    state.start(state.scenario(state._my_turn()))
    state.field[0].standing = False
    assert ("escape", 0) not in state.options_main()


def test_touch_swaps_places_with_the_character_of_the_same_column():
    toucher = ch("CH-0960", "toucher", ap=3, keywords=("touch",), slots=("DF-C",))
    front = ch("CH-0961", "front", ap=0)
    log = EventLog()
    state = fresh(field={"AF-C": front, "DF-C": toucher}, log=log)
    drive(state)  # the greedy pilot: the stronger back-row character swaps forward, then attacks
    assert state.field[1].card is toucher and state.field[4].card is front
    assert state.field[1].touched and state.odeck == 40 - 3 and state.counters["moves"] == 1
    assert "Touch: toucher (DF-C) and front (AF-C) swap places" in log.as_text()
    # once a turn, both standing
    state = fresh(field={"AF-C": front, "DF-C": toucher})
    state.start(state.scenario(state._my_turn()))
    state.field[1].standing = False
    assert ("touch", 4) not in state.options_main()
    state.field[1].standing = True
    state.apply(Action("main", ("touch", 4)))
    assert ("touch", 1) not in state.options_main(), "Touch used this turn"


def test_items_and_areas_may_go_on_the_dummys_side():
    curse = card("IT-0970", "item", effects=({"kind": "stat_mod", "dp": -2},))
    swamp = card("AR-0970", "area", effects=({"kind": "stat_mod", "dp": -1},))
    fodder = card("EV-0971", "event")  # pays the star costs before the area does (same value, earlier in hand)
    state = fresh(hand=[curse, fodder, fodder, swamp], field={"AF-C": SISTERS}, opp_field={"DF-C": EURYALE})
    state.start(state.scenario(state._my_turn()))
    opts = state.options_main()
    assert ("item", "IT-0970", 1) in opts and ("item", "IT-0970", 6 + 4) in opts, "mine or the dummy's character"
    assert ("area", "AR-0970", 6 + 0) in opts and ("area", "AR-0970", 6 + 4) in opts
    state.apply(Action("main", ("item", "IT-0970", 10)))
    state.apply(Action("main", ("area", "AR-0970", 10)))
    assert state.ofield[4].item is curse and state.oareas[4] is swamp and state.ofield[4].dp == 2 - 2 - 1
    assert state.card_zones()["opp_side"] == [curse, swamp]
    # Euryale DP -1 is downed by AP 3; my item on it goes to my dust box, my area stays on its slot
    state.apply(Action("main", ("attack", 1, 1)))
    assert state.ofield[4] is None and curse in state.dust and state.oareas[4] is swamp


def test_the_pilot_escapes_a_front_character_without_damage_for_a_better_one():
    runner = ch("CH-0952", "runner", ap=0, keywords=("escape",), slots=("AF-L",))
    hitter = ch("CH-0953", "hitter", ap=3, slots=("AF-L",))
    state = fresh(hand=[hitter, FILLER], field={"AF-L": runner, "AF-C": FILLER, "AF-R": SISTERS})
    drive(state)
    assert runner in state.dust and state.field[0].card is hitter and state.counters["escapes"] == 1
