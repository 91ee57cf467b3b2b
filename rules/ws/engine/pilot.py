"""Weiß Schwarz's pilots."""
from __future__ import annotations

from rules.cards import CardRecord
from rules.engine.core import ScriptedPilot

from .abilities import Program
from .state import ENCORE_COST, FRONT, STAND, WSState, char_score, pilot_view

# what the greedy pilot thinks a stock card is worth (paying costs) and a card in hand
STOCK_VALUE = 0.6
DEFAULT_ENCORE_VALUE = ENCORE_COST * STOCK_VALUE


class GreedyPilot(ScriptedPilot):
    """Fill the front row with the best affordable characters, clock while it is safe, play events
    and use abilities that gain more than they cost, place the best climax, attack with everything,
    take every optional trigger, keep the best cards (docs/engine.md)."""

    name = "greedy"

    def d_mulligan(self, state: WSState) -> tuple:
        for c in state.hand:
            if c.card_type == "climax" or c.card_type == "event" or (c.level or 0) >= 2:
                return ("discard", c.code)
        return ("keep",)

    @staticmethod
    def worst_card(state: WSState) -> CardRecord:
        """The hand card the pilot least wants: spare climaxes (beyond one), then events, then
        characters by soul/power, those more than one level above ours counting less.
        (One pass over the hand: this runs at every clock phase and hand-limit discard.)"""
        values = state.values
        too_high = len(state.level) + 1
        worst = None
        worst_v = 1e9
        first_cx = None
        cx = 0
        for c in state.hand:
            v = values.get(c.code)
            if v is None:  # a card from outside the deck (scenario tests)
                v = -1.0 if c.card_type == "climax" else 0.5 if c.card_type == "event" else \
                    10.0 + (c.soul or 0) * 3 + (c.power or 0) / 5000
            if v < 0:  # climax
                cx += 1
                if first_cx is None:
                    first_cx = c
                continue
            level = c.level
            if level and level > too_high and c.card_type == "character":
                v -= 6.0
            if v < worst_v:
                worst, worst_v = c, v
        if first_cx is not None and (1.0 if cx <= 1 else 0.0) < worst_v:
            return first_cx
        return worst  # type: ignore[return-value]

    def d_clock(self, state: WSState) -> tuple:
        lv, ck = len(state.level), len(state.clock)
        if state.pressure:
            # The goldfish's attacks raise our level: clock only early (level 0-1, clock < 5).
            if lv >= 2 or ck >= 5:
                return ("skip",)
            return ("clock", self.worst_card(state).code)
        # Pure goldfish: clock while it is safe (below level 3 with room, or at level 3 with
        # clock <= 4): only refreshes damage us.
        if lv >= 3 and ck >= 5:
            return ("skip",)
        if lv == 2 and ck >= 6 and len(state.deck) < 8:
            return ("skip",)
        return ("clock", self.worst_card(state).code)

    def d_level_up(self, state: WSState) -> tuple:
        seven = state.clock[:7]
        have = state.colors_available()
        need = {col for c in state.hand if c.card_type != "climax" and (c.level or 0) >= 1
                for col in c.colors if col not in have}
        # a color we need and do not have yet, else a non-climax, else the first
        first = None
        for c in seven:
            if c.card_type != "climax":
                if need and any(col in need for col in c.colors):
                    return ("level", c.code)
                if first is None:
                    first = c
        return ("level", (first or seven[0]).code)

    def d_main(self, state: WSState) -> tuple:
        play = self._character(state)
        if play is not None:
            return play
        if not state.hooks:
            return ("end",)
        if "event" in state.hooks:
            ev = self._event(state)
            if ev is not None:
                return ev
        if "act" in state.hooks:
            acts, progs = state.codes_by_hook["act"], state.progs
            if any(c is not None and (c.code in acts or c.code not in progs) for c in state.stage):
                act = self._act(state)
                if act is not None:
                    return act
        return ("end",)

    def _character(self, state: WSState) -> tuple | None:
        stage = state.stage
        lv = len(state.level)
        stock = len(state.stock)
        pinfo = state.pinfo
        colors = None
        best = None
        best_score = None
        for c in state.hand:
            info = pinfo.get(c.code)
            if info is None:
                if c.card_type != "character" or c.code in pinfo:
                    continue
                info = pilot_view(c, False)  # a card from outside the deck (scenario tests)
            elif info[0] is not c:  # another record with this code (test decks)
                info = pilot_view(c, c.code in state.special_codes)
            _, level, cost, cols, sc, special = info
            if best_score is not None and sc <= best_score:
                continue
            if special:
                if not state.can_play(c):
                    continue
            else:
                if level > lv or cost > stock:
                    continue
                if level and cols:
                    if colors is None:
                        colors = state.colors_available()
                    if cols[0] not in colors and not any(col in colors for col in cols):
                        continue
            best, best_score = c, sc
        if best is None:
            return None
        if "no_attack" in state.hooks and best.code in state.codes_by_hook.get("no_attack", ()):
            # a character that may not attack (it cannot direct-attack...) goes to the back row only
            for b in (3, 4):
                if stage[b] is None:
                    return ("play", best.code, b)
            return None
        for s in FRONT:
            if stage[s] is None:
                return ("play", best.code, s)
        # front row full: make room for a strictly better character (or one that can attack)
        if "no_attack" in state.hooks:
            flagged = state.codes_by_hook["no_attack"]
            blocked = [s for s in FRONT if stage[s].code in flagged and state.restricted(s, "no_attack")]  # type: ignore[union-attr]
            if blocked:
                for b in (3, 4):
                    if stage[b] is None and not state.entered[blocked[0]]:
                        return ("move", blocked[0], b)
                return ("play", best.code, blocked[0])
        scores = state.scores
        weakest = min(FRONT, key=lambda s: (scores.get(stage[s].code) or char_score(stage[s]), s))  # type: ignore[union-attr,arg-type]
        best_soul = best.soul or 0
        weak = stage[weakest]
        if best_soul > (weak.soul or 0) or (  # type: ignore[union-attr]
            best_soul == (weak.soul or 0)  # type: ignore[union-attr]
            and (best.level or 0) > (weak.level or 0) + 1  # type: ignore[union-attr]
        ):
            for b in (3, 4):
                if stage[b] is None:
                    return ("move", weakest, b)
            return ("play", best.code, weakest)
        return None

    @staticmethod
    def worth(state: WSState, prog: Program, slot: int | None = None) -> float:
        """What using ``prog`` now gains minus what its cost loses (cards ≈ 1.0)."""
        gain = prog.gain
        if prog.soul:
            # soul only helps characters that will still attack this turn
            if not state._has_attacker():
                gain -= prog.soul
        value = prog.cost_value
        if slot is not None and slot in FRONT and state.stage_state[slot] == STAND and any(
                c.kind in ("rest_this", "this_to_waiting_room", "memory", "return_this") for c in prog.cost):
            value += state.soul_of(slot) + 1  # the attack it gives up
        return gain - value

    def _event(self, state: WSState) -> tuple | None:
        seen = set()
        for c in state.hand:
            if c.card_type != "event" or c.code in seen:
                continue
            seen.add(c.code)
            progs = state.progs_of(c)
            if progs is None or not progs.get("event") or not state.can_play(c):
                continue
            if sum(self.worth(state, p) for p in progs.get("event")) - (c.cost or 0) * STOCK_VALUE > 0:
                return ("event", c.code)
        return None

    def _act(self, state: WSState) -> tuple | None:
        best = None
        best_v = 0.0
        for opt in state.options_act():
            card = state.stage[opt[1]]
            prog = state.progs_of(card).get("act")[opt[2]]  # type: ignore[union-attr]
            v = self.worth(state, prog, opt[1])
            if v > best_v:
                best, best_v = opt, v
        return best

    def d_pay(self, state: WSState) -> tuple:
        prog = state.paying[0] if state.paying is not None else None
        if prog is None:
            return ("no",)
        return ("yes",) if self.worth(state, prog) > 0 else ("no",)

    def d_climax(self, state: WSState) -> tuple:
        if not state._has_attacker():
            return ("skip",)
        best = None
        colors = state.colors_available()
        for c in state.hand:
            if c.card_type == "climax" and state._color_ok(c, colors):
                p, s = state.bonus_of(c)
                extra = 0.0
                progs = state.progs_of(c)
                if progs is not None:
                    for prog in progs.get("climax"):
                        s += prog.soul
                        extra += prog.gain - prog.soul
                if "cx_placed" in state.hooks:
                    extra += self._combo(state, c)
                key = (s + extra, p)
                if best is None or key > best[0]:
                    best = (key, c.code)
        return ("place", best[1]) if best else ("skip",)

    @staticmethod
    def _combo(state: WSState, climax: CardRecord) -> float:
        """What the stage's abilities triggered by placing ``climax`` would gain."""
        total = 0.0
        for s in range(5):
            card = state.stage[s]
            progs = state.progs_of(card) if card is not None else None
            if progs is None:
                continue
            for prog in progs.get("cx_placed"):
                if prog.arg is None or prog.arg(state, climax):
                    total += max(0.0, prog.gain - prog.cost_value)
        return total

    def d_attack(self, state: WSState) -> tuple:
        if state.attacks_left > 1 and "no_attack" not in state.hooks:
            stage, st = state.stage, state.stage_state
            for s in FRONT:
                if stage[s] is not None and st[s] == STAND:
                    return ("attack", s)
            return ("end",)
        attackers = state._attackers()
        if not attackers:
            return ("end",)
        if state.attacks_left > 1:
            return ("attack", attackers[0])
        # the first player's single first-turn attack goes to the highest soul
        return ("attack", max(attackers, key=lambda s: (state.soul_of(s), -s)))

    def d_draw(self, state: WSState) -> tuple:
        return ("yes",)

    d_pool = d_draw

    def d_comeback(self, state: WSState) -> tuple:
        chars = [c for c in state.waiting if c.card_type == "character"]
        return ("take", max(chars, key=char_score).code)

    def d_gate(self, state: WSState) -> tuple:
        cxs = [c for c in state.waiting if c.card_type == "climax"]
        return ("take", max(cxs, key=lambda c: state.bonus_of(c)[::-1]).code)

    def d_choice(self, state: WSState) -> tuple:
        chars = [c for c in state.waiting if c.card_type == "character" and "soul" in c.triggers]
        return ("hand", max(chars, key=char_score).code)

    def d_standby(self, state: WSState) -> tuple:
        lim = len(state.level) + 1
        chars = [c for c in state.waiting if c.card_type == "character" and (c.level or 0) <= lim]
        best = max(chars, key=char_score)
        for s in (*FRONT, 3, 4):
            if state.stage[s] is None:
                return ("place", best.code, s)
        return ("skip",)

    def d_encore(self, state: WSState) -> tuple:
        """The cheapest encore: the default [3 stock] or the card's own / a granted one."""
        options = state.options_encore()
        best = None
        best_v = 1e9
        for opt in options[1:]:
            v = DEFAULT_ENCORE_VALUE if len(opt) == 1 else sum(c.value for c in state.encores[opt[1]].cost)
            if v < best_v:
                best, best_v = opt, v
        return best or ("skip",)

    def d_discard(self, state: WSState) -> tuple:
        return ("discard", self.worst_card(state).code)
