"""Lycee's pilots."""
from __future__ import annotations

from typing import Any

from rules.cards import CardRecord
from rules.engine.core import ScriptedPilot

from .abilities import Program
from .effects import Ctx
from .field import Char
from .info import LOWEST_SLOT, CardInfo
from .info import info_of as card_info
from .payment import can_pay
from .state import HAND_LIMIT, LyceeState


class GreedyPilot(ScriptedPilot):
    """Move characters up into the attack row, deploy the strongest attacker the hand pays for
    (AF first; DF only for a character that can step up, or with cards the hand limit would
    discard anyway), attack with everything, pay taxes for attackers."""

    name = "greedy"

    def __init__(self) -> None:
        self._play_cache: tuple[Any, int, tuple | None] = (None, -1, None)
        self._stand_cache: tuple[Any, int, int] = (None, -1, -1)
        self._deploy_cache: tuple[Any, Any, tuple | None] = (None, None, None)

    def d_tax(self, state: LyceeState) -> tuple:
        slot, kind = state.taxing
        c = state.field[slot]
        pay = state.payment_for(c.card.keyword_costs.get(kind) or {})
        if pay is not None and (slot < 3 or kind == "tax_trash") and c.info.damage >= len(pay):
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
        if "stand_act" in state.deck_hooks:
            # attacks leave the version as it was: after one, a declared ability may stand an attacker
            attacks = state.counters["attacks"]
            if self._stand_cache != (state, state.version, attacks):
                self._stand_cache = (state, state.version, attacks)
                play = self._stand_again(state)
                if play is not None:
                    return play
        # attack with everything (the strongest first); AP/DP/SP never matter against an empty
        # field (undefended attacks mill the DMG, or the printed AP of a card without DMG)
        field = state.field
        turn = state.turn
        best = -1
        best_dmg = 0
        for s in (0, 1, 2):  # state.attackers(), inlined
            c = field[s]
            if c is not None and c.standing and (c.entered < turn or c.info.aggressive):
                info = c.info
                dmg = c.dmg if info.by_dmg else info.ap
                if dmg > best_dmg:  # a 0-damage attack mills nothing
                    best, best_dmg = s, dmg
        return ("attack", best, best) if best >= 0 else ("end",)

    def _best_play(self, state: LyceeState) -> tuple | None:
        """A move, deploy or event worth making now, or ``None``."""
        field = state.field
        turn = state.turn
        # 1. step up: a standing DF character that may attack moves into an empty AF slot; Touch:
        # one that deals more damage than the standing front-row one of its column swaps with it
        touch = state.pilot_flags[0]
        for s in (3, 4, 5):
            c = field[s]
            if c is None or not c.standing or c.moved or not (c.entered < turn or c.info.aggressive):
                continue
            if c.info.steps:
                for to in (s - 3, 0, 1, 2):
                    if field[to] is None and state.move_keyword(s, to) is not None:
                        return ("move", s, to)
            if touch:
                o = field[s - 3]
                if o is not None and o.standing and c.dmg > o.dmg:
                    if state.touch_partner(s) is not None:
                        return ("touch", s)
                    if state.touch_partner(s - 3) is not None:
                        return ("touch", s - 3)
        # 2. deploy the best character (AF first): the same answer while the hand and the field's
        # characters are as they were (the same view objects) and no [コスト] mana can pay
        view = state.hand_view()
        fview = state.field_view()
        infos = view[0]
        names = fview[0]
        if state.has_mana and state.mana_sources():
            best = self._deploy(state, view, fview, True)
        else:
            last = self._deploy_cache
            if last[0] is view and last[1] is fview:
                best = last[2]
            else:
                best = self._deploy(state, view, fview, False)
                self._deploy_cache = (view, fview, best)
        if best is not None:
            return best
        # 2b. Escape (free) a front-row character that deals no damage when a character in hand
        # that does could take its slot and is paid for
        _, escape, engage, events, declarations, _, _, gainful = state.pilot_flags
        for s in (0, 1, 2) if escape else ():
            c = field[s]
            if c is None or c.dmg > 0 or not c.standing or state.escape_payment(s) != ():
                continue
            for info in infos:
                if (info.is_char and not info.conversion and info.damage > 0 and info.mask >> s & 1
                        and (names - set(c.names)).isdisjoint(info.own)
                        and (not info.cost or state._payment(info.cost, info.cost_key, info.code) is not None)):
                    return ("escape", s)
        # 2c. Engage: a character that deals more damage enters onto a weaker one of mine (its
        # engage abilities add their worth) when no empty slot takes it
        if engage:
            play = self._engage(state, infos)
            if play is not None:
                return play
        # 3. events whose modelled effects gain more than the cards they cost
        for info in infos if gainful else ():
            gain = info.event_gain
            if events:
                progs = info.plan.get("event")
                if progs:
                    gain += sum(program_value(state, p, None, info.card) for p in progs)
                    if gain <= 0:
                        continue
            if gain:
                pay = state.payment_for(info.cost, info.code)
                if pay is not None and gain > len(pay):
                    return ("event", info.code)
        # 4. declared abilities worth more than they cost; items and areas for what they do
        if declarations:
            play = self._declaration(state)
            if play is not None:
                return play
            play = self._item_or_area(state, infos)
            if play is not None:
                return play
        return None

    def _deploy(self, state: LyceeState, view: tuple, fview: tuple, mana: bool) -> tuple | None:
        """Step 2 of ``_best_play``: the deploy (or conversion) worth most, or ``None``."""
        field = state.field
        hand = state.hand
        names, free, free_mask = fview
        surplus = len(hand) - HAND_LIMIT
        best = None
        infos, _, pool, avail = view
        if free or any(info.conversion for info in infos):
            af_free = free[0] < 3 if free else False
            candidates: list[tuple[float, int, int, CardInfo]] = []
            tried: set[str] = set()
            if mana:
                pool = None  # [コスト] mana may pay what the hand lacks
            need_up = not (af_free or surplus > 0)  # only a character that can step up later
            for i, info in enumerate(infos):
                m = info.pick_mask & free_mask  # (no damage: never the attack row; CardInfo)
                if m:
                    if (info.total_cost > avail - info.ex  # the rest of the hand has not the EX to pay it
                            or (need_up and not info.up) or not names.isdisjoint(info.own)):
                        continue
                    code = info.code
                    if code in tried:
                        continue
                    tried.add(code)
                    slot = LOWEST_SLOT[m]  # the first free slot it may enter
                elif info.conversion and info.is_char:
                    code = info.code
                    if code in tried:
                        continue
                    tried.add(code)
                    slots = state.deploy_slots(info.card, names, free)
                    if not slots:
                        continue
                    slot = slots[0]
                else:
                    continue
                up = info.up
                if slot < 3 and info.damage > 0:
                    score = info.attack_score
                elif up and field[slot - 3] is None:
                    score = info.step_score
                elif surplus > 0:
                    score = info.filler_score
                else:
                    continue
                if info.conversion:
                    score += info.damage - field[slot].info.damage
                elif pool is not None:
                    # every hand card has one attribute: when the rest of the hand lacks a symbol's
                    # attribute the payment search would answer None (checked before it)
                    ex = info.ex
                    own = info.attr1
                    for a, n in info.symbols:
                        if pool.get(a, 0) - (ex if a == own else 0) < n:
                            break
                    else:
                        candidates.append((score, -i, slot, info))
                    continue
                candidates.append((score, -i, slot, info))
            if candidates:
                candidates.sort(reverse=True)  # (score, -index) is unique: the infos are never compared
                for score, _, slot, info in candidates:  # (the hand's order only for a payment search)
                    if score < 10.0 and info.min_pay + 1 > surplus:
                        continue  # (skips the search) it would take more cards than the hand limit discards
                    if info.conversion:
                        cost = info.convert_cost
                        pay = state._payment(cost, tuple(cost.items()), info.code) if cost else ()
                    else:
                        pay = state._payment(info.cost, info.cost_key, info.code) if info.cost else ()
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
        return best

    def _engage(self, state: LyceeState, infos: list[CardInfo]) -> tuple | None:
        field = state.field
        best: tuple[float, tuple] | None = None
        for info in infos:
            if not info.engage or info.damage <= 0:
                continue
            for s in state.engage_slots(info.card):
                if s >= 3:
                    continue
                old = field[s]
                gain = info.damage - old.dmg + sum(program_value(state, p, None, info.card)
                                                   for p in info.plan.get("engage"))
                if gain < 1:
                    continue
                if best is not None and gain <= best[0]:
                    continue
                pay = state._payment(info.cost, info.cost_key, info.code) if info.cost else ()
                if pay is None or len(pay) > gain + 1:
                    continue
                best = (gain, ("engage", info.code, s))
        return best[1] if best is not None else None

    def _declaration(self, state: LyceeState) -> tuple | None:
        """The declared ability worth most over its cost (of my characters, their items, my hand,
        my dust box): abilities that can gain nothing (their static estimate) are never looked at;
        the value (its conditions now) comes before the costs and the payment."""
        best_value = 0.0
        best: tuple | None = None
        hooks = state.deck_hooks
        field = state.field
        f0, f1, f2 = field[0], field[1], field[2]
        rested = not ((f0 is None or f0.standing) and (f1 is None or f1.standing) and (f2 is None or f2.standing))
        for verb, s, c, src, info, progs in state.field_acts()[0]:
            for prog in progs:
                if not rested and prog.index in info.stand_only:
                    continue  # it only stands a character, and none of my attackers is rested
                if not state._within_limits(prog, c):
                    continue  # (cheaper than its value)
                value = program_value(state, prog, c, src)
                if value <= best_value:
                    continue
                pay = state.can_use(prog, c, src)
                if pay is None:
                    continue
                value -= cost_value(state, prog, c, pay)
                if value > best_value:
                    best_value, best = value, (verb, s, prog.index)
        for verb, hook, zone in (("hand", "hand_act", state.hand), ("dust", "dust_act", state.dust)):
            if hook not in hooks:
                continue
            for card in state.act_cards[hook]:  # the game's cards with such abilities (few)
                if card not in zone:
                    continue
                for prog in card_info(card).pilot_acts[hook]:
                    if not state._within_limits(prog, None):
                        continue
                    value = program_value(state, prog, None, card)
                    if value <= best_value:
                        continue
                    pay = state.can_use(prog, None, card)
                    if pay is None:
                        continue
                    value -= cost_value(state, prog, None, pay)
                    if value > best_value:
                        best_value, best = value, (verb, card.code, prog.index)
        return best

    def _stand_again(self, state: LyceeState) -> tuple | None:
        """The declared ability of a character of mine that stands a rested attacker (the one
        worth most over its cost), looked at after each attack (``_declaration`` looks at it
        before the attacks, when nobody is rested)."""
        field = state.field
        f0, f1, f2 = field[0], field[1], field[2]
        if (f0 is None or f0.standing) and (f1 is None or f1.standing) and (f2 is None or f2.standing):
            return None  # nobody rested in the attack row
        best_value = 0.0
        best: tuple | None = None
        for s, c in state.field_acts()[1]:  # my characters with such abilities
            info = c.info
            if info.stands_itself and (s > 2 or c.standing):
                continue
            for prog in info.stand_acts:
                if not state._within_limits(prog, c):
                    continue
                value = program_value(state, prog, c, c.card)
                if value <= best_value:
                    continue
                pay = state.can_use(prog, c, c.card)
                if pay is None:
                    continue
                value -= cost_value(state, prog, c, pay)
                if value > best_value:
                    best_value, best = value, ("use", s, prog.index)
        return best

    def _item_or_area(self, state: LyceeState, infos: list[CardInfo]) -> tuple | None:
        if not state.pilot_flags[5]:
            return None
        field = state.field
        for info in infos:
            t = info.card.card_type
            if t not in ("item", "area") or not info.plan.by_hook:
                continue
            hook = "equipped" if t == "item" else "placed"
            gain = sum(program_value(state, p, None, info.card) for p in info.plan.get(hook))
            gain += sum(op.n for p in info.plan.get("cont") for op in p.ops if op.kind == "dmg" and op.n > 0)
            if gain <= 0:
                continue
            pay = state.payment_for(info.cost, info.code)
            if pay is None or len(pay) >= gain + 1:
                continue
            if t == "item":
                for s in (1, 0, 2, 4, 3, 5):
                    c = field[s]
                    if c is not None and c.item is None and ("item", info.code, s) in state.options_main():
                        return ("item", info.code, s)
            else:
                for s in (1, 0, 2, 4, 3, 5):
                    if state.areas[s] is None and field[s] is not None:
                        return ("area", info.code, s)
        return None

    def d_battle(self, state: LyceeState) -> tuple:
        """Use a declared ability in my attacker's battle when it is worth its cost (a DMG gain)."""
        best: tuple[float, tuple] | None = None
        for choice in state.battle_uses():
            prog, c, card = state.declared(choice)
            pay = state.can_use(prog, c, card, True)
            if pay is None:
                continue
            value = program_value(state, prog, c, card) - cost_value(state, prog, c, pay)
            if value > 0 and (best is None or value > best[0]):
                best = (value, choice)
        return best[1] if best is not None else ("done",)


def _can_attack_now(state: LyceeState, s: int) -> bool:
    c = state.field[s]
    return (c is not None and s < 3 and (c.standing or state.battling == s)
            and (c.entered < state.turn or c.aggressive))


_ALLY_AWAY = frozenset({"destroy_ally", "ally_to_hand", "ally_to_deck", "exile_ally"})
_AF = (0, 1, 2)


def program_value(state: LyceeState, prog: Program, c: Char | None, card: CardRecord) -> float:
    """The pilot's estimate, in cards, of what running ``prog`` now gains."""
    value = 0.0
    field = state.field
    ctx: Ctx | None = None
    done = True  # as the run would see it (EffectsMixin._run): an operation whose conditions fail is not done
    for op in prog.ops:
        k = op.kind
        conds = op.conds
        if conds:
            if ctx is None:
                ctx = Ctx(prog, card, c)
            ok = True
            for cond in conds:
                ck = cond.kind
                if ck == "done" or ck == "not_done":
                    ok = done if ck == "done" else not done
                else:
                    ok = state._cond(cond, ctx)
                if not ok:
                    break
            if not ok:
                for x in conds:  # (a loop: no generator)
                    if x.kind == "done" or x.kind == "not_done":
                        break
                else:
                    done = False
                continue  # it would do nothing now
        if k in _ALLY_AWAY and op.target is not None and not state._any_target(op.target, ctx or Ctx(prog, card, c)):
            done = False  # no character of mine to send away: what depends on it is not done
            continue
        done = True
        if k == "draw":
            value += op.n if len(state.deck) > op.n + 2 else -5.0
        elif k in ("opp_mill", "opp_draw"):
            value += op.n
        elif k == "dmg":
            if op.n <= 0:
                value += op.n
                continue
            t = op.target
            if t is None:
                continue
            if t.ref == "this":
                s = state._slot_of(c) if c is not None else -1
                ok = s >= 0 and _can_attack_now(state, s)
            else:
                ok = _can_attack_now(state, 0) or _can_attack_now(state, 1) or _can_attack_now(state, 2)
            value += op.n if ok else (0.3 * op.n if op.lasting else 0.0)
        elif k == "stand":
            # the most DMG a rested front-row character that may attack would deal (this one's)
            turn = state.turn
            slots: tuple[int, ...] = _AF
            if op.target is not None and op.target.ref == "this":
                s = state._slot_of(c) if c is not None else -1
                slots = (s,) if 0 <= s < 3 else ()
            best = 0
            for s in slots:
                x = field[s]
                if x is not None and not x.standing and (x.entered < turn or x.aggressive) and x.dmg > best:
                    best = x.dmg
            value += best
        elif k == "aggressive":
            # the most DMG a standing front-row character that entered this turn would deal
            turn = state.turn
            best = 0
            for s in _AF:
                x = field[s]
                if x is not None and x.standing and x.entered == turn and not x.aggressive and x.dmg > best:
                    best = x.dmg
            value += best
        elif k in ("search", "dust_to_hand", "deploy", "deploy_this"):
            value += 1.0
        elif k in ("recover", "dust_to_deck", "dust_this_to_deck"):
            value += 0.1 * (op.n or 1)
        elif k == "mill":
            value -= 0.2 * op.n
        elif k == "discard":
            value -= op.n
        elif k in ("destroy_this", "this_to_hand", "this_to_deck"):
            value -= 1.0 + (c.dmg if c is not None else 0)
        elif k == "charge":
            value -= 0.3 * op.n
        elif k == "move_up":
            s = state._slot_of(c) if c is not None else -1
            value += c.dmg if c is not None and s >= 3 and any(field[x] is None for x in (0, 1, 2)) else 0
    return value


def cost_value(state: LyceeState, prog: Program, c: Char | None, pay: tuple[int, ...]) -> float:
    """The pilot's estimate, in cards, of what paying ``prog``'s costs loses."""
    cost = float(len(pay)) + prog.discard + 0.2 * prog.mill + 0.3 * prog.uncharge
    if prog.tap and c is not None:
        s = state._slot_of(c)
        if s >= 0 and _can_attack_now(state, s):
            cost += c.dmg
    if prog.destroy_this and c is not None:
        cost += 1.0 + c.dmg
    return cost
