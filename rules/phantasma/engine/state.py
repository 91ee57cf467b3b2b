"""Phantasmagoria goldfish engine (GAMES.md §2): the state and its turn script.

The player ("me") has a 60-card main deck, an ACE outside the deck and up to 3 EX skills. The dummy
opponent has only an ACE that always defends (the rules force a defender), plays nothing and owns
no battle cards; its stats default to the catalog's medians (``catalog_options``): the median
printed MHP doubled, and the median of each of the five ability values. Its deck only counts cards
(it draws like a player; an empty deck loses). Battles are computed both ways, so my characters can
be defeated: three of mine in the defeat zone, my ACE defeated or my deck at 0 → loss.

The rules are one generator (``PhantasmaState._setup`` and ``_my_turn`` in
``GoldfishState.script``). Decision kinds and their options:

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

from collections.abc import Generator, Mapping
from typing import Any, ClassVar

from rules.cards import CardRecord
from rules.engine._zones import distinct_codes, shuffle, take
from rules.engine.core import Deck, gettext_noop, submessage
from rules.engine.goldfish import GoldfishState
from rules.phantasma.cards import total_cost

from .characters import (
    ATTRS,
    CARD_INFO,
    Char,
    Dummy,
    amount,
    battle_damage,
    effect_target,
    heal,
    info_of,
    modelled_effects,
)
from .dummy import dummy_stats
from .events import GAME

HAND_LIMIT = 7
MAX_VANGUARDS = 5
MAX_BATTLE = 3
LOSS_DEFEATS = 3
ACE = 0  # character id of the ACE; vanguards are 1..5 (index + 1)


class PhantasmaState(GoldfishState):
    """One goldfish game of Phantasmagoria. Zones are public attributes so tests can set them up."""

    GAME = GAME
    DEFAULT_OPTIONS: ClassVar[dict[str, Any]] = {"first": "random", "dummy_deck_size": 60}
    COUNTERS = (
        "games", "went_first", "battles", "damage_dealt", "damage_taken", "own_defeated", "redraws", "deployed",
        "items", "events", "ex_skill_used", "first_games", "second_games", "first_wins", "second_wins",
        "first_win_turns", "second_win_turns",
    )
    PER_TURN = {"damage": "damage_dealt"}
    DECK_ZONES = ("ace", "ex")

    def _new_game(self, deck: Deck, opts: Mapping[str, Any]) -> None:
        aces = deck.zones.get("ace", ())
        if not aces:
            raise ValueError("a phantasma deck needs an ACE (the `# ace` section)")
        self.junk: list[CardRecord] = []
        self.defeat: list[CardRecord] = []
        self.ex_area: list[CardRecord] = list(deck.zones.get("ex", ()))
        self.ex_used = False
        self.ace = Char(aces[0], is_ace=True)
        self.vanguards: list[Char] = []
        self.battle: list[list] = []  # [card, used] of my battle cards on the field
        stats = dummy_stats(opts, deck)
        self.dummy = Dummy({a: stats[a] for a in ATTRS}, stats["mhp"])
        self.odeck = int(opts.get("dummy_deck_size", 60))
        if self.odeck < 8:
            raise ValueError(f"dummy_deck_size must be at least 8 (got {self.odeck})")
        self.attacks_allowed = False
        self.opening_hand: tuple[CardRecord, ...] = ()

    # -- helpers -------------------------------------------------------------------------------
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

    def card_zones(self) -> dict[str, list[CardRecord]]:
        return {"deck": self.deck, "hand": self.hand, "junkyard": self.junk, "defeat": self.defeat,
                "ex": self.ex_area, "ace": [] if self.ace.card in self.defeat else [self.ace.card],
                "vanguards": [c.card for c in self.vanguards],
                "items": [i for c in (*self.chars(), self.dummy) for i in c.items],
                "battle": [entry[0] for entry in self.battle]}

    def _name(self, target: int) -> str:
        return "the dummy ACE" if target < 0 else self.char(target).card.name

    # -- values and payments -------------------------------------------------------------------
    def hand_values(self) -> dict[str, float]:
        """How much the pilot wants to keep each hand card (by code); payments and the hand limit
        take the lowest first."""
        numbers = {c.number for c in self.chars()}
        get = CARD_INFO.get
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
        info = CARD_INFO.get(card) or info_of(card)
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
        info = CARD_INFO.get(card) or info_of(card)
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
        if effects and all(effect_target(e) < 0 for e in effects):
            return [-1]
        return list(range(1 + len(self.vanguards)))

    # -- the game ------------------------------------------------------------------------------
    def _setup(self) -> Generator[str, tuple, None]:
        rng = self.rng
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
        turn = self._new_turn()
        log = self.log
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
            elif verb == "battle" or verb == "drop_battle":
                self._battle_row(verb, choice[1])
            else:
                self._play(choice)
        # 3. end: hand limit, modifiers vanish
        while len(self.hand) > HAND_LIMIT:
            _, code = yield "discard"
            self._discard(code, self.junk)
        for c in self.chars():
            c.atk_mod = c.def_mod = 0
        self.dummy.atk_mod = self.dummy.def_mod = 0

    def _battle_row(self, verb: str, arg: Any) -> None:
        """Place a battle card from the hand (``battle``, a code) or discard one of the row
        (``drop_battle``, its index)."""
        log = self.log
        if verb == "battle":
            card = take(self.hand, arg)
            self.battle.append([card, False])
            if log is not None:
                self.say("me", "battle", "battle_card", card=card.name, attr=card.attack_attribute,
                         attr2=card.defense_attribute)
        elif verb == "drop_battle":
            card = self.battle.pop(arg)[0]
            self.junk.append(card)
            if log is not None:
                self.say("me", "battle", "drop_battle", card=card.name)

    def _play(self, choice: tuple) -> None:
        """Deploy a character, equip an item, play an event (each paid as chosen) or use the EX skill."""
        verb = choice[0]
        log = self.log
        if verb == "deploy":
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
                    heal(holder, e)
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
                         target=self._name(choice[2]), cost=total_cost(self.ace.card), condition=card.ex_condition)
            self._resolve(card, choice[2])

    def _note_playable(self, turn: int) -> None:
        """Record the first turn each hand card could be played (room or no same number on my
        field, the cost payable), and the EX skills' (checked on turns with an unrecorded hand
        card). Codes already recorded are not checked again."""
        fp = self.first_playable
        get = CARD_INFO.get
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
        """The EX skill's usage condition: the ACE's total cost (``cost_detail``) ≤ the skill's condition."""
        return ex.ex_condition is not None and (total_cost(self.ace.card) or 0) <= ex.ex_condition

    def _resolve(self, card: CardRecord, target: int) -> None:
        holder: Char | Dummy = self.dummy if target < 0 else self.char(target)
        for e in modelled_effects(card):
            k = e.get("kind")
            if k == "heal":
                if isinstance(holder, Char):
                    heal(holder, e)
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
