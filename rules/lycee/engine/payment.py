"""Lycee's payments: discarded hand cards pay a cost with their EX (``can_pay``, ``find_payment``)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.cards import CardRecord

from .info import STAR, info_of


def card_mana(card: CardRecord) -> tuple[int, tuple[str, ...]]:
    """(EX, attributes it can pay) of a card."""
    return info_of(card).mana


def can_pay(cost: Mapping[str, int], cards: Sequence[CardRecord]) -> bool:
    """Whether discarding ``cards`` pays ``cost`` (each card gives its EX in one of its attributes;
    a ``star`` symbol takes any mana, a colorless card gives only ``star`` mana; surplus is lost)."""
    return can_pay_mana(cost, [card_mana(c) for c in cards])


def can_pay_mana(cost: Mapping[str, int], manas: Sequence[tuple[int, tuple[str, ...]]]) -> bool:
    """``can_pay`` on (EX, attributes) pairs."""
    need: dict[str, int] = {}
    star = 0
    for a, n in cost.items():
        if a == STAR:
            star = n
        elif n > 0:
            need[a] = n
    spare = 0
    multi: list[tuple[int, tuple[str, ...]]] | None = None
    for ex, attrs in manas:
        if len(attrs) == 1:
            a = attrs[0]
            n = need.get(a)
            if n:
                if ex >= n:
                    del need[a]
                    spare += ex - n
                else:
                    need[a] = n - ex
            else:
                spare += ex
        else:
            if multi is None:
                multi = []
            multi.append((ex, attrs))
    if multi:
        multi.sort(key=lambda m: -m[0])
        for ex, attrs in multi:
            best = None
            for a in attrs:
                if need.get(a, 0) > (need.get(best, 0) if best else 0):
                    best = a
            if best is None:
                spare += ex
            else:
                n = need[best]
                if ex >= n:
                    del need[best]
                    spare += ex - n
                else:
                    need[best] = n - ex
    return not need and spare >= star


def find_payment(cost: Mapping[str, int], hand: Sequence[CardRecord], order: Sequence[int],
                 skip: int = -1, mana: Sequence[tuple[int, tuple[str, ...]]] | None = None
                 ) -> tuple[int, ...] | None:
    """The least valuable hand cards that pay ``cost``; ``order`` = hand indices, least valuable first.

    Greedy: each attribute symbol takes the least valuable cards that can give that attribute, the
    star (無) symbols then take the least valuable remaining cards with any EX, and finally every
    card the payment does not need is dropped (most valuable first). Surplus is lost. If the greedy
    choice fails while multi-attribute cards are in the hand, it retries with those cards last.
    Returns hand indices (sorted) or ``None``.
    """
    total = 0
    for n in cost.values():
        total += n
    if total <= 0:
        return ()
    if mana is None:
        mana = [card_mana(c) for c in hand]
    avail = 0
    multi = False
    for i in order:
        if i != skip:
            ex, attrs = mana[i]
            avail += ex
            if len(attrs) > 1:
                multi = True
    if avail < total:
        return None
    pay = greedy_payment(cost, total, mana, order, skip)
    if pay is None and multi:
        late = [i for i in order if len(mana[i][1]) > 1]
        pay = greedy_payment(cost, total, mana, [i for i in order if i not in late] + late, skip)
    return pay


def greedy_payment(cost: Mapping[str, int], total: int, mana: Sequence[tuple[int, tuple[str, ...]]],
                    order: Sequence[int], skip: int) -> tuple[int, ...] | None:
    assigned: dict[int, str] = {}  # hand index -> the symbol it pays
    got: dict[str, int] = {}
    paid = 0
    for attr, n in cost.items():
        if attr == STAR or n <= 0:
            continue
        g = 0
        for i in order:
            if g >= n:
                break
            if i == skip or i in assigned:
                continue
            ex, attrs = mana[i]
            if ex and attr in attrs:
                assigned[i] = attr
                g += ex
        if g < n:
            return None
        got[attr] = g
        paid += g
    if paid < total:
        for i in order:
            if i == skip or i in assigned:
                continue
            ex = mana[i][0]
            if ex:
                assigned[i] = STAR
                paid += ex
                if paid >= total:
                    break
        else:
            return None
    if paid > total and len(assigned) > 1:
        for i in reversed(order):  # the most valuable first
            if i not in assigned:
                continue
            ex = mana[i][0]
            if paid - ex < total:
                continue
            attr = assigned[i]
            if attr != STAR:
                if got[attr] - ex < cost[attr]:
                    continue
                got[attr] -= ex
            del assigned[i]
            paid -= ex
    return tuple(sorted(assigned))
