"""Lycee's pilots."""
from __future__ import annotations

from typing import Any

from rules.engine.core import ScriptedPilot

from .info import LOWEST_SLOT, STEP_KEYWORDS, CardInfo
from .payment import can_pay
from .state import HAND_LIMIT, LyceeState


class GreedyPilot(ScriptedPilot):
    """Move characters up into the attack row, deploy the strongest attacker the hand pays for
    (AF first; DF only for a character that can step up, or with cards the hand limit would
    discard anyway), attack with everything, pay taxes for attackers."""

    name = "greedy"

    def __init__(self) -> None:
        self._play_cache: tuple[Any, int, tuple | None] = (None, -1, None)

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
        # 1. step up: a standing DF character that may attack moves into an empty AF slot
        for s in (3, 4, 5):
            c = field[s]
            if c is None or not c.standing or c.moved or not (c.entered < turn or c.info.aggressive):
                continue
            if any(kw in c.card.keywords for kw in STEP_KEYWORDS):
                for to in (s - 3, 0, 1, 2):
                    if field[to] is None and state.move_keyword(s, to) is not None:
                        return ("move", s, to)
        # 1b. Touch: a standing back-row character that may attack and deals more damage than the
        # standing front-row one of its column swaps places with it
        for s in (3, 4, 5):
            c = field[s]
            o = field[s - 3]
            if (c is None or o is None or not c.standing or not o.standing
                    or not (c.entered < turn or c.info.aggressive) or c.dmg <= o.dmg):
                continue
            if state.touch_partner(s) is not None:
                return ("touch", s)
            if state.touch_partner(s - 3) is not None:
                return ("touch", s - 3)
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
        # 2b. Escape (free) a front-row character that deals no damage when a character in hand
        # that does could take its slot and is paid for
        for s in (0, 1, 2):
            c = field[s]
            if c is None or c.dmg > 0 or not c.standing or state.escape_payment(s) != ():
                continue
            for info in infos:
                if (info.is_char and not info.conversion and info.damage > 0 and info.mask >> s & 1
                        and (names - set(c.names)).isdisjoint(info.own)
                        and (not info.cost or state._payment(info.cost, info.cost_key, info.code) is not None)):
                    return ("escape", s)
        # 3. events with modelled draw / mill effects that gain more cards than they cost
        for info in infos:
            gain = info.event_gain
            if gain:
                pay = state.payment_for(info.cost, info.code)
                if pay is not None and gain > len(pay):
                    return ("event", info.code)
        return None
