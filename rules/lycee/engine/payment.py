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
it can be left out): it takes the shortest run of the least valuable cards that pays, then leaves
out cards from the most valuable to the least while the rest still pays, so the payment avoids the
most valuable cards first (the paying set with the least sum of 2^rank). Both are proven against
brute force over every subset of hands up to 9 cards (tests/test_lycee_payment.py).
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


_NEEDS: dict[tuple, tuple[dict[str, int], int]] = {}


def needs_of(cost_key: tuple) -> tuple[dict[str, int], int]:
    """``_needs`` of a cost given as its items (memoised: costs repeat; do not modify the result)."""
    hit = _NEEDS.get(cost_key)
    if hit is None:
        if len(_NEEDS) > 10_000:
            _NEEDS.clear()
        hit = _NEEDS[cost_key] = _needs(dict(cost_key))
    return hit


def split_mana(mana: Sequence[Mana]) -> tuple[dict[str, int], list[int]]:
    """(EX of the single-attribute cards per attribute, indices of the multi-attribute cards)."""
    singles: dict[str, int] = {}
    multi: list[int] = []
    for i, (ex, attrs) in enumerate(mana):
        if len(attrs) == 1:
            singles[attrs[0]] = singles.get(attrs[0], 0) + ex
        elif ex:
            multi.append(i)
    return singles, multi


def pays_without(need: Mapping[str, int], singles: Mapping[str, int], multi: Sequence[int], mana: Sequence[Mana],
                 skip: int) -> bool:
    """Whether the hand ``mana`` without card ``skip`` covers the attribute symbols ``need``
    (``singles`` / ``multi``: ``split_mana(mana)``; the EX in all is the caller's check)."""
    ex, attrs = mana[skip]
    own = attrs[0] if len(attrs) == 1 else None
    left = None
    for a, n in need.items():
        rest = n - singles.get(a, 0) + (ex if a == own else 0)
        if rest > 0:
            if left is None:
                left = {}
            left[a] = rest
    if left is None:
        return True
    return cover(left, [mana[j] for j in multi if j != skip])


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
    return cover(left, multi)


def cover(left: Mapping[str, int], multi: Sequence[Mana]) -> bool:
    """Whether the multi-attribute cards can be given attributes covering ``left`` (all > 0)."""
    if len(left) == 1:  # one open attribute: every card that has it gives it its EX
        ((a, n),) = left.items()
        return sum(ex for ex, attrs in multi if a in attrs) >= n
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
    """``find_payment`` with the cost as (attribute needs, total) and the hand as mana.

    The best payment (the least sum of 2^rank, rank = place in ``order``) lies within the shortest
    prefix of ``order`` that pays (its most valuable card is the least valuable one any payment
    needs), so the prefix is grown until it pays, then its cards are left out from the most
    valuable while the rest still pays. What the kept cards pay is tracked as their EX in all, the
    EX of the single-attribute ones per attribute and the multi-attribute ones, so a step is O(1)
    unless attribute symbols are left to multi-attribute cards (``cover``)."""
    kept: list[int] = []
    have = 0
    pool: dict[str, int] = {}
    multi: list[int] = []
    short = len(need)  # attribute symbols the single cards still miss (need holds positive counts)
    paid = False
    stale = True  # the coverage by multi-attribute cards has not been checked since the last change
    for i in order:
        if i == skip:
            continue
        m = mana[i]
        ex = m[0]
        if not ex:
            continue
        kept.append(i)
        have += ex
        attrs = m[1]
        if len(attrs) == 1:
            a = attrs[0]
            before = pool.get(a, 0)
            pool[a] = before + ex
            n = need.get(a, 0)
            if before < n <= before + ex:
                short -= 1
            # (a card of an attribute no symbol needs changes nothing but the total)
            changed = n > before or stale
        else:
            multi.append(i)
            changed = True
        if have >= total:
            if not short:
                paid = True
                break
            if multi and changed:
                if _open_covered(need, pool, [mana[j] for j in multi]):
                    paid = True
                    break
                stale = False  # checked: only a card that changes the coverage can make it pay
        else:
            stale = True
    if not paid:
        return None
    if not multi:
        out = []
        for k in range(len(kept) - 1, -1, -1):  # the most valuable first
            if have <= total:  # no card can go any more: every EX is at least 1
                out.extend(kept[: k + 1])
                break
            i = kept[k]
            ex, (a,) = mana[i]
            if have - ex >= total and pool[a] - ex >= need.get(a, 0):
                have -= ex
                pool[a] -= ex
            else:
                out.append(i)
        return tuple(sorted(out))
    chosen = set(kept)
    for i in reversed(kept):
        ex, attrs = mana[i]
        if have - ex < total:
            continue
        if len(attrs) == 1:
            a = attrs[0]
            pool[a] -= ex
            # still feasible when its attribute's symbols stay covered by single cards (the open
            # needs do not change); otherwise the multi-attribute cards must cover them
            if pool[a] >= need.get(a, 0) or _open_covered(need, pool, [mana[j] for j in multi]):
                have -= ex
                chosen.discard(i)
            else:
                pool[a] += ex
        else:
            rest = [j for j in multi if j != i]
            if _open_covered(need, pool, [mana[j] for j in rest]):
                have -= ex
                chosen.discard(i)
                multi = rest
    return tuple(sorted(chosen))


def single_payment(need: Mapping[str, int], total: int, mana: Sequence[Mana], order: Sequence[int],
                   skip: int = -1) -> tuple[int, ...] | None:
    """``minimal_payment`` for a hand whose cards all have one attribute (the common case): only
    the EX in all and the EX of the attributes a symbol needs are tracked."""
    have = 0
    pool = dict.fromkeys(need, 0)
    short = len(need)  # attribute symbols still missing
    end = -1
    for k, i in enumerate(order):
        if i == skip:
            continue
        ex, attrs = mana[i]
        if not ex:
            continue
        have += ex
        a = attrs[0]
        if a in pool:
            before = pool[a]
            pool[a] = before + ex
            if before < need[a] <= before + ex:
                short -= 1
        if have >= total and not short:
            end = k
            break
    if end < 0:
        return None
    out = []
    for k in range(end, -1, -1):  # the most valuable first
        i = order[k]
        if i == skip:
            continue
        ex, attrs = mana[i]
        if not ex:
            continue
        if have <= total:  # no card can go any more (every EX is at least 1): the rest stays
            out.append(i)
            continue
        if have - ex >= total:
            a = attrs[0]
            if a not in pool:
                have -= ex
                continue
            if pool[a] - ex >= need[a]:
                have -= ex
                pool[a] -= ex
                continue
        out.append(i)
    out.sort()
    return tuple(out)


def _open_covered(need: Mapping[str, int], pool: Mapping[str, int], multi: Sequence[Mana]) -> bool:
    """Whether the attribute needs the single-attribute cards (``pool``) leave open can be covered
    by the multi-attribute cards."""
    left = None
    for a, n in need.items():
        rest = n - pool.get(a, 0)
        if rest > 0:
            if left is None:
                left = {}
            left[a] = rest
    return left is None or cover(left, multi)
