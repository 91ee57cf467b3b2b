"""Phantasmagoria's pilots."""
from __future__ import annotations

from rules.cards import CardRecord
from rules.engine.core import ScriptedPilot

from .characters import CARD_INFO, CardInfo, amount, info_of, modelled_effects
from .state import HAND_LIMIT, LOSS_DEFEATS, MAX_BATTLE, MAX_VANGUARDS, PhantasmaState


class GreedyPilot(ScriptedPilot):
    """Fill the battle-card row with the cards my characters hit hardest with, use buffs, attack
    with the best attacker × battle card pairs (never losing the ACE or the game), then deploy the
    strongest character paying by resting the characters that already attacked."""

    name = "greedy"

    def d_redraw(self, state: PhantasmaState) -> tuple:
        hand = state.hand
        has_char = any(c.card_type == "character" for c in hand)
        has_battle = any(c.card_type == "battle" for c in hand)
        return ("keep",) if has_char and has_battle else ("redraw",)

    def d_discard(self, state: PhantasmaState) -> tuple:
        return ("discard", state.hand_order()[0].code)

    def d_main(self, state: PhantasmaState) -> tuple:
        hand = state.hand
        get = CARD_INFO.get
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
