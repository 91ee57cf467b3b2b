"""Phantasmagoria goldfish engine: golden scenarios (GAMES.md §2), exact-maths checks.

The contract every engine meets is checked in tests/test_engine_contract.py, with this module's
hooks ``CONTRACT_CASES`` and ``check_state``.
"""
from __future__ import annotations

import random

import pytest

from rules.cards import CardRecord
from rules.engine.core import Action, Deck, EventLog, game_rng, get_engine, play_game, run_games
from rules.odds import p_at_least
from rules.phantasma import engine as phantasma
from tests.engine_fixtures import catalog_options, fixture_decks
from tests.engine_fixtures import drive as engine_drive

ATTRS = phantasma.ATTRS


def ch(code: str, mhp: int = 400, values: tuple = (300, 300, 300, 300, 300), cost: int = 1,
       attr: str = "martial", cost_detail: dict | None = None, text: str = "") -> CardRecord:
    return CardRecord(game="phantasma", code=code, name=f"char {code}", card_type="character", work="T",
                      number=code, cost=cost, cost_detail=cost_detail or {"white": cost}, mhp=mhp,
                      attributes=(attr,), text=text, **dict(zip(ATTRS, values, strict=True)))


def battle(code: str, atk: str, dfn: str) -> CardRecord:
    return CardRecord(game="phantasma", code=code, name=f"battle {code}", card_type="battle", work="T",
                      number=code, attack_attribute=atk, defense_attribute=dfn)


def item(code: str, kind: str = "attack_mod", amount: int = 100, cost: dict | None = None) -> CardRecord:
    return CardRecord(game="phantasma", code=code, name=f"item {code}", card_type="item", work="T", number=code,
                      cost=1, cost_detail=cost or {"white": 1}, text=f"{kind} {amount}", text_modelled=True,
                      effects=({"kind": kind, "amount": amount, "target": "equipped"},))


ACE = ch("ACE", mhp=500, values=(500, 300, 200, 200, 200), cost=3)
STRIKE = battle("B-MA", "martial", "agility")
EVENT = CardRecord(game="phantasma", code="E-1", name="a trick", card_type="event", work="T", number="E-1",
                   cost=1, cost_detail={"white": 1}, text="Something clever.")
FILLER = ch("V-00")
DUMMY = {"dummy_mhp": 1000, **{f"dummy_{a}": 200 for a in ATTRS}}


def ph_deck() -> Deck:
    cards: list[CardRecord] = []
    for i in range(8):
        cards += [ch(f"V-{i:02}", 300 + 100 * (i % 3), tuple(100 * (1 + (i + j) % 5) for j in range(5)), 1 + i % 3,
                     ATTRS[i % 5])] * 4
    for i in range(5):
        cards += [battle(f"B-{i}", ATTRS[i], ATTRS[(i + 2) % 5])] * 4
    cards += [item("I-1")] * 4 + [EVENT] * 4 + [FILLER] * 0
    return Deck(game="phantasma", main=tuple(cards),
                zones={"ace": (ACE,), "ex": (CardRecord(game="phantasma", code="X-1", name="EX", card_type="ex_skill",
                                                        ex_condition=4, text="Until end of turn, +200 attack.",
                                                        text_modelled=True, effects=({"kind": "attack_mod",
                                                                                      "amount": 200},)),)})


DECK = ph_deck()


def fresh(hand=(), vanguards=(), battle_cards=(), deck_size: int = 30, log: EventLog | None = None,
          turn: int = 1, first: bool = False, dummy: dict | None = None) -> phantasma.PhantasmaState:
    state = phantasma.PhantasmaState(DECK, random.Random(0), 0, {**DUMMY, **(dummy or {})}, log, setup=False)
    state.deck = [FILLER] * deck_size
    state.hand = list(hand)
    state.vanguards = [phantasma.Char(c) for c in vanguards]
    state.battle = [[c, False] for c in battle_cards]
    state.went_first = first
    state.turn = turn - 1
    return state


def drive(state: phantasma.PhantasmaState, answers: list[tuple] | None = None) -> list[str]:
    """Play one turn; ``answers`` are consumed in order for the ``main`` decisions."""
    return engine_drive(state, state._my_turn(), phantasma.GreedyPilot(), {"main": list(answers or [])})


# -- golden scenarios from GAMES.md ---------------------------------------------------------------
def test_ace_mhp_is_doubled_and_the_ace_starts_rested():
    assert phantasma.Char(ACE, is_ace=True).mhp == 1000
    assert phantasma.Char(ACE).mhp == 500
    state = phantasma.PhantasmaState(DECK, game_rng(1, 0), 0, DUMMY, None)
    assert state.pending == "redraw" and state.ace.rested and state.ace.mhp == 1000


def test_catalog_medians_make_the_dummy_ace():
    cards = [ch("A", 300, (100, 200, 300, 400, 500)), ch("B", 400, (200, 200, 200, 200, 200)),
             ch("C", 600, (300, 100, 100, 100, 100)), ch("D", 900, (400, 400, 400, 400, 400)),
             battle("X", "martial", "poise")]
    opts = phantasma.catalog_options(cards)
    assert opts["dummy_mhp"] == 2 * 500, "median printed MHP (400, 600 → 500), doubled"
    assert (opts["dummy_martial"], opts["dummy_agility"], opts["dummy_poise"]) == (250, 200, 300)
    assert get_engine("phantasma").catalog_options is phantasma.catalog_options
    # options override, the rest comes from the deck's own characters when no catalog was given
    state = phantasma.PhantasmaState(DECK, game_rng(1, 0), 0, {"dummy_mhp": 777}, None)
    assert state.dummy.mhp == 777 and state.dummy.values["martial"] > 0


def test_battles_are_computed_both_ways():
    att = phantasma.Char(ch("A", 400, (500, 100, 0, 0, 0)))
    dummy = phantasma.Dummy({"martial": 300, "agility": 200, "wisdom": 0, "craft": 0, "poise": 0}, 1000)
    # martial/agility: 500 vs 200 → 300 to the defender; 300 vs 100 → 200 back to the attacker
    assert phantasma.battle_damage(att, dummy, "martial", "agility") == (300, 200)
    # no excess either way → no damage
    assert phantasma.battle_damage(att, dummy, "agility", "martial") == (0, 0)
    # in a game: both take their damage, the dummy always defends
    log = EventLog()
    state = fresh(vanguards=[ch("A", 400, (500, 100, 0, 0, 0))], battle_cards=[STRIKE], log=log,
                  dummy={"dummy_martial": 300})
    drive(state, [("attack", 1, 0), ("end",)])
    assert state.dummy.dmg == 300 and state.vanguards[0].dmg == 200
    assert state.battle[0][1], "the battle card is used"
    assert "300 damage to the dummy" in log.as_text() and "200 damage back" in log.as_text()


def test_defeat_at_exactly_mhp():
    state = fresh(vanguards=[ch("A", 200, (500, 100, 0, 0, 0))], battle_cards=[STRIKE],
                  dummy={"dummy_martial": 300})
    drive(state, [("attack", 1, 0), ("end",)])
    assert state.vanguards == [] and len(state.defeat) == 1, "200 damage = MHP 200 → defeated"
    assert state.counters["own_defeated"] == 1
    state = fresh(vanguards=[ch("A", 201, (500, 100, 0, 0, 0))], battle_cards=[STRIKE],
                  dummy={"dummy_martial": 300})
    drive(state, [("attack", 1, 0), ("end",)])
    assert len(state.vanguards) == 1 and state.vanguards[0].hp == 1
    # the dummy is defeated at exactly its MHP: a win
    state = fresh(vanguards=[ch("A", 400, (500, 300, 0, 0, 0))], battle_cards=[STRIKE], dummy={"dummy_mhp": 300})
    drive(state, [("attack", 1, 0)])
    assert state.outcome == "win" and state.dummy.dmg == 300


def test_three_defeated_or_the_ace_defeated_lose():
    state = fresh(vanguards=[ch("A", 100, (500, 0, 0, 0, 0))], battle_cards=[STRIKE])
    state.defeat = [FILLER, FILLER]
    drive(state, [("attack", 1, 0)])
    assert state.outcome == "loss" and "three" in state.reason
    state = fresh(battle_cards=[STRIKE], dummy={"dummy_martial": 2000})
    state.ace.dmg = 990
    drive(state, [("attack", 0, 0)])
    assert state.outcome == "loss" and "ACE" in state.reason
    # the greedy pilot never makes either attack
    state = fresh(vanguards=[ch("A", 100, (500, 0, 0, 0, 0))], battle_cards=[STRIKE])
    state.defeat = [FILLER, FILLER]
    drive(state)
    assert state.outcome == "capped" and state.counters["battles"] == 1, "only the safe ACE attack"


def test_first_player_turn_one_draws_one_and_cannot_attack():
    state = fresh(first=True, battle_cards=[STRIKE])
    state.start(state.scenario(state._my_turn()))
    assert len(state.hand) == 1
    assert not [o for o in state.options_main() if o[0] == "attack"]
    state = fresh(battle_cards=[STRIKE])
    state.start(state.scenario(state._my_turn()))
    assert len(state.hand) == 2 and ("attack", 0, 0) in state.options_main()


def test_characters_enter_rested_and_payments_rest_or_discard():
    cheap = ch("V-10", cost=2)
    state = fresh(hand=[cheap, EVENT, EVENT], vanguards=[FILLER])
    state.start(state.scenario(state._my_turn()))
    deploys = [o for o in state.options_main() if o[:2] == ("deploy", "V-10")]
    assert len(deploys) == 2, "rest-first and discard-first"
    rest_first = min(deploys, key=lambda o: len(o[2][1]))[2]
    assert len(rest_first[0]) == 2 and rest_first[1] == ()
    discard_first = max(deploys, key=lambda o: len(o[2][1]))[2]
    assert discard_first[0] == () and len(discard_first[1]) == 2
    state.apply(Action("main", ("deploy", "V-10", discard_first)))
    new = state.vanguards[-1]
    assert new.card is cheap and new.rested, "characters enter rested"
    assert len(state.junk) == 2
    # blue costs rest a character of that attribute
    blue = ch("V-11", cost=1, cost_detail={"blue": {"poise": 1}})
    state = fresh(hand=[blue], vanguards=[FILLER])
    state.start(state.scenario(state._my_turn()))
    assert not [o for o in state.options_main() if o[1:2] == ("V-11",)], "no standing poise character"
    state = fresh(hand=[blue], vanguards=[ch("V-12", attr="poise")])
    state.start(state.scenario(state._my_turn()))
    assert [o for o in state.options_main() if o[1:2] == ("V-11",)] == [("deploy", "V-11", ((1,), ()))]


def test_same_number_once_and_five_vanguards():
    state = fresh(hand=[FILLER, ch("V-20")], vanguards=[FILLER])
    state.start(state.scenario(state._my_turn()))
    opts = state.options_main()
    assert not [o for o in opts if o[:2] == ("deploy", "V-00")]
    assert [o for o in opts if o[:2] == ("deploy", "V-20")]
    state = fresh(hand=[ch("V-20")], vanguards=[ch(f"V-3{i}") for i in range(5)])
    state.start(state.scenario(state._my_turn()))
    assert not [o for o in state.options_main() if o[0] == "deploy"]


def test_battle_cards_limit_use_and_reset():
    other = battle("B-AG", "agility", "martial")
    state = fresh(hand=[STRIKE, other, other, other], vanguards=[FILLER])
    state.start(state.scenario(state._my_turn()))
    for code in ("B-MA", "B-AG", "B-AG"):
        state.apply(Action("main", ("battle", code)))
    assert len(state.battle) == 3
    assert not [o for o in state.options_main() if o[0] == "battle"], "at most 3 on the field"
    # two identical unused cards are one choice; each card once per turn
    attacks = [o for o in state.options_main() if o[0] == "attack"]
    assert {o[2] for o in attacks} == {0, 1}
    state.apply(Action("main", ("attack", 0, 0)))
    assert ("attack", 1, 0) not in state.options_main()
    state.apply(Action("main", ("end",)))
    assert state.is_terminal()
    state._opp_turn()
    assert not any(used for _, used in state.battle), "the dummy's wake up sets every battle card unused"
    # no usable battle card → no attack at all
    state = fresh()
    state.start(state.scenario(state._my_turn()))
    assert not [o for o in state.options_main() if o[0] == "attack"]


def test_ex_skill_condition_and_once_per_game():
    ex_ok = DECK.zones["ex"][0]  # condition 4 ≥ ACE cost 3
    state = fresh(battle_cards=[STRIKE])
    state.start(state.scenario(state._my_turn()))
    assert ("ex", "X-1", 0) in state.options_main()
    state.apply(Action("main", ("ex", "X-1", 0)))
    assert state.ace.atk_mod == 200 and state.ex_used
    assert not [o for o in state.options_main() if o[0] == "ex"], "once per game"
    state = fresh(battle_cards=[STRIKE])
    state.ex_area = [CardRecord(game="phantasma", code="X-2", name="EX", card_type="ex_skill", ex_condition=2)]
    state.start(state.scenario(state._my_turn()))
    assert not [o for o in state.options_main() if o[0] == "ex"], "ACE cost 3 > condition 2"
    assert ex_ok.ex_condition == 4


def test_items_fold_modifiers_and_leave_with_their_character():
    sword = item("I-1", "attack_mod", 100)
    curse = item("I-2", "defense_mod", -100)
    state = fresh(hand=[sword, curse, EVENT, EVENT], vanguards=[ch("A", 200, (300, 0, 0, 0, 0))],
                  battle_cards=[STRIKE], dummy={"dummy_martial": 300, "dummy_agility": 200})
    state.start(state.scenario(state._my_turn()))
    assert ("item", "I-2", -1, ((), ("E-1",))) in state.options_main() or [
        o for o in state.options_main() if o[:3] == ("item", "I-2", -1)]
    pay = next(o[3] for o in state.options_main() if o[:3] == ("item", "I-1", 1) and not o[3][0])
    state.apply(Action("main", ("item", "I-1", 1, pay)))
    assert not [o for o in state.options_main() if o[:3] == ("item", "I-1", 1)], "one copy per character"
    pay = next(o[3] for o in state.options_main() if o[:3] == ("item", "I-2", -1) and not o[3][0])
    state.apply(Action("main", ("item", "I-2", -1, pay)))
    # 300 + 100 vs 200 - 100 → 300 dealt; 300 back vs agility 0 → 300 ≥ MHP 200: defeated
    state.apply(Action("main", ("attack", 1, 0)))
    assert state.dummy.dmg == 300 and sword in state.junk and not state.vanguards


def test_inline_attack_choice_matches_the_readable_score():
    """``GreedyPilot._best_attack`` (inline, fast) picks a pair of maximal ``_attack_score``."""
    pilot = phantasma.GreedyPilot
    checked = 0
    for i in range(30):
        state = phantasma.PhantasmaState(DECK, game_rng("pairs", i), i, {**DUMMY, "dummy_martial": 300}, None)
        while not state.is_terminal():
            if state.pending == "main" and state.attacks_allowed and state.usable_battle():
                usable = state.usable_battle()
                scores = {(cid, b): pilot._attack_score(state, cid, b)
                          for cid in state.standing() for b in usable}
                best = pilot._best_attack(state, usable)
                top = max(scores.values(), default=0.0)
                if best is None:
                    assert top <= 0
                else:
                    assert scores[best[1:]] == top and top > 0
                checked += 1
            state.apply(pilot().choose(state, state.legal_actions()))
    assert checked > 50


def test_hand_limit_is_seven():
    state = fresh(hand=[EVENT] * 8)
    seen = drive(state, [("end",)])
    assert seen.count("discard") == 3 and len(state.hand) == 7


def test_deck_out_loses_and_the_dummy_deck_out_wins():
    state = fresh(deck_size=2)
    drive(state)
    assert state.outcome == "loss" and "0 cards" in state.reason
    state = fresh()
    state.odeck = 2
    state.start(state.scenario(iter_opp_turn(state)))
    assert state.outcome == "win"


def iter_opp_turn(state):
    state._opp_turn()
    yield from ()


def test_opening_hand_and_redraw_frequencies_match_the_hypergeometric():
    """7 from 60, and the one-time redraw shuffles all 60 and draws 7 again: both hypergeometric.
    4,000 games each, 4 standard errors."""
    n = 4000
    kept = redrawn = 0
    for i in range(n):
        state = phantasma.PhantasmaState(DECK, game_rng("odds", i), i, DUMMY, None)
        assert state.pending == "redraw" and len(state.hand) == 7
        kept += any(c.code == "V-00" for c in state.hand)
        state.apply(Action("redraw", ("redraw",)))
        assert len(state.opening_hand) == 7
        redrawn += any(c.code == "V-00" for c in state.opening_hand)
    p = p_at_least(60, 4, 7)
    se = (p * (1 - p) / n) ** 0.5
    assert abs(kept / n - p) < 4 * se, (kept / n, p)
    assert abs(redrawn / n - p) < 4 * se, (redrawn / n, p)


# -- the engine contract's hooks (tests/test_engine_contract.py) --------------------------------
CONTRACT_CASES = [("test-deck", DECK, DUMMY), ("test-deck-strong-dummy", DECK, {**DUMMY, "dummy_mhp": 3000}),
                  ("test-deck-deck-medians", DECK, {"dummy_deck_size": 20})]


def check_state(state: phantasma.PhantasmaState) -> None:
    """Phantasmagoria invariants at every step of random play."""
    assert len(state.battle) <= 3 and len(state.vanguards) <= 5
    assert state.dummy.dmg >= 0 and state.odeck >= 0
    numbers = [c.number for c in state.chars()]
    assert len(numbers) == len(set(numbers)), "the same number twice on the field"


def test_the_log_and_the_statistics():
    assert "must defend" in play_game(DECK, "s", 3, options=DUMMY, log=True)[1].as_text()
    whole = run_games(DECK, 9, range(60), options=DUMMY)
    assert sum(whole.per_turn["damage"].values()) == whole.counters["damage_dealt"]
    assert whole.summary()["extras"]["ratios"]["damage_per_battle"]["value"] > 0
    assert whole.outcomes["win"] > 40


def test_illegal_actions_and_bad_decks_are_refused():
    state = phantasma.PhantasmaState(DECK, game_rng(1, 0), 0, DUMMY, None)
    with pytest.raises(ValueError, match="illegal"):
        state.apply(Action("main", ("end",)))
    with pytest.raises(ValueError, match="ACE"):
        phantasma.PhantasmaState(Deck(game="phantasma", main=DECK.main), game_rng(1, 0), 0, DUMMY, None)


def test_unmodelled_cards_are_listed():
    assert [c.code for c in DECK.unmodelled()] == ["E-1"]


# -- the sample decks -----------------------------------------------------------------------------
@pytest.mark.parametrize("name,deck", fixture_decks("phantasma"), ids=lambda x: x if isinstance(x, str) else "")
def test_every_sample_deck_plays(name, deck):
    assert len(deck.main) == 60 and len(deck.zones["ace"]) == 1
    options = catalog_options("phantasma")
    assert options["dummy_mhp"] > 0
    stats = run_games(deck, "fixtures", range(40), options=options)
    assert stats.games == 40 and stats.outcomes["win"] > 30, stats.outcomes
    log = play_game(deck, "fixtures", 0, options=options, log=True)[1].as_text()
    assert "deploy" in log and "battle card" in log


def test_ex_skill_condition_reads_the_ace_total_cost_from_cost_detail():
    """Issue 16, 7: an ACE with only ``cost_detail`` (2 white + 1 red + 2 blue = 5) cannot use a condition-4
    EX skill; with 4 symbols it can."""
    for detail, allowed in (({"white": 2, "red": 1, "blue": {"martial": 2}}, False), ({"white": 4}, True)):
        state = fresh(battle_cards=[STRIKE])
        ace = CardRecord(game="phantasma", code="ACE2", name="ace", card_type="character", work="T", number="A2",
                         cost=None, cost_detail=detail, mhp=500, attributes=("martial",),
                         **dict(zip(ATTRS, (500, 300, 200, 200, 200), strict=True)))
        state.ace = phantasma.Char(ace)
        state.start(state.scenario(state._my_turn()))
        assert bool([o for o in state.options_main() if o[0] == "ex"]) is allowed, detail
