"""The Lycee engine's runtime for printed abilities (``abilities.Program`` / ``Op``), mixed into
``LyceeState``: hooks fire programs, costs are paid, operations change the game, conditions are
evaluated, and optional effects follow the goldfish policy below.

**Optional effects** (``…できる``) are taken when they help a goldfish game: draws (while my deck
keeps more cards than the draw), the dummy's mill or draw, recovery, DMG gains, standing an
attacker up, putting a character into play, searches, moving a back-row character up; declined
otherwise (a discard, a mill of my own deck, a charge no ability of the character spends), unless
a later effect of the same ability waits for it (``…したとき``) and gains more than it costs.

Targets: ``ally`` operations pick among my characters matching the selector — for a DMG gain, an
aggressive grant or standing up, the attacker that gains most (standing, in the attack row, may
attack this turn; the one with the most damage first); for a harmful operation, the least valuable.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from rules.cards import CardRecord
from rules.engine._zones import shuffle
from rules.engine.core import gettext_noop

from ..cardmatch import matches, squash
from .abilities import Cond, Op, Program, Target
from .field import NEIGHBOURS, NO_USES, NONE, Char
from .info import ALL_SLOTS, SLOTS, cost_of, info_of

if TYPE_CHECKING:
    from .state import LyceeState

_CMP: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, "<=": operator.le, "==": operator.eq, "=": operator.eq, ">": operator.gt, "<": operator.lt,
    "!=": operator.ne,
}
_POSITION_TESTS: dict[str, Callable[[int, Char], bool]] = {
    "AF": lambda s, c: s < 3, "DF": lambda s, c: s >= 3,
    "standing": lambda s, c: c.standing, "rested": lambda s, c: not c.standing,
}


class Ctx:
    """One program run: its source (a character of mine, or a card), the character ``that``
    refers to, whether the last optional operation was done."""

    __slots__ = ("prog", "card", "char", "that", "that_card", "done")

    def __init__(self, prog: Program, card: CardRecord, char: Char | None, that: Char | None = None) -> None:
        self.prog = prog
        self.card = card
        self.char = char
        self.that = that
        self.that_card: CardRecord | None = None  # the card a previous operation sent away (そのキャラ)
        self.done = True


def field_match(sel: Mapping[str, Any] | None, slot: int, c: Char, src: Char | None = None, src_slot: int = -1
                ) -> bool:
    """Whether my character ``c`` in ``slot`` matches a field selector; ``src`` (in ``src_slot``) is
    the source of the ability (このキャラ). A work or brand the data does not record is taken to
    match (decks are built around one; abilities.py)."""
    if not sel:
        return True
    if sel.get("type") == "and":
        return all(field_match(s, slot, c, src, src_slot) for s in sel.get("items", ()))
    if sel.get("type") == "or":
        return any(field_match(s, slot, c, src, src_slot) for s in sel.get("items", ()))
    for p in sel.get("position", ()):
        test = _POSITION_TESTS.get(p)
        if test is not None and not test(slot, c):
            return False
    for f in sel.get("filters", ()):
        if "except" in f:
            if c is src:
                return False
        elif "same_column_as" in f:
            if src_slot < 0 or slot % 3 != src_slot % 3:
                return False
        elif "adjacent_to" in f:
            if src_slot < 0 or slot not in NEIGHBOURS[src_slot]:
                return False
        elif "relative" in f:
            rel = f["relative"]
            if rel.get("verb") == "equip" and (c.item is not None) != (rel.get("form") == "prog"):
                return False
            if rel.get("verb") == "move" and not (c.moved or c.touched):
                return False
    return matches(sel, c.card) is not False


# Field selectors answered without ``field_match``: every character of mine (味方キャラ), my
# characters of a name (味方「X」), selectors of the card alone (no position, no filter relative to
# the source: ``matches``); anything else goes through ``field_match``. By selector identity.
_GENERAL, _EVERY_CHAR, _BY_NAME, _CARD_ONLY = 0, 1, 2, 3
_RELATIVE_FILTERS = ("except", "same_column_as", "adjacent_to", "relative")
_IGNORED_KEYS = frozenset({"type", "side", "what", "count", "unit", "all", "up_to", "zone"})
_SHAPES: dict[int, tuple[Mapping[str, Any], int, frozenset[str]]] = {}


def _sel_shape(sel: Mapping[str, Any]) -> tuple[int, frozenset[str]]:
    hit = _SHAPES.get(id(sel))
    if hit is not None and hit[0] is sel:
        return hit[1], hit[2]
    shape, names = _GENERAL, frozenset()
    keys = set(sel) - _IGNORED_KEYS
    if sel.get("type", "card") == "card" and sel.get("what", "card") in ("character", "card", "named"):
        if not keys:
            shape = _EVERY_CHAR
        elif keys == {"names"}:
            shape, names = _BY_NAME, frozenset(squash(str(n)) for n in sel["names"])
    if shape == _GENERAL and sel.get("type") not in ("and", "or") and "position" not in sel and not any(
            k in f for f in sel.get("filters", ()) for k in _RELATIVE_FILTERS):
        shape = _CARD_ONLY  # (its names, if any, are a quick first test: matches needs one of them)
        names = frozenset(squash(str(n)) for n in sel.get("names", ()))
    if len(_SHAPES) > 50_000:
        _SHAPES.clear()
    _SHAPES[id(sel)] = (sel, shape, names)
    return shape, names


_AND, _OR, _OPPONENT, _THIS = -1, -2, -3, -4
_COUNT_SHAPES: dict[int, tuple[Mapping[str, Any], int, frozenset[str] | None]] = {}


def _count_shape(sel: Mapping[str, Any]) -> tuple[int, frozenset[str] | None]:
    """How ``_count_field`` counts a selector: ``_AND`` / ``_OR`` (of its items), ``_OPPONENT``
    (the dummy's characters), ``_THIS`` (the source), else its ``_sel_shape`` (memoised per
    selector object, as ``_sel_shape``)."""
    hit = _COUNT_SHAPES.get(id(sel))
    if hit is not None and hit[0] is sel:
        return hit[1], hit[2]
    t = sel.get("type")
    names: frozenset[str] | None = None
    if t == "and":
        shape = _AND
    elif t == "or":
        shape = _OR
    elif sel.get("side") == "opponent":
        shape = _OPPONENT
    elif sel.get("ref") == "this":
        shape = _THIS
    else:
        shape, names = _sel_shape(sel)
    if len(_COUNT_SHAPES) > 50_000:
        _COUNT_SHAPES.clear()
    _COUNT_SHAPES[id(sel)] = (sel, shape, names)
    return shape, names


class EffectsMixin:
    """Runtime of printed abilities (see the module docstring); ``LyceeState`` mixes it in."""

    # -- hooks ------------------------------------------------------------------------------------
    def _fire(self: LyceeState, hook: str, c: Char | None, card: CardRecord | None = None,
              that: Char | None = None, arg: Any = None) -> None:
        """Run the programs of ``hook`` of character ``c`` (or of ``card``)."""
        if card is None:
            card = c.card
        for prog in info_of(card).plan.get(hook):
            if hook == "enter" and prog.arg == "hand" and arg != "hand":
                continue
            if not self._within_limits(prog, c):
                continue
            self._note_use(prog, c)
            self._run(prog, card, c, that)

    def _fire_field(self: LyceeState, hook: str, that: Char | None = None, card: CardRecord | None = None,
                    to: str = "") -> None:
        """Run ``hook`` for every character of mine on the field and its item. ``that``: the
        character that entered (``ally_enter``); ``card``: the event played (``event_used``) or the
        card that left (``ally_leave``, ``to`` where it went)."""
        for s in ALL_SLOTS:
            c = self.field[s]
            if c is None:
                continue
            for src in (c.card, c.item):
                if src is None:
                    continue
                for prog in info_of(src).plan.get(hook):
                    arg = prog.arg
                    if hook == "ally_enter":
                        if that is None or that is c or not field_match(arg, self._slot_of(that), that, c, s):
                            continue
                    elif hook == "event_used":
                        if arg and card is not None and matches(arg, card) is False:
                            continue
                    elif hook == "ally_leave":
                        kind, sel = arg
                        if (kind == "destroyed" and to != "dust") or card is None or (sel and matches(sel, card) is False):
                            continue
                    if not self._within_limits(prog, c):
                        continue
                    self._note_use(prog, c)
                    self._run(prog, src, c, that)
                    if self.field[s] is not c:
                        break

    def _slot_of(self: LyceeState, c: Char) -> int:
        field = self.field
        return field.index(c) if c in field else -1  # (Char compares by identity)

    def _within_limits(self: LyceeState, prog: Program, c: Char | None) -> bool:
        if prog.per_turn:
            if c is not None and c.card.code == prog.code:
                if c.uses.get(prog.index, 0) >= prog.per_turn:
                    return False
            elif self.turn_uses.get((prog.code, prog.index), 0) >= prog.per_turn:  # an item's, a hand card's
                return False
        return not (prog.per_game and self.game_uses.get((prog.code, prog.index), 0) >= prog.per_game)

    def _note_use(self: LyceeState, prog: Program, c: Char | None) -> None:
        if prog.per_turn:
            if c is not None and c.card.code == prog.code:
                if c.uses is NO_USES:
                    c.uses = {}
                c.uses[prog.index] = c.uses.get(prog.index, 0) + 1
            else:
                key = (prog.code, prog.index)
                self.turn_uses[key] = self.turn_uses.get(key, 0) + 1
        if prog.per_game:
            key = (prog.code, prog.index)
            self.game_uses[key] = self.game_uses.get(key, 0) + 1

    # -- declared abilities ---------------------------------------------------------------------
    def can_use(self: LyceeState, prog: Program, c: Char | None, card: CardRecord, battle: bool = False
                ) -> tuple[int, ...] | None:
        """The payment of a declared ability if it may be used now (``None`` otherwise)."""
        if prog.battle != battle or not self._within_limits(prog, c):
            return None
        if prog.tap and (c is None or not c.standing or not (c.entered < self.turn or c.aggressive)):
            return None
        if prog.uncharge and (c is None or len(c.charge) < prog.uncharge):
            return None
        if prog.mill and len(self.deck) <= prog.mill:
            return None
        if prog.discard and len(self.hand) - (1 if prog.hook == "hand_act" else 0) < prog.discard:
            return None
        if prog.conds:
            ctx = Ctx(prog, card, c)
            for cond in prog.conds:
                if not self._cond(cond, ctx):
                    return None
        if prog.hook == "dust_act" and card not in self.dust:
            return None
        if prog.pay:
            if prog.hook == "hand_act":
                return self.payment_for(prog.pay, card.code, purpose="hand_ability")
            return self.payment_for(prog.pay, purpose="ability")
        return ()

    def _use(self: LyceeState, prog: Program, c: Char | None, card: CardRecord, pay: tuple[int, ...]) -> None:
        """Pay a declared ability's costs, then run it."""
        self._note_use(prog, c)
        if pay:
            paid = self._pay(pay, card if prog.hook == "hand_act" else None)
            if self.log is not None:
                self.say("me", "pay", "ability_cost", card=card.name, cards=", ".join(p.name for p in paid))
        if prog.tap and c is not None:
            c.standing = False
        if prog.mill:
            self._mill_me(prog.mill)
        if prog.uncharge and c is not None:
            self._uncharge(c, prog.uncharge)
        if prog.discard:
            self._discard_least(prog.discard, "dust", skip=card if prog.hook == "hand_act" else None)
        if prog.destroy_this and c is not None:
            slot = self._slot_of(c)
            if slot >= 0:
                self._leave(slot, "ability cost")
        self.counters["abilities"] += 1
        if self.log is not None:
            self.say("me", "ability", "ability", card=card.name, text=prog.text)
        self._run(prog, card, c, None)

    # -- running a program ------------------------------------------------------------------------
    def _run(self: LyceeState, prog: Program, card: CardRecord, c: Char | None, that: Char | None) -> None:
        ctx = Ctx(prog, card, c, that)
        ops = prog.ops
        for i, op in enumerate(ops):
            if op.conds and not all(self._cond(cond, ctx) for cond in op.conds):
                if any(cond.kind == "done" for cond in op.conds) or any(cond.kind == "not_done" for cond in op.conds):
                    continue
                ctx.done = False
                continue
            if op.optional and not self._take(op, ctx, ops[i + 1:]):
                ctx.done = False
                continue
            ctx.done = self._op(op, ctx) is not False

    def _take(self: LyceeState, op: Op, ctx: Ctx, rest: tuple[Op, ...]) -> bool:
        """The goldfish policy for an optional operation (module docstring)."""
        k = op.kind
        if k == "draw":
            return len(self.deck) > op.n + 1
        if k in ("opp_mill", "opp_draw", "recover", "search", "deploy", "deploy_this", "deploy_that", "stand",
                 "aggressive", "dust_to_hand", "dust_to_deck", "dust_this_to_deck", "dust_this_to_hand",
                 "opp_hand_to_deck", "move_up", "move_ally", "shuffle", "grant_bonus"):
            return True
        if k == "dmg":
            return op.n > 0
        if k == "charge":
            c = ctx.char
            return c is not None and any(p.uncharge for ps in c.info.plan.by_hook.values() for p in ps)
        dependent = [o for o in rest if any(cond.kind == "done" for cond in o.conds)]
        if dependent:
            gain = sum(_value(o) for o in dependent)
            return gain > _value(op) * -1 and len(self.hand) > (op.n if k == "discard" else 0)
        return False

    def _targets(self: LyceeState, t: Target, ctx: Ctx, good: bool) -> list[Char]:
        if t.ref == "this":
            return [ctx.char] if ctx.char is not None and self._slot_of(ctx.char) >= 0 else []
        if t.ref == "that":
            return [ctx.that] if ctx.that is not None and self._slot_of(ctx.that) >= 0 else []
        if t.ref == "battling":
            c = self.field[self.battling] if self.battling >= 0 else None
            return [c] if c is not None else []
        sel = t.sel
        shape, names = _sel_shape(sel) if sel else (_EVERY_CHAR, None)
        if shape == _EVERY_CHAR:
            found = [(s, c) for s, c in enumerate(self.field) if c is not None]
        elif shape == _BY_NAME:
            found = [(s, c) for s, c in enumerate(self.field) if c is not None and not names.isdisjoint(c.info.snames)]
        elif shape == _CARD_ONLY:
            found = [(s, c) for s, c in enumerate(self.field) if c is not None
                     and (not names or not names.isdisjoint(c.info.snames)) and matches(sel, c.card) is not False]
        else:
            src = ctx.char
            src_slot = self._slot_of(src) if src is not None else -1
            found = [(s, c) for s, c in enumerate(self.field) if c is not None and field_match(sel, s, c, src, src_slot)]
        if not found:
            return []
        if t.count == 0:
            return [c for _, c in found]
        turn = self.turn
        if good:  # the attacker that gains most: standing, attack row, may attack now; most damage
            found.sort(key=lambda sc: (not (sc[0] < 3 and sc[1].standing and (sc[1].entered < turn or sc[1].aggressive)),
                                       -sc[1].dmg, sc[0]))
        else:
            found.sort(key=lambda sc: (sc[1].dmg, sc[0]))
        return [c for _, c in found[: t.count]]

    def _any_target(self: LyceeState, t: Target, ctx: Ctx) -> bool:
        """Whether ``_targets(t, ctx, ...)`` would find a character (the pilot's check, without
        building and ordering the list)."""
        if t.ref in ("this", "that", "battling") or t.count < 0:
            return bool(self._targets(t, ctx, False))
        sel = t.sel
        shape, names = _sel_shape(sel) if sel else (_EVERY_CHAR, None)
        if shape == _EVERY_CHAR:
            return self.field.count(None) < 6
        if shape == _BY_NAME:
            for c in self.field:
                if c is not None and not names.isdisjoint(c.info.snames):
                    return True
            return False
        if shape == _CARD_ONLY:
            for c in self.field:
                if c is not None and (not names or not names.isdisjoint(c.info.snames)) and matches(sel, c.card) is not False:
                    return True
            return False
        return bool(self._targets(t, ctx, False))

    def _op(self: LyceeState, op: Op, ctx: Ctx) -> bool:
        """Execute one operation; ``False`` when nothing could be done."""
        k = op.kind
        log = self.log
        card = ctx.card
        if k == "draw":
            self._draw(op.n, card.name, "ability")
            return True
        if k == "opp_mill":
            got = self.mill_opp(op.n)
            if log is not None:
                self.say("opp", "mill", "mill", card=card.name, when="ability", count=got)
            return got > 0
        if k == "opp_draw":
            n = min(op.n, self.odeck)
            self.odeck -= n
            self.ohand += n
            self.counters["milled"] += n
            if log is not None:
                self.say("opp", "draw", "opp_draw", card=card.name, count=n)
            if self.odeck <= 0:
                self._end("win", gettext_noop("the dummy's deck has 0 cards"))
            return n > 0
        if k == "mill":
            return self._mill_me(op.n) > 0
        if k == "recover":
            return self._recover(op.n, card) > 0
        if k == "opp_recover":
            n = min(op.n, self.odust)
            self.odust -= n
            self.odeck += n
            return n > 0
        if k == "shuffle":
            shuffle(self.rng, self.deck)
            return True
        if k == "discard":
            return self._discard_least(op.n, op.dest) > 0
        if k == "opp_hand_to_deck":
            n = min(op.n, self.ohand)
            self.ohand -= n
            self.odeck += n
            return n > 0
        if k in ("dmg", "stand", "rest", "aggressive", "skip_wakeup"):
            good = k != "rest" and k != "skip_wakeup" and not (k == "dmg" and op.n < 0)
            targets = self._targets(op.target, ctx, good) if op.target is not None else []
            for c in targets:
                if k == "dmg":
                    c.dmg += op.n
                    if op.lasting:
                        c.dmg_lasting += op.n
                elif k == "stand":
                    c.standing = True
                elif k == "rest":
                    c.standing = False
                elif k == "aggressive":
                    c.aggressive = True
                else:
                    c.skip_wakeup = True
                if log is not None:
                    self.say("me", "effect", "effect", card=card.name, what=k, card2=c.card.name, n=op.n)
            if targets and k in ("stand", "aggressive"):
                self.version += 1
            return bool(targets)
        if k == "charge":
            done = False
            for c in self._targets(op.target, ctx, True) if op.target is not None else []:
                room = (c.info.charge_cap or op.n) - len(c.charge)
                n = min(op.n, room, len(self.deck))
                if n > 0 and c.charge is NONE:
                    c.charge = []
                for _ in range(n):
                    c.charge.append(self.deck.pop())
                    done = True
                if not self.deck:
                    self._end("loss", gettext_noop("my deck has 0 cards"))
            return done
        if k == "uncharge":
            return ctx.char is not None and self._uncharge(ctx.char, op.n) > 0
        if k in ("destroy_this", "this_to_hand", "this_to_deck", "exile_this"):
            c = ctx.char
            slot = self._slot_of(c) if c is not None else -1
            if slot < 0:
                return False
            ctx.that_card = c.card
            self._leave(slot, "ability", to=_LEAVE_TO[k])
            return True
        if k in ("destroy_ally", "ally_to_hand", "ally_to_deck", "exile_ally"):
            targets = self._targets(op.target, ctx, False) if op.target is not None else []
            for c in targets:
                ctx.that_card = c.card
                self._leave(self._slot_of(c), "ability", to=_LEAVE_TO[k])
            return bool(targets)
        if k in ("dust_this_to_deck", "dust_this_to_hand", "dust_this_to_removed"):
            if card not in self.dust:
                return False
            self.dust.remove(card)
            if k == "dust_this_to_deck":
                self.deck.insert(0, card)
            elif k == "dust_this_to_hand":
                self.hand.append(card)
            else:
                self.removed.append(card)
            self.version += 1
            return True
        if k == "dust_to_removed":
            picked = [c for c in self.dust if matches(op.sel, c) is not False][: op.n]
            for c in picked:
                self.dust.remove(c)
                self.removed.append(c)
            return bool(picked)
        if k == "deploy_that":
            that = ctx.that_card
            if that is None or that not in self.dust or that.card_type != "character":
                return False
            return self._put_into_play(that, self.dust, op.free)
        if k == "put_under":
            piles = [self._under_list(c, ctx) for c in self._targets(op.target, ctx, True)] if op.target else []
            pile = piles[0] if piles else None
            if pile is None:
                return False
            zone = {"trash": self.dust, "hand": self.hand, "deck_top": self.deck}.get(op.zone)
            if zone is None:
                return False
            if op.zone == "deck_top":
                n = min(op.n, len(zone))
                moved = [zone.pop() for _ in range(n)]
            else:
                moved = [c for c in zone if op.sel is None or matches(op.sel, c) is not False][: op.n]
                for c in moved:
                    zone.remove(c)
            pile.extend(moved)
            if moved and op.zone != "trash":
                self.version += 1
            if op.zone == "deck_top" and not self.deck:
                self._end("loss", gettext_noop("my deck has 0 cards"))
            return bool(moved)
        if k == "under_to":
            pile = self._under_list(ctx.char, ctx) if ctx.char is not None else None
            if not pile:
                return False
            n = min(op.n, len(pile))
            moved = pile[len(pile) - n:]
            del pile[len(pile) - n:]
            self._to_dest(moved, op.dest)
            return n > 0
        if k == "pile_to":
            pile = self.piles.get(op.zone) or []
            n = min(op.n, len(pile))
            moved = pile[len(pile) - n:]
            del pile[len(pile) - n:]
            self._to_dest(moved, op.dest)
            return n > 0
        if k == "dust_to_pile":
            moved = [c for c in self.dust if matches(op.sel, c) is not False][: op.n]
            for c in moved:
                self.dust.remove(c)
            self.piles.setdefault(op.dest, []).extend(moved)
            return bool(moved)
        if k == "dust_this_to_pile":
            if card not in self.dust:
                return False
            self.dust.remove(card)
            self.piles.setdefault(op.dest, []).append(card)
            return True
        if k == "this_to_pile":
            c = ctx.char
            slot = self._slot_of(c) if c is not None else -1
            if slot < 0:
                return False
            self._leave(slot, "ability", to="pile:" + op.dest)
            return True
        if k == "move_ally":
            for c in self._targets(op.target, ctx, True) if op.target is not None else []:
                slot = self._slot_of(c)
                if slot < 3:
                    continue
                to = next((t for t in (slot - 3, 0, 1, 2) if self.field[t] is None), -1)
                if to < 0:
                    return False
                self.field[slot], self.field[to] = None, c
                self._recompute(c, to)
                self.version += 1
                self.counters["moves"] += 1
                if log is not None:
                    self.say("me", "move", "move", card=c.card.name, slot=SLOTS[slot], slot2=SLOTS[to])
                return True
            return False
        if k == "grant_bonus":
            targets = self._targets(op.target, ctx, True) if op.target is not None else []
            for c in targets:
                c.bonus_ops = c.bonus_ops + (op.sub,)
            return bool(targets)
        if k in ("dust_to_deck", "dust_to_hand"):
            picked = [c for c in self.dust if matches(op.sel, c) is not False][: op.n]
            if k == "dust_to_hand":  # the best cards to the hand
                picked = sorted((c for c in self.dust if matches(op.sel, c) is not False),
                                key=lambda c: -info_of(c).base)[: op.n]
            for c in picked:
                self.dust.remove(c)
                if k == "dust_to_deck":
                    self.deck.insert(0, c)
                else:
                    self.hand.append(c)
            if picked:
                self.version += 1
            return bool(picked)
        if k == "search":
            return self._search(op, card, ctx.char if ctx.char is not None and self._slot_of(ctx.char) >= 0 else None)
        if k == "deploy":
            return self._deploy_from(op, card)
        if k == "deploy_this":
            if card not in self.dust or card.card_type != "character":
                return False
            return self._put_into_play(card, self.dust, op.free)
        if k == "move_up":
            c = ctx.char
            slot = self._slot_of(c) if c is not None else -1
            if slot < 3:
                return False
            for to in (slot - 3, 0, 1, 2):
                if self.field[to] is None:
                    self.field[slot], self.field[to] = None, c
                    self._recompute(c, to)
                    self.version += 1
                    self.counters["moves"] += 1
                    if log is not None:
                        self.say("me", "move", "move", card=c.card.name, slot=SLOTS[slot], slot2=SLOTS[to])
                    return True
            return False
        return False

    # -- conditions -------------------------------------------------------------------------------
    def _cond(self: LyceeState, cond: Cond, ctx: Ctx) -> bool:
        k = cond.kind
        p = cond.params
        if k == "done":
            return ctx.done
        if k == "not_done":
            return not ctx.done
        if k == "during":
            period = (p.get("period") or {}).get("period")
            value = {"own_turn": self.in_my_turn, "opponent_turn": not self.in_my_turn,
                     "battle": self.in_battle}.get(period, False)
            return not value if p.get("negated") else value
        if k in ("present", "absent", "count"):
            n = self._count_field(p.get("card") or {}, ctx)
            if k == "present":
                return n > 0
            if k == "absent":
                return n == 0
            return _CMP[str(p.get("op", ">="))](n, int(p.get("n", 1)))
        if k == "size":
            of = p.get("of") or {}
            if of.get("type") == "size":
                of = of.get("of") or {}
            z = (of.get("zones") or [{}])[0]
            zone = z.get("zone")
            if zone == "pile":
                size = len(self.piles.get(str(z.get("pile")), ()))
            else:
                size = {"hand": len(self.hand), "deck": len(self.deck), "trash": len(self.dust)}.get(zone, 0)
            return _CMP[str(p.get("op", ">="))](size, int(p.get("n", 0)))
        if k == "count_under":
            pile = self._under_list(ctx.char, ctx) if ctx.char is not None else None
            return _CMP[str(p.get("op", ">="))](len(pile or ()), int(p.get("n", 0)))
        if k == "stat":
            c = ctx.char
            if c is None:
                return False
            stat = p.get("stat")
            value = getattr(c, stat) if stat in _STATS else 0
            return _CMP[str(p.get("op", ">="))](value, int(p.get("value", 0)))
        if k in ("present_area", "absent_area", "count_area", "present_item", "absent_item", "count_item"):
            sel = p.get("card") or {}
            pool = self.areas if k.endswith("area") else [c.item for c in self.field if c is not None]
            n = sum(1 for a in pool if a is not None and matches(sel, a) is not False)
            if k.startswith("present"):
                return n > 0
            if k.startswith("absent"):
                return n == 0
            return _CMP[str(p.get("op", ">="))](n, int(p.get("n", 1)))
        if k == "is":
            card = p.get("card") or {}
            ref = card.get("ref")
            if ref == "this":
                chars = [ctx.char] if ctx.char is not None else []
            elif ref == "that":
                chars = [ctx.that] if ctx.that is not None else []
            else:
                chars = [c for c in self.field if c is not None]
            is_ = p.get("is") or {}
            sel = {k2: v for k2, v in is_.items() if k2 != "what"}
            got = bool(chars) and all(field_match(sel, self._slot_of(c), c) for c in chars)
            return not got if p.get("negated") else got
        if k == "entered_this_turn":
            return ctx.char is not None and ctx.char.entered == self.turn
        if k == "count_cmp":
            mine = self._count_side((p.get("card") or {}).get("of") or {}, ctx)
            other = self._count_side((p.get("than") or {}).get("of") or {}, ctx)
            return _CMP[str(p.get("op", ">="))](mine, other)
        return False

    def _count_side(self: LyceeState, sel: Mapping[str, Any], ctx: Ctx) -> int:
        if sel.get("side") == "opponent":
            return sum(1 for c in self.ofield if c is not None)
        return self._count_field(sel, ctx)

    def _count_field(self: LyceeState, sel: Mapping[str, Any], ctx: Ctx) -> int:
        shape, names = _count_shape(sel)
        if shape == _EVERY_CHAR:
            return 6 - self.field.count(None)
        if shape == _AND:
            return min((self._count_field(s, ctx) for s in sel.get("items", ())), default=0)
        if shape == _OR:
            return sum(self._count_field(s, ctx) for s in sel.get("items", ()))
        if shape == _OPPONENT:
            return sum(1 for c in self.ofield if c is not None)
        if shape == _THIS:
            return 1 if ctx.char is not None and self._slot_of(ctx.char) >= 0 else 0
        if shape == _BY_NAME:  # (loops, not generators: a frequent count)
            n = 0
            for c in self.field:
                if c is not None and not names.isdisjoint(c.info.snames):
                    n += 1
            return n
        if shape == _CARD_ONLY:
            n = 0
            for c in self.field:
                if (c is not None and (not names or not names.isdisjoint(c.info.snames))
                        and matches(sel, c.card) is not False):
                    n += 1
            return n
        src = ctx.char
        src_slot = self._slot_of(src) if src is not None else -1
        return sum(1 for s, c in enumerate(self.field) if c is not None and field_match(sel, s, c, src, src_slot))

    # -- zones --------------------------------------------------------------------------------------
    def _under_list(self: LyceeState, c: Char | None, ctx: Ctx) -> list[CardRecord] | None:
        """The cards under the source of ``ctx`` (its character, that character's item, or an area)."""
        if c is None:
            for s in ALL_SLOTS:
                if self.areas[s] is ctx.card:
                    if self.area_under is None:
                        self.area_under = [[] for _ in ALL_SLOTS]
                    return self.area_under[s]
            return None
        if c.item is not None and ctx.card is c.item and c is ctx.char:
            if c.item_under is NONE:
                c.item_under = []
            return c.item_under
        if c.under is NONE:
            c.under = []
        return c.under

    def _to_dest(self: LyceeState, cards: list[CardRecord], dest: str) -> None:
        """Cards to the dust box, my hand, the bottom of my deck or a pile (``pile:<name>``)."""
        if dest == "hand":
            self.hand.extend(cards)
            self.version += 1
        elif dest == "deck":
            self.deck[:0] = cards
        elif dest.startswith("pile:"):
            self.piles.setdefault(dest[5:], []).extend(cards)
        else:
            self.dust.extend(cards)

    def _mill_me(self: LyceeState, n: int) -> int:
        deck = self.deck
        n = min(n, len(deck))
        for _ in range(n):
            self.dust.append(deck.pop())
        if not deck:
            self._end("loss", gettext_noop("my deck has 0 cards"))
        return n

    def _recover(self: LyceeState, n: int, card: CardRecord) -> int:
        """デッキを回復: ``n`` cards of my dust box (the oldest first) to the bottom of my deck; then
        my characters' [リカバリー] abilities."""
        n = min(n, len(self.dust))
        if not n:
            return 0
        back = self.dust[:n]
        del self.dust[:n]
        self.deck[:0] = back
        self.counters["recovered"] += n
        if self.log is not None:
            self.say("me", "recover", "recover", card=card.name, count=n)
        self._fire_field("recovery")
        return n

    def _uncharge(self: LyceeState, c: Char, n: int) -> int:
        n = min(n, len(c.charge))
        for _ in range(n):
            self.dust.append(c.charge.pop())
        return n

    def _discard_least(self: LyceeState, n: int, dest: str, skip: CardRecord | None = None) -> int:
        """Discard the ``n`` least valuable hand cards (to the dust box, or the top / bottom of my deck)."""
        done = 0
        for _ in range(n):
            order = [i for i in self.hand_order() if self.hand[i] is not skip]
            if not order:
                break
            card = self.hand.pop(order[0])
            self.version += 1
            if dest == "top":
                self.deck.append(card)
            elif dest == "bottom":
                self.deck.insert(0, card)
            else:
                self.dust.append(card)
            done += 1
        return done

    def _free_slot_for(self: LyceeState, card: CardRecord) -> int:
        """The best empty slot ``card`` may enter (the attack row first), or -1."""
        slots = self.deploy_slots(card)
        if not slots:
            return -1
        af = [s for s in slots if s < 3]
        return af[0] if af and info_of(card).damage > 0 else slots[-1] if not af else af[0]

    def _put_into_play(self: LyceeState, card: CardRecord, zone: list[CardRecord], free: bool) -> bool:
        """Put a character from ``zone`` into play on its best empty slot (paying its cost unless
        ``free``); its enter abilities run."""
        slot = self._free_slot_for(card)
        if slot < 0:
            return False
        if not free:
            cost = cost_of(card)
            pay = self.payment_for(cost, card.code if zone is self.hand else "", purpose="deploy") if cost else ()
            if pay is None:
                return False
            if pay:
                self._pay(pay, card if zone is self.hand else None)
        zone.remove(card)
        self.version += 1
        if self.log is not None:
            self.say("me", "deploy", "effect_deploy", card=card.name, slot=SLOTS[slot])
        self._enter(card, slot, "effect")
        return True

    def _deploy_from(self: LyceeState, op: Op, card: CardRecord) -> bool:
        zones = {"hand": [self.hand], "trash": [self.dust], "deck": [self.deck],
                 "deck+trash": [self.dust, self.deck]}.get(op.zone, [])
        best: tuple[float, CardRecord, list[CardRecord]] | None = None
        for zone in zones:
            for c in zone:
                if c.card_type != "character" or c is card or matches(op.sel, c) is False:
                    continue
                if self._free_slot_for(c) < 0:
                    continue
                if not op.free and cost_of(c) and self.payment_for(cost_of(c), c.code if zone is self.hand else "",
                                                                   purpose="deploy") is None:
                    continue
                value = info_of(c).base
                if best is None or value > best[0]:
                    best = (value, c, zone)
        if best is None:
            return False
        return self._put_into_play(best[1], best[2], op.free)

    def _candidates(self: LyceeState, sel: Mapping[str, Any]) -> list[CardRecord]:
        """The distinct cards of this game (the deck's) matching ``sel``, the most valuable first
        (memoised per deck and selector)."""
        key = id(sel)
        hit = self.sel_cache.get(key)
        if hit is not None and hit[0] is sel:
            return hit[1]
        found = sorted((c for c in self.game_cards if matches(sel, c) is not False), key=lambda c: -info_of(c).base)
        self.sel_cache[key] = (sel, found)
        return found

    def _search(self: LyceeState, op: Op, card: CardRecord, ctx_char: Char | None = None) -> bool:
        """探す: the best matching card of my deck (or dust box) to my hand, or into play."""
        zones = [self.deck] if op.zone == "deck" else [self.dust] if op.zone == "trash" else [self.dust, self.deck]
        found: CardRecord | None = None
        zone: list[CardRecord] = zones[0]
        # the game's cards matching, the most valuable first (per deck and selector), the first
        # one in one of the zones
        for c in self._candidates(op.sel):
            if op.dest == "field" and (c.card_type != "character" or self._free_slot_for(c) < 0):
                continue
            if op.dest == "area" and (c.card_type != "area" or None not in self.areas):
                continue
            if op.dest == "item" and (c.card_type != "item" or ctx_char is None or ctx_char.item is not None):
                continue
            for z in zones:
                if c in z:
                    found, zone = c, z
                    break
            if found is not None:
                break
        if found is None:
            return False
        if op.dest == "field":
            return self._put_into_play(found, zone, True if op.free else False)
        if op.dest in ("area", "item"):
            if not op.free:
                cost = cost_of(found)
                pay = self.payment_for(cost, purpose=op.dest) if cost else ()
                if pay is None:
                    return False
                if pay:
                    self._pay(pay, found if zone is self.hand else None)
            zone.remove(found)
            self.version += 1
            if op.dest == "area":
                slot = next(s for s in (1, 0, 2, 4, 3, 5) if self.areas[s] is None)
                self.areas[slot] = found
                if self.field[slot] is not None:
                    self._recompute(self.field[slot], slot)
                self.counters["areas"] += 1
                if info_of(found).plan.by_hook:
                    self._fire("placed", self.field[slot], found)
            else:
                holder = ctx_char
                holder.item = found
                self.version += 1
                self._recompute(holder, self._slot_of(holder))
                self.counters["items"] += 1
                if info_of(found).plan.by_hook:
                    self._fire("equipped", holder, found)
            if zone is self.deck and not self.deck:
                self._end("loss", gettext_noop("my deck has 0 cards"))
            return True
        zone.remove(found)
        self.hand.append(found)
        self.version += 1
        if self.log is not None:
            self.say("me", "search", "search", card=card.name, card2=found.name)
        if zone is self.deck and not self.deck:
            self._end("loss", gettext_noop("my deck has 0 cards"))
        return True

    def cont_dmg(self: LyceeState, slot: int, c: Char) -> int:
        """DMG my characters' and items' continuous ([常時]) abilities give ``c``."""
        bonus = 0
        for s in ALL_SLOTS:
            src = self.field[s]
            if src is None:
                continue
            for holder_card in (src.card, src.item):
                if holder_card is None:
                    continue
                progs = info_of(holder_card).plan.get("cont")
                for prog in progs:
                    for op in prog.ops:
                        t = op.target
                        if t is None:
                            continue
                        if t.ref == "this":
                            if src is c:
                                bonus += op.n
                        elif field_match(t.sel, slot, c):
                            bonus += op.n
        return bonus


_STATS = frozenset({"ap", "dp", "sp", "dmg"})
_LEAVE_TO = {"destroy_this": "dust", "destroy_ally": "dust", "this_to_hand": "hand", "ally_to_hand": "hand",
             "this_to_deck": "deck", "ally_to_deck": "deck", "exile_this": "removed", "exile_ally": "removed"}


def _value(op: Op) -> float:
    from .abilities import _gain

    return _gain((op,))
