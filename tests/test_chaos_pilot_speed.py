"""The Chaos goldfish engine made faster (issue 16's speed target) plays the same games.

The greedy pilot's rules are stated plainly once more here (``ReferencePilot``: the code before the
speed work, reading the state through its public helpers) and the fast pilot must choose the same
option at every decision met in random play (a wider variety of states than greedy games reach)
on the sample decks and on a deck of the special cards of the abilities tests. The per-deck card
values and the first stronger EXTRA are checked against what they replace (the dummy's deck is shuffled by
the general shuffle again, faster since the shuffle's keys come from C).
tests/test_golden.py checks the same counters and event logs for the recorded seeds.
"""
from __future__ import annotations

import pytest

from rules.chaos import engine as chaos
from rules.chaos.engine.characters import identity
from rules.chaos.engine.state import ALLY_SLOTS, PARTNER_SLOT
from rules.engine.core import Deck, RandomPilot, game_rng
from tests.engine_fixtures import catalog_options, fixture_decks
from tests.test_chaos_engine_abilities import DECK2


class ReferencePilot(chaos.GreedyPilot):
    """The greedy rules as written before the speed work (same choices, plainer and slower)."""

    def d_main(self, state: chaos.ChaosState) -> tuple:
        used = state.used
        p = state.partner
        pid = identity(p.card)
        hand = state.hand
        for c in hand:  # a MAIN event that draws or fetches, the deck keeping a margin
            plan = state.plan(c)
            if c.code not in state.early_events or not plan.useful or plan.pump or plan.timing != "MAIN":
                continue
            if plan.takes and len(state.deck) < plan.takes + 6:
                continue
            if plan.fetch and not any(w.card_type == "character" for w in state.waiting):
                continue
            if state.can_use(c, "MAIN"):
                return ("event", c.code, state.event_targets(c)[0])
        if "levelup" not in used:
            for c in hand:
                if c.card_type == "character" and c.code in state.idents and identity(c) == pid and (
                        state.can_level_up(c)):
                    return ("levelup", c.code)
            ups = state.extra_levelups()
            if ups:
                return ("levelup_extra", *ups[0])
        names = state.names_on_field()
        field = state.field
        if "extra" not in used:
            seen = set()
            for ex in state.extra:
                if ex.code in seen:
                    continue
                seen.add(ex.code)
                for base, _codes, _slots in state.extra_plan(ex, names):
                    if (ex.atk or 0) > field[base].atk:
                        return ("extra", ex.code, base)
        if "summon" not in used:
            best, best_gain = None, 0.0
            for c in hand:
                if c.card_type != "character" or c.person == p.card.person or not state.can_summon(c):
                    continue
                slot = names.get(c.person)
                if slot is None:
                    slot = next((s for s in ALLY_SLOTS if field[s] is None), None)
                    if slot is None:
                        slot = min(ALLY_SLOTS, key=lambda s: (field[s].atk, field[s].dfn, s))
                occ = field[slot]
                gain = (c.atk or 0) - (occ.atk if occ is not None else -1) + 0.01 * (c.defense or 0)
                if gain > best_gain:
                    best, best_gain = ("summon", c.code, slot), gain
            if best is not None:
                return best
        for c in hand:
            if c.card_type == "set" and state.plan(c).useful and PARTNER_SLOT in state.set_targets(c):
                return ("set", c.code, PARTNER_SLOT)
        return ("end",)

    def d_attack(self, state: chaos.ChaosState) -> tuple:
        allies = [s for s in state._attackers() if s != PARTNER_SLOT]
        slot = max(allies, key=lambda s: (state.field[s].atk, -s)) if allies else PARTNER_SLOT
        for c in state.hand:
            if c.code in state.pump_events and state.can_use(c, "BATTLE") and slot in state.event_targets(c):
                return ("event", c.code, slot)
        if allies:
            return ("attack", slot)
        return ("attack", PARTNER_SLOT) if state.deck else ("attack", PARTNER_SLOT, "no_draw")


def reference_value(state: chaos.ChaosState, card) -> float:
    if card.card_type == "character":
        p = state.partner
        if p is not None and identity(card) == identity(p.card):
            return 100.0
        if p is not None and card.person == p.card.person:
            return 0.5
        return 10.0 + (card.atk or 0) + 0.1 * (card.defense or 0)
    return 1.0 if card.unmodelled else 5.0


DECKS = [*fixture_decks("chaos"), ("abilities-test-cards", DECK2)]


@pytest.mark.parametrize(("name", "deck"), DECKS, ids=[n for n, _ in DECKS])
def test_fast_pilot_chooses_as_the_reference_in_random_play(name: str, deck: Deck) -> None:
    fast, ref, rnd = chaos.GreedyPilot(), ReferencePilot(), RandomPilot()
    options = {**catalog_options("chaos"), "turn_cap": 12}
    decisions = 0
    for i in range(60):
        state = chaos.ENGINE.new_state(deck, game_rng("pilot-speed", i), i,
                                       {**chaos.ENGINE.default_options, **options}, None)
        while not state.is_terminal():
            kind = state.pending
            if kind in ("main", "attack", "upkeep", "discard", "mulligan", "partner"):
                assert fast.decide(state, kind) == ref.decide(state, kind), (name, i, kind)
                decisions += 1
            for c in state.hand:
                assert state.card_value(c) == reference_value(state, c)
            actions = state.legal_actions()
            state.apply(rnd.choose(state, actions))
    assert decisions > 1000


@pytest.mark.parametrize(("name", "deck"), DECKS, ids=[n for n, _ in DECKS])
def test_first_stronger_extra_is_the_first_stronger_way_of_extra_plan(name: str, deck: Deck) -> None:
    checked = 0
    for i in range(40):
        state = chaos.ENGINE.new_state(deck, game_rng("extra-speed", i), i,
                                       {**chaos.ENGINE.default_options, "turn_cap": 12}, None)
        while not state.is_terminal():
            names = state.names_on_field()
            hand_persons = {c.person for c in state.hand if c.card_type == "character"}
            for ex in state.extra:
                ways = [base for base, _, _ in state.extra_plan(ex, names) if (ex.atk or 0) > state.field[base].atk]
                assert state.first_stronger_extra(ex, names) == (ways[0] if ways else -1)
                # the pilot's call: whether a way exists decided from the hand's persons
                assert state.first_stronger_extra(ex, names, hand_persons) == (ways[0] if ways else -1)
                checked += 1
            state.apply(RandomPilot().choose(state, state.legal_actions()))
    assert checked > 100


class _CheckedPilot(chaos.GreedyPilot):
    """The greedy pilot on the fast path (the script asks it itself and plays the very option it
    returns, so what it remembers of its last Set is used), each main and attack choice compared with
    the reference's at the same moment."""

    checked = 0

    def d_main(self, state: chaos.ChaosState) -> tuple:
        choice = super().d_main(state)
        assert choice == ReferencePilot().d_main(state)
        _CheckedPilot.checked += 1
        return choice

    def d_attack(self, state: chaos.ChaosState) -> tuple:
        choice = super().d_attack(state)
        assert choice == ReferencePilot().d_attack(state)
        return choice


@pytest.mark.parametrize(("name", "deck"), DECKS, ids=[n for n, _ in DECKS])
def test_fast_path_greedy_games_choose_as_the_reference(name: str, deck: Deck) -> None:
    options = {**chaos.ENGINE.default_options, **catalog_options("chaos"), "turn_cap": 40}
    _CheckedPilot.checked = 0
    for i in range(150):
        state = chaos.ENGINE.new_state(deck, game_rng("fast-path", i), i, options, None)
        state.play_out(_CheckedPilot())
        assert state.is_terminal()
    assert _CheckedPilot.checked > 1000
