"""Chaos TCG goldfish engine: golden scenarios (GAMES.md §4), exact-maths checks.

The contract every engine meets is checked in tests/test_engine_contract.py, with this module's
hooks ``CONTRACT_CASES`` and ``check_state``.
"""
from __future__ import annotations

import random
import weakref

import pytest

from rules.cards import CardRecord
from rules.chaos import engine as chaos
from rules.engine.core import Action, Deck, EventLog, game_rng, play_game, run_games
from rules.odds import p_at_least
from tests.engine_fixtures import drive as engine_drive
from tests.engine_fixtures import fixture_decks


def ch(code: str, person: str, atk: int = 2, dfn: int = 2, patk: int = 1, pdef: int = 1,
       title: str = "Test", keywords: tuple = (), keyword_costs: dict | None = None, text: str = "") -> CardRecord:
    return CardRecord(game="chaos", code=code, name=f"{code} 「{person}」", card_type="character", title=title,
                      person=person, atk=atk, defense=dfn, partner_atk=patk, partner_def=pdef, keywords=keywords,
                      keyword_costs=keyword_costs or {}, text=text, text_modelled=not text)


def extra(code: str, persons: tuple, atk: int = 7, dfn: int = 4) -> CardRecord:
    return CardRecord(game="chaos", code=code, name=f"{code} EXTRA", card_type="extra", title="Test",
                      person=" & ".join(persons), extra_persons=persons, atk=atk, defense=dfn)


EVENT = CardRecord(game="chaos", code="EV-1", name="an event", card_type="event", text="Draw 2 cards.")
# the worked example: printed 2/2 with partner bonus +3/+2
HERO = ch("CH-HERO", "Hero", 2, 2, 3, 2)
HERO2 = ch("CH-HERO2", "Hero", 1, 3, 3, 2)  # same title+name, another card
FILLER = ch("CH-F", "Filler", 1, 1)


def chaos_deck() -> Deck:
    cards: list[CardRecord] = [HERO] * 2 + [HERO2] * 2
    for i in range(10):
        cards += [ch(f"CH-{i:02}", f"Person {i}", 1 + i % 4, 1 + i % 3, 1, 1,
                     keywords=("maintain",) if i == 9 else (), keyword_costs={"maintain": {"discard": 1}} if i == 9 else {})] * 4
    cards += [EVENT] * 6
    return Deck(game="chaos", main=tuple(cards), zones={"extra": (extra("EX-01", ("Person 0", "Person 1")),) * 2})


DECK = chaos_deck()


def fresh(hand=(), field=None, odeck=None, deck_size: int = 30, log: EventLog | None = None,
          turn: int = 1, first: bool = False) -> chaos.ChaosState:
    """A hand-built state with HERO as partner (5/4); ``field`` maps slots to cards; ``odeck`` lists
    the dummy's deck from the top (True = a copy of its partner)."""
    state = chaos.ChaosState(DECK, random.Random(0), 0, {}, log, setup=False)
    state.deck = [FILLER] * deck_size
    state.extra = list(DECK.zones["extra"])
    state.hand = list(hand)
    state.field[chaos.PARTNER_SLOT] = chaos.partner_char(HERO)
    for slot, c in (field or {}).items():
        state.field[slot] = chaos.Char(c, c.atk, c.defense)
    state.odeck = list(reversed(odeck)) if odeck is not None else [False] * 40
    state.went_first = first
    state.turn = turn - 1
    return state


def drive(state: chaos.ChaosState, answers: dict[str, list[tuple]] | None = None) -> list[str]:
    """Play one turn through the generic contract; ``answers`` maps decision kinds to options
    consumed in order (then the greedy pilot decides)."""
    return engine_drive(state, state._my_turn(), chaos.GreedyPilot(), answers)


# -- golden scenarios from GAMES.md ---------------------------------------------------------------
def test_partner_gets_its_bonus_and_levels_up_5_4_to_8_6():
    p = chaos.partner_char(HERO)
    assert (p.atk, p.dfn) == (5, 4)
    p.state, p.dmg = chaos.REST, 3
    chaos.level_up(p, HERO2)
    assert (p.atk, p.dfn, p.state, p.dmg, p.level) == (8, 6, chaos.STAND, 0, 1)
    assert p.under == [HERO] and p.card is HERO2
    # in a game: the level up from hand, once a turn
    log = EventLog()
    state = fresh(hand=[HERO2, HERO], log=log)
    seen = drive(state, {"main": [("levelup", "CH-HERO2"), ("end",)], "attack": [("end",)]})
    assert (state.partner.atk, state.partner.dfn) == (8, 6)
    assert HERO in state.hand, "level up is once per turn"
    assert seen.count("main") == 2 and "8/6" in log.as_text()


def test_deck_damage_stops_on_the_partners_name_and_levels_it_up():
    log = EventLog()
    state = fresh(odeck=[False, False, True, False, False, False], log=log)
    assert state.deck_damage(5) == 3
    assert state.opartner_level == 1 and state.counters["opp_partner_levelups"] == 1
    assert len(state.odeck) == 3 and state.owaiting == 2, "the partner card goes onto the partner"
    assert "stopped on the partner's name" in log.as_text()


def test_deck_damage_from_an_empty_deck_partway_through_a_hit_wins():
    state = fresh(field={0: ch("CH-BIG", "Big", 4, 1)}, odeck=[False, False])
    drive(state, {"main": [("end",)], "attack": [("attack", 0)]})
    assert state.outcome == "win" and "empty deck" in state.reason
    assert state.per_turn() == {"milled": [2]}


def test_the_dummy_loses_when_it_must_draw_from_an_empty_deck():
    state = fresh(odeck=[])
    state.start(state.scenario(iter_opp_turn(state)))
    assert state.outcome == "win" and "draw" in state.reason


def iter_opp_turn(state):
    state._opp_turn()
    yield from ()


def test_the_partners_attack_draw_is_optional_and_never_decks_the_player_out():
    state = fresh(deck_size=3)
    drive(state, {"main": [("end",)], "attack": [("attack", chaos.PARTNER_SLOT)]})
    assert state.counters["attack_draws"] == 1 and len(state.hand) == 2 and len(state.deck) == 1
    assert state.per_turn() == {"milled": [5]}
    state = fresh(deck_size=3)
    drive(state, {"main": [("end",)], "attack": [("attack", chaos.PARTNER_SLOT, "no_draw")]})
    assert state.counters["attack_draws"] == 0 and len(state.hand) == 1 and len(state.deck) == 2
    # issue 16, 2: the draw step takes the last card; the partner still attacks, declining the draw
    state = fresh(deck_size=1)
    state.start(state.scenario(state._my_turn()))
    state.apply(Action("main", ("end",)))
    assert state.deck == [] and state.options_attack() == [("end",), ("attack", chaos.PARTNER_SLOT, "no_draw")]
    assert chaos.GreedyPilot().decide(state, "attack") == (
        "attack", chaos.PARTNER_SLOT, "no_draw")
    state = fresh(deck_size=1)
    drive(state, {"main": [("end",)]})
    assert state.outcome != "loss" and state.counters["attacks"] == 1 and state.per_turn() == {"milled": [5]}


def test_no_battle_on_the_first_players_first_turn_and_any_standing_character_attacks():
    state = fresh(first=True, field={0: FILLER, 2: FILLER})
    seen = drive(state, {"main": [("end",)]})
    assert "attack" not in seen
    state = fresh(field={0: FILLER, 4: ch("CH-B", "Back", 3, 1)})
    drive(state)
    assert state.counters["attacks"] == 3 and state.per_turn() == {"milled": [1 + 3 + 5]}
    assert all(c is None or c.state == chaos.REST for i, c in enumerate(state.field) if i != chaos.PARTNER_SLOT)
    assert state.partner.state == chaos.STAND, "the partner improves one step at the end of the turn"


def test_summon_rules():
    a = ch("CH-A", "Alice", 3, 3)
    a2 = ch("CH-A2", "Alice", 4, 3, title="Other")
    hero_ally = ch("CH-H3", "Hero", 9, 9, title="Other")
    zed = ch("CH-Z", "Zed", 1, 1)
    state = fresh(hand=[a2, hero_ally, zed], field={0: a, 1: FILLER})
    state.start(state.scenario(state._my_turn()))
    opts = state.options_main()
    assert {o[2] for o in opts if o[:2] == ("summon", "CH-A2")} == {0}, "same name: it takes that slot"
    assert not [o for o in opts if o[1:2] == ("CH-H3",)], "the partner's name can never be summoned"
    assert {o[2] for o in opts if o[:2] == ("summon", "CH-F")} == {1}
    assert {o[2] for o in opts if o[:2] == ("summon", "CH-Z")} == {0, 1, 2, 4}, "empty or occupied ally slots"
    state.apply(Action("main", ("summon", "CH-A2", 0)))
    assert state.field[0].card is a2 and a in state.waiting
    assert not [o for o in state.options_main() if o[0] == "summon"], "once per turn"


def test_extra_from_a_field_person_and_a_hand_person():
    p0 = ch("CH-P0", "Person 0", 2, 2)
    p1 = ch("CH-P1", "Person 1", 3, 2)
    state = fresh(hand=[p1], field={0: p0})
    state.start(state.scenario(state._my_turn()))
    assert ("extra", "EX-01", 0) in state.options_main()
    state.apply(Action("main", ("extra", "EX-01", 0)))
    c = state.field[0]
    assert c.card.code == "EX-01" and (c.atk, c.dfn) == (7, 4) and c.under == [p0]
    assert p1 in state.waiting and len(state.extra) == 1
    assert sum(map(len, state.card_zones().values())) == 30 + 1 + 1 + 1 + 2  # deck, p1, p0, partner, extras


def test_improvement_maintain_and_face_down():
    keeper = ch("CH-K", "Keeper", 3, 3, keywords=("maintain",), keyword_costs={"maintain": {"discard": 1}})
    state = fresh(field={0: keeper, 1: FILLER})
    state.field[0].state = chaos.REVERSE
    state.field[1].state = chaos.REST
    seen = drive(state, {"main": [("end",)], "attack": [("end",)]})
    assert seen[0] == "maintain" and state.counters["maintain_skipped"] == 1, "no card in hand: cannot pay"
    assert state.field[1].state == chaos.STAND, "rest → stand"
    assert state.field[0].state == chaos.REST and not state.field[0].face_down, "reverse → rest; face-up at end"
    state = fresh(hand=[EVENT], field={0: keeper})
    drive(state, {"main": [("end",)], "attack": [("end",)]})
    assert state.counters["maintain_paid"] == 1 and EVENT in state.waiting


def test_hand_limit_is_seven():
    state = fresh(hand=[EVENT] * 8)
    seen = drive(state, {"main": [("end",)], "attack": [("end",)]})
    assert seen.count("discard") == 2 and len(state.hand) == 7


def test_blocked_battle_keywords():
    # simultaneous: each deals its ATK to the other
    assert chaos.resolve_block((4, 2, 0, ()), (3, 3, 0, ())) == (4, 3, 0)
    # first strike stuns the defender (4 > 3) before it strikes back
    assert chaos.resolve_block((4, 2, 0, ("first_strike",)), (3, 3, 0, ())) == (4, 0, 0)
    # first defense: the attacker (DEF 2) is stunned by 3 first
    assert chaos.resolve_block((4, 2, 0, ()), (3, 3, 0, ("first_defense",))) == (0, 3, 0)
    # both: simultaneous again; penetrate: excess over DEF is deck damage
    assert chaos.resolve_block((4, 2, 0, ("first_strike", "penetrate")), (3, 3, 0, ("first_defense",))) == (4, 3, 1)
    # not stunned (damage 3 does not exceed DEF 3): it strikes back
    assert chaos.resolve_block((3, 2, 0, ("first_strike",)), (2, 3, 0, ())) == (3, 2, 0)


def test_opening_hand_and_mulligan_frequencies_match_the_hypergeometric():
    """5 cards from 50 before the partner is chosen; the mulligan shuffles the hand back into the
    49 left after the partner and draws 5. 4,000 games each, 4 standard errors."""
    x = ch("CH-X", "X")
    deck = Deck(game="chaos", main=(x,) * 4 + (HERO,) * 4 + (FILLER,) * 42, partner=HERO)
    n = 4000
    kept = mulled = 0
    for i in range(n):
        state = chaos.ChaosState(deck, game_rng("odds", i), i, {}, None)
        assert state.pending == "partner" and len(state.hand) == 5
        kept += x in state.hand
        state.apply(Action("partner", state.options_partner()[0]))
        state.apply(Action("mulligan", ("mulligan",)))
        assert len(state.opening_hand) == 5 and len(state.deck) + len(state.hand) == 49
        mulled += x in state.opening_hand
    for hits, p in ((kept, p_at_least(50, 4, 5)), (mulled, p_at_least(49, 4, 5))):
        se = (p * (1 - p) / n) ** 0.5
        assert abs(hits / n - p) < 4 * se, (hits / n, p)


def test_dummy_options():
    r = run_games(DECK, 1, range(30), options={"dummy_partner_copies": 0}).counters
    assert r.get("opp_partner_levelups", 0) == 0
    r = run_games(DECK, 1, range(30), options={"dummy_partner_copies": 20}).counters
    assert r["opp_partner_levelups"] > run_games(DECK, 1, range(30)).counters["opp_partner_levelups"]
    with pytest.raises(ValueError, match="dummy_partner_copies"):
        play_game(DECK, 1, 0, options={"dummy_partner_copies": 50})


# -- the engine contract's hooks (tests/test_engine_contract.py) --------------------------------
CONTRACT_CASES = [("test-deck", DECK, {}), ("test-deck-small-dummy", DECK, {"dummy_deck_size": 12,
                                                                            "dummy_partner_copies": 5})]


def check_state(state: chaos.ChaosState) -> None:
    """Chaos invariants at every step of random play: the dummy's cards (deck, hand, waiting room,
    under its partner) stay as many as at the start; the same-name rule."""
    total = len(state.odeck) + state.ohand + state.owaiting + state.opartner_level
    assert _DUMMY_CARDS.setdefault(state, total) == total, "a dummy card was created or lost"
    persons = [c.card.person for c in state.field if c is not None]
    assert len(persons) == len(set(persons)), "two characters of the same name"


_DUMMY_CARDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def test_the_log_and_the_statistics():
    text = play_game(DECK, "s", 3, log=True)[1].as_text()
    assert "partner" in text and "deck damage" in text
    whole = run_games(DECK, 9, range(60))
    assert sum(whole.per_turn["milled"].values()) == whole.counters["deck_damage"]
    assert whole.counters["attack_draws"] > 0 and whole.counters["partner_levelups"] > 0
    assert whole.summary()["extras"]["ratios"]["deck_damage_per_attack"]["value"] > 1


def test_illegal_actions_are_refused():
    state = chaos.ChaosState(DECK, game_rng(1, 0), 0, {}, None)
    with pytest.raises(ValueError, match="illegal"):
        state.apply(Action("partner", ("partner", "EV-1")))


def test_unmodelled_cards_are_listed():
    assert [c.code for c in DECK.unmodelled()] == ["EV-1"]


# -- the sample decks -----------------------------------------------------------------------------
@pytest.mark.parametrize("name,deck", fixture_decks("chaos"), ids=lambda x: x if isinstance(x, str) else "")
def test_every_sample_deck_plays(name, deck):
    assert len(deck.main) == 50
    stats = run_games(deck, "fixtures", range(40))
    assert stats.games == 40 and stats.outcomes["win"] > 30, stats.outcomes
    log = play_game(deck, "fixtures", 0, log=True)[1].as_text()
    assert "partner" in log and "attacks" in log
