"""Chaos TCG's pilots."""
from __future__ import annotations

from rules.engine.core import ScriptedPilot

from .characters import STAND, identity
from .state import ALLY_SLOTS, PARTNER_SLOT, ChaosState


class GreedyPilot(ScriptedPilot):
    """Play the ``MAIN`` events that draw or fetch cards (while the deck holds enough), level the
    partner (or an EXTRA) whenever possible, play an EXTRA when it is stronger, summon the strongest
    ally (replacing a weaker one when the field is full), equip ATK-raising Set cards to the
    partner, attack with everything — before each attack, ATK-raising ``BATTLE`` events on the
    attacker. A Set's upkeep is paid with the least wanted hand card."""

    name = "greedy"

    def d_partner(self, state: ChaosState) -> tuple:
        opts = state.options_partner()
        if len(opts) == 1:
            return opts[0]
        counts: dict[str, int] = {}
        for c in state.deck:
            if c.card_type == "character":
                key = state.ident(c)
                counts[key] = counts.get(key, 0) + 1
        best = None
        best_score = None
        for c in state.deck:
            if c.card_type != "character":
                continue
            score = ((c.atk or 0) + (c.partner_atk or 0) + 0.5 * (counts[state.ident(c)] - 1) * (c.partner_atk or 0)
                     + 0.01 * ((c.defense or 0) + (c.partner_def or 0)))
            if best_score is None or score > best_score:
                best, best_score = c, score
        return ("partner", best.code)

    def d_mulligan(self, state: ChaosState) -> tuple:
        pcard = state.partner.card
        pname = pcard.person
        pid = state.ident(pcard)
        for c in state.hand:
            if c.card_type == "character" and (c.person != pname or state.ident(c) == pid):
                return ("keep",)
        return ("mulligan",)

    def d_maintain(self, state: ChaosState) -> tuple:
        return ("pay",) if state.can_pay_maintain(state.field[state.maintaining]) else ("skip",)

    def d_upkeep(self, state: ChaosState) -> tuple:
        if not state.hand:
            return ("release",)
        return ("discard", min(state.hand, key=state.card_value).code)

    def d_main(self, state: ChaosState) -> tuple:
        used = state.used
        field = state.field
        p = field[PARTNER_SLOT]
        hand = state.hand
        if state.early_events:
            event = self._main_event(state)
            if event is not None:
                return event
        if "levelup" not in used:
            ids = state.idents
            pid = ids.get(p.card.code) or identity(p.card)
            for c in hand:
                if ids.get(c.code) == pid and c.card_type == "character" and state.can_level_up(c):
                    return ("levelup", c.code)
            if state.extra:
                ups = state.extra_levelups()
                if ups:
                    return ("levelup_extra", *ups[0])
        summon = "summon" not in used
        if not summon and ("extra" in used or not state.extra):
            return self._set_or_end(state, hand)
        names = state.names_on_field()
        if "extra" not in used and state.extra:
            seen = set()
            for ex in state.extra:
                if ex.code in seen:
                    continue
                seen.add(ex.code)
                atk = ex.atk or 0
                # only when it would be stronger than a character of one of its persons
                for person in ex.extra_persons:
                    s = names.get(person)
                    if s is not None and s != PARTNER_SLOT and field[s].atk < atk:
                        break
                else:
                    continue
                base = state.first_stronger_extra(ex, names)
                if base >= 0:
                    return ("extra", ex.code, base)
        if summon:
            conditional = state.summon_conditional
            best = None
            best_gain = 0.0
            pperson = p.card.person
            free = -1  # the slot a new name goes to: the first empty ally slot, else the weakest ally
            for c in hand:
                if c.card_type != "character" or c.person == pperson or (
                        conditional and c.code in conditional and not state.can_summon(c)):
                    continue
                slot = names.get(c.person)
                if slot is None:
                    if free < 0:
                        free = next((s for s in ALLY_SLOTS if field[s] is None), -1)
                        if free < 0:
                            free = min(ALLY_SLOTS, key=lambda s: (field[s].atk, field[s].dfn, s))
                    slot = free
                occ = field[slot]
                gain = (c.atk or 0) - (occ.atk if occ is not None else -1) + 0.01 * (c.defense or 0)
                if gain > best_gain:
                    best, best_gain = ("summon", c.code, slot), gain
            if best is not None:
                return best
        return self._set_or_end(state, hand)

    @staticmethod
    def _set_or_end(state: ChaosState, hand: list) -> tuple:
        """An ATK-raising Set card to the partner, else the end of the main phase."""
        for c in hand:
            if c.card_type == "set":
                plan = state.plans.get(c.code) or state.plan(c)
                if plan.useful and plan.never is None and (plan.equip_to == "partner"
                                                           or state.field[PARTNER_SLOT] is not None):
                    return ("set", c.code, PARTNER_SLOT)  # (PARTNER_SLOT in state.set_targets(c))
        return ("end",)

    def _main_event(self, state: ChaosState) -> tuple | None:
        """A ``MAIN`` event worth playing: cards drawn or fetched, the deck keeping a margin (the
        deck's ``early_events``: useful ``MAIN`` events that raise no ATK)."""
        early = state.early_events
        for c in state.hand:
            if c.code not in early:
                continue
            plan = state.plans[c.code]
            if plan.takes and len(state.deck) < plan.takes + 6:
                continue
            if plan.fetch and not any(w.card_type == "character" for w in state.waiting):
                continue
            if not state.can_use(c, "MAIN"):
                continue
            return ("event", c.code, state.event_targets(c)[0])
        return None

    def d_attack(self, state: ChaosState) -> tuple:
        # the strongest ally that can attack (ties: the lowest slot), else the partner
        field = state.field
        no = state.no_attack
        slot = PARTNER_SLOT
        best = None
        for s in ALLY_SLOTS:
            c = field[s]
            if (c is not None and c.state == STAND and not c.face_down and not (no and c.card.code in no)
                    and (best is None or c.atk > best)):
                slot, best = s, c.atk
        pumps = state.pump_events
        if pumps:
            for c in state.hand:  # ATK until end of turn on the next attacker
                if c.code in pumps and state.can_use(c, "BATTLE") and slot in state.event_targets(c):
                    return ("event", c.code, slot)
        if best is not None:
            return ("attack", slot)
        # the partner's attack draw is optional: take it, declined on an empty deck
        return ("attack", PARTNER_SLOT) if state.deck else ("attack", PARTNER_SLOT, "no_draw")

    def d_discard(self, state: ChaosState) -> tuple:
        return ("discard", min(state.hand, key=state.card_value).code)
