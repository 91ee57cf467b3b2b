"""Lycee payments (issue 16, wrong result 4): ``can_pay`` and ``find_payment`` are exact and minimal.

The property test compares both with brute force over **every subset** of random hands of up to 9
cards: a subset pays when some choice of one attribute per card covers each attribute symbol and
its EX reaches the total (GAMES.md §5 "Cost payment"). ``find_payment`` must return ``None``
exactly when no subset pays, and otherwise the paying subset that avoids the most valuable cards
first — the one with the least sum of 2^rank (rank = place in the value order) — which is also
minimal: no card of it can be left out.
"""
from __future__ import annotations

import itertools
import random

from rules.cards import CardRecord
from rules.lycee import engine as lycee
from rules.lycee.engine.payment import (
    can_pay_mana,
    find_payment,
    needs_of,
    pays_without,
    single_payment,
    split_mana,
)

ATTRS = ("snow", "moon", "flower", "space", "sun")


def card(code: str, attrs: tuple[str, ...], ex: int) -> CardRecord:
    return CardRecord(game="lycee", code=code, name=code, card_type="event", attributes=attrs, ex=ex,
                      cost=1, cost_detail={"star": 1})


# -- the exact scenarios the old greedy got wrong ------------------------------------------------
def test_a_multi_attribute_payment_the_greedy_missed():
    # moon 1 + space 1: the moon/space/sun card must give space, the flower/moon card moon
    a = card("EV-0001", ("flower", "moon"), 1)
    b = card("EV-0002", ("moon", "space", "sun"), 2)
    assert lycee.can_pay({"space": 1, "moon": 1}, [a, b])  # the greedy said False
    assert lycee.find_payment({"space": 1, "moon": 1}, [a, b], [0, 1]) == (0, 1)
    # snow 2 + moon 2 with a moon/snow card and a moon/flower card, both EX 2
    c = card("EV-0003", ("moon", "snow"), 2)
    d = card("EV-0004", ("moon", "flower"), 2)
    assert lycee.can_pay({"snow": 2, "moon": 2}, [c, d])
    assert not lycee.can_pay({"snow": 2, "moon": 2}, [d, d])


def test_no_unneeded_card_is_paid():
    # snow 2 + star 1 from snow EX1, snow EX1, snow EX3 (least valuable first): the EX3 card alone
    # pays all three symbols; the greedy took all three cards (2 EX wasted, 2 cards for nothing)
    hand = [card("EV-0011", ("snow",), 1), card("EV-0012", ("snow",), 1), card("EV-0013", ("snow",), 3)]
    assert lycee.find_payment({"snow": 2, "star": 1}, hand, [0, 1, 2]) == (2,)
    # star 1 + sun 1 from sun EX1 and sun/flower EX3: the EX3 card alone pays (the greedy took both)
    hand = [card("EV-0021", ("sun",), 1), card("EV-0022", ("sun", "flower"), 3)]
    assert lycee.find_payment({"star": 1, "sun": 1}, hand, [0, 1]) == (1,)
    # ... unless it is the most valuable card and the cheaper ones pay: they pay
    hand = [card("EV-0031", ("sun",), 1), card("EV-0032", ("moon",), 1), card("EV-0033", ("sun", "flower"), 3)]
    assert lycee.find_payment({"star": 1, "sun": 1}, hand, [0, 1, 2]) == (0, 1)


def test_the_engine_discards_only_the_cards_it_needs():
    """The state's payment (memoised, single-attribute fast path) is the minimal one too."""
    import tests.test_engine_lycee as t

    target = t.ch("CH-0800", "target", attrs=("snow",), cost={"snow": 2, "star": 1}, ap=2)
    small1 = card("EV-0801", ("snow",), 1)
    small2 = card("EV-0802", ("snow",), 1)
    big = card("EV-0803", ("snow",), 3)
    state = t.fresh(hand=[target, small1, small2, big])
    t.drive(state, [("deploy", "CH-0800", 0), ("end",)])
    assert [c.code for c in state.dust] == ["EV-0803"]
    assert state.counters["wasted_mana"] == 0


# -- the property test against brute force -------------------------------------------------------
def _subset_pays(need: dict[str, int], total: int, manas: list[tuple[int, tuple[str, ...]]]) -> bool:
    if sum(ex for ex, _ in manas) < total:
        return False
    for choice in itertools.product(*(attrs for _, attrs in manas)):
        got: dict[str, int] = {}
        for (ex, _), a in zip(manas, choice, strict=True):
            got[a] = got.get(a, 0) + ex
        if all(got.get(a, 0) >= n for a, n in need.items()):
            return True
    return False


def _random_hand(rng: random.Random, n: int, single: bool = False) -> list[tuple[int, tuple[str, ...]]]:
    hand = []
    multi = 3 if single else 0  # single: one attribute per card
    for _ in range(n):
        r = rng.random()
        if r < 0.08:
            attrs: tuple[str, ...] = ("star",)  # colorless
        elif r < 0.3 and multi < 3:
            multi += 1
            attrs = tuple(rng.sample(ATTRS, rng.choice((2, 2, 3, 5))))
        else:
            attrs = (rng.choice(ATTRS[:3]),)  # mostly three attributes, so symbols meet
        hand.append((rng.choice((0, 1, 1, 1, 2, 2, 3)), attrs))
    return hand


def _random_cost(rng: random.Random) -> dict[str, int]:
    cost: dict[str, int] = {}
    for _ in range(rng.randint(1, 5)):
        a = rng.choice((*ATTRS[:3], "star", "star", rng.choice(ATTRS)))
        cost[a] = cost.get(a, 0) + 1
    return cost


def test_payments_match_brute_force_over_every_subset():
    rng = random.Random(16)
    checked = paid = 0
    for case in range(400):
        n = 1 + case % 9  # hands of 1..9 cards
        manas = _random_hand(rng, n, single=case % 2 == 1)
        cost = _random_cost(rng)
        need = {a: k for a, k in cost.items() if a != "star"}
        total = sum(cost.values())
        order = list(range(n))
        rng.shuffle(order)  # the value order: least valuable first
        skip = rng.choice((-1, -1, rng.randrange(n)))
        rank = {i: r for r, i in enumerate(order)}
        usable = [i for i in range(n) if i != skip]
        best: tuple[int, ...] | None = None
        best_weight = None
        for size in range(len(usable) + 1):
            for subset in itertools.combinations(usable, size):
                pays = _subset_pays(need, total, [manas[i] for i in subset])
                assert can_pay_mana(cost, [manas[i] for i in subset]) == pays, (cost, subset, manas)
                if pays:
                    weight = sum(1 << rank[i] for i in subset)
                    if best_weight is None or weight < best_weight:
                        best, best_weight = subset, weight
        got = find_payment(cost, [None] * n, order, skip, manas)  # type: ignore[list-item]
        assert got == (tuple(sorted(best)) if best is not None else None), (cost, manas, order, skip, got, best)
        if all(len(attrs) == 1 for _, attrs in manas):  # the engine's path for such hands
            assert single_payment(*needs_of(tuple(cost.items())), manas, order, skip) == got
        if skip >= 0:  # first-playable's check: the hand without the card played pays
            singles, multi = split_mana(manas)
            enough = sum(ex for ex, _ in manas) - manas[skip][0] >= total
            assert (enough and pays_without(need, singles, multi, manas, skip)) == (best is not None)
        if got:
            paid += 1
            for j in got:  # minimal: no card of it can be left out
                assert not _subset_pays(need, total, [manas[i] for i in got if i != j])
        checked += 1
    assert checked == 400 and paid > 100
