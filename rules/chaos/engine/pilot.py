"""Chaos TCG's pilots."""
from __future__ import annotations

from rules.engine.core import ScriptedPilot

from .characters import identity
from .state import ALLY_SLOTS, PARTNER_SLOT, ChaosState


class GreedyPilot(ScriptedPilot):
    """Level the partner whenever possible, play an EXTRA when it is stronger, summon the strongest
    ally (replacing a weaker one when the field is full), attack with everything."""

    name = "greedy"

    def d_partner(self, state: ChaosState) -> tuple:
        opts = state.options_partner()
        if len(opts) == 1:
            return opts[0]
        counts: dict[str, int] = {}
        for c in state.deck:
            if c.card_type == "character":
                key = identity(c)
                counts[key] = counts.get(key, 0) + 1
        best = None
        best_score = None
        for c in state.deck:
            if c.card_type != "character":
                continue
            score = ((c.atk or 0) + (c.partner_atk or 0) + 0.5 * (counts[identity(c)] - 1) * (c.partner_atk or 0)
                     + 0.01 * ((c.defense or 0) + (c.partner_def or 0)))
            if best_score is None or score > best_score:
                best, best_score = c, score
        return ("partner", best.code)

    def d_mulligan(self, state: ChaosState) -> tuple:
        pname = state.partner.card.person
        pid = identity(state.partner.card)
        for c in state.hand:
            if c.card_type == "character" and (c.person != pname or identity(c) == pid):
                return ("keep",)
        return ("mulligan",)

    def d_maintain(self, state: ChaosState) -> tuple:
        return ("pay",) if state.can_pay_maintain(state.field[state.maintaining]) else ("skip",)

    def d_main(self, state: ChaosState) -> tuple:
        used = state.used
        p = state.partner
        pid = identity(p.card)
        hand = state.hand
        if "levelup" not in used:
            for c in hand:
                if c.card_type == "character" and identity(c) == pid:
                    return ("levelup", c.code)
        names = state.names_on_field()
        if "extra" not in used and state.extra:
            seen = set()
            for ex in state.extra:
                if ex.code in seen or not any(p in names for p in ex.extra_persons):
                    continue
                seen.add(ex.code)
                for base, _codes, _slots in state.extra_plan(ex, names):
                    if (ex.atk or 0) > state.field[base].atk:
                        return ("extra", ex.code, base)
        if "summon" not in used:
            field = state.field
            best = None
            best_gain = 0.0
            for c in hand:
                if c.card_type != "character" or c.person == p.card.person:
                    continue
                same = names.get(c.person)
                if same is not None:
                    slot = same
                else:
                    slot = next((s for s in ALLY_SLOTS if field[s] is None), None)
                    if slot is None:
                        slot = min(ALLY_SLOTS, key=lambda s: (field[s].atk, field[s].dfn, s))
                occ = field[slot]
                gain = (c.atk or 0) - (occ.atk if occ is not None else -1) + 0.01 * (c.defense or 0)
                if gain > best_gain:
                    best, best_gain = ("summon", c.code, slot), gain
            if best is not None:
                return best
        return ("end",)

    def d_attack(self, state: ChaosState) -> tuple:
        attackers = state._attackers()
        allies = [s for s in attackers if s != PARTNER_SLOT]
        if allies:
            return ("attack", max(allies, key=lambda s: (state.field[s].atk, -s)))
        # the partner's attack draw is optional: take it, declined on an empty deck
        return ("attack", PARTNER_SLOT) if state.deck else ("attack", PARTNER_SLOT, "no_draw")

    def d_discard(self, state: ChaosState) -> tuple:
        return ("discard", min(state.hand, key=state.card_value).code)
