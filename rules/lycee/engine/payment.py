"""Lycee's payments: discarded hand cards pay a cost with their EX (``can_pay``, ``find_payment``).

The rule (GAMES.md §5 "Cost payment"): each discarded card gives its EX in **one** of its
attributes (the payer's choice for a multi-attribute card; a colorless card gives only ``star``
mana); an attribute symbol takes mana of that attribute, a ``star`` (無) symbol any mana; surplus
is lost. Mana pools, so one card's EX may pay a symbol of its attribute and star symbols at once.

A set of cards therefore pays a cost exactly when (1) its EX in all reaches the cost's total and
(2) its cards can be given attributes so that each attribute symbol is covered. (2) is decided
exactly: single-attribute cards are summed, then the multi-attribute cards are tried against the
attribute needs still open (a small search over "what is still needed" states).

``find_payment`` is exact (it pays whenever some subset of the hand pays) and minimal (no card of
it can be left out): it starts from every card and leaves out cards from the most valuable to the
least while the rest still pays, so the payment avoids the most valuable cards first. Both are
proven against brute force over every subset of hands up to 9 cards (tests/test_engine_lycee.py).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.cards import CardRecord

from .info import STAR, info_of

Mana = tuple[int, tuple[str, ...]]  # (EX, attributes it can give)


def card_mana(card: CardRecord) -> Mana:
    """(EX, attributes it can pay) of a card."""
    return info_of(card).mana


def can_pay(cost: Mapping[str, int], cards: Sequence[CardRecord]) -> bool:
    """Whether discarding ``cards`` pays ``cost`` (each card gives its EX in one of its attributes;
    a ``star`` symbol takes any mana, a colorless card gives only ``star`` mana; surplus is lost)."""
    return can_pay_mana(cost, [card_mana(c) for c in cards])


def _needs(cost: Mapping[str, int]) -> tuple[dict[str, int], int]:
    """(attribute symbols still to cover, total of the cost)."""
    need: dict[str, int] = {}
    total = 0
    for a, n in cost.items():
        if n > 0:
            total += n
            if a != STAR:
                need[a] = n
    return need, total


def can_pay_mana(cost: Mapping[str, int], manas: Sequence[Mana]) -> bool:
    """``can_pay`` on (EX, attributes) pairs."""
    need, total = _needs(cost)
    if total <= 0:
        return True
    return _pays(need, total, manas)


def _pays(need: Mapping[str, int], total: int, manas: Sequence[Mana]) -> bool:
    """Whether ``manas`` cover the attribute ``need`` and reach ``total``."""
    have = 0
    open_: dict[str, int] = dict(need)
    multi: list[Mana] | None = None
    for m in manas:
        ex, attrs = m
        if not ex:
            continue
        have += ex
        if len(attrs) == 1:
            a = attrs[0]
            n = open_.get(a)
            if n:
                open_[a] = n - ex if n > ex else 0
        else:
            if multi is None:
                multi = []
            multi.append(m)
    if have < total:
        return False
    left = {a: n for a, n in open_.items() if n > 0}
    if not left:
        return True
    if multi is None:
        return False
    return _cover(left, multi)


def _cover(left: Mapping[str, int], multi: Sequence[Mana]) -> bool:
    """Whether the multi-attribute cards can be given attributes covering ``left`` (all > 0)."""
    keys = tuple(left)
    # every card may serve only the open attributes it has; one that serves none is dropped
    cards = []
    reach = 0
    for ex, attrs in multi:
        idx = tuple(k for k, a in enumerate(keys) if a in attrs)
        if idx:
            cards.append((ex, idx))
            reach += ex
    if reach < sum(left.values()):
        return False
    states = {tuple(left[a] for a in keys)}
    for ex, idx in cards:
        nxt = set()
        for st in states:
            moved = False
            for k in idx:
                n = st[k]
                if n:
                    moved = True
                    s = list(st)
                    s[k] = n - ex if n > ex else 0
                    t = tuple(s)
                    if not any(t):
                        return True
                    nxt.add(t)
            if not moved:
                nxt.add(st)
        states = nxt
    return False


def find_payment(cost: Mapping[str, int], hand: Sequence[CardRecord], order: Sequence[int],
                 skip: int = -1, mana: Sequence[Mana] | None = None) -> tuple[int, ...] | None:
    """The hand cards to discard for ``cost``: ``order`` = hand indices, least valuable first;
    ``skip`` a hand index that may not pay (the card being played).

    Exact and minimal (see the module docstring): ``None`` exactly when no subset of the hand
    (without ``skip``) pays; otherwise hand indices (sorted) of a payment from which no card can be
    left out, found by leaving out the most valuable cards first while the rest still pays.
    """
    need, total = _needs(cost)
    if total <= 0:
        return ()
    if mana is None:
        mana = [card_mana(c) for c in hand]
    return minimal_payment(need, total, mana, order, skip)


def minimal_payment(need: Mapping[str, int], total: int, mana: Sequence[Mana], order: Sequence[int],
                    skip: int = -1) -> tuple[int, ...] | None:
    """``find_payment`` with the cost as (attribute needs, total) and the hand as mana."""
    kept = [i for i in order if i != skip and mana[i][0]]
    have = 0
    multi = False
    pool: dict[str, int] = {}
    for i in kept:
        ex, attrs = mana[i]
        have += ex
        if len(attrs) == 1:
            pool[attrs[0]] = pool.get(attrs[0], 0) + ex
        else:
            multi = True
    if have < total:
        return None
    if not multi:
        # one attribute each: a card can be left out when the rest still reaches the total and
        # still covers its attribute's symbols
        for a, n in need.items():
            if pool.get(a, 0) < n:
                return None
        out = []
        for i in reversed(kept):  # the most valuable first
            ex, (a,) = mana[i]
            if have - ex >= total and pool.get(a, 0) - ex >= need.get(a, 0):
                have -= ex
                pool[a] -= ex
            else:
                out.append(i)
        return tuple(sorted(out))
    if not _pays(need, total, [mana[i] for i in kept]):
        return None
    chosen = kept
    for i in reversed(kept):
        trial = [j for j in chosen if j != i]
        if _pays(need, total, [mana[j] for j in trial]):
            chosen = trial
    return tuple(sorted(chosen))
