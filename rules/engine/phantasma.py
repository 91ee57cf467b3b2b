"""Phantasmagoria goldfish engine (GAMES.md §2).

The player ("me") has a 60-card main deck, an ACE outside the deck and up to 3 EX skills. The dummy
opponent has only an ACE that always defends (the rules force a defender), plays nothing and owns
no battle cards; its stats default to the catalog's medians (``catalog_options``): the median
printed MHP doubled, and the median of each of the five ability values. Its deck only counts cards
(it draws like a player; an empty deck loses). Battles are computed both ways, so my characters can
be defeated: three of mine in the defeat zone, my ACE defeated or my deck at 0 → loss.

Decision points: the one-time redraw, every play in the main phase (characters, battle cards,
items, events, the EX skill, discarding one of my battle cards), each attack (attacker + battle
card in one action: the defender is forced), and the hand-limit discards. A play carries its
payment in the action: ``("deploy", hand index, (rested character ids), (discarded hand indices))``;
the engine offers at most two payments per play — rest standing characters first, or discard hand
cards first (least valuable first) — and the pilot picks.
"""
from __future__ import annotations

import random
import statistics
from collections.abc import Iterable, Mapping
from typing import Any

from ..cards import CardRecord
from .core import Action, Deck, EventLog, GameEngine, GameResult, register

GAME = "phantasma"
ATTRS = ("martial", "agility", "wisdom", "craft", "poise")
HAND_LIMIT = 7
MAX_VANGUARDS = 5
MAX_BATTLE = 3
LOSS_DEFEATS = 3
ACE = 0  # character id of the ACE; vanguards are 1..5 (index + 1)

END = Action("end", (), "end the turn")
KEEP = Action("keep", (), "keep the hand")
REDRAW = Action("redraw", (), "shuffle the 7 back and draw 7 again")


def _fold(values: dict[str, Any], item: CardRecord, sign: int) -> None:
    """An equipped item's modifiers apply to whoever holds it, whatever their sign.

    ``values`` holds the five ability values plus the item totals under ``"atk"`` and ``"def"``;
    attack/defense values read ``values[attr] + values["atk"|"def"] + until-end-of-turn mods``.
    """
    for e in item.effects:
        k = e.get("kind")
        if k == "attack_mod":
            values["atk"] += sign * int(e.get("value", 0))
        elif k == "defense_mod":
            values["def"] += sign * int(e.get("value", 0))


def _target(effect: Mapping[str, Any]) -> int:
    """+1 = one of my characters, -1 = the opponent's. Default: by the sign of the value."""
    t = effect.get("target")
    if t in ("self", "own"):
        return 1
    if t in ("opponent", "enemy"):
        return -1
    return 1 if int(effect.get("value", 0)) >= 0 or effect.get("kind") == "heal" else -1


def modelled_effects(card: CardRecord) -> tuple[Mapping[str, Any], ...]:
    return tuple(e for e in card.effects if e.get("kind") in ("attack_mod", "defense_mod", "heal"))


class Char:
    """A character in play: printed values, MHP (doubled for an ACE), damage + HP lost, modifiers."""

    __slots__ = ("card", "values", "mhp", "dmg", "rested", "atk_mod", "def_mod", "items", "is_ace", "number", "worth")

    def __init__(self, card: CardRecord, is_ace: bool = False) -> None:
        self.card = card
        self.values = {a: getattr(card, a) or 0 for a in ATTRS}
        self.values["atk"] = self.values["def"] = 0
        self.mhp = (card.mhp or 0) * (2 if is_ace else 1)
        self.dmg = 0
        self.rested = is_ace  # the ACE starts rested; other characters enter rested too
        self.atk_mod = 0  # until end of turn
        self.def_mod = 0
        self.items: list[CardRecord] = []
        self.is_ace = is_ace
        self.number = f"{card.work}|{card.number or card.code}"
        self.worth = max(self.values[a] for a in ATTRS)

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


class PhantasmaState:
    """One goldfish game of Phantasmagoria."""

    def __init__(
        self, deck: Deck, rng: random.Random, index: int, options: Mapping[str, Any], log: EventLog | None
    ) -> None:
        aces = deck.zones.get("ace", ())
        if not aces:
            raise ValueError("a phantasma deck needs an ACE (the `# ace` zone)")
        self.rng = rng
        self.log = log
        self.index = index
        self.turn_cap = int(options.get("turn_cap", 40))
        self.deck: list[CardRecord] = list(deck.main)
        self.hand: list[CardRecord] = []
        self.junk: list[CardRecord] = []
        self.defeat: list[CardRecord] = []
        self.ex_area: list[CardRecord] = list(deck.zones.get("ex", ()))
        self.ex_used = False
        self.ace = Char(aces[0], is_ace=True)
        self.vanguards: list[Char] = []
        self.battle: list[list] = []  # [card, used]
        self.n_cards = len(self.deck) + 1 + len(self.ex_area)
        stats = dummy_stats(options, deck)
        self.dummy = Dummy({a: stats[a] for a in ATTRS}, stats["mhp"])
        self.opp_deck = int(options.get("dummy_deck_size", 60))
        self.first = rng.random() < 0.5
        self.turn = 0
        self.phase = "redraw"
        self.attacks_allowed = False
        self.outcome = ""
        self.reason = ""
        self.counters = {
            "battles": 0, "damage_dealt": 0, "damage_taken": 0, "own_defeated": 0, "redraws": 0,
            "deployed": 0, "ex_skill_used": 0,
        }
        self.damage_per_turn: list[int] = []
        self.first_playable: dict[str, int] = {}
        self._noted: set[int] = set()
        rng.shuffle(self.deck)
        self.hand = self.deck[-7:]
        del self.deck[-7:]
        self.opp_deck -= 7
        if self.log is not None:
            self._emit(0, "me", "setup", f"{'first' if self.first else 'second'} player; ACE {self.ace.card.name} "
                       f"MHP {self.ace.mhp} (rested); dummy ACE MHP {self.dummy.mhp} "
                       + " ".join(f"{a}={self.dummy.values[a]}" for a in ATTRS))

    # -- helpers -------------------------------------------------------------------------------
    def _emit(self, turn: int, player: str, kind: str, text: str) -> None:
        if self.log is not None:
            self.log.add(turn, player, kind, text)

    def _end(self, outcome: str, reason: str) -> None:
        if not self.outcome:
            self.outcome = outcome
            self.reason = reason
            self.phase = "over"
            if self.log is not None:
                self._emit(self.turn, "me", "result", f"{outcome}: {reason}")

    def chars(self) -> list[Char]:
        return [self.ace, *self.vanguards]

    def char(self, cid: int) -> Char:
        return self.ace if cid == ACE else self.vanguards[cid - 1]

    def standing(self) -> list[int]:
        out = [ACE] if not self.ace.rested else []
        out.extend(i + 1 for i, c in enumerate(self.vanguards) if not c.rested)
        return out

    def is_terminal(self) -> bool:
        return bool(self.outcome)

    # -- payments ------------------------------------------------------------------------------
    def card_value(self, card: CardRecord, numbers: set[str] | None = None) -> float:
        """How much the pilot wants to keep a hand card (payments discard the lowest first)."""
        t = card.card_type
        if t == "battle":
            return 4.0 if len(self.battle) + sum(1 for c in self.hand if c.card_type == "battle") <= MAX_BATTLE else 2.0
        if t == "character":
            if numbers is None:
                numbers = {c.number for c in self.chars()}
            if f"{card.work}|{card.number or card.code}" in numbers:
                return 0.5
            return 5.0 + max(getattr(card, a) or 0 for a in ATTRS) / 100.0
        return 3.0 if modelled_effects(card) else 1.0

    def hand_order(self) -> list[int]:
        """Hand indices, least valuable first."""
        numbers = {c.number for c in self.chars()}
        hand = self.hand
        n_battle = len(self.battle) + sum(1 for c in hand if c.card_type == "battle")
        battle_value = 4.0 if n_battle <= MAX_BATTLE else 2.0
        values = []
        for i, card in enumerate(hand):
            t = card.card_type
            if t == "battle":
                v = battle_value
            elif t == "character":
                if f"{card.work}|{card.number or card.code}" in numbers:
                    v = 0.5
                else:
                    v = 5.0 + max(card.martial or 0, card.agility or 0, card.wisdom or 0, card.craft or 0,
                                  card.poise or 0) / 100.0
            else:
                v = 3.0 if modelled_effects(card) else 1.0
            values.append((v, i))
        values.sort()
        return [i for _, i in values]

    def _payments(
        self, cost: Mapping[str, Any], skip: int, standing: list[int], order: list[int]
    ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Up to two payments of ``cost``: rest-first and discard-first.

        ``standing`` = standing character ids, weakest first; ``order`` = hand indices, least
        valuable first; ``skip`` = the card being played.
        """
        if cost.get("red") or cost.get("hp"):
            return []  # red and HP costs are ability costs: a card paying them is not modelled
        white = cost.get("white", 0)
        blue = cost.get("blue")
        rest: list[int] = []
        if blue:
            for attr, n in blue.items():
                got = [cid for cid in standing if cid not in rest and attr in self.char(cid).card.attributes]
                if len(got) < n:
                    return []
                rest.extend(got[:n])
            free_chars = [cid for cid in standing if cid not in rest]
        else:
            free_chars = standing
        if not white:
            return [(tuple(rest), ())]
        hand_idx = [i for i in order if i != skip]
        if white > len(free_chars) + len(hand_idx):
            return []
        r = min(white, len(free_chars))
        first = (tuple(rest + free_chars[:r]), tuple(hand_idx[: white - r]))
        d = min(white, len(hand_idx))
        alt = (tuple(rest + free_chars[: white - d]), tuple(hand_idx[:d]))
        return [first] if alt == first else [first, alt]

    def _pay(self, rest: tuple[int, ...], discard: tuple[int, ...]) -> list[str]:
        paid = []
        for cid in rest:
            c = self.char(cid)
            c.rested = True
            paid.append(f"rest {c.card.name}")
        return paid + [f"discard {self.hand[i].name}" for i in discard]

    def _take(self, idx: int, discard: tuple[int, ...]) -> CardRecord:
        """Remove the played card and the discarded payment from the hand."""
        card = self.hand[idx]
        for i in sorted((*discard, idx), reverse=True):
            c = self.hand.pop(i)
            if i != idx:
                self.junk.append(c)
        return card

    # -- contract ------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == "main":
            return self._main_actions()
        if phase == "discard":
            seen: set[str] = set()
            acts = []
            for i, card in enumerate(self.hand):
                if card.code not in seen:
                    seen.add(card.code)
                    acts.append(Action("discard", (i,)))
            return acts
        if phase == "redraw":
            return [KEEP, REDRAW]
        return []

    def _main_actions(self) -> list[Action]:
        acts: list[Action] = []
        hand = self.hand
        chars = self.chars()
        numbers = {c.number for c in chars}
        room = len(self.vanguards) < MAX_VANGUARDS
        standing = self.standing()
        if len(standing) > 1:
            standing.sort(key=lambda cid: (self.char(cid).worth, cid))
        order: list[int] | None = None
        seen: set[str] = set()
        n_battle = len(self.battle)
        for i, card in enumerate(hand):
            code = card.code
            if code in seen:
                continue
            seen.add(code)
            t = card.card_type
            if t == "battle":
                if n_battle < MAX_BATTLE:
                    acts.append(Action("battle", (i,)))
                continue
            if t == "character":
                if not room or f"{card.work}|{card.number or card.code}" in numbers:
                    continue
            elif t != "item" and t != "event":
                continue
            if order is None:
                order = self.hand_order()
            payments = self._payments(card.cost_detail or {"white": card.cost or 0}, i, standing, order)
            if not payments:
                continue
            if t == "character":
                for rest, disc in payments:
                    acts.append(Action("deploy", (i, rest, disc)))
            elif t == "item":
                targets = self._item_targets(card)
                for rest, disc in payments:
                    for target in targets:
                        acts.append(Action("item", (i, rest, disc, target)))
            else:
                targets = self._event_targets(card)
                for rest, disc in payments:
                    for target in targets:
                        acts.append(Action("event", (i, rest, disc, target)))
        if not self.ex_used and self.ex_area:
            cost = self.ace.card.cost or 0
            for e, ex in enumerate(self.ex_area):
                if ex.ex_condition is not None and cost <= ex.ex_condition:
                    for target in self._event_targets(ex):
                        acts.append(Action("ex", (e, target)))
        if self.turn not in self._noted:
            self._noted.add(self.turn)
            self._note_playable(acts)
        for b in range(len(self.battle)):
            acts.append(Action("drop_battle", (b,)))
        if self.attacks_allowed and standing:
            usable = []
            codes: set[str] = set()
            for b, (card, used) in enumerate(self.battle):
                if not used and card.code not in codes:
                    codes.add(card.code)
                    usable.append(b)
            for cid in standing:
                for b in usable:
                    acts.append(Action("attack", (cid, b)))
        acts.append(END)
        return acts

    def _note_playable(self, acts: list[Action]) -> None:
        fp = self.first_playable
        for a in acts:
            if a.kind in ("battle", "deploy", "item", "event"):
                code = self.hand[a.args[0]].code
            elif a.kind == "ex":
                code = self.ex_area[a.args[0]].code
            else:
                continue
            if code not in fp:
                fp[code] = self.turn

    def describe(self, action: Action) -> str:
        """A readable label for an action of the current state (actions carry no text when not logging)."""
        k, a = action.kind, action.args
        if k == "attack":
            card = self.battle[a[1]][0]
            return (f"{self.char(a[0]).card.name} attacks the dummy ACE using {card.name} "
                    f"({card.attack_attribute}/{card.defense_attribute})")
        if k == "battle":
            return f"place battle card {self.hand[a[0]].name}"
        if k == "drop_battle":
            return f"discard battle card {self.battle[a[0]][0].name}"
        if k in ("deploy", "item", "event"):
            pay = [f"rest {self.char(c).card.name}" for c in a[1]] + [f"discard {self.hand[i].name}" for i in a[2]]
            what = {"deploy": "deploy", "item": "equip", "event": "play"}[k]
            target = f" on {self._name(a[3])}" if k != "deploy" else ""
            return f"{what} {self.hand[a[0]].name}{target}, paying: {', '.join(pay) or 'nothing'}"
        if k == "ex":
            return f"use EX skill {self.ex_area[a[0]].name} on {self._name(a[1])}"
        if k == "discard":
            return f"discard {self.hand[a[0]].name}"
        return str(action)

    def _name(self, target: int) -> str:
        return "the dummy ACE" if target < 0 else self.char(target).card.name

    def _item_targets(self, card: CardRecord) -> list[int]:
        """Characters that may take this item (-1 = the dummy ACE): no second copy on one character."""
        out = [cid for cid, c in enumerate(self.chars()) if all(i.code != card.code for i in c.items)]
        if all(i.code != card.code for i in self.dummy.items):
            out.append(-1)
        return out

    def _event_targets(self, card: CardRecord) -> list[int]:
        effects = modelled_effects(card)
        if not effects:
            return [ACE]  # unmodelled: it is played for nothing (the pilot never chooses that)
        if all(_target(e) < 0 for e in effects):
            return [-1]
        return list(range(1 + len(self.vanguards)))

    def apply(self, action: Action) -> None:
        kind = action.kind
        args = action.args
        if kind == "attack":
            self._attack(*args)
        elif kind == "end":
            self._end_turn()
        elif kind == "battle":
            card = self.hand.pop(args[0])
            self.battle.append([card, False])
            if self.log is not None:
                self._emit(self.turn, "me", "battle", f"place battle card {card.name} "
                           f"({card.attack_attribute}/{card.defense_attribute})")
        elif kind == "deploy":
            idx, rest, disc = args
            paid = self._pay(rest, disc)
            card = self._take(idx, disc)
            c = Char(card)
            c.rested = True
            self.vanguards.append(c)
            self.counters["deployed"] += 1
            if self.log is not None:
                self._emit(self.turn, "me", "deploy", f"deploy {card.name} (rested), paying: {', '.join(paid) or 'nothing'}")
        elif kind == "item":
            idx, rest, disc, target = args
            paid = self._pay(rest, disc)
            card = self._take(idx, disc)
            holder = self.dummy if target < 0 else self.char(target)
            holder.equip(card)
            for e in card.effects:
                if e.get("kind") == "heal" and target >= 0:
                    self._heal(holder, e)
            if self.log is not None:
                self._emit(self.turn, "me", "item", f"equip {card.name} to {self._name(target)}, paying: {', '.join(paid) or 'nothing'}")
        elif kind == "event":
            idx, rest, disc, target = args
            paid = self._pay(rest, disc)
            card = self._take(idx, disc)
            self.junk.append(card)
            if self.log is not None:
                self._emit(self.turn, "me", "event", f"play {card.name} on {self._name(target)}, paying: {', '.join(paid) or 'nothing'}")
            self._resolve(card, target)
        elif kind == "ex":
            e, target = args
            card = self.ex_area[e]
            self.ex_used = True
            self.counters["ex_skill_used"] += 1
            if self.log is not None:
                self._emit(self.turn, "me", "ex", f"EX skill {card.name} on {self._name(target)}")
            self._resolve(card, target)
        elif kind == "drop_battle":
            card = self.battle.pop(args[0])[0]
            self.junk.append(card)
            if self.log is not None:
                self._emit(self.turn, "me", "battle", f"discard battle card {card.name}")
        elif kind == "discard":
            card = self.hand.pop(args[0])
            self.junk.append(card)
            if self.log is not None:
                self._emit(self.turn, "me", "discard", f"hand limit: discard {card.name}")
            if len(self.hand) <= HAND_LIMIT:
                self._finish_turn()
        elif kind == "keep":
            if self.log is not None:
                self._emit(0, "me", "keep", "keep: " + ", ".join(c.name for c in self.hand))
            self._start_game()
        elif kind == "redraw":
            self.deck.extend(self.hand)
            self.rng.shuffle(self.deck)
            self.hand = self.deck[-7:]
            del self.deck[-7:]
            self.counters["redraws"] += 1
            if self.log is not None:
                self._emit(0, "me", "redraw", "redraw → " + ", ".join(c.name for c in self.hand))
            self._start_game()
        else:
            raise ValueError(f"unknown action {action}")

    def _resolve(self, card: CardRecord, target: int) -> None:
        holder: Char | Dummy = self.dummy if target < 0 else self.char(target)
        for e in modelled_effects(card):
            k = e.get("kind")
            if k == "heal":
                if isinstance(holder, Char):
                    self._heal(holder, e)
            elif k == "attack_mod":
                holder.atk_mod += int(e.get("value", 0))
            elif k == "defense_mod":
                holder.def_mod += int(e.get("value", 0))

    def _heal(self, char: Char, effect: Mapping[str, Any]) -> None:
        n = int(effect.get("value", 0)) or char.dmg
        char.dmg = max(0, char.dmg - n)

    # -- turn structure ------------------------------------------------------------------------
    def _start_game(self) -> None:
        if not self.first:
            self._opp_turn(first_turn=True)
        if not self.outcome:
            self._begin_turn()

    def _opp_turn(self, first_turn: bool = False) -> None:
        """The dummy wakes up (battle cards unused), draws, plays nothing, discards down to 7."""
        for b in self.battle:
            b[1] = False
        self.opp_deck -= 1 if first_turn and not self.first else 2
        if self.opp_deck <= 0:
            self.opp_deck = max(self.opp_deck, 0)
            self._end("win", "opponent's deck has 0 cards")

    def _begin_turn(self) -> None:
        self.turn += 1
        if self.turn > self.turn_cap:
            self.turn = self.turn_cap
            self._end("capped", "turn cap")
            return
        for c in self.chars():
            c.rested = False
        for b in self.battle:
            b[1] = False
        n = 1 if self.turn == 1 and self.first else 2
        drawn = self.deck[-n:]
        del self.deck[-n:]
        self.hand.extend(drawn)
        self.damage_per_turn.append(0)
        self.attacks_allowed = not (self.turn == 1 and self.first)
        if self.log is not None:
            self._emit(self.turn, "me", "turn", f"turn {self.turn}: wake up, draw {', '.join(c.name for c in drawn)}")
        self.phase = "main"
        if not self.deck:
            self._end("loss", "my deck has 0 cards")

    def _end_turn(self) -> None:
        if len(self.hand) > HAND_LIMIT:
            self.phase = "discard"
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        for c in self.chars():
            c.atk_mod = c.def_mod = 0
        self.dummy.atk_mod = self.dummy.def_mod = 0
        self._opp_turn()
        if not self.outcome:
            self._begin_turn()

    # -- battle --------------------------------------------------------------------------------
    def preview(self, cid: int, b: int) -> tuple[int, int]:
        card = self.battle[b][0]
        return battle_damage(self.char(cid), self.dummy, card.attack_attribute, card.defense_attribute)

    def _attack(self, cid: int, b: int) -> None:
        att = self.char(cid)
        att.rested = True
        entry = self.battle[b]
        entry[1] = True
        card = entry[0]
        a_attr, d_attr = card.attack_attribute, card.defense_attribute
        to_def, to_att = battle_damage(att, self.dummy, a_attr, d_attr)
        self.counters["battles"] += 1
        self.counters["damage_dealt"] += to_def
        self.counters["damage_taken"] += to_att
        self.damage_per_turn[-1] += to_def
        self.dummy.dmg += to_def
        att.dmg += to_att
        if self.log is not None:
            self._emit(self.turn, "me", "battle",
                       f"{att.card.name} attacks the dummy ACE with {card.name} ({a_attr}/{d_attr}): "
                       f"{att.attack_value(a_attr)} vs {self.dummy.defense_value(d_attr)} → {to_def} damage "
                       f"({self.dummy.dmg}/{self.dummy.mhp}); back {self.dummy.attack_value(a_attr)} vs "
                       f"{att.defense_value(d_attr)} → {to_att} damage ({att.dmg}/{att.mhp})")
        dummy_down = self.dummy.dmg >= self.dummy.mhp
        mine_down = att.dmg >= att.mhp
        if mine_down:
            self._defeat(att)
        lost = mine_down and (att.is_ace or len(self.defeat) >= LOSS_DEFEATS)
        if dummy_down and lost:
            self._end("draw", "both sides lost at once")
        elif dummy_down:
            self._end("win", "dummy ACE defeated")
        elif lost:
            self._end("loss", "my ACE was defeated" if att.is_ace else "three of my characters were defeated")

    def _defeat(self, char: Char) -> None:
        self.counters["own_defeated"] += 1
        self.defeat.append(char.card)
        self.junk.extend(char.items)
        char.items = []
        if not char.is_ace:
            self.vanguards.remove(char)
        if self.log is not None:
            self._emit(self.turn, "me", "defeat", f"{char.card.name} is defeated ({char.dmg} ≥ MHP {char.mhp})")

    def result(self) -> GameResult:
        return GameResult(
            index=self.index,
            outcome=self.outcome or "capped",
            turn=max(self.turn, 1),
            reason=self.reason,
            counters=dict(self.counters),
            per_turn={"damage": list(self.damage_per_turn)},
            first_playable=dict(self.first_playable),
        )

    def card_count(self) -> int:
        """Every card of mine, wherever it is (tests: nothing is created or lost)."""
        on_field = len(self.vanguards) + (0 if self.ace.card in self.defeat else 1)
        items = sum(len(c.items) for c in self.chars()) + len(self.dummy.items)
        return (len(self.deck) + len(self.hand) + len(self.junk) + len(self.defeat) + len(self.ex_area)
                + on_field + items + len(self.battle))


class GreedyPilot:
    """Battle cards first, then buffs, then the best attacks, then characters paid by resting."""

    name = "greedy"

    def choose(self, state: PhantasmaState, actions: list[Action]) -> Action:
        kind = actions[0].kind
        if kind in ("keep", "redraw"):
            has_char = any(c.card_type == "character" for c in state.hand)
            has_battle = any(c.card_type == "battle" for c in state.hand)
            return KEEP if (has_char and has_battle) or state.counters["redraws"] else REDRAW
        if kind == "discard":
            return min(actions, key=lambda a: (state.card_value(state.hand[a.args[0]]), a.args[0]))
        by_kind: dict[str, list[Action]] = {}
        for a in actions:
            by_kind.setdefault(a.kind, []).append(a)
        attacks = [a for a in by_kind.get("attack", []) if self._attack_score(state, a) > 0]
        # 1. battle cards: fill the field with the ones my characters hit hardest with
        if "battle" in by_kind:
            return max(by_kind["battle"], key=lambda a: (self._battle_worth(state, state.hand[a.args[0]]), -a.args[0]))
        # a better battle card in hand than a field one → discard the worst field one
        if "drop_battle" in by_kind and len(state.battle) == MAX_BATTLE:
            hand_best = max((self._battle_worth(state, c) for c in state.hand if c.card_type == "battle"), default=None)
            if hand_best is not None:
                worst = min(by_kind["drop_battle"], key=lambda a: self._battle_worth(state, state.battle[a.args[0]][0]))
                if state.battle[worst.args[0]][1] and hand_best > self._battle_worth(state, state.battle[worst.args[0]][0]):
                    return worst
        # 2. buffs before attacking: EX skill, then modelled items and events (discard-first payment)
        if attacks:
            for k in ("ex", "item", "event"):
                for a in by_kind.get(k, []):
                    if self._useful_buff(state, a):
                        return a
            return max(attacks, key=lambda a: (self._attack_score(state, a), -a.args[0], -a.args[1]))
        # 3. characters after the attacks, paying by resting first
        deploys = by_kind.get("deploy", [])
        if deploys:
            def deploy_key(a: Action) -> tuple:
                card = state.hand[a.args[0]]
                return (len(a.args[2]) == 0, max(getattr(card, x) or 0 for x in ATTRS) + (card.mhp or 0) / 10, -len(a.args[2]))
            best = max(deploys, key=deploy_key)
            # never discard a card worth more than the one deployed
            card_val = state.card_value(state.hand[best.args[0]])
            if all(state.card_value(state.hand[i]) <= card_val for i in best.args[2]):
                return best
        return END

    @staticmethod
    def _battle_worth(state: PhantasmaState, card: CardRecord) -> int:
        best = 0
        for c in state.chars():
            dealt, _ = battle_damage(c, state.dummy, card.attack_attribute, card.defense_attribute)
            best = max(best, dealt)
        return best

    @staticmethod
    def _attack_score(state: PhantasmaState, a: Action) -> float:
        cid, b = a.args
        att = state.char(cid)
        dealt, taken = state.preview(cid, b)
        kills = state.dummy.dmg + dealt >= state.dummy.mhp
        dies = att.dmg + taken >= att.mhp
        loses = dies and (att.is_ace or len(state.defeat) + 1 >= LOSS_DEFEATS)
        if loses:
            return -1.0
        if kills:
            return 10_000.0 + dealt
        if dealt <= 0:
            return -1.0
        score = dealt - 0.25 * taken
        if dies:
            score -= att.mhp * 0.5 + 50
        return score

    @staticmethod
    def _useful_buff(state: PhantasmaState, a: Action) -> bool:
        if a.kind == "ex":
            card = state.ex_area[a.args[0]]
        else:
            card = state.hand[a.args[0]]
            if a.args[1]:  # would rest a character that could attack
                return False
        effects = modelled_effects(card)
        if not effects:
            return False
        atk = sum(int(e.get("value", 0)) for e in effects if e.get("kind") == "attack_mod")
        dfn = sum(int(e.get("value", 0)) for e in effects if e.get("kind") == "defense_mod")
        heal = any(e.get("kind") == "heal" for e in effects)
        target = a.args[-1]
        if target < 0:
            return atk < 0 or dfn < 0
        char = state.char(target)
        if heal and char.dmg > 0:
            return True
        return not char.rested and (atk > 0 or dfn > 0) and atk >= 0 and dfn >= 0


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


def dummy_stats(options: Mapping[str, Any], deck: Deck) -> dict[str, int]:
    """Options win; anything missing comes from the deck's own characters (ACE included)."""
    fallback = catalog_options([*deck.main, *deck.zones.get("ace", ())])
    stats = {"mhp": int(options.get("dummy_mhp", fallback.get("dummy_mhp", 0)))}
    for a in ATTRS:
        stats[a] = int(options.get(f"dummy_{a}", fallback.get(f"dummy_{a}", 0)))
    if stats["mhp"] <= 0:
        raise ValueError("the dummy ACE needs a positive MHP: pass dummy_mhp or give the deck characters")
    return stats


def new_state(
    deck: Deck, rng: random.Random, index: int, options: Mapping[str, Any], log: EventLog | None = None
) -> PhantasmaState:
    return PhantasmaState(deck, rng, index, options, log)


register(
    GameEngine(
        game=GAME,
        new_state=new_state,
        pilots={"greedy": GreedyPilot},
        default_options={"dummy_deck_size": 60},
        describe_options={
            "dummy_mhp": "the dummy ACE's MHP (already doubled); default: 2 × the catalog's median printed MHP",
            **{f"dummy_{a}": f"the dummy ACE's {a} value; default: the catalog's median" for a in ATTRS},
            "dummy_deck_size": "cards in the dummy's deck (default 60); it draws like a player",
        },
        catalog_options=catalog_options,
    )
)
