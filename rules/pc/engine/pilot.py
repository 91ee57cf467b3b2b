"""Prism Connect's pilots."""
from __future__ import annotations

from rules.engine.core import ScriptedPilot

from .state import PCState, card_value


class GreedyPilot(ScriptedPilot):
    """Deploy the strongest affordable character (front unless the same card is there), use the
    "no affordable character" rule and returns to grow the field, attack with everything — plain
    attacks first (they grow the gauge), then connect attacks while the gauge pays for them."""

    name = "greedy"

    def d_mulligan(self, state: PCState) -> tuple:
        for c in state.hand:
            if c.card_type != "character" or (c.cost or 0) >= 3:
                return ("bottom", c.code)
        return ("keep",)

    def d_main(self, state: PCState) -> tuple:
        hand = state.hand
        if not hand or (state.returned and state.deployed):
            return ("end",)
        field = state.field_characters()
        ident_of = state.ident_of
        front_ids = {ident_of(c) for c in state.front}
        if not state.returned and state.back:
            back_ids = {ident_of(b) for b in state.back if b.card_type == "character" and (b.cost or 0) <= field}
            if back_ids:
                for c in hand:
                    if c.card_type == "character":
                        i = ident_of(c)
                        if i in back_ids and i not in front_ids:
                            return ("return", c.code)
        if not state.deployed:
            best = None
            best_key = None
            values = state.values
            for c in hand:
                if c.card_type == "character" and (c.cost or 0) <= field:
                    key = (ident_of(c) not in front_ids, values.get(c.code) or card_value(c))
                    if best_key is None or key > best_key:
                        best, best_key = c, key
            if best is not None:
                return ("deploy", best.code, "front" if best_key[0] else "back")  # type: ignore[index]
            chars = [c for c in hand if c.card_type == "character"]
            if chars:
                # the cheapest one: it will be affordable first, and a copy in hand can return it
                card = min(chars, key=lambda c: ((c.cost or 0), -sum(1 for h in hand if h.code == c.code), c.code))
                return ("back", card.code)
        return ("end",)

    def d_connect_mark(self, state: PCState) -> tuple:
        """Feed the gauge from the back area when the field stays big enough for the hand:
        scenes first (they are not characters), then the weakest back-area character."""
        targets = state._mark_targets(state._last_deployed)  # type: ignore[arg-type]
        for t in targets:
            if t[1] == "back" and next(c for c in state.back if c.code == t[2]).card_type != "character":
                return t
        need = max((c.cost or 0 for c in state.hand if c.card_type == "character"), default=0)
        if state.field_characters() - 1 >= need:
            backs = [t for t in targets if t[1] == "back"]
            if backs:
                return min(backs, key=lambda t: card_value(next(c for c in state.back if c.code == t[2])))
        return ("skip",)

    def d_attack(self, state: PCState) -> tuple:
        front = state.front
        ready = state._ready()
        if not ready:
            return ("end",)
        plain = [i for i in ready if not front[i].connect_attack]
        if plain:
            return ("attack", plain[0])
        # connect attackers: biggest X the gauge can pay first; otherwise a plain attack
        payable = [i for i in ready if len(state.gauge) >= (front[i].connect_attack or 0)]
        if payable:
            return ("connect", max(payable, key=lambda i: (front[i].connect_attack, -i)))
        return ("attack", ready[0])

    def d_discard(self, state: PCState) -> tuple:
        return ("discard", min(state.hand, key=card_value).code)
