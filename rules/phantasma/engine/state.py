"""Phantasmagoria goldfish engine (GAMES.md §2).

The player ("me") has a 60-card main deck, an ACE outside the deck and up to 3 EX skills. The dummy
opponent has only an ACE that always defends (the rules force a defender), plays nothing and owns
no battle cards; its stats default to the catalog's medians (``catalog_options``): the median
printed MHP doubled, and the median of each of the five ability values. Its deck only counts cards
(it draws like a player; an empty deck loses). Battles are computed both ways, so my characters can
be defeated: three of mine in the defeat zone, my ACE defeated or my deck at 0 → loss.

The rules are one generator, ``PhantasmaState.script`` (see ``core.ScriptedState``). Decision
kinds and their options:

- ``redraw``: ``("keep",)`` / ``("redraw",)`` — the one-time full redraw of the 7;
- ``main``: ``("battle", code)`` place a battle card (at most 3), ``("drop_battle", index)``
  discard one of mine, ``("deploy", code, pay)``, ``("item", code, target, pay)``,
  ``("event", code, target, pay)``, ``("ex", code, target)`` (once per game, if the ACE's printed
  cost ≤ the skill's condition), ``("attack", character id, battle index)`` (the defender is forced:
  the dummy ACE; the battle card is chosen with the attack), ``("end",)``. Character ids: 0 = the
  ACE, 1..5 = vanguards; target -1 = the dummy ACE. ``pay`` = ``(rested character ids, discarded
  codes)``: the engine offers at most two payments per play (``PhantasmaState.payments``) —
  resting standing characters first (weakest first) or discarding hand cards first (least
  valuable first);
- ``discard``: ``("discard", code)`` at the end-of-turn hand limit.

Structured effects (``effects`` entries): ``attack_mod`` / ``defense_mod`` with ``value`` (an
item's apply while it is equipped, an event's or EX skill's until the end of the turn; ``target``
``equipped`` / ``own_character`` / ``opponent``, default by the sign) and ``heal`` (``amount``
damage removed, all of it when absent); the number is ``amount`` (``value`` is accepted too). Anything else is free text: unmodelled.
"""
from __future__ import annotations

import random
import statistics
from collections.abc import Generator, Iterable, Mapping
from typing import Any

from ..cards import CardRecord
from ._zones import DeckCache, distinct_codes, shuffle, take
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

GAME = "phantasma"
# The event log: code -> English template (see ws.EVENTS; terms translated: why, order, target, paid,
# attr/attr2: the attributes).
EVENTS = event_messages(GAME, {
    "result": gettext_noop("{outcome}: {reason}"),
    "setup": gettext_noop("shuffle; the player goes {order}; ACE {card}: MHP {mhp} doubled → {ace_mhp}, rested; "
                          "dummy ACE: MHP {dummy_mhp}, martial {martial}, agility {agility}, wisdom {wisdom}, "
                          "craft {craft}, poise {poise}"),
    "draw": gettext_noop("{why}: {cards}"),
    "turn": gettext_noop("turn {turn}: wake up"),
    "battle_card": gettext_noop("place battle card {card} ({attr} / {attr2})"),
    "drop_battle": gettext_noop("discard battle card {card}"),
    "deploy": gettext_noop("deploy {card} (rested; MHP {mhp}), paying: {paid}"),
    "item": gettext_noop("equip {card} to {target}, paying: {paid}"),
    "event": gettext_noop("play {card} on {target}, paying: {paid}"),
    "event_unmodelled": gettext_noop("play {card} on {target}, paying: {paid} (effect not modelled)"),
    "ex": gettext_noop("EX skill {card} on {target} (ACE cost {cost} ≤ condition {condition})"),
    "ex_unmodelled": gettext_noop("EX skill {card} on {target} (ACE cost {cost} ≤ condition {condition}) "
                                  "(effect not modelled)"),
    "hand_limit": gettext_noop("hand limit: {card}"),
    "pay_rest": gettext_noop("rest {card}"),
    "pay_discard": gettext_noop("discard {card}"),
    "battle": gettext_noop("{card} attacks; the dummy ACE must defend (rested); battle card {card2}: {attr} {atk} vs "
                           "{attr2} {dfn} → {damage} damage to the dummy ({dummy_dmg}/{dummy_mhp}); {attr} {back_atk} "
                           "vs {attr2} {back_dfn} → {back} damage back ({dmg}/{mhp})"),
    "defeat": gettext_noop("{card} is defeated ({dmg} ≥ MHP {mhp}) → defeat zone ({count})"),
})
ATTRS = ("martial", "agility", "wisdom", "craft", "poise")
HAND_LIMIT = 7
MAX_VANGUARDS = 5
MAX_BATTLE = 3
LOSS_DEFEATS = 3
ACE = 0  # character id of the ACE; vanguards are 1..5 (index + 1)



def _fold(values: dict[str, Any], item: CardRecord, sign: int) -> None:
    """An equipped item's modifiers apply to whoever holds it, whatever their sign.

    ``values`` holds the five ability values plus the item totals under ``"atk"`` and ``"def"``;
    attack/defense values read ``values[attr] + values["atk"|"def"] + until-end-of-turn mods``.
    """
    for e in item.effects:
        k = e.get("kind")
        if k == "attack_mod":
            values["atk"] += sign * amount(e)
        elif k == "defense_mod":
            values["def"] += sign * amount(e)


def amount(effect: Mapping[str, Any]) -> int:
    """An effect's number: ``amount`` (the card format's key) or ``value``."""
    return int(effect.get("amount", effect.get("value", 0)) or 0)


def _target(effect: Mapping[str, Any]) -> int:
    """+1 = one of my characters, -1 = the opponent's. Default: by the sign of the amount."""
    t = effect.get("target")
    if t in ("self", "own", "own_character", "equipped"):
        return 1
    if t in ("opponent", "enemy", "opponent_character", "opponent_ace"):
        return -1
    return 1 if amount(effect) >= 0 or effect.get("kind") == "heal" else -1


_MODELLED: dict[int, tuple[CardRecord, tuple[Mapping[str, Any], ...]]] = {}


def modelled_effects(card: CardRecord) -> tuple[Mapping[str, Any], ...]:
    """The card's structured effects this engine executes (cached by identity, checked with ``is``)."""
    if not card.effects:
        return ()
    hit = _MODELLED.get(id(card))
    if hit is None or hit[0] is not card:
        if len(_MODELLED) > 50_000:
            _MODELLED.clear()
        hit = _MODELLED[id(card)] = (
            card, tuple(e for e in card.effects if e.get("kind") in ("attack_mod", "defense_mod", "heal")))
    return hit[1]


class CardInfo:
    """What the engine and the pilot read from a card over and over, computed once per card
    (records are immutable)."""

    __slots__ = ("card", "code", "card_type", "is_battle", "is_char", "number", "values", "worth", "power",
                 "char_value", "other_value", "effects", "buff", "cost", "unpayable", "white", "blue")

    def __init__(self, card: CardRecord) -> None:
        self.card = card
        self.code = card.code
        self.card_type = t = card.card_type
        self.is_battle = t == "battle"
        self.is_char = t == "character"
        self.number = f"{card.work}|{card.number or card.code}"  # the same-number rule
        self.values = {a: getattr(card, a) or 0 for a in ATTRS}  # printed ability values
        self.worth = max(self.values[a] for a in ATTRS)
        self.power = self.worth + (card.mhp or 0) / 10  # the pilot's deploy preference (after _hit)
        self.char_value = 5.0 + self.worth / 100.0  # hand value of a character (number not on my field)
        self.effects = modelled_effects(card)
        self.other_value = 3.0 if self.effects else 1.0  # hand value of an item / event / other card
        cost = card.cost_detail
        self.cost = cost or {"white": card.cost or 0}
        # red and HP symbols are ability costs: not modelled, such a card cannot be paid
        self.unpayable = bool(self.cost.get("red") or self.cost.get("hp"))
        self.white = self.cost.get("white", 0)
        self.blue = self.cost.get("blue")
        # an item / event the pilot may play to help an attack: modelled effects, no cost that rests
        self.buff = (t in ("item", "event") and bool(self.effects)
                     and not (cost and (cost.get("blue") or cost.get("red") or cost.get("hp"))))


# Keyed by the record itself (``eq=False``: hashed and compared by identity). Each entry keeps its
# card alive, so a key is never another card's; cleared wholesale when it grows too large.
_INFO: dict[CardRecord, CardInfo] = {}


def info_of(card: CardRecord) -> CardInfo:
    """The card's ``CardInfo`` (cached)."""
    info = _INFO.get(card)
    if info is None:
        if len(_INFO) > 50_000:
            _INFO.clear()
        info = _INFO[card] = CardInfo(card)
    return info


class Char:
    """A character in play: printed values, MHP (doubled for an ACE), damage + HP lost, modifiers."""

    __slots__ = ("card", "values", "mhp", "dmg", "rested", "atk_mod", "def_mod", "items", "is_ace", "number", "worth")

    def __init__(self, card: CardRecord, is_ace: bool = False) -> None:
        self.card = card
        info = _INFO.get(card) or info_of(card)
        self.values = {**info.values, "atk": 0, "def": 0}  # a copy: items fold into it
        self.mhp = (card.mhp or 0) * (2 if is_ace else 1)
        self.dmg = 0
        self.rested = True  # the ACE starts the game rested; other characters enter rested
        self.atk_mod = 0  # until end of turn
        self.def_mod = 0
        self.items: list[CardRecord] = []
        self.is_ace = is_ace
        self.number = info.number
        self.worth = info.worth

    def equip(self, item: CardRecord) -> None:
        """Items' attack/defense modifiers last while equipped: folded into the printed values."""
        self.items.append(item)
        _fold(self.values, item, 1)

    def attack_value(self, attr: str) -> int:
        v = self.values
        return v[attr] + v["atk"] + self.atk_mod

    def defense_value(self, attr: str) -> int:
        v = self.values
        return v[attr] + v["def"] + self.def_mod

    @property
    def hp(self) -> int:
        return self.mhp - self.dmg


class Dummy:
    """The goldfish ACE: fixed values, MHP, accumulated damage and the modifiers my cards give it."""

    __slots__ = ("values", "mhp", "dmg", "atk_mod", "def_mod", "items")

    def __init__(self, values: Mapping[str, int], mhp: int) -> None:
        self.values = dict(values)
        self.values["atk"] = self.values["def"] = 0
        self.mhp = mhp
        self.dmg = 0
        self.atk_mod = 0
        self.def_mod = 0
        self.items: list[CardRecord] = []

    def equip(self, item: CardRecord) -> None:
        self.items.append(item)
        _fold(self.values, item, 1)

    def attack_value(self, attr: str) -> int:
        v = self.values
        return v[attr] + v["atk"] + self.atk_mod

    def defense_value(self, attr: str) -> int:
        v = self.values
        return v[attr] + v["def"] + self.def_mod


def battle_damage(attacker: Char, defender: Char | Dummy, atk_attr: str, def_attr: str) -> tuple[int, int]:
    """Both-ways battle result: (damage to the defender, damage to the attacker)."""
    to_def = attacker.attack_value(atk_attr) - defender.defense_value(def_attr)
    to_att = defender.attack_value(atk_attr) - attacker.defense_value(def_attr)
    return (to_def if to_def > 0 else 0), (to_att if to_att > 0 else 0)


class GameOver(Exception):
    pass


class PhantasmaState(ScriptedState):
    """One goldfish game of Phantasmagoria. Zones are public attributes so tests can set them up."""

    def __init__(self, deck: Deck, rng: random.Random, index: int = 0,
                 options: Mapping[str, Any] | None = None, log: EventLog | None = None,
                 setup: bool = True) -> None:
        opts = {**DEFAULT_OPTIONS, **(options or {})}
        aces = deck.zones.get("ace", ())
        if not aces:
            raise ValueError("a phantasma deck needs an ACE (the `# ace` section)")
        self.rng = rng
        self.log = log
        self.index = index
        self.turn_cap = int(opts.get("turn_cap") or 40)
        self.first_option = str(opts.get("first", "random"))
        self.deck: list[CardRecord] = list(deck.main)
        self.hand: list[CardRecord] = []
        self.junk: list[CardRecord] = []
        self.defeat: list[CardRecord] = []
        self.ex_area: list[CardRecord] = list(deck.zones.get("ex", ()))
        self.ex_used = False
        self.ace = Char(aces[0], is_ace=True)
        self.vanguards: list[Char] = []
        self.battle: list[list] = []  # [card, used] of my battle cards on the field
        self.n_cards = len(self.deck) + 1 + len(self.ex_area)
        stats = dummy_stats(opts, deck)
        self.dummy = Dummy({a: stats[a] for a in ATTRS}, stats["mhp"])
        self.odeck = int(opts.get("dummy_deck_size", 60))
        if self.odeck < 8:
            raise ValueError(f"dummy_deck_size must be at least 8 (got {self.odeck})")
        self.went_first = True
        self.turn = 0
        self.attacks_allowed = False
        self.outcome = "capped"
        self.reason = gettext_noop("turn cap")
        self.counters: dict[str, int] = dict.fromkeys(COUNTERS, 0)
        self.damage_by_turn: list[int] = []
        self.first_playable: dict[str, int] = {}
        self.opening_hand: tuple[CardRecord, ...] = ()
        if setup:
            self.start()

    # -- helpers -------------------------------------------------------------------------------
    def say(self, player: str, kind: str, code: str, /, **params: Any) -> None:
        """Log event ``phantasma.<code>``."""
        if self.log is not None:
            self.log.add(self.turn, player, kind, "phantasma." + code, **params)

    def _end(self, outcome: str, reason: str) -> None:
        self.outcome, self.reason = outcome, reason
        if self.log is not None:
            self.say("me", "result", "result", outcome=outcome, reason=reason)
        raise GameOver

    def chars(self) -> list[Char]:
        return [self.ace, *self.vanguards]

    def char(self, cid: int) -> Char:
        return self.ace if cid == ACE else self.vanguards[cid - 1]

    def standing(self) -> list[int]:
        """Standing character ids, weakest first (payments rest the weakest)."""
        ranked = [] if self.ace.rested else [(self.ace.worth, ACE)]
        for i, c in enumerate(self.vanguards):
            if not c.rested:
                ranked.append((c.worth, i + 1))
        if len(ranked) > 1:
            ranked.sort()
        return [cid for _, cid in ranked]

    def card_count(self) -> int:
        """Every card of the player's, wherever it is (tests: nothing is created or lost)."""
        ace_in_play = 0 if self.ace.card in self.defeat else 1
        items = sum(len(c.items) for c in self.chars()) + len(self.dummy.items)
        return (len(self.deck) + len(self.hand) + len(self.junk) + len(self.defeat) + len(self.ex_area)
                + len(self.vanguards) + ace_in_play + items + len(self.battle))

    def zone_sizes(self) -> dict[str, int]:
        return {"deck": len(self.deck), "hand": len(self.hand), "junkyard": len(self.junk),
                "defeat": len(self.defeat), "vanguards": len(self.vanguards), "battle": len(self.battle),
                "dummy_deck": self.odeck}

    def _name(self, target: int) -> str:
        return "the dummy ACE" if target < 0 else self.char(target).card.name

    # -- values and payments -------------------------------------------------------------------
    def hand_values(self) -> dict[str, float]:
        """How much the pilot wants to keep each hand card (by code); payments and the hand limit
        take the lowest first."""
        numbers = {c.number for c in self.chars()}
        get = _INFO.get
        infos = [get(c) or info_of(c) for c in self.hand]
        n_battle = len(self.battle)
        for info in infos:
            if info.is_battle:
                n_battle += 1
        battle_value = 4.0 if n_battle <= MAX_BATTLE else 2.0
        out: dict[str, float] = {}
        for info in infos:
            code = info.code
            if code in out:
                continue
            if info.is_battle:
                v = battle_value
            elif info.is_char:
                # 0.5: the same number is already on my field
                v = 0.5 if info.number in numbers else info.char_value
            else:
                v = info.other_value  # 3 with modelled effects, else 1
            out[code] = v
        return out

    def hand_order(self, values: dict[str, float] | None = None) -> list[CardRecord]:
        """Hand cards, least valuable first."""
        if values is None:
            values = self.hand_values()
        return sorted(self.hand, key=lambda c: values[c.code])

    def payments(self, card: CardRecord, standing: list[int] | None = None,
                 order: list[CardRecord] | None = None) -> list[tuple[tuple[int, ...], tuple[str, ...]]]:
        """The payments offered for ``card``: ``(rested character ids, discarded codes)``, at most
        two — rest standing characters first (weakest first), or discard hand cards first (least
        valuable first). White symbols take either; blue symbols rest a character of that attribute.
        Red and HP symbols are ability costs: a card carrying them cannot be paid (not modelled)."""
        info = _INFO.get(card) or info_of(card)
        if info.unpayable:
            return []
        if standing is None:
            standing = self.standing()
        white = info.white
        blue = info.blue
        rest: list[int] = []
        if blue:
            for attr, n in blue.items():
                got = [cid for cid in standing if cid not in rest and attr in self.char(cid).card.attributes]
                if len(got) < n:
                    return []
                rest.extend(got[:n])
            free = [cid for cid in standing if cid not in rest]
        else:
            free = standing
        if not white:
            return [(tuple(rest), ())]
        if order is None:
            order = self.hand_order()
        others = list(order)
        others.remove(card)
        if white > len(free) + len(others):
            return []
        r = min(white, len(free))
        first = (tuple(rest + free[:r]), tuple(c.code for c in others[: white - r]))
        d = min(white, len(others))
        alt = (tuple(rest + free[: white - d]), tuple(c.code for c in others[:d]))
        return [first] if alt == first else [first, alt]

    def can_pay(self, card: CardRecord, standing: list[int]) -> bool:
        """Whether ``payments(card)`` would offer anything (without building them)."""
        info = _INFO.get(card) or info_of(card)
        if info.unpayable:
            return False
        free = len(standing)
        blue = info.blue
        if blue:
            used: list[int] = []
            for attr, n in blue.items():
                got = [cid for cid in standing if cid not in used and attr in self.char(cid).card.attributes]
                if len(got) < n:
                    return False
                used.extend(got[:n])
            free -= len(used)
        return info.white <= free + len(self.hand) - 1

    def _pay(self, card: CardRecord, pay: tuple[tuple[int, ...], tuple[str, ...]]) -> list[dict[str, Any]] | str:
        """Pay for ``card``; returns what was paid for the log (submessages, or "nothing")."""
        rest, discard = pay
        names: list[dict[str, Any]] = []
        log = self.log is not None
        for cid in rest:
            c = self.char(cid)
            c.rested = True
            if log:
                names.append(submessage("phantasma.pay_rest", card=c.card.name))
        self.hand.remove(card)
        for code in discard:
            d = take(self.hand, code)
            self.junk.append(d)
            if log:
                names.append(submessage("phantasma.pay_discard", card=d.name))
        return names or "nothing"

    def item_targets(self, card: CardRecord) -> list[int]:
        """Characters that may take this item (-1 = the dummy ACE): no second copy on one character."""
        out = [cid for cid, c in enumerate(self.chars()) if all(i.code != card.code for i in c.items)]
        if all(i.code != card.code for i in self.dummy.items):
            out.append(-1)
        return out

    def effect_targets(self, card: CardRecord) -> list[int]:
        """Targets of an event / EX skill: my characters, or the dummy for purely negative effects."""
        effects = modelled_effects(card)
        if effects and all(_target(e) < 0 for e in effects):
            return [-1]
        return list(range(1 + len(self.vanguards)))

    # -- the game ------------------------------------------------------------------------------
    def script(self) -> Generator[str, tuple, None]:
        yield from self.scenario(self._game())

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
        log = self.log
        if log is not None:
            d = self.dummy
            self.say("me", "setup", "setup", order="first" if self.went_first else "second", card=self.ace.card.name,
                     mhp=self.ace.card.mhp, ace_mhp=self.ace.mhp, dummy_mhp=d.mhp, **{a: d.values[a] for a in ATTRS})
        self._draw(7, "opening hand")
        self.odeck -= 7
        choice = yield "redraw"
        if choice[0] == "redraw":
            self.deck.extend(self.hand)
            self.hand.clear()
            shuffle(rng, self.deck)
            self.counters["redraws"] += 1
            self._draw(7, "redraw")
        self.opening_hand = tuple(self.hand)
        if not self.went_first:
            self._opp_turn(first=True)
        while True:
            if self.turn >= self.turn_cap:
                self.outcome, self.reason = "capped", gettext_noop("turn cap")
                return
            yield from self._my_turn()
            self._opp_turn()

    def _draw(self, n: int, why: str = "draw") -> None:
        deck = self.deck
        drawn = deck[-n:]
        del deck[-n:]
        self.hand.extend(drawn)
        if self.log is not None:
            self.say("me", "draw", "draw", why=why, cards=", ".join(c.name for c in drawn))
        if not deck:
            self._end("loss", gettext_noop("my deck has 0 cards"))

    def _opp_turn(self, first: bool = False) -> None:
        """The dummy wakes up (both players' battle cards become unused), draws, plays nothing."""
        for b in self.battle:
            b[1] = False
        self.odeck -= 1 if first else 2
        if self.odeck <= 0:
            self.odeck = 0
            self._end("win", gettext_noop("the dummy's deck has 0 cards"))

    def _my_turn(self) -> Generator[str, tuple, None]:
        self.turn += 1
        turn = self.turn
        log = self.log
        dealt_before = self.counters["damage_dealt"]
        self.damage_by_turn.append(0)
        # 1. start: wake up (battle cards unused), draw
        for c in self.chars():
            c.rested = False
        for b in self.battle:
            b[1] = False
        if log is not None:
            self.say("me", "turn", "turn", turn=turn)
        self._draw(1 if turn == 1 and self.went_first else 2)
        self.attacks_allowed = not (turn == 1 and self.went_first)
        # 2. main
        self._note_playable(turn)
        while True:
            choice = yield "main"
            verb = choice[0]
            if verb == "end":
                break
            if verb == "attack":
                self._attack(choice[1], choice[2])
            elif verb == "battle":
                card = take(self.hand, choice[1])
                self.battle.append([card, False])
                if log is not None:
                    self.say("me", "battle", "battle_card", card=card.name, attr=card.attack_attribute,
                             attr2=card.defense_attribute)
            elif verb == "drop_battle":
                card = self.battle.pop(choice[1])[0]
                self.junk.append(card)
                if log is not None:
                    self.say("me", "battle", "drop_battle", card=card.name)
            elif verb == "deploy":
                card = next(c for c in self.hand if c.code == choice[1])
                paid = self._pay(card, choice[2])
                c = Char(card)
                self.vanguards.append(c)
                self.counters["deployed"] += 1
                if log is not None:
                    self.say("me", "deploy", "deploy", card=card.name, mhp=c.mhp, paid=paid)
            elif verb == "item":
                card = next(c for c in self.hand if c.code == choice[1])
                paid = self._pay(card, choice[3])
                target = choice[2]
                holder = self.dummy if target < 0 else self.char(target)
                holder.equip(card)
                self.counters["items"] += 1
                if log is not None:
                    self.say("me", "item", "item", card=card.name, target=self._name(target), paid=paid)
                for e in card.effects:
                    if e.get("kind") == "heal" and target >= 0:
                        _heal(holder, e)
            elif verb == "event":
                card = next(c for c in self.hand if c.code == choice[1])
                paid = self._pay(card, choice[3])
                self.junk.append(card)
                self.counters["events"] += 1
                if log is not None:
                    self.say("me", "event", "event" if modelled_effects(card) else "event_unmodelled", card=card.name,
                             target=self._name(choice[2]), paid=paid)
                self._resolve(card, choice[2])
            elif verb == "ex":
                card = next(c for c in self.ex_area if c.code == choice[1])
                self.ex_used = True
                self.counters["ex_skill_used"] += 1
                if log is not None:
                    self.say("me", "ex", "ex" if modelled_effects(card) else "ex_unmodelled", card=card.name,
                             target=self._name(choice[2]), cost=self.ace.card.cost, condition=card.ex_condition)
                self._resolve(card, choice[2])
        # 3. end: hand limit, modifiers vanish
        while len(self.hand) > HAND_LIMIT:
            _, code = yield "discard"
            card = take(self.hand, code)
            self.junk.append(card)
            if log is not None:
                self.say("me", "discard", "hand_limit", card=card.name)
        for c in self.chars():
            c.atk_mod = c.def_mod = 0
        self.dummy.atk_mod = self.dummy.def_mod = 0
        self.damage_by_turn[-1] = self.counters["damage_dealt"] - dealt_before

    def _note_playable(self, turn: int) -> None:
        """Record the first turn each hand card could be played (room or no same number on my
        field, the cost payable), and the EX skills' (checked on turns with an unrecorded hand
        card). Codes already recorded are not checked again."""
        fp = self.first_playable
        get = _INFO.get
        pending = False
        numbers = None
        standing = None
        for card in self.hand:
            info = get(card) or info_of(card)
            code = info.code
            if code in fp:
                continue
            pending = True
            if info.is_battle:
                if len(self.battle) < MAX_BATTLE:
                    fp[code] = turn
                continue
            if info.is_char:
                if numbers is None:
                    numbers = {c.number for c in self.chars()}
                if len(self.vanguards) >= MAX_VANGUARDS or info.number in numbers:
                    continue
            elif info.card_type not in ("item", "event"):
                continue
            if standing is None:
                standing = self.standing()
            if self.can_pay(card, standing):
                fp[code] = turn
        if pending and not self.ex_used:
            for ex in self.ex_area:
                if ex.code not in fp and self._ex_allowed(ex):
                    fp[ex.code] = turn

    def _ex_allowed(self, ex: CardRecord) -> bool:
        """The EX skill's usage condition: the ACE's printed cost ≤ the skill's condition."""
        return ex.ex_condition is not None and (self.ace.card.cost or 0) <= ex.ex_condition

    def _resolve(self, card: CardRecord, target: int) -> None:
        holder: Char | Dummy = self.dummy if target < 0 else self.char(target)
        for e in modelled_effects(card):
            k = e.get("kind")
            if k == "heal":
                if isinstance(holder, Char):
                    _heal(holder, e)
            elif k == "attack_mod":
                holder.atk_mod += amount(e)
            elif k == "defense_mod":
                holder.def_mod += amount(e)

    # -- battle --------------------------------------------------------------------------------
    def preview(self, cid: int, b: int) -> tuple[int, int]:
        card = self.battle[b][0]
        return battle_damage(self.char(cid), self.dummy, card.attack_attribute, card.defense_attribute)

    def usable_battle(self) -> list[int]:
        """Unused battle cards on either field (the dummy has none), one per distinct card."""
        out = []
        codes: set[str] = set()
        for b, (card, used) in enumerate(self.battle):
            if not used and card.code not in codes:
                codes.add(card.code)
                out.append(b)
        return out

    def _attack(self, cid: int, b: int) -> None:
        att = self.char(cid)
        att.rested = True
        entry = self.battle[b]
        entry[1] = True
        card = entry[0]
        a_attr, d_attr = card.attack_attribute, card.defense_attribute
        d = self.dummy
        to_def, to_att = battle_damage(att, d, a_attr, d_attr)
        counters = self.counters
        counters["battles"] += 1
        counters["damage_dealt"] += to_def
        counters["damage_taken"] += to_att
        d.dmg += to_def
        att.dmg += to_att
        if self.log is not None:
            self.say("me", "battle", "battle", card=att.card.name, card2=card.name, attr=a_attr, attr2=d_attr,
                     atk=att.attack_value(a_attr), dfn=d.defense_value(d_attr), damage=to_def, dummy_dmg=d.dmg,
                     dummy_mhp=d.mhp, back_atk=d.attack_value(a_attr), back_dfn=att.defense_value(d_attr),
                     back=to_att, dmg=att.dmg, mhp=att.mhp)
        dummy_down = d.dmg >= d.mhp
        mine_down = att.dmg >= att.mhp
        if mine_down:
            self._defeat(att)
        lost = mine_down and (att.is_ace or len(self.defeat) >= LOSS_DEFEATS)
        if dummy_down and lost:
            self._end("draw", gettext_noop("the dummy ACE and the player were defeated at once"))
        if dummy_down:
            self._end("win", gettext_noop("the dummy ACE was defeated"))
        if lost:
            self._end("loss", gettext_noop("my ACE was defeated") if att.is_ace
                      else gettext_noop("three of my characters were defeated"))

    def _defeat(self, char: Char) -> None:
        self.counters["own_defeated"] += 1
        self.defeat.append(char.card)
        self.junk.extend(char.items)
        char.items = []
        if not char.is_ace:
            self.vanguards.remove(char)
        if self.log is not None:
            self.say("me", "defeat", "defeat", card=char.card.name, dmg=char.dmg, mhp=char.mhp, count=len(self.defeat))

    # -- options (the generic contract) --------------------------------------------------------
    def options_redraw(self) -> list[tuple]:
        return [("keep",), ("redraw",)]

    def options_main(self) -> list[tuple]:
        out: list[tuple] = [("end",)]
        numbers = {c.number for c in self.chars()}
        room = len(self.vanguards) < MAX_VANGUARDS
        standing = self.standing()
        order = self.hand_order()
        for code in distinct_codes(self.hand):
            card = next(c for c in self.hand if c.code == code)
            t = card.card_type
            if t == "battle":
                if len(self.battle) < MAX_BATTLE:
                    out.append(("battle", code))
                continue
            if t == "character":
                if room and f"{card.work}|{card.number or code}" not in numbers:
                    out.extend(("deploy", code, pay) for pay in self.payments(card, standing, order))
            elif t == "item":
                pays = self.payments(card, standing, order)
                out.extend(("item", code, tgt, pay) for tgt in self.item_targets(card) for pay in pays)
            elif t == "event":
                pays = self.payments(card, standing, order)
                out.extend(("event", code, tgt, pay) for tgt in self.effect_targets(card) for pay in pays)
        if not self.ex_used:
            for code in distinct_codes(self.ex_area):
                ex = next(c for c in self.ex_area if c.code == code)
                if self._ex_allowed(ex):
                    out.extend(("ex", code, tgt) for tgt in self.effect_targets(ex))
        out.extend(("drop_battle", b) for b in range(len(self.battle)))
        if self.attacks_allowed:
            usable = self.usable_battle()
            out.extend(("attack", cid, b) for cid in standing for b in usable)
        return out

    def options_discard(self) -> list[tuple]:
        return [("discard", code) for code in distinct_codes(self.hand)]

    def label(self, kind: str, option: tuple) -> str:
        verb = option[0]
        if verb == "attack":
            card = self.battle[option[2]][0]
            return (f"{self.char(option[1]).card.name} attacks using {card.name} "
                    f"({card.attack_attribute}/{card.defense_attribute})")
        if verb == "drop_battle":
            return f"discard battle card {self.battle[option[1]][0].name}"
        if verb in ("deploy", "item", "event"):
            rest, disc = option[-1]
            pay = [f"rest {self.char(c).card.name}" for c in rest] + [f"discard {c}" for c in disc]
            target = f" on {self._name(option[2])}" if verb != "deploy" else ""
            return f"{verb} {option[1]}{target}, paying: {', '.join(pay) or 'nothing'}"
        if verb == "ex":
            return f"EX skill {option[1]} on {self._name(option[2])}"
        return " ".join(map(str, option))

    # -- result --------------------------------------------------------------------------------
    def result(self) -> GameResult:
        c = self.counters
        c["games"] = 1
        if self.outcome == "win":
            c["first_wins" if self.went_first else "second_wins"] = 1
            c["first_win_turns" if self.went_first else "second_win_turns"] = self.turn
        c["first_games" if self.went_first else "second_games"] = 1
        damage = list(self.damage_by_turn)
        if damage and self.outcome != "capped":
            damage[-1] = c["damage_dealt"] - sum(damage[:-1])
        return GameResult(
            index=self.index, outcome=self.outcome, turn=max(self.turn, 1), reason=self.reason,
            counters={k: v for k, v in c.items() if v},
            per_turn={"damage": damage},
            first_playable=dict(self.first_playable),
        )


def _heal(char: Char, effect: Mapping[str, Any]) -> None:
    """Remove ``value`` damage (all of it when no value is given)."""
    n = amount(effect) or char.dmg
    char.dmg = max(0, char.dmg - n)


COUNTERS = (
    "games", "went_first", "battles", "damage_dealt", "damage_taken", "own_defeated", "redraws", "deployed",
    "items", "events", "ex_skill_used", "first_games", "second_games", "first_wins", "second_wins",
    "first_win_turns", "second_win_turns",
)


class GreedyPilot(ScriptedPilot):
    """Fill the battle-card row with the cards my characters hit hardest with, use buffs, attack
    with the best attacker × battle card pairs (never losing the ACE or the game), then deploy the
    strongest character paying by resting the characters that already attacked."""

    name = "greedy"

    def decide(self, state: PhantasmaState, kind: str) -> tuple:
        return _DISPATCH[kind](self, state)

    def d_redraw(self, state: PhantasmaState) -> tuple:
        hand = state.hand
        has_char = any(c.card_type == "character" for c in hand)
        has_battle = any(c.card_type == "battle" for c in hand)
        return ("keep",) if has_char and has_battle else ("redraw",)

    def d_discard(self, state: PhantasmaState) -> tuple:
        return ("discard", state.hand_order()[0].code)

    def d_main(self, state: PhantasmaState) -> tuple:
        hand = state.hand
        get = _INFO.get
        infos = [get(c) or info_of(c) for c in hand]
        hand_battles = [info.card for info in infos if info.is_battle]
        # 1. battle cards: fill the row with the ones my characters hit hardest with
        if len(state.battle) < MAX_BATTLE:
            best = None
            best_w = -1
            for c in hand_battles:
                w = self._battle_worth(state, c)
                if w > best_w:
                    best, best_w = c, w
            if best is not None:
                return ("battle", best.code)
        elif hand_battles and any(used for _, used in state.battle):
            # a used battle card worse than one in hand makes room
            hand_best = max(self._battle_worth(state, c) for c in hand_battles)
            worst_b, worst_w = -1, None
            for b, (card, used) in enumerate(state.battle):
                w = self._battle_worth(state, card)
                if used and (worst_w is None or w < worst_w):
                    worst_b, worst_w = b, w
            if worst_w is not None and hand_best > worst_w:
                return ("drop_battle", worst_b)
        # 2. attacks (after buffs)
        attack = None
        if state.attacks_allowed:
            usable = state.usable_battle()
            if usable:
                attack = self._best_attack(state, usable)
        if attack is not None:
            buff = self._buff(state, attack[1], infos)
            return buff or attack
        # 3. characters, paying by resting first; hand cards are discarded for one only if it can
        # hurt the dummy with a battle card I have (field or hand), or they are surplus anyway
        best = None
        best_key = None
        if len(state.vanguards) < MAX_VANGUARDS:
            numbers = None
            hits = None  # (attack attribute, the dummy's defense) of each battle card I have
            for info in infos:
                if not info.is_char:
                    continue
                if numbers is None:
                    numbers = {ch.number for ch in state.chars()}
                    hits = self._hits(state, hand_battles)
                if info.number in numbers:
                    continue
                values = info.values
                hit = 0  # the most damage it could deal the dummy with one of my battle cards (_hit)
                for a, d_def in hits:
                    dealt = values[a] - d_def
                    if dealt > hit:
                        hit = dealt
                key = (hit, info.power)
                if best_key is None or key > best_key:
                    best, best_key = info.card, key
        if best is not None:
            values = state.hand_values()
            pays = state.payments(best, None, state.hand_order(values))
            if pays:
                pay = pays[0]
                mine = values[best.code]
                surplus = len(hand) - 1 - len(pay[1]) >= HAND_LIMIT
                if all(values[code] <= mine for code in pay[1]) and (not pay[1] or best_key[0] > 0 or surplus):
                    return ("deploy", best.code, pay)
        return ("end",)

    @staticmethod
    def _hits(state: PhantasmaState, hand_battles: list[CardRecord]) -> list[tuple[str, int]]:
        """(attack attribute, the dummy's defense value) of each of my battle cards, field then hand."""
        d = state.dummy
        dv = d.values
        d_def = dv["def"] + d.def_mod
        return [(b.attack_attribute, dv[b.defense_attribute] + d_def)
                for b in [*(entry[0] for entry in state.battle), *hand_battles]]

    @staticmethod
    def _hit(state: PhantasmaState, card: CardRecord) -> int:
        """The most damage ``card`` could deal the dummy with one of my battle cards (``d_main``
        computes it inline)."""
        d = state.dummy
        best = 0
        for b in [*(entry[0] for entry in state.battle), *(c for c in state.hand if c.card_type == "battle")]:
            dealt = (getattr(card, b.attack_attribute) or 0) - d.defense_value(b.defense_attribute)
            if dealt > best:
                best = dealt
        return best

    def _buff(self, state: PhantasmaState, cid: int, infos: list[CardInfo] | None = None) -> tuple | None:
        """An EX skill, item or event that helps the coming attack (paid without resting)."""
        if not state.ex_used:
            for ex in state.ex_area:
                if state._ex_allowed(ex) and modelled_effects(ex):
                    tgt = self._buff_target(state, ex, cid)
                    if tgt is not None:
                        return ("ex", ex.code, tgt)
        if infos is None:
            infos = [info_of(c) for c in state.hand]
        order = None
        for info in infos:
            if not info.buff:  # an item / event with modelled effects whose cost rests nobody
                continue
            c = info.card
            t = info.card_type
            tgt = self._buff_target(state, c, cid)
            if tgt is None or (t == "item" and tgt not in state.item_targets(c)):
                continue
            if order is None:
                order = state.hand_order()
            pays = state.payments(c, [], order)  # no standing character: discard only
            if pays:
                return (t, c.code, tgt, pays[0])
        return None

    @staticmethod
    def _buff_target(state: PhantasmaState, card: CardRecord, cid: int) -> int | None:
        effects = modelled_effects(card)
        atk = sum(amount(e) for e in effects if e.get("kind") == "attack_mod")
        dfn = sum(amount(e) for e in effects if e.get("kind") == "defense_mod")
        if atk < 0 or dfn < 0:
            return -1 if atk <= 0 and dfn <= 0 else None
        if atk > 0 or dfn > 0:
            return cid
        if any(e.get("kind") == "heal" for e in effects) and state.char(cid).dmg > 0:
            return cid
        return None

    @staticmethod
    def _battle_worth(state: PhantasmaState, card: CardRecord) -> int:
        """The most damage one of my characters deals the dummy with ``card`` (``battle_damage``
        inlined)."""
        best = 0
        d = state.dummy
        a, df = card.attack_attribute, card.defense_attribute
        d_def = d.values[df] + d.values["def"] + d.def_mod
        for c in state.chars():
            v = c.values
            dealt = v[a] + v["atk"] + c.atk_mod - d_def
            if dealt > best:
                best = dealt
        return best

    @staticmethod
    def _best_attack(state: PhantasmaState, usable: list[int]) -> tuple | None:
        """The (attacker, battle card) pair with the best ``_attack_score`` (> 0), computed inline
        for speed; a test checks it against ``_attack_score`` pair by pair."""
        d = state.dummy
        dv = d.values
        d_left = d.mhp - d.dmg
        d_def, d_atk = dv["def"] + d.def_mod, dv["atk"] + d.atk_mod
        losing_defeat = len(state.defeat) + 1 >= LOSS_DEFEATS
        # (battle card index, attack attribute, defense attribute, the dummy's defense and attack)
        cards = []
        battle = state.battle
        for b in usable:
            card = battle[b][0]
            a, df = card.attack_attribute, card.defense_attribute
            cards.append((b, a, df, dv[df] + d_def, dv[a] + d_atk))
        best = None
        best_score = 0.0
        for cid, c in enumerate(state.chars()):
            if c.rested:
                continue
            v = c.values
            c_atk, c_def = v["atk"] + c.atk_mod, v["def"] + c.def_mod
            c_left = c.mhp - c.dmg
            for b, a, df, dd, da in cards:
                dealt = v[a] + c_atk - dd
                taken = da - v[df] - c_def
                if dealt < 0:
                    dealt = 0
                if taken < 0:
                    taken = 0
                dies = taken >= c_left
                if dies and (c.is_ace or losing_defeat):
                    continue
                if dealt >= d_left:
                    score = 10_000.0 + dealt
                elif dealt <= 0:
                    continue
                else:
                    score = dealt - 0.25 * taken
                    if dies:
                        score -= c.mhp * 0.5 + 50
                if score > best_score:
                    best, best_score = ("attack", cid, b), score
        return best

    @staticmethod
    def _attack_score(state: PhantasmaState, cid: int, b: int) -> float:
        """The pilot's value of attacking with ``cid`` using battle card ``b`` (≤ 0: never)."""
        att = state.char(cid)
        dealt, taken = state.preview(cid, b)
        d = state.dummy
        dies = att.dmg + taken >= att.mhp
        if dies and (att.is_ace or len(state.defeat) + 1 >= LOSS_DEFEATS):
            return -1.0
        if d.dmg + dealt >= d.mhp:
            return 10_000.0 + dealt
        if dealt <= 0:
            return -1.0
        score = dealt - 0.25 * taken
        if dies:
            score -= att.mhp * 0.5 + 50
        return score


_DISPATCH = {name[2:]: fn for name, fn in vars(GreedyPilot).items() if name.startswith("d_")}

DEFAULT_OPTIONS: dict[str, Any] = {"first": "random", "dummy_deck_size": 60}


# -- the dummy ACE's stats ---------------------------------------------------------------------
def _median(values: list[int]) -> int:
    return int(statistics.median(values) + 0.5) if values else 0


def catalog_options(cards: Iterable[CardRecord]) -> dict[str, Any]:
    """The default dummy ACE from every Phantasmagoria character of the catalog (GAMES.md §2)."""
    chars = [c for c in cards if c.game == GAME and c.card_type == "character" and c.mhp]
    if not chars:
        return {}
    out: dict[str, Any] = {"dummy_mhp": 2 * _median([c.mhp for c in chars])}
    for a in ATTRS:
        out[f"dummy_{a}"] = _median([getattr(c, a) or 0 for c in chars])
    return out


_DECK_MEDIANS = DeckCache(lambda deck: catalog_options([*deck.main, *deck.zones.get("ace", ())]))


def dummy_stats(options: Mapping[str, Any], deck: Deck) -> dict[str, int]:
    """Options win; anything missing comes from the deck's own characters (ACE included)."""
    keys = ("dummy_mhp", *(f"dummy_{a}" for a in ATTRS))
    fallback = {} if all(k in options for k in keys) else _DECK_MEDIANS.get(deck)
    stats = {"mhp": int(options.get("dummy_mhp", fallback.get("dummy_mhp", 0)))}
    for a in ATTRS:
        stats[a] = int(options.get(f"dummy_{a}", fallback.get(f"dummy_{a}", 0)))
    if stats["mhp"] <= 0:
        raise ValueError("the dummy ACE needs a positive MHP: pass dummy_mhp or give the deck characters")
    return stats


def new_state(deck: Deck, rng: random.Random, index: int, options: Mapping[str, Any],
              log: EventLog | None) -> PhantasmaState:
    return PhantasmaState(deck, rng, index, options, log)


ENGINE = register(GameEngine(
    game=GAME,
    new_state=new_state,
    pilots={"greedy": GreedyPilot},
    default_options=DEFAULT_OPTIONS,
    describe_options={
        "dummy_mhp": gettext_noop("the dummy ACE's MHP (already doubled); default: 2 × the catalog's median printed MHP"),
        "dummy_martial": gettext_noop("the dummy ACE's martial value; default: the catalog's median"),
        "dummy_agility": gettext_noop("the dummy ACE's agility value; default: the catalog's median"),
        "dummy_wisdom": gettext_noop("the dummy ACE's wisdom value; default: the catalog's median"),
        "dummy_craft": gettext_noop("the dummy ACE's craft value; default: the catalog's median"),
        "dummy_poise": gettext_noop("the dummy ACE's poise value; default: the catalog's median"),
        "dummy_deck_size": gettext_noop("cards in the dummy's deck (default 60); it draws 7, then 2 a turn"),
    },
    catalog_options=catalog_options,
    ratios={
        "damage_per_battle": ("damage_dealt", "battles"),
        "damage_taken_per_battle": ("damage_taken", "battles"),
        "own_defeated_per_game": ("own_defeated", "games"),
        "win_rate_going_first": ("first_wins", "first_games"),
        "win_rate_going_second": ("second_wins", "second_games"),
    },
    describe_extras={
        "damage": gettext_noop("damage dealt to the dummy ACE on each of the player's turns"),
        "damage_dealt": gettext_noop("damage dealt to the dummy ACE in battles"),
        "damage_taken": gettext_noop("counter-damage my attackers took (battles are computed both ways)"),
        "own_defeated": gettext_noop("my characters defeated by counter-damage (three lose the game)"),
    },
))
