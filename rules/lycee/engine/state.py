"""Lycee goldfish engine (GAMES.md §5).

The player ("me") plays a 60-card deck on the 3×2 field against a dummy whose field is empty (it
never defends), whose 60-card deck draws 7 at setup and 2 each turn (1 on its first turn if it goes
first), and which plays nothing and discards down to 7. Win = the dummy's deck reaches 0 cards;
loss = mine does.

Decision points: tax payments (Tax trash / Tax wakeup) before the start phase, every play in the
main phase (characters with their slot, conversions, items, areas, events), Step-family moves,
attacks (attacker + target column, for Sideattack) and the hand-limit discards. A play carries its
payment: ``("deploy", hand index, slot, (discarded hand indices, ...))``; the engine offers one
payment per play, the least valuable cards that pay the cost (see ``find_payment``).

For scenario tests the dummy can be given characters (option ``opp_field``: ``{slot: CardRecord}``);
they defend and support as the rules allow, which is how the golden battle examples are played.
"""
from __future__ import annotations

import random
from collections.abc import Generator, Mapping, Sequence
from typing import Any

from ..cards import CardRecord
from ._zones import distinct_codes, shuffle, take
from .core import (
    Deck,
    EventLog,
    GameEngine,
    GameResult,
    ScriptedPilot,
    ScriptedState,
    event_messages,
    gettext_noop,
    register,
    submessage,
    who_goes_first,
)

GAME = "lycee"
# The event log: code -> English template (see ws.EVENTS; terms translated: why, order, tax, keyword,
# when, result/result2, paid; ``payment`` is a submessage).
EVENTS = event_messages(GAME, {
    "result": gettext_noop("{outcome}: {reason}"),
    "draw": gettext_noop("{why}: {cards}"),
    "effect_draw": gettext_noop("{card} ({when}): {cards}"),
    "turn": gettext_noop("turn {turn}"),
    "hand_limit": gettext_noop("hand limit: {card}"),
    "setup": gettext_noop("shuffle; the player goes {order}"),
    "redraw": gettext_noop("no character: {cards} — redraw"),
    "opening_hand": gettext_noop("opening hand: {cards}"),
    "tax_paid": gettext_noop("pay {tax} of {card}: {cards}"),
    "no_wakeup": gettext_noop("{card} does not wake up (tax wakeup not paid)"),
    "move_cost": gettext_noop("{keyword} cost: {cards}"),
    "move": gettext_noop("{card} moves {slot} → {slot2}"),
    "paying": gettext_noop(", paying {paid}"),
    "paying_wasted": gettext_noop(", paying {paid}; {wasted} wasted"),
    "convert_return": gettext_noop("{card} returns to the hand"),
    "deploy": gettext_noop("deploy {card} (AP{ap}/DP{dp}/SP{sp}) to {slot}{payment}"),
    "convert": gettext_noop("convert {card} (AP{ap}/DP{dp}/SP{sp}) to {slot}{payment}"),
    "item": gettext_noop("equip {card} to {card2}{payment}"),
    "area": gettext_noop("area {card} on {slot}{payment}"),
    "event": gettext_noop("play {card}{payment}"),
    "event_unmodelled": gettext_noop("play {card}{payment} (effect not modelled)"),
    "mill": gettext_noop("{card} ({when}): the dummy mills {count}"),
    "leave": gettext_noop("{card} goes to the dust box ({why})"),
    "support": gettext_noop("{card} supports {card2}: +{sp} {stat}"),
    "attack": gettext_noop("{card} attacks column {column}, undefended: the dummy mills {count} (printed AP {ap}), "
                           "{left} left"),
    "battle": gettext_noop("{card} (AP{ap}/DP{dp}) attacks column {column}; {card2} (AP{ap2}/DP{dp2}) defends → "
                           "attacker {result}, defender {result2}"),
})
SLOTS = ("AF-L", "AF-C", "AF-R", "DF-L", "DF-C", "DF-R")
SLOT_INDEX = {s: i for i, s in enumerate(SLOTS)}
ALL_SLOTS = tuple(range(6))
LOWEST_SLOT = tuple((m & -m).bit_length() - 1 for m in range(64))  # the lowest slot of a slot mask
HAND_LIMIT = 7
STAR = "star"
STEP_KEYWORDS = ("step", "sidestep", "orderstep", "jump")

# orthogonal neighbours of each slot (rows AF=0..2, DF=3..5)
NEIGHBOURS: tuple[tuple[int, ...], ...] = (
    (1, 3), (0, 2, 4), (1, 5),
    (0, 4), (1, 3, 5), (2, 4),
)


def _moves(slot: int, keyword: str) -> tuple[int, ...]:
    col, row = slot % 3, slot // 3
    if keyword == "jump":
        return tuple(s for s in ALL_SLOTS if s != slot)
    side = tuple(row * 3 + c for c in (col - 1, col + 1) if 0 <= c < 3)
    order = ((1 - row) * 3 + col,)
    if keyword == "sidestep":
        return side
    if keyword == "orderstep":
        return order
    return side + order  # step


def card_names(card: CardRecord) -> tuple[str, ...]:
    """Every name the card counts as on the field (aliases and a conversion's target)."""
    names = (card.name, *card.alt_names)
    if card.conversion_target:
        names += (card.conversion_target,)
    return names


class CardInfo:
    """Everything the engine and the pilot read from a card over and over, computed once per card
    (records are immutable): its mana, slot masks, names, cost and the static part of its value."""

    __slots__ = (
        "card", "code", "is_char", "conversion", "mask", "af_mask", "own", "names", "ex", "attrs", "mana", "attr1",
        "cost", "cost_key", "symbols", "specific", "star", "min_pay", "base", "dup_value", "free_value", "same_name", "up", "aggressive",
        "ap", "dp", "sp", "taxes", "event_gain",
        "attack_score", "step_score", "filler_score",
    )

    def __init__(self, card: CardRecord) -> None:
        self.card = card
        self.code = card.code
        kw = card.keywords
        self.is_char = card.card_type == "character"
        self.conversion = card.conversion_target
        allowed = card.slots
        mask = 0
        for s in ALL_SLOTS:
            if not allowed or SLOTS[s] in allowed:
                mask |= 1 << s
        self.mask = mask  # the six slots its position restriction allows
        self.af_mask = mask & 0b111 if self.is_char else 0  # ... of them the AF slots (characters only)
        self.own = (card.name, *card.alt_names)  # its own names (the same-name rule)
        self.names = card_names(card)  # every name it counts as on the field
        self.ex = card.ex or 0
        self.attrs = tuple(a for a in card.attributes if a != STAR) or (STAR,)
        self.mana = (self.ex, self.attrs)  # what it pays when discarded
        self.attr1 = self.attrs[0] if len(self.attrs) == 1 else None  # its attribute, if only one
        self.cost = cost_of(card)
        self.cost_key = tuple(self.cost.items())
        self.symbols = tuple((a, n) for a, n in self.cost_key if a != STAR)  # attribute symbols
        self.specific = sum(n for _, n in self.symbols)
        self.star = self.cost.get(STAR, 0)  # star (無) symbols
        # the fewest cards any payment of the cost takes: one card gives one attribute
        symbols = sum(1 for a, n in self.cost_key if a != STAR and n > 0)
        self.min_pay = (symbols or 1) if sum(self.cost.values()) > 0 else 0
        self.ap = card.ap or 0
        self.dp = card.dp or 0
        self.sp = card.sp or 0
        self.aggressive = "aggressive" in kw
        self.up = "step" in kw or "orderstep" in kw or "jump" in kw  # can move up from DF to AF
        self.taxes = tuple(k for k in ("tax_trash", "tax_wakeup") if k in kw)
        # the pilot's deploy scores: into an AF slot, into DF to step up later, as a filler
        self.attack_score = 20.0 + 2 * self.ap + (5.0 if self.aggressive else 0.0)
        self.step_score = 10.0 + self.ap
        self.filler_score = 1.0 + 0.1 * self.dp
        # an event: the cards its modelled draw / mill effects gain when played
        self.event_gain = sum(int(e.get("n", 1)) for e in card.effects
                              if e.get("kind") in ("draw", "opp_mill") and e.get("when", "play") == "play"
                              ) if card.card_type == "event" else 0
        # the pilot's static value: characters 3 + AP + DP/10 (+2 Aggressive), other cards 1
        # (2 with a modelled draw / mill); the name the same-name rule checks ("" for a conversion,
        # which replaces its target)
        if self.is_char:
            self.base = 3.0 + self.ap + 0.1 * self.dp + (2.0 if self.aggressive else 0.0)
            self.same_name = "" if card.conversion_target else card.name
            self.dup_value = 0.5 + 0.01 * self.ex  # its name is already on the field
            self.free_value = self.base + 5.0  # an AF slot it may enter is free
        else:
            drawish = any(e.get("kind") in ("draw", "opp_mill") for e in card.effects)
            self.base = self.dup_value = self.free_value = 2.0 if drawish else 1.0
            self.same_name = ""


# Keyed by the record itself (``eq=False``: hashed and compared by identity). Each entry keeps its
# card alive, so a key is never another card's; cleared wholesale when it grows too large.
_INFO: dict[CardRecord, CardInfo] = {}
_CACHE_LIMIT = 50_000


def info_of(card: CardRecord) -> CardInfo:
    """The card's ``CardInfo`` (cached)."""
    info = _INFO.get(card)
    if info is None:
        if len(_INFO) > _CACHE_LIMIT:
            _INFO.clear()
        info = _INFO[card] = CardInfo(card)
    return info


def mana_of(card: CardRecord) -> tuple[str, ...]:
    """Attributes a discarded card can provide (a colorless card provides only ``star``)."""
    return info_of(card).attrs


def _mana(card: CardRecord) -> tuple[int, tuple[str, ...]]:
    """(EX, attributes it can pay) of a card."""
    return info_of(card).mana


def can_pay(cost: Mapping[str, int], cards: Sequence[CardRecord]) -> bool:
    """Whether discarding ``cards`` pays ``cost`` (each card gives its EX in one of its attributes;
    a ``star`` symbol takes any mana, a colorless card gives only ``star`` mana; surplus is lost)."""
    return _can_pay_m(cost, [_mana(c) for c in cards])


def _can_pay_m(cost: Mapping[str, int], manas: Sequence[tuple[int, tuple[str, ...]]]) -> bool:
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
        mana = [_mana(c) for c in hand]
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
    pay = _greedy_payment(cost, total, mana, order, skip)
    if pay is None and multi:
        late = [i for i in order if len(mana[i][1]) > 1]
        pay = _greedy_payment(cost, total, mana, [i for i in order if i not in late] + late, skip)
    return pay


def _greedy_payment(cost: Mapping[str, int], total: int, mana: Sequence[tuple[int, tuple[str, ...]]],
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


def battle_result(att_ap: int, att_dp: int, def_ap: int, def_dp: int,
                  att_dash: bool = False, def_dash: bool = False) -> tuple[bool, bool]:
    """(attacker downed, defender downed): a character whose DP is lower than the opposing AP is
    downed; Dash: if the opposing character is downed, the Dash character is not."""
    def_down = def_dp < att_ap
    att_down = att_dp < def_ap
    if att_dash and not def_dash and def_down:
        att_down = False
    elif def_dash and not att_dash and att_down:
        def_down = False
    return att_down, def_down


class Char:
    """A character on the field."""

    __slots__ = ("card", "info", "standing", "entered", "item", "moved", "supported", "ap", "dp", "sp", "names")

    def __init__(self, card: CardRecord, turn: int) -> None:
        self.card = card
        self.info = info = info_of(card)
        self.standing = True
        self.entered = turn
        self.item: CardRecord | None = None
        self.moved = False
        self.supported = False  # Supporter used this turn
        self.ap = card.ap or 0  # current values (item, area and until-end-of-turn changes included)
        self.dp = card.dp or 0
        self.sp = card.sp or 0
        self.names = info.names


def _stat_mods(card: CardRecord | None) -> tuple[int, int, int]:
    if card is None:
        return 0, 0, 0
    ap = dp = sp = 0
    for e in card.effects:
        if e.get("kind") == "stat_mod":
            ap += int(e.get("ap", 0))
            dp += int(e.get("dp", 0))
            sp += int(e.get("sp", 0))
    return ap, dp, sp


class GameOver(Exception):
    pass


class LyceeState(ScriptedState):
    """One goldfish game of Lycee. Zones are public attributes so tests can set them up."""

    def __init__(self, deck: Deck, rng: random.Random, index: int = 0,
                 options: Mapping[str, Any] | None = None, log: EventLog | None = None,
                 setup: bool = True) -> None:
        opts = {**DEFAULT_OPTIONS, **(options or {})}
        self.rng = rng
        self.log = log
        self.index = index
        self.turn_cap = int(opts.get("turn_cap") or 40)
        self.first_option = str(opts.get("first", "random"))
        self.deck: list[CardRecord] = list(deck.main)
        self.n_cards = len(self.deck)
        self.hand: list[CardRecord] = []
        self.dust: list[CardRecord] = []
        self.field: list[Char | None] = [None] * 6
        self.areas: list[CardRecord | None] = [None] * 6
        # the dummy: an empty field (scenario tests may give it characters), a deck that only counts
        self.ofield: list[Char | None] = [None] * 6
        for slot, card in (opts.get("opp_field") or {}).items():
            self.ofield[SLOT_INDEX[slot] if isinstance(slot, str) else int(slot)] = Char(card, 0)
        self.odeck = int(opts.get("dummy_deck_size", 60))
        if self.odeck < 8:
            raise ValueError(f"dummy_deck_size must be at least 8 (got {self.odeck})")
        self.ohand = 0
        self.odust = 0
        self.went_first = True
        self.turn = 0
        self.taxing: tuple[int, str] = (-1, "")
        self.outcome = "capped"
        self.reason = gettext_noop("turn cap")
        self.counters: dict[str, int] = dict.fromkeys(COUNTERS, 0)
        self.milled: list[int] = []
        self.first_playable: dict[str, int] = {}
        self.opening_hand: tuple[CardRecord, ...] = ()
        # bumped whenever the hand or the field's occupancy changes (pilots and first_playable
        # reuse work done at the same version; attacks into an empty field change neither)
        self.version = 0
        self._memo: dict[Any, Any] = {}
        if setup:
            self.start()

    # -- helpers -------------------------------------------------------------------------------
    def say(self, player: str, kind: str, code: str, /, **params: Any) -> None:
        """Log event ``lycee.<code>``."""
        if self.log is not None:
            self.log.add(self.turn, player, kind, "lycee." + code, **params)

    def _end(self, outcome: str, reason: str) -> None:
        self.outcome, self.reason = outcome, reason
        if self.log is not None:
            self.say("me", "result", "result", outcome=outcome, reason=reason)
        raise GameOver

    def _draw(self, n: int, why: str = "draw", when: str = "") -> None:
        """Draw ``n``; ``why`` says why (or, with ``when``, names the card whose effect draws)."""
        self.version += 1
        deck = self.deck
        n = min(n, len(deck))
        drawn = deck[-n:] if n else []
        del deck[len(deck) - n:]
        self.hand.extend(drawn)
        if self.log is not None:
            cards = ", ".join(c.name for c in drawn)
            if when:
                self.say("me", "draw", "effect_draw", card=why, when=when, cards=cards)
            else:
                self.say("me", "draw", "draw", why=why, cards=cards)
        if not deck:
            self._end("loss", gettext_noop("my deck has 0 cards"))

    def mill_opp(self, n: int) -> int:
        """The dummy mills ``n`` (deck damage); returns how many cards left its deck."""
        n = min(n, self.odeck)
        self.odeck -= n
        self.odust += n
        self.counters["milled"] += n
        if self.milled:
            self.milled[-1] += n
        if self.odeck <= 0:
            self._end("win", gettext_noop("the dummy's deck has 0 cards"))
        return n

    def card_count(self) -> int:
        """Every card of the player's, wherever it is (tests: nothing is created or lost)."""
        on_field = sum(1 + (c.item is not None) for c in self.field if c is not None)
        return len(self.deck) + len(self.hand) + len(self.dust) + on_field + sum(a is not None for a in self.areas)

    def zone_sizes(self) -> dict[str, int]:
        return {"deck": len(self.deck), "hand": len(self.hand), "dust": len(self.dust),
                "dummy_deck": self.odeck, "dummy_hand": self.ohand, "dummy_dust": self.odust}

    def _fresh_memo(self) -> dict[Any, Any]:
        """The memo of the current ``version`` (emptied when the version has moved on). The hot
        accessors below inline this check."""
        memo = self._memo
        if memo.get("v") != self.version:
            memo.clear()
            memo["v"] = self.version
        return memo

    def field_view(self) -> tuple[set[str], list[int], int]:
        """(every name on my field, my empty slots, their bit mask), memoised per ``version``:
        do not modify them."""
        memo = self._memo
        if memo.get("v") != self.version:
            memo.clear()
            memo["v"] = self.version
        view = memo.get("field")
        if view is None:
            field = self.field
            names = {n for c in field if c is not None for n in c.names}
            free = [s for s in ALL_SLOTS if field[s] is None]
            mask = 0
            for s in free:
                mask |= 1 << s
            view = memo["field"] = (names, free, mask)
        return view

    def names_on_field(self) -> set[str]:
        """Every name on my field (memoised per ``version``: do not modify the set)."""
        return self.field_view()[0]

    def free_slots(self) -> tuple[list[int], int]:
        """(my empty slots, their bit mask), memoised per ``version``: do not modify the list."""
        _, free, mask = self.field_view()
        return free, mask

    def hand_view(self) -> tuple[list[CardInfo], list[tuple[int, tuple[str, ...]]], dict[str, int] | None, int]:
        """(each hand card's ``CardInfo``, its (EX, attributes), EX per attribute of the whole
        hand — ``None`` when a card has several attributes —, total EX), memoised per
        ``version``: do not modify them."""
        memo = self._memo
        if memo.get("v") != self.version:
            memo.clear()
            memo["v"] = self.version
        view = memo.get("hand")
        if view is None:
            get = _INFO.get
            infos = [get(c) or info_of(c) for c in self.hand]
            pool: dict[str, int] | None = {}
            total = 0
            for info in infos:
                a = info.attr1
                if a is None:  # several attributes
                    pool = None
                    total = sum(info.ex for info in infos)
                    break
                ex = info.ex
                pool[a] = pool.get(a, 0) + ex
                total += ex
            view = memo["hand"] = (infos, [info.mana for info in infos], pool, total)
        return view

    def hand_mana(self) -> tuple[list[tuple[int, tuple[str, ...]]], dict[str, int] | None, int]:
        """``hand_view()`` without the infos."""
        _, mana, pool, total = self.hand_view()
        return mana, pool, total

    # -- values and payments -------------------------------------------------------------------
    def hand_order(self) -> list[int]:
        """Hand indices, least valuable first (memoised per ``version``): cards that are not
        characters (1, or 2 with a modelled draw / mill), characters whose name is already on the
        field (0.5), other characters 3 + AP + DP/10 (+2 Aggressive, +5 if an AF slot they may
        enter is free). Equal values keep hand order."""
        memo = self._memo
        if memo.get("v") != self.version:
            memo.clear()
            memo["v"] = self.version
        order = memo.get("order")
        if order is None:
            names = self.field_view()[0]
            field = self.field
            free_af = (field[0] is None) | (field[1] is None) << 1 | (field[2] is None) << 2
            values = [info.dup_value if info.same_name in names
                      else info.free_value if info.af_mask & free_af else info.base
                      for info in self.hand_view()[0]]
            order = memo["order"] = sorted(range(len(values)), key=values.__getitem__)  # stable
        return order

    def payment_for(self, cost: Mapping[str, int], skip_code: str = "",
                    order: list[int] | None = None) -> tuple[int, ...] | None:
        """The least valuable hand cards paying ``cost`` (hand indices), not using one copy of
        ``skip_code`` (the card being played); ``None`` when the hand cannot pay. ``order`` is
        ``hand_order()`` (the default). Memoised per ``version``, so the pilot's look-ahead and the
        play itself compute it once."""
        if not cost:
            return ()
        return self._payment(cost, tuple(cost.items()), skip_code, order)

    def _payment(self, cost: Mapping[str, int], cost_key: tuple, skip_code: str = "",
                 order: list[int] | None = None) -> tuple[int, ...] | None:
        """``payment_for`` with the cost's items given (``CardInfo.cost_key``)."""
        memo = self._memo
        if memo.get("v") != self.version:
            memo.clear()
            memo["v"] = self.version
        key = (skip_code, cost_key)
        if key in memo:
            return memo[key]
        if order is None:
            order = self.hand_order()
        hand = self.hand
        infos, mana, pool, avail = self.hand_view()
        skip = -1
        if skip_code:
            for i, info in enumerate(infos):
                if info.code == skip_code:
                    skip = i
                    break
        if pool is not None and len(order) == len(hand):
            # Every card has one attribute: the greedy search succeeds exactly when the hand
            # (without the card played) holds enough EX in all and of each attribute symbol, so a
            # hand that cannot pay is answered without searching.
            if skip >= 0:
                skip_ex, (skip_attr,) = mana[skip]
            else:
                skip_ex, skip_attr = 0, ""
            total = 0
            short = False
            for a, n in cost_key:
                total += n
                if a != STAR and n > 0 and pool.get(a, 0) - (skip_ex if a == skip_attr else 0) < n:
                    short = True
            if total <= 0:
                pay = ()
            elif short or avail - skip_ex < total:
                pay = None
            else:  # what find_payment does once it has checked the EX in hand
                pay = _greedy_payment(cost, total, mana, order, skip)
            memo[key] = pay
            return pay
        memo[key] = pay = find_payment(cost, hand, order, skip, mana)
        return pay

    # -- the game ------------------------------------------------------------------------------
    def script(self) -> Generator[str, tuple, None]:
        return self.scenario(self._game())  # the generator itself (one delegation less per decision)

    def scenario(self, steps: Generator[str, tuple, None]) -> Generator[str, tuple, None]:
        """Run ``steps`` (the whole game, or one turn of a hand-built state, as scenario tests
        do) until it finishes or the game ends."""
        try:
            yield from steps
        except GameOver:
            pass

    def _game(self) -> Generator[str, tuple, None]:
        rng = self.rng
        self.went_first = who_goes_first(self.first_option, rng, self.index)
        self.counters["went_first"] = int(self.went_first)
        shuffle(rng, self.deck)
        if self.log is not None:
            self.say("me", "setup", "setup", order="first" if self.went_first else "second")
        self._opening_hand()
        self.odeck -= 7
        self.ohand = 7
        if not self.went_first:
            self._opp_turn(first=True)
        while True:
            if self.turn >= self.turn_cap:
                self.outcome, self.reason = "capped", gettext_noop("turn cap")
                return
            yield from self._my_turn()
            self._opp_turn()

    def _opening_hand(self) -> None:
        """Draw 7; a hand without a character is shown, shuffled back and redrawn, while the deck
        holds a character at all (at most 100 times)."""
        deck = self.deck
        has_char = any(c.card_type == "character" for c in deck)
        for _ in range(100):
            self.hand = deck[-7:]
            del deck[-7:]
            if not has_char or any(c.card_type == "character" for c in self.hand):
                break
            if self.log is not None:
                self.say("me", "redraw", "redraw", cards=", ".join(c.name for c in self.hand))
            deck.extend(self.hand)
            self.hand = []
            shuffle(self.rng, deck)
            self.counters["redraws"] += 1
        self.opening_hand = tuple(self.hand)
        if self.log is not None:
            self.say("me", "hand", "opening_hand", cards=", ".join(c.name for c in self.hand))

    def _opp_turn(self, first: bool = False) -> None:
        for c in self.ofield:
            if c is not None:
                c.standing = True
        n = min(1 if first else 2, self.odeck)
        self.odeck -= n
        self.ohand += n
        if self.odeck <= 0:
            self._end("win", gettext_noop("the dummy's deck has 0 cards"))
        if self.ohand > HAND_LIMIT:
            self.odust += self.ohand - HAND_LIMIT
            self.ohand = HAND_LIMIT

    def _my_turn(self) -> Generator[str, tuple, None]:
        self.turn += 1
        turn = self.turn
        log = self.log
        field = self.field
        self.milled.append(0)
        if log is not None:
            self.say("me", "turn", "turn", turn=turn)
        # taxes, before the start phase
        no_wakeup: set[int] = set()
        for slot in ALL_SLOTS:
            c = field[slot]
            if c is None or not c.info.taxes:
                continue
            for kind in c.info.taxes:  # tax trash first
                if field[slot] is None:  # it left: tax trash not paid
                    break
                self.taxing = (slot, kind)
                choice = yield "tax"
                self.taxing = (-1, "")
                if choice[0] == "pay":
                    cost = c.card.keyword_costs.get(kind) or {}
                    paid = self._pay(self.payment_for(cost) or ())
                    self.counters["taxes_paid"] += 1
                    if log is not None:
                        self.say("me", "tax", "tax_paid", tax=kind, card=c.card.name, cards=", ".join(p.name for p in paid))
                elif kind == "tax_trash":
                    self._leave(slot, "tax trash not paid")
                else:
                    no_wakeup.add(slot)
                    if log is not None:
                        self.say("me", "tax", "no_wakeup", card=c.card.name)
        # start: wake up, draw
        for s, c in enumerate(field):
            if c is not None:
                c.moved = c.supported = False
                if s not in no_wakeup:
                    c.standing = True
        self._draw(1 if turn == 1 and self.went_first else 2)
        # main
        self.version += 1
        # hand and free slots only shrink during the main phase: what can be played at all this
        # turn can be played at its start
        self._note_playable(turn)
        while True:
            choice = yield "main"
            verb = choice[0]
            if verb == "end":
                break
            if verb == "attack":
                self._attack(choice[1], choice[2])
                continue
            if verb == "move":
                a, b = choice[1], choice[2]
                kw, pay = self.move_keyword(a, b)
                if pay:
                    paid = self._pay(pay)
                    if log is not None:
                        self.say("me", "pay", "move_cost", keyword=kw, cards=", ".join(p.name for p in paid))
                c = field[a]
                field[a], field[b] = None, c
                c.moved = True
                self._recompute(c, b)
                self.counters["moves"] += 1
                if log is not None:
                    self.say("me", "move", "move", card=c.card.name, slot=SLOTS[a], slot2=SLOTS[b])
            else:
                self._play(verb, choice[1], choice[2] if len(choice) > 2 else -1)
            self.version += 1  # after the play: its payment was memoised at the version it was chosen
        # end: hand limit, temporary changes end
        while len(self.hand) > HAND_LIMIT:
            _, code = yield "discard"
            card = take(self.hand, code)
            self.version += 1
            self.dust.append(card)
            if log is not None:
                self.say("me", "discard", "hand_limit", card=card.name)
        for s, c in enumerate(field):
            if c is not None:
                self._recompute(c, s)

    def _note_playable(self, turn: int) -> None:
        """Record the first turn each hand card could be played (a target exists, the rest of
        the hand pays its cost). Codes already recorded are not checked again."""
        fp = self.first_playable
        infos, mana, pool, total = self.hand_view()
        names: set[str] | None = None
        seen: set[str] = set()
        for i, info in enumerate(infos):
            code = info.code
            if code in fp or code in seen:
                continue
            seen.add(code)
            if names is None:
                names, free, free_mask = self.field_view()
            if info.is_char and not info.conversion:
                if not info.mask & free_mask or not names.isdisjoint(info.own):
                    continue
            elif not self._has_target(info.card, names, free):
                continue
            cost = info.cost
            if not cost:
                fp[code] = turn
                continue
            if pool is not None:
                # pooled mana minus this card's own: each symbol from its attribute, star from the rest
                ex = info.ex
                own = info.attr1
                for a, n in info.symbols:
                    if pool.get(a, 0) - (ex if a == own else 0) < n:
                        break
                else:
                    if total - ex - info.specific >= info.star:
                        fp[code] = turn
            elif _can_pay_m(cost, mana[:i] + mana[i + 1:]):
                fp[code] = turn

    def _has_target(self, card: CardRecord, names: set[str], free: list[int]) -> bool:
        t = card.card_type
        if t == "character":
            return bool(self.deploy_slots(card, names, free))
        if t == "item":
            return any(c is not None and c.item is None for c in self.field)
        if t == "area":
            return any(a is None for a in self.areas)
        return t == "event"

    def deploy_slots(self, card: CardRecord, names: set[str] | None = None, free: list[int] | None = None) -> list[int]:
        """Slots a character may enter: empty slots its position restriction allows, no same name
        on the field; a conversion enters only the slot of the character it converts."""
        field = self.field
        allowed = card.slots
        if card.conversion_target:
            return [s for s in ALL_SLOTS if field[s] is not None and card.conversion_target in field[s].names
                    and (not allowed or SLOTS[s] in allowed)]
        if names is None:
            names = self.names_on_field()
        info = _INFO.get(card) or info_of(card)
        for n in info.own:
            if n in names:
                return []
        if free is None:
            free = self.field_view()[1]
        mask = info.mask
        return [s for s in free if mask >> s & 1]

    def move_keyword(self, slot: int, to: int) -> tuple[str, tuple[int, ...]] | None:
        """The Step-family keyword (and its payment, when it has a cost) that moves the character in
        ``slot`` to the empty ``to``: standing, once a turn, outside battle, own field only."""
        c = self.field[slot]
        if c is None or not c.standing or c.moved or self.field[to] is not None:
            return None
        best = None
        for kw in STEP_KEYWORDS:
            if kw in c.card.keywords and to in _moves(slot, kw):
                cost = c.card.keyword_costs.get(kw) or {}
                pay = self.payment_for(cost) if cost else ()
                if pay is not None and (best is None or len(pay) < len(best[1])):
                    best = (kw, pay)
        return best

    def _recompute(self, c: Char, slot: int) -> None:
        """Printed values plus its item and the area of its slot (temporary changes dropped)."""
        if c.item is None and self.areas[slot] is None:
            info = c.info
            c.ap, c.dp, c.sp = info.ap, info.dp, info.sp
            return
        iap, idp, isp = _stat_mods(c.item)
        aap, adp, asp = _stat_mods(self.areas[slot])
        card = c.card
        c.ap = (card.ap or 0) + iap + aap
        c.dp = (card.dp or 0) + idp + adp
        c.sp = (card.sp or 0) + isp + asp

    def _pay(self, pay: tuple[int, ...]) -> list[CardRecord]:
        self.version += 1
        hand = self.hand
        paid = [hand[i] for i in pay]
        for i in sorted(pay, reverse=True):
            del hand[i]
        self.dust.extend(paid)
        return paid

    def _play(self, verb: str, code: str, slot: int) -> None:
        card = next(c for c in self.hand if c.code == code)
        cost = cost_of(card)
        pay = self.payment_for(cost, code)
        paid = self._pay(pay or ())
        self.hand.remove(card)
        wasted = sum(c.ex or 0 for c in paid) - sum(cost.values())
        if wasted > 0:
            self.counters["wasted_mana"] += wasted
        log = self.log
        text: dict[str, Any] = {}
        if log is not None:
            names = ", ".join(f"{c.name} (EX{c.ex})" for c in paid) or "nothing"
            text = (submessage("lycee.paying_wasted", paid=names, wasted=wasted) if wasted > 0
                    else submessage("lycee.paying", paid=names))
        field = self.field
        if verb == "deploy" or verb == "convert":
            if verb == "convert":
                old = field[slot]
                field[slot] = None
                self.hand.append(old.card)
                if old.item is not None:
                    self.dust.append(old.item)
                if log is not None:
                    self.say("me", "convert", "convert_return", card=old.card.name)
                self._penalty(old)
            c = Char(card, self.turn)
            field[slot] = c
            self._recompute(c, slot)
            self.counters["deployed"] += 1
            if log is not None:
                self.say("me", verb, verb, card=card.name, ap=card.ap, dp=card.dp, sp=card.sp, slot=SLOTS[slot],
                         payment=text)
        elif verb == "item":
            c = field[slot]
            c.item = card
            self._recompute(c, slot)
            self.counters["items"] += 1
            if log is not None:
                self.say("me", "item", "item", card=card.name, card2=c.card.name, payment=text)
        elif verb == "area":
            self.areas[slot] = card
            if field[slot] is not None:
                self._recompute(field[slot], slot)
            self.counters["areas"] += 1
            if log is not None:
                self.say("me", "area", "area", card=card.name, slot=SLOTS[slot], payment=text)
        else:
            self.dust.append(card)
            self.counters["events"] += 1
            if log is not None:
                modelled = any(e.get("kind") in ("draw", "opp_mill") for e in card.effects)
                self.say("me", "event", "event" if modelled else "event_unmodelled", card=card.name, payment=text)
            self._effects(card, "play")

    def _effects(self, card: CardRecord, when: str) -> None:
        """Modelled effects: ``draw`` (the player draws n), ``opp_mill`` (the dummy mills n)."""
        for e in card.effects:
            if e.get("when", "play") != when:
                continue
            k = e.get("kind")
            n = int(e.get("n", 1))
            if k == "draw":
                self._draw(n, card.name, when)
            elif k == "opp_mill":
                got = self.mill_opp(n)
                if self.log is not None:
                    self.say("opp", "mill", "mill", card=card.name, when=when, count=got)

    def _penalty(self, c: Char) -> None:
        if "penalty" in c.card.keywords:
            self._effects(c.card, "penalty")

    def _leave(self, slot: int, why: str) -> None:
        self.version += 1
        c = self.field[slot]
        self.field[slot] = None
        self.dust.append(c.card)
        if c.item is not None:
            self.dust.append(c.item)
        if self.log is not None:
            self.say("me", "leave", "leave", card=c.card.name, why=why)
        self._penalty(c)

    # -- battle --------------------------------------------------------------------------------
    def _support(self, field: list[Char | None], slot: int, target: Char, need: int, stat: str, who: str) -> int:
        """Adjacent standing characters (and unused Supporters) add their SP until ``need`` is met."""
        gain = 0
        for n in NEIGHBOURS[slot]:
            if gain >= need:
                break
            s = field[n]
            if s is None:
                continue
            if "supporter" in s.card.keywords and not s.supported:
                s.supported = True  # supports without resting, once per turn
            elif s.standing:
                s.standing = False
            else:
                continue
            gain += s.sp
            self.counters["supports"] += 1
            if self.log is not None:
                self.say(who, "support", "support", card=s.card.name, card2=target.card.name, sp=s.sp, stat=stat)
        return gain

    def attack_targets(self, slot: int) -> tuple[int, ...]:
        c = self.field[slot]
        if "sideattack" in c.card.keywords:
            return tuple(col for col in (slot, slot - 1, slot + 1) if 0 <= col < 3)
        return (slot,)

    def _attack(self, slot: int, column: int) -> None:
        att = self.field[slot]
        self.counters["attacks"] += 1
        d_slot = column + 3
        defender = self.ofield[d_slot]
        if defender is None or not defender.standing:
            att.standing = False
            ap = att.card.ap or 0
            if self.log is not None:
                self.say("me", "attack", "attack", card=att.card.name, column="LCR"[column], count=min(ap, self.odeck),
                         ap=ap, left=max(self.odeck - ap, 0))
            if self.mill_opp(ap) and "deck_bonus" in att.card.keywords:
                self._effects(att.card, "deck_bonus")
            return
        # a defended battle (scenario tests: the dummy was given characters)
        self.version += 1
        self.counters["defended"] += 1
        a_ap, a_dp, d_ap, d_dp = att.ap, att.dp, defender.ap, defender.dp
        # support: the attacker's side adds to AP (DP for a Defender), the defender's to DP (AP for an Attacker)
        if "defender" in att.card.keywords:
            a_dp += self._support(self.field, slot, att, d_ap - a_dp if d_ap > a_dp else 0, "DP", "me")
        elif a_ap <= d_dp:
            a_ap += self._support(self.field, slot, att, d_dp - a_ap + 1, "AP", "me")
        if "attacker" in defender.card.keywords:
            d_ap += self._support(self.ofield, d_slot, defender, a_dp - d_ap + 1 if a_dp >= d_ap else 0, "AP", "opp")
        elif d_dp < a_ap:
            d_dp += self._support(self.ofield, d_slot, defender, a_ap - d_dp, "DP", "opp")
        att_down, def_down = battle_result(a_ap, a_dp, d_ap, d_dp, "dash" in att.card.keywords,
                                           "dash" in defender.card.keywords)
        att.standing = False
        defender.standing = False
        if self.log is not None:
            self.say("me", "attack", "battle", card=att.card.name, ap=a_ap, dp=a_dp, column="LCR"[column],
                     card2=defender.card.name, ap2=d_ap, dp2=d_dp, result="downed" if att_down else "survives",
                     result2="downed" if def_down else "survives")
        if def_down:
            self.counters["downed_opp"] += 1
            self.ofield[d_slot] = None
            self.odust += 1
            if "bonus" in att.card.keywords and not att_down:
                self._effects(att.card, "bonus")
        if att_down:
            self.counters["downed_own"] += 1
            self._leave(slot, "downed")

    def attackers(self) -> list[int]:
        field = self.field
        turn = self.turn
        return [s for s in (0, 1, 2) if field[s] is not None and field[s].standing
                and (field[s].entered < turn or "aggressive" in field[s].card.keywords)]

    # -- options (the generic contract) --------------------------------------------------------
    def options_tax(self) -> list[tuple]:
        slot, kind = self.taxing
        cost = self.field[slot].card.keyword_costs.get(kind) or {}
        return ([("pay",)] if self.payment_for(cost) is not None else []) + [("skip",)]

    def options_main(self) -> list[tuple]:
        out: list[tuple] = [("end",)]
        field = self.field
        names = self.names_on_field()
        free = [s for s in ALL_SLOTS if field[s] is None]
        order = self.hand_order()
        for code in distinct_codes(self.hand):
            card = next(c for c in self.hand if c.code == code)
            t = card.card_type
            if t == "character":
                slots = self.deploy_slots(card, names, free)
                verb = "convert" if card.conversion_target else "deploy"
            elif t == "item":
                slots = [s for s in ALL_SLOTS if field[s] is not None and field[s].item is None]
                verb = "item"
            elif t == "area":
                slots = [s for s in ALL_SLOTS if self.areas[s] is None]
                verb = "area"
            else:
                slots, verb = [], "event"
            if (slots or verb == "event") and self.payment_for(cost_of(card), code, order) is not None:
                if verb == "event":
                    out.append(("event", code))
                else:
                    out.extend((verb, code, s) for s in slots)
        for s, c in enumerate(field):
            if c is None or not c.standing or c.moved:
                continue
            dests = [to for to in ALL_SLOTS if field[to] is None and self.move_keyword(s, to) is not None]
            out.extend(("move", s, to) for to in dests)
        for s in self.attackers():
            out.extend(("attack", s, col) for col in self.attack_targets(s))
        return out

    def options_discard(self) -> list[tuple]:
        return [("discard", code) for code in distinct_codes(self.hand)]

    def label(self, kind: str, option: tuple) -> str:
        verb = option[0]
        if verb in ("deploy", "convert", "item", "area"):
            return f"{verb} {option[1]} to {SLOTS[option[2]]}"
        if verb == "attack":
            return f"attack with {SLOTS[option[1]]} into column {'LCR'[option[2]]}"
        if verb == "move":
            return f"move {SLOTS[option[1]]} → {SLOTS[option[2]]}"
        if kind == "tax":
            slot, tax = self.taxing
            return f"{verb} {tax} of {self.field[slot].card.name}"
        return " ".join(map(str, option))

    # -- result --------------------------------------------------------------------------------
    def result(self) -> GameResult:
        c = self.counters
        c["games"] = 1
        if self.outcome == "win":
            c["first_wins" if self.went_first else "second_wins"] = 1
            c["first_win_turns" if self.went_first else "second_win_turns"] = self.turn
        c["first_games" if self.went_first else "second_games"] = 1
        return GameResult(
            index=self.index, outcome=self.outcome, turn=max(self.turn, 1), reason=self.reason,
            counters={k: v for k, v in c.items() if v},
            per_turn={"milled": list(self.milled)},
            first_playable=dict(self.first_playable),
        )


def cost_of(card: CardRecord) -> Mapping[str, int]:
    """The structured cost; a bare ``cost`` number without detail is that many star (無) symbols."""
    if card.cost_detail:
        return card.cost_detail
    return {STAR: card.cost} if card.cost else {}


COUNTERS = (
    "games", "went_first", "attacks", "milled", "defended", "downed_own", "downed_opp", "redraws", "deployed",
    "items", "areas", "events", "supports", "moves", "wasted_mana", "taxes_paid", "first_games", "second_games",
    "first_wins", "second_wins", "first_win_turns", "second_win_turns",
)


class GreedyPilot(ScriptedPilot):
    """Move characters up into the attack row, deploy the strongest attacker the hand pays for
    (AF first; DF only for a character that can step up, or with cards the hand limit would
    discard anyway), attack with everything, pay taxes for attackers."""

    name = "greedy"

    def __init__(self) -> None:
        self._play_cache: tuple[Any, int, tuple | None] = (None, -1, None)

    def decide(self, state: LyceeState, kind: str) -> tuple:
        return _DISPATCH[kind](self, state)

    def d_tax(self, state: LyceeState) -> tuple:
        slot, kind = state.taxing
        c = state.field[slot]
        pay = state.payment_for(c.card.keyword_costs.get(kind) or {})
        if pay is not None and (slot < 3 or kind == "tax_trash") and (c.card.ap or 0) >= len(pay):
            return ("pay",)
        return ("skip",)

    def d_discard(self, state: LyceeState) -> tuple:
        return ("discard", state.hand[state.hand_order()[0]].code)

    def d_main(self, state: LyceeState) -> tuple:
        cached_state, version, play = self._play_cache
        if cached_state is not state or version != state.version:
            play = self._best_play(state)
            self._play_cache = (state, state.version, play)
        if play is not None:
            return play
        # attack with everything (the strongest first); items and areas only change AP/DP/SP,
        # which never matter against an empty field (undefended attacks mill the printed AP)
        field = state.field
        turn = state.turn
        best = -1
        best_ap = 0
        for s in (0, 1, 2):  # state.attackers(), inlined
            c = field[s]
            if c is not None and c.standing and (c.entered < turn or c.info.aggressive):
                ap = c.info.ap
                if ap > best_ap:  # an AP 0 attack mills nothing
                    best, best_ap = s, ap
        return ("attack", best, best) if best >= 0 else ("end",)

    def _best_play(self, state: LyceeState) -> tuple | None:
        """A move, deploy or event worth making now, or ``None``."""
        field = state.field
        turn = state.turn
        # 1. step up: a standing DF character that may attack moves into an empty AF slot
        for s in (3, 4, 5):
            c = field[s]
            if c is None or not c.standing or c.moved or not (c.entered < turn or c.info.aggressive):
                continue
            if any(kw in c.card.keywords for kw in STEP_KEYWORDS):
                for to in (s - 3, 0, 1, 2):
                    if field[to] is None and state.move_keyword(s, to) is not None:
                        return ("move", s, to)
        # 2. deploy the best character (AF first)
        hand = state.hand
        names, free, free_mask = state.field_view()
        surplus = len(hand) - HAND_LIMIT
        best = None
        infos = state.hand_view()[0]
        if free or any(info.conversion for info in infos):
            af_free = free[0] < 3 if free else False
            candidates: list[tuple[float, int, int, CardInfo]] = []
            tried: set[str] = set()
            for i, info in enumerate(infos):
                if not info.is_char or info.code in tried:
                    continue
                tried.add(info.code)
                up = info.up
                if info.conversion:
                    slots = state.deploy_slots(info.card, names, free)
                    if not slots:
                        continue
                    slot = slots[0]
                else:
                    if not (af_free or surplus > 0 or up):
                        continue
                    m = info.mask & free_mask
                    if not m or not names.isdisjoint(info.own):
                        continue
                    slot = LOWEST_SLOT[m]  # the first free slot it may enter
                if slot < 3 and info.ap > 0:
                    score = info.attack_score
                elif up and field[slot - 3] is None:
                    score = info.step_score
                elif surplus > 0:
                    score = info.filler_score
                else:
                    continue
                if info.conversion:
                    score += info.ap - (field[slot].card.ap or 0)
                candidates.append((score, -i, slot, info))
            if candidates:
                candidates.sort(reverse=True)  # (score, -index) is unique: the infos are never compared
                order = state.hand_order()
                for score, _, slot, info in candidates:
                    if score < 10.0 and info.min_pay + 1 > surplus:
                        continue  # (skips the search) it would take more cards than the hand limit discards
                    pay = state._payment(info.cost, info.cost_key, info.code, order) if info.cost else ()
                    if pay is None or (score < 10.0 and len(pay) + 1 > surplus):
                        continue
                    card = info.card
                    tax = card.keyword_costs.get("tax_trash") if "tax_trash" in info.taxes else None
                    if tax:
                        # only if what is left in hand can pay its tax next turn
                        rest = [c for i, c in enumerate(hand) if i not in pay]
                        rest.remove(card)
                        if not can_pay(tax, rest):
                            continue
                    best = ("convert" if info.conversion else "deploy", info.code, slot)
                    break
        if best is not None:
            return best
        # 3. events with modelled draw / mill effects that gain more cards than they cost
        for info in infos:
            gain = info.event_gain
            if gain:
                pay = state.payment_for(info.cost, info.code)
                if pay is not None and gain > len(pay):
                    return ("event", info.code)
        return None


_DISPATCH = {name[2:]: fn for name, fn in vars(GreedyPilot).items() if name.startswith("d_")}
GreedyPilot.dispatch = _DISPATCH  # play_out calls these directly (one call less per decision)

DEFAULT_OPTIONS: dict[str, Any] = {"first": "random", "dummy_deck_size": 60}


def new_state(deck: Deck, rng: random.Random, index: int, options: Mapping[str, Any],
              log: EventLog | None) -> LyceeState:
    return LyceeState(deck, rng, index, options, log)


ENGINE = register(GameEngine(
    game=GAME,
    new_state=new_state,
    pilots={"greedy": GreedyPilot},
    default_options=DEFAULT_OPTIONS,
    describe_options={
        "dummy_deck_size": gettext_noop("cards in the dummy's deck (default 60); it draws 7, then 2 a turn"),
        "opp_field": gettext_noop("scenario tests only: {slot: card} characters the dummy fields (they defend and support)"),
    },
    ratios={
        "milled_per_attack": ("milled", "attacks"),
        "wasted_mana_per_game": ("wasted_mana", "games"),
        "win_rate_going_first": ("first_wins", "first_games"),
        "win_rate_going_second": ("second_wins", "second_games"),
    },
    describe_extras={
        "milled": gettext_noop("cards the dummy lost to undefended attacks (printed AP) and modelled effects on each turn"),
        "wasted_mana": gettext_noop("EX paid beyond a cost (surplus is lost)"),
        "redraws": gettext_noop("opening hands without a character, shown and redrawn"),
    },
))
