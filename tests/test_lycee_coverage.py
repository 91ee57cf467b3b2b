"""The Lycee engine's coverage of the real Lycee Overture data (issue 16 targets), measured on
``../shared/carddata/lycee/lycee_overture_cards.jsonl`` read by the catalog's importer (no
database): ≥ 60% of the cards with text fully modelled (every ability played or with no effect in
a goldfish game), ≥ 75% of the copies of a legal real 60-card deck of one title
(``bench/lycee_real.py``), every Overture basic ability played or classified with a reason.

The figures measured when this was written are in docs/abilities-lycee-chaos.md (Lycee engine
coverage); the floors below are the targets.
"""
from __future__ import annotations

from collections import Counter

import pytest

from bench.lycee_real import lycee_records, title_deck
from rules.abilities import COVERAGE_STATUSES, NOT_PLAYED, NOT_UNDERSTOOD, PLAYED, is_vanilla_text
from rules.construction import validate_deck
from rules.coverage import card_coverage, deck_coverage
from rules.engine.core import run_games
from rules.lycee.abilities import compile_text_cached
from rules.lycee.engine import ENGINE, card_plan

pytestmark = pytest.mark.carddata

MIN_CARDS_FULLY_MODELLED = 0.60
MIN_TITLE_DECK_COPIES = 0.75


def test_real_cards_fully_modelled():
    cards = [c for c in lycee_records() if not is_vanilla_text(c.text)]
    covered = [card_coverage(c, ENGINE, compile_text_cached) for c in cards]
    share = sum(c.modelled for c in covered) / len(cards)
    statuses = Counter(cov.status for c in covered for _, cov in c.abilities)
    assert set(statuses) <= set(COVERAGE_STATUSES)
    assert len(cards) > 6400 and share >= MIN_CARDS_FULLY_MODELLED, (
        f"{sum(c.modelled for c in covered)}/{len(cards)} = {share:.1%}; {dict(statuses)}")
    # what is not played always says why
    assert all(cov.reason for c in covered for _, cov in c.abilities if cov.status in (NOT_PLAYED, NOT_UNDERSTOOD))


def test_a_legal_real_deck_of_one_title():
    title, deck = title_deck()
    counts = Counter(c.code for c in deck.main)
    report = validate_deck("lycee", {"main": dict(counts)}, {c.code: c for c in deck.main})
    assert report["valid"], report["errors"]
    assert len(deck.main) == 60 and title
    coverage = deck_coverage(deck.main, ENGINE, compile_text_cached)
    assert coverage["copies"] == 60 and coverage["copies_share"] >= MIN_TITLE_DECK_COPIES, coverage
    stats = run_games(deck, "coverage", range(40))
    assert stats.outcomes["win"] == 40
    assert stats.counters["damage_by_dmg"] == stats.counters["attacks"] - stats.counters.get("defended", 0)
    assert stats.counters["abilities"] > 0, "the deck's printed abilities are used"


def test_every_overture_basic_ability_is_played_or_classified():
    seen: dict[str, Counter] = {}
    for c in lycee_records():
        if is_vanilla_text(c.text):
            continue
        for a in compile_text_cached(c.text, c.card_type):
            if a.kind != "keyword" or not a.compiled:
                continue
            cov = ENGINE.classify_ability(a, c)
            assert cov.status in COVERAGE_STATUSES and (cov.status == PLAYED or cov.reason), (c.code, a.text, cov)
            bare = all(e.kind == "keyword" for e in a.effects)  # no effect in brackets
            for name in a.keywords:
                seen.setdefault(name, Counter())[(cov.status, bare)] += 1
    # the keyword itself is played; an effect in its brackets ([エンゲージ:[…]]) may not be
    for name in ("engage", "charge", "recovery", "turn_recovery", "order_change", "convert", "bonus", "step",
                 "sidestep", "orderstep", "jump", "aggressive"):
        assert {st for (st, bare) in seen[name] if bare} <= {PLAYED}, (name, seen[name])
        assert seen[name][(PLAYED, True)] + seen[name][(PLAYED, False)] > 0.9 * sum(seen[name].values()), name
    for name in ("assist", "supporter", "penalty", "guts", "surprise"):  # never change a goldfish game
        assert all(st != PLAYED and (st != NOT_PLAYED or not bare) for st, bare in seen[name]), (name, seen[name])
    assert {n for n, s in seen.items() if (NOT_PLAYED, True) in s} == {"leader", "principal"}


def test_the_pilot_never_values_an_ability_above_its_static_bound(monkeypatch):
    # CardInfo.pilot_acts leaves out the declared abilities whose value_bound is not positive, so the
    # pilot never looks at them: that is right only if program_value never exceeds the bound
    from rules.lycee.engine import pilot
    from rules.lycee.engine.info import value_bound

    real = pilot.program_value
    seen: list[tuple[str, float, float]] = []

    def checked(state, prog, c, card):
        value = real(state, prog, c, card)
        seen.append((prog.code, value, value_bound(prog)))
        return value

    monkeypatch.setattr(pilot, "program_value", checked)
    _, deck = title_deck()
    run_games(deck, "bound", range(30))
    assert seen and all(value <= bound for _, value, bound in seen), [s for s in seen if s[1] > s[2]][:5]


def test_field_counts_by_shape_agree_with_field_match():
    # _count_field and _targets answer "every character of mine", "my characters named X" and
    # selectors of the card alone without field_match: on real fields, for such selectors of the
    # real data, the counts and the targets agree
    import random

    from rules.lycee.engine import effects
    from rules.lycee.engine.abilities import Target
    from rules.lycee.engine.field import Char
    from rules.lycee.engine.state import LyceeState

    records = lycee_records()
    chars = [c for c in records if c.card_type == "character"]
    sels = []
    for card in records:
        if not is_vanilla_text(card.text):
            for prog in (p for ps in card_plan(card).by_hook.values() for p in ps):
                for op in prog.ops:
                    for cond in (*prog.conds, *op.conds):
                        sel = cond.params.get("card") if cond.kind in ("present", "absent", "count") else None
                        if (sel and "ref" not in sel and sel.get("side") != "opponent"  # (answered before)
                                and effects._sel_shape(sel)[0] != effects._GENERAL):
                            sels.append(sel)
    assert len(sels) > 100
    _, deck = title_deck()
    state = LyceeState(deck, random.Random(0), 0, {}, None, setup=False)
    rng = random.Random(16)
    named = [c for c in chars if "御坂" in c.name]
    for _ in range(200):
        picks = rng.sample(chars, 3) + rng.sample(named, 2)
        state.field = [Char(c, 0) for c in picks] + [None]
        rng.shuffle(state.field)
        for sel in rng.sample(sels, 30):
            general = [c for s, c in enumerate(state.field) if c is not None and effects.field_match(sel, s, c)]
            ctx = effects.Ctx(None, picks[0], None)
            assert state._count_field(sel, ctx) == len(general), sel
            targets = state._targets(Target(ref="ally", sel=sel, count=0), ctx, False)
            assert {id(c) for c in targets} == {id(c) for c in general}, sel
