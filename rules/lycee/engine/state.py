"""Lycee goldfish engine (GAMES.md §5): the state and its turn script.

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

from collections.abc import Generator, Mapping
from operator import attrgetter
from typing import Any, ClassVar

from rules.cards import CardRecord
from rules.engine._zones import DeckCache, distinct_codes, shuffle
from rules.engine.core import Deck, gettext_noop, submessage
from rules.engine.goldfish import GoldfishState

from ..cardmatch import matches
from .abilities import Program
from .effects import Ctx, EffectsMixin
from .events import GAME
from .field import NEIGHBOURS, NO_USES, NONE, Char, battle_result, moves, stat_mods
from .info import ALL_SLOTS, CARD_INFO, SLOT_INDEX, SLOTS, STEP_KEYWORDS, CardInfo, info_of
from .payment import minimal_payment, needs_of, pays_without, single_payment, split_mana

HAND_LIMIT = 7


def _deck_info(deck: Deck) -> tuple[frozenset[str], bool, tuple[bool, ...], tuple[CardRecord, ...], dict, dict, bool]:
    """(hooks, continuous DMG, pilot flags, the distinct cards, a selector cache, the cards with hand
    / dust-box declarations, whether it has items) of a deck."""
    hooks, keywords = _build_deck_hooks(deck)
    cards = tuple({id(c): c for zone in (deck.main, *deck.zones.values()) for c in zone}.values())
    return (hooks, "cont" in hooks, _pilot_flags(hooks, keywords), cards, {}, _act_cards(cards),
            any(c.card_type == "item" for c in cards))


def _act_cards(cards: tuple[CardRecord, ...]) -> dict[str, tuple[CardRecord, ...]]:
    """The cards whose hand / dust-box declarations the pilot may use, by hook."""
    return {hook: tuple(c for c in cards if info_of(c).pilot_acts.get(hook)) for hook in ("hand_act", "dust_act")}


def _pilot_flags(hooks: frozenset[str], keywords: frozenset[str]) -> tuple[bool, ...]:
    """What the pilot need look for at all: (Touch, Escape, Engage, events with programs, declared
    abilities / items / areas with programs, items / areas it plays for what they do, declared
    abilities used in battle, events that gain something: modelled draws or mills, or programs)."""
    return ("touch" in keywords, "escape" in keywords, "engage" in keywords, "event" in hooks,
            bool(hooks & {"act", "hand_act", "dust_act", "equipped", "placed", "cont"}),
            bool(hooks & {"item_area"}), "battle" in hooks, "event" in hooks or "event_gain" in keywords)


def _build_deck_hooks(deck: Deck) -> tuple[frozenset[str], frozenset[str]]:
    """(the hooks of the deck's programs, the basic abilities of its cards: Touch, Escape and
    Engage are what the pilot looks for)."""
    hooks: set[str] = set()
    keywords: set[str] = set()
    for zone in (deck.main, *deck.zones.values()):
        for c in zone:
            info = info_of(c)
            hooks.update(info.plan.by_hook)
            if c.card_type in ("item", "area") and info.plan.by_hook.keys() & {"equipped", "placed", "cont"}:
                hooks.add("item_area")  # an item or area the pilot plays for what it does
            if any(p.battle for p in info.plan.get("act")):
                hooks.add("battle")  # a declared ability used during my attack
            if info.stand_acts:
                hooks.add("stand_act")  # a declared ability that stands a character (after attacks)
            keywords.update(c.keywords)
            if info.engage:
                keywords.add("engage")
            if info.flags and "touch" in info.flags:
                keywords.add("touch")
            if info.event_gain:
                keywords.add("event_gain")  # an event whose modelled draw / mill gains cards
    return frozenset(hooks), frozenset(keywords)


# every hook some card of a deck has programs for (and the flags that follow), per deck object
_deck_hooks = DeckCache(_deck_info).get


_BIT = tuple(1 << s for s in range(6))
_FREE_SLOTS = tuple([s for s in range(6) if m >> s & 1] for m in range(64))  # the slots of a mask (shared)


_CARD_TYPE = attrgetter("card_type")
_PLAY_VERBS = frozenset({"deploy", "convert", "engage", "item", "area", "event"})


def slot_name(slot: int) -> str:
    """``AF-L`` … ``DF-R`` for my slots 0..5, ``opp AF-L`` … for the dummy's slots 6..11."""
    return SLOTS[slot] if slot < 6 else f"opp {SLOTS[slot - 6]}"


def _hand_view(hand: list[CardRecord], start: int, infos: list[CardInfo], mana: list, pool: dict[str, int] | None,
               total: int) -> tuple[list[CardInfo], list, dict[str, int] | None, int]:
    """``LyceeState.hand_view`` of ``hand``, its cards before ``start`` already in ``infos``,
    ``mana``, ``pool`` and ``total`` (appended to)."""
    cache = CARD_INFO
    for i in range(start, len(hand)):
        c = hand[i]
        try:
            info = cache[c]
        except KeyError:
            info = info_of(c)
        infos.append(info)
        mana.append(info.mana)
        ex = info.ex
        total += ex
        if pool is not None:
            a = info.attr1
            if a is None:  # several attributes
                pool = None
            elif a in pool:
                pool[a] += ex
            else:
                pool[a] = ex
    return infos, mana, pool, total


class LyceeState(EffectsMixin, GoldfishState):
    """One goldfish game of Lycee. Zones are public attributes so tests can set them up."""

    # the game's own attributes in slots (the base's stay in the instance dict, which stays small:
    # a dict of more than 30 keys is built and read slower)
    __slots__ = ("dust", "field", "areas", "ofield", "oareas", "odeck", "ohand", "odust", "taxing", "removed", "piles",
                 "area_under", "deck_hooks", "has_cont", "pilot_flags", "game_cards", "sel_cache", "act_cards",
                 "has_mana", "game_uses", "turn_uses", "in_my_turn", "in_battle", "battling", "opening_hand", "version",
                 "_memo", "_field_last", "_hand_last", "_order_last", "_field_at", "_hand_at", "_order_at",
                 "_field_now", "_hand_now", "_order_now", "_acts_last", "_hooks_last", "has_items")

    GAME = GAME
    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {"first": "random", "dummy_deck_size": 60}
    COUNTERS = (
        "games", "went_first", "attacks", "milled", "defended", "downed_own", "downed_opp", "redraws", "deployed",
        "items", "areas", "events", "supports", "moves", "escapes", "wasted_mana", "taxes_paid", "damage_by_dmg",
        "damage_by_ap", "abilities", "engaged", "recovered", "mana_used",
        "first_games", "second_games",
        "first_wins", "second_wins", "first_win_turns", "second_win_turns",
    )
    PER_TURN = {"milled": "milled"}

    def _new_game(self, deck: Deck, opts: Mapping[str, Any]) -> None:
        self.dust: list[CardRecord] = []
        self.field: list[Char | None] = [None] * 6
        self.areas: list[CardRecord | None] = [None] * 6
        # the dummy: an empty field (scenario tests may give it characters), a deck that only counts
        self.ofield: list[Char | None] = [None] * 6
        self.oareas: list[CardRecord | None] = [None] * 6  # my areas placed on the dummy's slots
        for slot, card in (opts.get("opp_field") or {}).items():
            self.ofield[SLOT_INDEX[slot] if isinstance(slot, str) else int(slot)] = Char(card, 0)
        self.odeck = int(opts.get("dummy_deck_size", 60))
        if self.odeck < 8:
            raise ValueError(f"dummy_deck_size must be at least 8 (got {self.odeck})")
        self.ohand = 0
        self.odust = 0
        self.taxing: tuple[int, str] = (-1, "")
        self.removed: list[CardRecord] = []  # my cards removed from the game (除外)
        self.piles: dict[str, list[CardRecord]] = {}  # my named piles (「X」置き場)
        self.area_under: list[list[CardRecord]] | None = None  # cards under my areas (made when used)
        # every hook some card of the deck has programs for (most decks: none; checks skip early)
        # (per deck: the selector cache maps a selector to the deck's cards matching it)
        (self.deck_hooks, self.has_cont, self.pilot_flags, self.game_cards, self.sel_cache,
         self.act_cards, self.has_items) = _deck_hooks(deck)
        self.has_mana = "mana" in self.deck_hooks  # [コスト] abilities in the deck
        self.game_uses: dict[tuple[str, int], int] = {}  # abilities used "once a game", by (code, index)
        self.turn_uses: dict[tuple[str, int], int] = {}  # this turn's uses of items', areas', hand cards' abilities
        self.in_my_turn = False
        self.in_battle = False
        self.battling = -1  # the slot of my attacker during its battle
        self.opening_hand: tuple[CardRecord, ...] = ()
        # bumped whenever the hand or the field's occupancy changes (pilots and first_playable
        # reuse work done at the same version; attacks into an empty field change neither)
        self.version = 0
        self._memo: dict[Any, Any] = {}
        # the last views built, reused by a later version when what they depend on is as it was
        self._field_last: tuple[list[Char | None], tuple[set[str], list[int], int]] | None = None
        self._hand_last: tuple[list[CardRecord], tuple] | None = None
        self._order_last: tuple[list[CardInfo], set[str], int, list[int]] | None = None
        # the views of the current version, each with the version it was built at (-1: none yet)
        self._field_at = self._hand_at = self._order_at = -1
        self._field_now: Any = None
        self._hand_now: Any = None
        self._order_now: Any = None
        # the declared abilities on my field the pilot weighs, per field view (``field_acts``)
        self._acts_last: tuple[tuple, list, list] | None = None
        self._hooks_last: tuple[tuple, set[str]] | None = None  # the field's hooks, per field view (``_hooked``)

    def rescan(self) -> None:
        """Scenario tests that put cards into zones by hand call this (after setting them): the
        hooks and pilot flags are computed from the deck once, and now cover every card in play."""
        cards = [*self.deck, *self.hand, *self.dust, *(c.card for c in self.field if c is not None),
                 *(c.item for c in self.field if c is not None and c.item is not None)]
        hooks, keywords = _build_deck_hooks(Deck(game=GAME, main=tuple(cards)))
        hooks |= self.deck_hooks
        self.deck_hooks, self.has_cont, self.pilot_flags = hooks, "cont" in hooks, _pilot_flags(hooks, keywords)
        self.game_cards = tuple({id(c): c for c in (*self.game_cards, *cards)}.values())
        self.has_mana = "mana" in hooks
        self.sel_cache = {}
        self.act_cards = _act_cards(self.game_cards)
        self.has_items = any(c.card_type == "item" for c in self.game_cards)
        self._acts_last = self._hooks_last = None
        self.version += 1

    # -- helpers -------------------------------------------------------------------------------
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
        if self.odeck <= 0:
            self._end("win", gettext_noop("the dummy's deck has 0 cards"))
        return n

    def card_zones(self) -> dict[str, list[CardRecord]]:
        return {"deck": self.deck, "hand": self.hand, "dust": self.dust, "removed": self.removed,
                "field": [card for c in self.field if c is not None for card in (c.card, c.item) if card is not None],
                "charge": [card for c in self.field if c is not None for card in c.charge],
                "under": [card for c in self.field if c is not None for card in (*c.under, *c.item_under)]
                + [card for pile in self.area_under or () for card in pile],
                "piles": [card for pile in self.piles.values() for card in pile],
                "areas": [a for a in self.areas if a is not None],
                # my items on the dummy's characters and my areas on its slots
                "opp_side": [c.item for c in self.ofield if c is not None and c.item is not None]
                + [a for a in self.oareas if a is not None]}

    def _discard(self, code: str, pile: list[CardRecord]) -> None:
        self.version += 1
        super()._discard(code, pile)

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
        if self._field_at == self.version:
            return self._field_now
        field = self.field
        last = self._field_last
        # most versions leave the field's characters as they were (a payment, a draw): the
        # view depends only on which character is in which slot (a character's names never change)
        if last is not None and last[0] == field:  # (Char compares by identity)
            view = last[1]
        else:
            names: set[str] = set()
            for c in field:
                if c is not None:
                    names.update(c.names)
            f0, f1, f2, f3, f4, f5 = field
            mask = ((f0 is None) | (f1 is None) << 1 | (f2 is None) << 2 | (f3 is None) << 3 | (f4 is None) << 4
                    | (f5 is None) << 5)
            view = (names, _FREE_SLOTS[mask], mask)
            self._field_last = (field.copy(), view)
        self._field_at, self._field_now = self.version, view
        return view

    def field_acts(self) -> tuple[list[tuple[str, int, Char, CardRecord, CardInfo, tuple[Program, ...]]],
                                  list[tuple[int, Char]]]:
        """(the main-phase declared abilities of my characters and their items the pilot may use:
        (verb, slot, character, source card, its info, programs); my characters whose declared
        abilities stand a character: (slot, character)). Without items in the game they depend
        only on which character is in which slot: reused while the field view is."""
        view = self.field_view()
        last = self._acts_last
        if last is not None and last[0] is view:
            return last[1], last[2]
        acts: list[tuple[str, int, Char, CardRecord, CardInfo, tuple[Program, ...]]] = []
        standers: list[tuple[int, Char]] = []
        for s, c in enumerate(self.field):
            if c is None:
                continue
            info = c.info
            if info.stand_acts:
                standers.append((s, c))
            progs = info.pilot_acts.get("act")
            if progs:
                acts.append(("use", s, c, c.card, info, progs))
            item = c.item
            if item is not None:
                progs = info_of(item).pilot_acts.get("act")
                if progs:
                    acts.append(("item_use", s, c, item, info_of(item), progs))
        if not self.has_items:
            self._acts_last = (view, acts, standers)
        return acts, standers

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
        if self._hand_at == self.version:
            return self._hand_now
        hand = self.hand
        last = self._hand_last
        if last is None:
            view = _hand_view(hand, 0, [], [], {}, 0)
        else:
            old = last[0]
            if old == hand:  # the hand as it was (CardRecord compares by identity)
                self._hand_at, self._hand_now = self.version, last[1]
                return last[1]
            n = len(old)
            if len(hand) > n and hand[:n] == old:  # cards added at its end (a draw): extend the last view
                infos, mana, pool, total = last[1]
                view = _hand_view(hand, n, infos.copy(), mana.copy(), None if pool is None else pool.copy(), total)
            else:
                view = _hand_view(hand, 0, [], [], {}, 0)
        self._hand_last = (hand.copy(), view)
        self._hand_at, self._hand_now = self.version, view
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
        if self._order_at == self.version:
            return self._order_now
        names = self.field_view()[0]
        field = self.field
        free_af = (field[0] is None) | (field[1] is None) << 1 | (field[2] is None) << 2
        infos = self.hand_view()[0]
        last = self._order_last
        # the views are the same objects while the hand and the field's characters are as they were
        if last is not None and last[0] is infos and last[1] is names and last[2] == free_af:
            order = last[3]
        else:
            values = [info.dup_value if info.same_name in names
                      else info.free_value if info.af_mask & free_af else info.base
                      for info in infos]
            order = sorted(range(len(values)), key=values.__getitem__)  # stable
            self._order_last = (infos, names, free_af, order)
        self._order_at, self._order_now = self.version, order
        return order

    def payment_for(self, cost: Mapping[str, int], skip_code: str = "",
                    order: list[int] | None = None, purpose: str = "") -> tuple[int, ...] | None:
        """The least valuable hand cards paying ``cost`` (hand indices), not using one copy of
        ``skip_code`` (the card being played); ``None`` when the hand cannot pay. ``order`` is
        ``hand_order()`` (the default). Memoised per ``version``, so the pilot's look-ahead and the
        play itself compute it once. With [コスト] abilities on my field, a payment may also use
        their mana (negative entries: ``-1 - k``, source ``k`` of ``mana_sources()``); ``purpose``
        (``deploy``, ``event``, ``item``, ``area``, ``ability``, ``hand_ability``; by default the type of
        the ``skip_code`` card, else ``ability``) is what such mana may be limited to."""
        if not cost:
            return ()
        return self._payment(cost, tuple(cost.items()), skip_code, order, purpose)

    def _payment(self, cost: Mapping[str, int], cost_key: tuple, skip_code: str = "",
                 order: list[int] | None = None, purpose: str = "") -> tuple[int, ...] | None:
        """``payment_for`` with the cost's items given (``CardInfo.cost_key``)."""
        memo = self._memo
        if memo.get("v") != self.version:
            memo.clear()
            memo["v"] = self.version
        if self.has_mana and self.mana_sources():
            return self._payment_with_sources(cost_key, skip_code, order, purpose)
        key = (skip_code, cost_key)
        if key in memo:
            return memo[key]
        infos, mana, pool, avail = self.hand_view()
        skip = -1
        if skip_code:
            for i, info in enumerate(infos):
                if info.code == skip_code:
                    skip = i
                    break
        if pool is not None:
            # Every card has one attribute: a hand that cannot pay is answered without searching
            # (the hand, without the card played, must hold enough EX in all and of each symbol).
            if skip >= 0:
                skip_ex, (skip_attr,) = mana[skip]
            else:
                skip_ex, skip_attr = 0, ""
            need, total = needs_of(cost_key)
            short = False
            for a in need:
                if pool.get(a, 0) - (skip_ex if a == skip_attr else 0) < need[a]:
                    short = True
                    break
            if total <= 0:
                pay = ()
            elif short or avail - skip_ex < total:
                pay = None
            else:  # (the hand's order only for a search)
                pay = single_payment(need, total, mana, self.hand_order() if order is None else order, skip)
            memo[key] = pay
            return pay
        need, total = needs_of(cost_key)
        if total <= 0:
            pay = ()
        elif avail - (mana[skip][0] if skip >= 0 else 0) < total:
            pay = None  # not enough EX in all
        else:
            pay = minimal_payment(need, total, mana, self.hand_order() if order is None else order, skip)
        memo[key] = pay
        return pay

    def mana_sources(self) -> list[tuple[Char, Program]]:
        """The [コスト] abilities of my characters usable now (limits, conditions, and what using
        them costs: cards in my deck, charge, cards under it), memoised per ``version``."""
        memo = self._memo
        if memo.get("v") != self.version:
            memo.clear()
            memo["v"] = self.version
        found = memo.get("src")
        if found is None:
            found = []
            for c in self.field:
                if c is None:
                    continue
                for prog in c.info.plan.get("mana"):
                    if not self._within_limits(prog, c):
                        continue
                    ctx = Ctx(prog, c.card, c)
                    if prog.conds and not all(self._cond(cond, ctx) for cond in prog.conds):
                        continue
                    ok = True
                    for op in prog.ops:
                        if ((op.kind == "mill" and len(self.deck) <= op.n) or (op.kind == "uncharge" and len(c.charge) < op.n)
                                or (op.kind == "under_to" and len(c.under) < op.n)
                                or (op.kind == "discard" and len(self.hand) <= op.n)):
                            ok = False
                    if ok:
                        found.append((c, prog))
            memo["src"] = found
        return found

    def _payment_with_sources(self, cost_key: tuple, skip_code: str, order: list[int] | None,
                              purpose: str) -> tuple[int, ...] | None:
        """A payment that may use my [コスト] abilities' mana (see ``payment_for``): such mana is
        the least valuable when it costs nothing more, a card of my deck, charge or a card under a
        character (used before any hand card), the most valuable when it destroys its character."""
        memo = self._memo
        infos, mana, pool, avail = self.hand_view()
        skip = -1
        skip_card = None
        if skip_code:
            for i, info in enumerate(infos):
                if info.code == skip_code:
                    skip, skip_card = i, info.card
                    break
        if not purpose:
            purpose = {"character": "deploy", "event": "event", "item": "item", "area": "area"}.get(
                skip_card.card_type if skip_card is not None else "", "ability")
        key = ("src", skip_code, cost_key, purpose)
        if key in memo:
            return memo[key]
        if order is None:
            order = self.hand_order()
        sources = self.mana_sources()
        n = len(mana)
        extra: list[tuple[int, tuple[str, ...]]] = []
        first: list[int] = []
        last: list[int] = []
        ks: list[int] = []
        for k, (_, prog) in enumerate(sources):
            ex, attrs, allowed, must = prog.arg
            if allowed is not None and purpose not in allowed:
                continue
            if must is not None and (skip_card is None or matches(must, skip_card) is False):
                continue
            (last if any(op.kind == "destroy_this" for op in prog.ops) else first).append(n + len(extra))
            extra.append((ex, attrs))
            ks.append(k)
        need, total = needs_of(cost_key)
        if total <= 0:
            pay: tuple[int, ...] | None = ()
        else:
            full = mana + extra
            found = minimal_payment(need, total, full, [*first, *order, *last], skip)
            pay = None if found is None else tuple(sorted(i if i < n else -1 - ks[i - n] for i in found))
        memo[key] = pay
        return pay

    # -- the game ------------------------------------------------------------------------------
    def _setup(self) -> None:
        shuffle(self.rng, self.deck)
        if self.log is not None:
            self.say("me", "setup", "setup", order="first" if self.went_first else "second")
        self._opening_hand()
        self.odeck -= 7
        self.ohand = 7

    def _opening_hand(self) -> None:
        """Draw 7; a hand without a character is shown, shuffled back and redrawn, while the deck
        holds a character at all (at most 100 times)."""
        deck = self.deck
        has_char = "character" in map(_CARD_TYPE, deck)  # (C loops: once a game)
        for _ in range(100):
            self.hand = deck[-7:]
            del deck[-7:]
            if not has_char or "character" in map(_CARD_TYPE, self.hand):
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
        hooks = self.deck_hooks
        if hooks and self._hooked("opp_turn_start"):
            self._fire_field("opp_turn_start")
        n = min(1 if first else 2, self.odeck)
        self.odeck -= n
        self.ohand += n
        if self.odeck <= 0:
            self._end("win", gettext_noop("the dummy's deck has 0 cards"))
        if self.ohand > HAND_LIMIT:
            self.odust += self.ohand - HAND_LIMIT
            self.ohand = HAND_LIMIT
        if hooks and self._hooked("opp_turn_end"):
            self._fire_field("opp_turn_end")

    def _hooked(self, hook: str) -> bool:
        """Whether a character of mine (or its item) has programs for ``hook``: the hooks of the
        field, reused while the field view is when the game has no items (they depend only on
        which character is where), else memoised per ``version`` (an item equipped bumps it)."""
        if hook not in self.deck_hooks:
            return False
        if not self.has_items:
            view = self.field_view()
            last = self._hooks_last
            if last is None or last[0] is not view:
                last = self._hooks_last = (view, self._field_hooks())
            return hook in last[1]
        memo = self._memo
        if memo.get("v") != self.version:
            memo.clear()
            memo["v"] = self.version
        hooks = memo.get("hooks")
        if hooks is None:
            hooks = memo["hooks"] = self._field_hooks()
        return hook in hooks

    def _field_hooks(self) -> set[str]:
        found: set[str] = set()
        for c in self.field:
            if c is not None:
                found.update(c.info.plan.by_hook)
                if c.item is not None:
                    found.update(info_of(c.item).plan.by_hook)
        return found

    def _my_turn(self) -> Generator[str, tuple, None]:
        turn = self._new_turn()
        log = self.log
        field = self.field
        hooks = self.deck_hooks  # empty for most decks: every hook check below is skipped
        self.in_my_turn = True
        if log is not None:
            self.say("me", "turn", "turn", turn=turn)
        if hooks:
            if self.turn_uses:
                self.turn_uses = {}
            if self._hooked("turn_start"):
                self._fire_field("turn_start")
        # taxes, before the start phase
        no_wakeup: set[int] = set()
        for c in field:
            if c is not None and c.info.taxes:
                no_wakeup = yield from self._taxes()
                break
        # start: wake up, draw
        for s, c in enumerate(field):
            if c is not None:
                c.moved = c.touched = c.supported = False
                if hooks:
                    if c.uses:
                        c.uses = NO_USES
                    if c.skip_wakeup:
                        c.skip_wakeup = False
                        continue
                if s not in no_wakeup:
                    c.standing = True
        self._draw(1 if turn == 1 and self.went_first else 2)
        # main
        self.version += 1
        # what can be played at all this turn can mostly be played at its start (effects that draw
        # or put cards back are the exception: first-playable is a statistic, not a rule)
        self._note_playable(turn)
        while True:
            choice = yield "main"
            verb = choice[0]
            if verb == "end":
                break
            if verb == "attack":
                if not hooks:
                    self._plain_attack(choice[1], choice[2])
                elif "battle" in self.deck_hooks:  # a declared ability usable in my battle: a battle window
                    yield from self._attack(choice[1], choice[2])
                else:  # no declared ability usable in a battle: no battle window (no generator)
                    self._battle(choice[1], choice[2])
                continue
            if verb in _PLAY_VERBS:
                self._play(verb, choice[1], choice[2] if len(choice) > 2 else -1)
            elif verb == "escape":
                self._escape(choice[1])
            elif verb == "touch":
                self._touch(choice[1])
            elif verb == "move":
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
            else:  # use, item_use, hand, dust
                self._declare(choice)
            self.version += 1  # after the play: its payment was memoised at the version it was chosen
        # end: turn-end abilities, hand limit, temporary changes end
        if hooks and self._hooked("turn_end"):
            self._fire_field("turn_end")
        while len(self.hand) > HAND_LIMIT:
            _, code = yield "discard"
            self._discard(code, self.dust)
        if hooks:  # (without printed abilities nothing changes AP/DP/SP/DMG until the end of a turn)
            for s, c in enumerate(field):
                if c is not None:
                    self._recompute(c, s)
        self.in_my_turn = False

    def declarable(self) -> list[tuple]:
        """Declared abilities usable now: ``("use", slot, index)`` of my characters and items,
        ``("hand", code, index)`` of hand cards, ``("dust", code, index)`` of dust-box cards."""
        out: list[tuple] = []
        hooks = self.deck_hooks
        if not hooks or not ("act" in hooks or "hand_act" in hooks or "dust_act" in hooks):
            return out
        for s, c in enumerate(self.field):
            if c is None:
                continue
            for prog in c.info.plan.get("act"):
                if self.can_use(prog, c, c.card) is not None:
                    out.append(("use", s, prog.index))
            if c.item is not None:
                for prog in info_of(c.item).plan.get("act"):
                    if self.can_use(prog, c, c.item) is not None:
                        out.append(("item_use", s, prog.index))
        seen: set[str] = set()
        for card in self.hand if "hand_act" in hooks else ():
            progs = info_of(card).plan.get("hand_act")
            if progs and card.code not in seen:
                seen.add(card.code)
                out.extend(("hand", card.code, p.index) for p in progs if self.can_use(p, None, card) is not None)
        seen.clear()
        for card in self.dust if "dust_act" in hooks else ():
            progs = info_of(card).plan.get("dust_act")
            if progs and card.code not in seen:
                seen.add(card.code)
                out.extend(("dust", card.code, p.index) for p in progs if self.can_use(p, None, card) is not None)
        return out

    def declared(self, choice: tuple) -> tuple[Program, Char | None, CardRecord] | None:
        """The program, source character and source card of a declaration option."""
        verb = choice[0]
        if verb in ("use", "item_use"):
            c = self.field[choice[1]]
            src = None if c is None else c.card if verb == "use" else c.item
            if src is None:
                return None
            prog = next((p for p in info_of(src).plan.get("act") if p.index == choice[2]), None)
            return None if prog is None else (prog, c, src)
        zone = self.hand if verb == "hand" else self.dust
        card = next((c for c in zone if c.code == choice[1]), None)
        if card is None:
            return None
        hook = "hand_act" if verb == "hand" else "dust_act"
        prog = next((p for p in info_of(card).plan.get(hook) if p.index == choice[2]), None)
        return None if prog is None else (prog, None, card)

    def _declare(self, choice: tuple) -> None:
        prog, c, card = self.declared(choice)
        pay = self.can_use(prog, c, card, self.in_battle)
        self._use(prog, c, card, pay or ())

    def _taxes(self) -> Generator[str, tuple, set[int]]:
        """Tax trash / Tax wakeup of my characters, slot by slot (decision ``tax``: pay or not).
        Returns the slots whose character does not wake up this turn."""
        field = self.field
        log = self.log
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
        return no_wakeup

    def _note_playable(self, turn: int) -> None:
        """Record the first turn each hand card could be played (a target exists, the rest of
        the hand pays its cost). Codes already recorded are not checked again."""
        fp = self.first_playable
        infos, mana, pool, total = self.hand_view()
        singles: dict[str, int] | None = None
        multi: list[int] = []
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
            elif total - info.ex >= info.specific + info.star:
                # several attributes in the hand: the single-attribute cards' EX per attribute once,
                # then each card without its own share; the multi-attribute cards cover what is left
                if singles is None:
                    singles, multi = split_mana(mana)
                if pays_without(needs_of(info.cost_key)[0], singles, multi, mana, i):
                    fp[code] = turn

    def _has_target(self, card: CardRecord, names: set[str], free: list[int]) -> bool:
        t = card.card_type
        if t == "character":
            return bool(self.deploy_slots(card, names, free))
        if t == "item":
            return (any(c is not None and c.item is None for c in self.field)
                    or any(c is not None and c.item is None for c in self.ofield))
        if t == "area":
            return None in self.areas or None in self.oareas
        return t == "event"

    def deploy_slots(self, card: CardRecord, names: set[str] | None = None, free: list[int] | None = None) -> list[int]:
        """Slots a character may enter: empty slots its position restriction allows, no same name
        on the field; a conversion enters only the slot of the character it converts."""
        field = self.field
        allowed = card.slots
        if card.conversion_target:
            # onto the named character, which must not itself be a converted character (seed 004 §9)
            return [s for s in ALL_SLOTS if field[s] is not None and card.conversion_target in field[s].names
                    and not field[s].card.conversion_target and (not allowed or SLOTS[s] in allowed)]
        if names is None:
            names = self.names_on_field()
        info = CARD_INFO.get(card) or info_of(card)
        if info.enter_only_by:
            return []
        for n in info.own:
            if n in names:
                return []
        if free is None:
            free = self.field_view()[1]
        mask = info.mask
        return [s for s in free if mask >> s & 1]

    def engage_slots(self, card: CardRecord) -> list[int]:
        """[エンゲージ]: slots its position restriction allows that hold a character of mine, which
        the engage destroys (the same-name rule counts the field without it)."""
        info = info_of(card)
        if not info.engage or info.enter_only_by:
            return []
        out = []
        names = self.field_view()[0]
        for s in ALL_SLOTS:
            c = self.field[s]
            if c is None or not info.mask >> s & 1:
                continue
            if names.difference(c.names).isdisjoint(info.own):  # (no two characters share a name)
                out.append(s)
        return out

    def move_keyword(self, slot: int, to: int) -> tuple[str, tuple[int, ...]] | None:
        """The Step-family keyword (and its payment, when it has a cost) that moves the character in
        ``slot`` to the empty ``to``: standing, once a turn, outside battle, own field only."""
        c = self.field[slot]
        if c is None or not c.standing or c.moved or self.field[to] is not None:
            return None
        best = None
        for kw in STEP_KEYWORDS:
            if kw in c.card.keywords and to in moves(slot, kw):
                cost = c.card.keyword_costs.get(kw) or {}
                pay = self.payment_for(cost) if cost else ()
                if pay is not None and (best is None or len(pay) < len(best[1])):
                    best = (kw, pay)
        return best

    def escape_payment(self, slot: int) -> tuple[int, ...] | None:
        """Escape: a standing character of mine with the keyword leaves the field for the dust box
        (own turn, outside battle; the keyword's cost paid). The payment, or ``None`` when it cannot."""
        c = self.field[slot]
        if c is None or not c.standing or "escape" not in c.card.keywords:
            return None
        cost = c.card.keyword_costs.get("escape")
        return self.payment_for(cost) if cost else ()

    def _escape(self, slot: int) -> None:
        pay = self.escape_payment(slot)
        if pay:
            paid = self._pay(pay)
            if self.log is not None:
                self.say("me", "pay", "move_cost", keyword="escape", cards=", ".join(p.name for p in paid))
        self.counters["escapes"] += 1
        self._leave(slot, "escape")

    def touch_partner(self, slot: int) -> tuple[int, tuple[int, ...]] | None:
        """Touch: a standing character of mine with the keyword swaps places with the standing
        character of mine in the other row of its column (own turn, outside battle, once a turn;
        the keyword's cost paid). (the other slot, the payment), or ``None``."""
        field = self.field
        c = field[slot]
        if c is None or not c.standing or c.touched:
            return None
        flags = c.info.flags
        if "touch" in c.card.keywords:
            cost = c.card.keyword_costs.get("touch")
        elif flags and "touch" in flags:  # Overture's [オーダーチェンジ] (abilities.py)
            cost = flags["touch"]
        else:
            return None
        other = slot + 3 if slot < 3 else slot - 3
        o = field[other]
        if o is None or not o.standing:
            return None
        pay = self.payment_for(cost) if cost else ()
        return None if pay is None else (other, pay)

    def _touch(self, slot: int) -> None:
        other, pay = self.touch_partner(slot)
        if pay:
            paid = self._pay(pay)
            if self.log is not None:
                self.say("me", "pay", "move_cost", keyword="touch", cards=", ".join(p.name for p in paid))
        field = self.field
        c, o = field[slot], field[other]
        field[slot], field[other] = o, c
        c.touched = True
        self._recompute(c, other)
        self._recompute(o, slot)
        self.version += 1
        self.counters["moves"] += 1
        if self.log is not None:
            self.say("me", "move", "touch", card=c.card.name, slot=SLOTS[slot], card2=o.card.name, slot2=SLOTS[other])

    def _recompute(self, c: Char, slot: int) -> None:
        """Printed values plus its item and the area of its slot and the DMG it gained (temporary
        changes dropped). ``slot`` 6..11 is the dummy's slot ``slot - 6``."""
        info = c.info
        if c.item is None:
            area = self.areas[slot] if slot < 6 else self.oareas[slot - 6]
            if area is None:
                c.ap, c.dp, c.sp, c.dmg = info.ap, info.dp, info.sp, info.damage + c.dmg_lasting
                return
        else:
            area = self.areas[slot] if slot < 6 else self.oareas[slot - 6]
        iap, idp, isp, idmg = stat_mods(c.item)
        aap, adp, asp, admg = stat_mods(area)
        c.ap = info.ap + iap + aap
        c.dp = info.dp + idp + adp
        c.sp = info.sp + isp + asp
        c.dmg = info.damage + idmg + admg + c.dmg_lasting

    def _pay(self, pay: tuple[int, ...], keep: CardRecord | None = None) -> list[CardRecord]:
        """Discard the hand cards of a payment (and use the [コスト] abilities it names; a discard
        such an ability costs never takes ``keep``, the hand card being played)."""
        if pay and pay[0] < 0:  # mana of [コスト] abilities (sorted: they come first)
            sources = self.mana_sources()
            used = [sources[-1 - i] for i in pay if i < 0]
            pay = tuple(i for i in pay if i >= 0)
        else:
            used = ()
        self.version += 1
        hand = self.hand
        paid = [hand[i] for i in pay]
        for i in sorted(pay, reverse=True):
            del hand[i]
        self.dust.extend(paid)
        for c, prog in used:
            self._use_mana(c, prog, keep)
        return paid

    def _use_mana(self, c: Char, prog: Program, keep: CardRecord | None = None) -> None:
        """A [コスト] ability used for a payment: its own costs, its limits."""
        self._note_use(prog, c)
        self.counters["mana_used"] += 1
        if self.log is not None:
            self.say("me", "ability", "mana", card=c.card.name, text=prog.text)
        for op in prog.ops:
            if op.kind == "mill":
                self._mill_me(op.n)
            elif op.kind == "uncharge":
                self._uncharge(c, op.n)
            elif op.kind == "under_to":
                n = min(op.n, len(c.under))
                self.dust.extend(c.under[len(c.under) - n:])
                del c.under[len(c.under) - n:]
            elif op.kind == "discard":
                self._discard_least(op.n, "dust", skip=keep)
            elif op.kind == "destroy_this":
                slot = self._slot_of(c)
                if slot >= 0:
                    self._leave(slot, "ability cost")

    def _play(self, verb: str, code: str, slot: int) -> None:
        for card in self.hand:  # (loops, not generators: a play is frequent)
            if card.code == code:
                break
        else:
            raise ValueError(f"{code} is not in the hand")
        info = CARD_INFO.get(card) or info_of(card)
        cost = info.convert_cost if verb == "convert" else info.cost
        pay = self.payment_for(cost, code)
        paid = self._pay(pay or (), card)
        self.hand.remove(card)
        wasted = -sum(cost.values())
        for c in paid:
            wasted += c.ex or 0
        if wasted > 0:
            self.counters["wasted_mana"] += wasted
        log = self.log
        text: dict[str, Any] = {}
        if log is not None:
            names = ", ".join(f"{c.name} (EX{c.ex})" for c in paid) or "nothing"
            text = (submessage("lycee.paying_wasted", paid=names, wasted=wasted) if wasted > 0
                    else submessage("lycee.paying", paid=names))
        field = self.field
        if verb in ("deploy", "convert", "engage"):
            left: tuple[Char, str] | None = None  # its abilities on leaving run once the new one entered
            if verb != "deploy" and field[slot] is None:
                # the character it was to replace paid with its own [コスト] mana, destroying itself:
                # the card enters the emptied slot
                verb = "deploy"
            if verb == "convert":
                old = field[slot]
                if log is not None:
                    self.say("me", "convert", "convert_return", card=old.card.name)
                left = self._leave(slot, "converted", to="hand", triggers=False)
            elif verb == "engage":
                old = field[slot]
                self.counters["engaged"] += 1
                if log is not None:
                    self.say("me", "engage", "engage", card=card.name, card2=old.card.name)
                left = self._leave(slot, "engage", triggers=False)
            if log is not None:
                self.say("me", verb if verb != "engage" else "deploy", verb if verb != "engage" else "deploy",
                         card=card.name, ap=card.ap, dp=card.dp, sp=card.sp, slot=SLOTS[slot], payment=text)
            if self.deck_hooks:
                self._enter(card, slot, "hand", engage=verb == "engage")
            else:  # nothing in the deck reacts to a character entering
                c = Char(card, self.turn)
                field[slot] = c
                self._recompute(c, slot)
                self.counters["deployed"] += 1
            if left is not None:
                self._left(*left)
        elif verb == "item":  # on one of my characters, or (slot 6..11) one of the dummy's
            c = field[slot] if slot < 6 else self.ofield[slot - 6]
            c.item = card
            self.version += 1
            self._recompute(c, slot)
            self.counters["items"] += 1
            if log is not None:
                self.say("me", "item", "item", card=card.name, card2=c.card.name, payment=text)
            if slot < 6 and info.plan.by_hook:
                self._fire("equipped", c, card)
        elif verb == "area":  # on one of my slots, or (slot 6..11) one of the dummy's
            if slot < 6:
                self.areas[slot] = card
                if field[slot] is not None:
                    self._recompute(field[slot], slot)
            else:
                self.oareas[slot - 6] = card
                if self.ofield[slot - 6] is not None:
                    self._recompute(self.ofield[slot - 6], slot)
            self.counters["areas"] += 1
            if log is not None:
                self.say("me", "area", "area", card=card.name, slot=slot_name(slot), payment=text)
            if info.plan.by_hook:
                self._fire("placed", field[slot] if slot < 6 else None, card)
        else:
            self.dust.append(card)
            self.counters["events"] += 1
            progs = info.plan.get("event")
            if log is not None:
                modelled = progs or any(e.get("kind") in ("draw", "opp_mill") for e in card.effects)
                self.say("me", "event", "event" if modelled else "event_unmodelled", card=card.name, payment=text)
            self._effects(card, "play")
            for prog in progs:
                self._run(prog, card, None, None)
            if self._hooked("event_used"):
                self._fire_field("event_used", card=card)

    def _enter(self, card: CardRecord, slot: int, how: str, engage: bool = False) -> Char:
        """``card`` enters my field in ``slot`` (``how``: ``hand`` or ``effect``); its abilities on
        entering run (those of an engage too), then my other characters' on a character entering."""
        c = Char(card, self.turn)
        self.field[slot] = c
        self._recompute(c, slot)
        self.version += 1
        self.counters["deployed"] += 1
        by_hook = c.info.plan.by_hook
        if by_hook:
            if "enter" in by_hook:
                self._fire("enter", c, arg=how)
            if engage and "engage" in by_hook:
                self._fire("engage", c)
        if self._hooked("ally_enter"):
            self._fire_field("ally_enter", that=c)
        return c

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

    def _leave(self, slot: int, why: str, to: str = "dust", triggers: bool = True) -> tuple[Char, str]:
        """My character in ``slot`` leaves the field: to the dust box (``to``), my hand or the
        bottom of my deck — removed from the game instead when it says so (※…除外する); its item
        and charge go to the dust box; its Penalty (original Lycee: leaving the field) and its
        abilities on leaving run — with ``triggers`` false the caller runs them (``_left``) once
        what made it leave is done (an engager or a conversion has entered its slot)."""
        self.version += 1
        c = self.field[slot]
        self.field[slot] = None
        card = c.card
        flags = c.info.flags
        if flags and flags.get("exile_on_leave"):
            to = "removed"
        if to == "hand":
            self.hand.append(card)
        elif to == "deck":
            self.deck.insert(0, card)
        elif to == "removed":
            self.removed.append(card)
        elif to.startswith("pile:"):
            self.piles.setdefault(to[5:], []).append(card)
        else:
            self.dust.append(card)
        if c.item is not None:
            self.dust.append(c.item)
        if c.charge:
            self.dust.extend(c.charge)
            c.charge = NONE
        if c.under or c.item_under:
            self.dust.extend(c.under)
            self.dust.extend(c.item_under)
            c.under = c.item_under = NONE
        if self.log is not None:
            self.say("me", "leave", "leave_to" if to != "dust" else "leave", card=card.name, why=why, to=to)
        if triggers:
            self._left(c, to)
        return c, to

    def _left(self, c: Char, to: str) -> None:
        """What runs when my character ``c`` has left the field (``_leave``)."""
        card = c.card
        self._penalty(c)
        progs = c.info.plan.get("leave")
        for prog in progs:
            if prog.arg == "destroyed" and to != "dust":
                continue
            if self._within_limits(prog, c):
                self._note_use(prog, c)
                self._run(prog, card, c, None)
        if self._hooked("ally_leave"):
            self._fire_field("ally_leave", card=card, to=to)

    # -- battle --------------------------------------------------------------------------------
    def _support(self, field: list[Char | None], slot: int, target: Char, need: int, stat: str, who: str) -> int:
        """Adjacent standing characters add their SP until ``need`` is met. Only a standing
        character supports: it rests, unless it is a Supporter that has not used the keyword this
        turn and pays the keyword's printed cost (mine from the hand; the dummy has no hand, so its
        Supporters with a cost rest like any supporter)."""
        gain = 0
        for n in NEIGHBOURS[slot]:
            if gain >= need:
                break
            s = field[n]
            if s is None or not s.standing:
                continue
            if "supporter" in s.card.keywords and not s.supported and self._supporter_paid(s, who):
                s.supported = True  # supports without resting, once per turn
            else:
                s.standing = False
            gain += s.sp
            self.counters["supports"] += 1
            if self.log is not None:
                self.say(who, "support", "support", card=s.card.name, card2=target.card.name, sp=s.sp, stat=stat)
        return gain

    def _supporter_paid(self, s: Char, who: str) -> bool:
        """Pay the Supporter keyword's printed cost (``keyword_costs["supporter"]``), if any."""
        cost = s.card.keyword_costs.get("supporter")
        if not cost:
            return True
        if who != "me":
            return False
        pay = self.payment_for(cost)
        if pay is None:
            return False
        paid = self._pay(pay)
        if self.log is not None:
            self.say("me", "pay", "move_cost", keyword="supporter", cards=", ".join(p.name for p in paid))
        return True

    def attack_targets(self, slot: int) -> tuple[int, ...]:
        c = self.field[slot]
        if "sideattack" in c.card.keywords:
            return tuple(col for col in (slot, slot - 1, slot + 1) if 0 <= col < 3)
        return (slot,)

    def _attack(self, slot: int, column: int) -> Generator[str, tuple, None]:
        """One battle: the attack is declared (abilities on attacking run), declared abilities
        usable during a battle may be used (decision ``battle``), then the result: deck damage
        when no defender stands in the column, else the defended battle (scenarios)."""
        att = self.field[slot]
        self.counters["attacks"] += 1
        self.in_battle = True
        self.battling = slot
        if "attack" in att.info.plan.by_hook:
            self._fire("attack", att)
        if self.battle_uses():
            while True:
                choice = yield "battle"
                if choice[0] == "done":
                    break
                self._declare(choice)
        if self.field[slot] is not att:  # it left the field during the battle
            self.in_battle = False
            self.battling = -1
            return
        self._result(att, slot, column)

    def _plain_attack(self, slot: int, column: int) -> None:
        """An attack of a deck whose cards have no printed abilities the engine plays."""
        att = self.field[slot]
        self.counters["attacks"] += 1
        defender = self.ofield[column + 3]
        if defender is not None and defender.standing:
            self._defended(att, slot, defender, column + 3, column)
            return
        att.standing = False
        self._hit_deck(att, column, att.dmg)

    def _hit_deck(self, att: Char, column: int, dmg: int) -> int:
        """An unblocked attack's deck damage, counted, logged and dealt (with Bonus's deck bonus):
        ``dmg`` (the printed DMG with its changes, never below 0) when the card prints DMG (GAMES.md
        §5 decision), else the printed AP (changes never count). Returns the damage."""
        info = att.info
        if info.by_dmg:
            damage = dmg if dmg > 0 else 0
            self.counters["damage_by_dmg"] += 1
        else:
            damage = info.ap
            self.counters["damage_by_ap"] += 1
        if self.log is not None:
            self.say("me", "attack", "attack_dmg" if info.by_dmg else "attack", card=att.card.name,
                     column="LCR"[column], count=min(damage, self.odeck), ap=damage, left=max(self.odeck - damage, 0))
        if self.mill_opp(damage) and "deck_bonus" in att.card.keywords:
            self._effects(att.card, "deck_bonus")
        return damage

    def _battle(self, slot: int, column: int) -> None:
        """``_attack`` for a deck without declared abilities: no battle window."""
        att = self.field[slot]
        self.counters["attacks"] += 1
        self.in_battle = True
        self.battling = slot
        if "attack" in att.info.plan.by_hook:
            self._fire("attack", att)
            if self.field[slot] is not att:
                self.in_battle = False
                self.battling = -1
                return
        self._result(att, slot, column)

    def _result(self, att: Char, slot: int, column: int) -> None:
        """The battle's result: deck damage when no defender stands in the column, else the
        defended battle; then the abilities at its end."""
        by_hook = att.info.plan.by_hook
        d_slot = column + 3
        defender = self.ofield[d_slot]
        if defender is None or not defender.standing:
            att.standing = False
            dmg = 0
            if att.info.by_dmg:
                dmg = att.dmg + self.cont_dmg(slot, att) if self.has_cont else att.dmg
            damage = self._hit_deck(att, column, dmg)
            if by_hook:
                if "bonus" in by_hook:
                    self._fire("bonus", att)
                if damage > 0 and "damage" in by_hook:
                    self._fire("damage", att)
            for ops in att.bonus_ops:  # [ボーナス] it gained
                self._run(Program(att.card.code, -1, "bonus", "", ops), att.card, att, None)
        else:
            self._defended(att, slot, defender, d_slot, column)
        if "battle_end" in by_hook and self.field[slot] is att:
            self._fire("battle_end", att)
        self.in_battle = False
        self.battling = -1

    def battle_uses(self) -> list[tuple]:
        """Declared abilities of my characters usable during my attacker's battle."""
        out: list[tuple] = []
        if "battle" not in self.deck_hooks:
            return out
        for s, c in enumerate(self.field):
            if c is None:
                continue
            for prog in c.info.plan.get("act"):
                if prog.battle and self.can_use(prog, c, c.card, True) is not None:
                    out.append(("use", s, prog.index))
        return out

    def options_battle(self) -> list[tuple]:
        return [("done",), *self.battle_uses()]

    def _defended(self, att: Char, slot: int, defender: Char, d_slot: int, column: int) -> None:
        """A defended battle (scenario tests: the dummy was given characters)."""
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
            if defender.item is not None:  # my item on it goes to my dust box
                self.dust.append(defender.item)
            if "bonus" in att.card.keywords:  # whether or not the attacker survives (seed 004 §7)
                self._effects(att.card, "bonus")
        if att_down:
            self.counters["downed_own"] += 1
            self._leave(slot, "downed")

    def attackers(self) -> list[int]:
        field = self.field
        turn = self.turn
        return [s for s in (0, 1, 2) if field[s] is not None and field[s].standing
                and (field[s].entered < turn or field[s].aggressive)]


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
            info = info_of(card)
            cost = info.cost
            if t == "character":
                slots = self.deploy_slots(card, names, free)
                verb = "convert" if card.conversion_target else "deploy"
                if verb == "convert":
                    cost = info.convert_cost
                if info.engage and not card.conversion_target:
                    engage = self.engage_slots(card)
                    if engage and self.payment_for(cost, code, order) is not None:
                        out.extend(("engage", code, s) for s in engage)
            elif t == "item":  # my characters, then the dummy's (GAMES.md §5 Cards)
                limit = info.flags.get("equip_limit") if info.flags else None
                slots = [s for s in ALL_SLOTS if field[s] is not None and field[s].item is None
                         and (limit is None or matches(limit, field[s].card) is not False)]
                slots += [6 + s for s in ALL_SLOTS if self.ofield[s] is not None and self.ofield[s].item is None
                          and (limit is None or matches(limit, self.ofield[s].card) is not False)]
                verb = "item"
            elif t == "area":  # my slots, then the dummy's
                if info.flags and info.flags.get("field_limit") and any(
                        a is not None and a.name == card.name for a in self.areas):
                    continue  # ※「X」は自分の場に1枚まで配置可能
                slots = [s for s in ALL_SLOTS if self.areas[s] is None]
                slots += [6 + s for s in ALL_SLOTS if self.oareas[s] is None]
                verb = "area"
            else:
                slots, verb = [], "event"
            if (slots or verb == "event") and self.payment_for(cost, code, order) is not None:
                if verb == "event":
                    out.append(("event", code))
                else:
                    out.extend((verb, code, s) for s in slots)
        out.extend(self.declarable())
        for s, c in enumerate(field):
            if c is None or not c.standing:
                continue
            if not c.moved:
                dests = [to for to in ALL_SLOTS if field[to] is None and self.move_keyword(s, to) is not None]
                out.extend(("move", s, to) for to in dests)
            if self.escape_payment(s) is not None:
                out.append(("escape", s))
            if self.touch_partner(s) is not None:
                out.append(("touch", s))
        for s in self.attackers():
            out.extend(("attack", s, col) for col in self.attack_targets(s))
        return out

    def label(self, kind: str, option: tuple) -> str:
        verb = option[0]
        if verb in ("deploy", "convert", "item", "area", "engage"):
            return f"{verb} {option[1]} to {slot_name(option[2])}"
        if verb in ("use", "item_use"):
            return f"use ability {option[2]} of {SLOTS[option[1]]}{' (its item)' if verb == 'item_use' else ''}"
        if verb in ("hand", "dust"):
            return f"use ability {option[2]} of {option[1]} (in the {'hand' if verb == 'hand' else 'dust box'})"
        if verb == "attack":
            return f"attack with {SLOTS[option[1]]} into column {'LCR'[option[2]]}"
        if verb == "move":
            return f"move {SLOTS[option[1]]} → {SLOTS[option[2]]}"
        if verb in ("escape", "touch"):
            return f"{verb} {SLOTS[option[1]]}"
        if kind == "tax":
            slot, tax = self.taxing
            return f"{verb} {tax} of {self.field[slot].card.name}"
        return " ".join(map(str, option))
