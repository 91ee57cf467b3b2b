"""Chaos TCG's pilots."""
from __future__ import annotations

from rules.cards import CardRecord
from rules.engine.core import ScriptedPilot

from .characters import STAND
from .state import ALLY_SLOTS, PARTNER_SLOT, ChaosState

_ATTACK = tuple(("attack", s) for s in range(5))  # ("attack", slot), built once
_NO_DRAW = ("attack", PARTNER_SLOT, "no_draw")


class GreedyPilot(ScriptedPilot):
    """Play the ``MAIN`` events that draw or fetch cards (while the deck holds enough), level the
    partner (or an EXTRA) whenever possible, play an EXTRA when it is stronger, summon the strongest
    ally (replacing a weaker one when the field is full), equip ATK-raising Set cards to the
    partner, attack with everything — before each attack, ATK-raising ``BATTLE`` events on the
    attacker. A Set's upkeep is paid with the least wanted hand card."""

    name = "greedy"
    _last_set: tuple = ("set",)  # the last Set option chosen (a placeholder before the first)

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
        return ("discard", state.worst_card(state.hand).code)

    def d_main(self, state: ChaosState) -> tuple:
        # In priority order: an early MAIN event, a level up (from the hand, then an EXTRA's), an
        # EXTRA stronger than the character it goes on, the best summon, an ATK-raising Set on the
        # partner, the end. Each rule takes the first card in hand order; the hand is read in as
        # few passes as the priorities allow (the choice is the same).
        if state.last_main is self._last_set:
            # The option played last is the Set this pilot chose, as it was (the same object): an
            # ATK-raising Set on the partner changes nothing the other rules read (the partner is
            # never an EXTRA's base nor a summon's slot; conditions read cards, not ATK), so they
            # find nothing again: the next Set, or the end.
            return self._set_or_end(state, state.hand)
        used = state.used
        field = state.field
        pcard = field[PARTNER_SLOT].card
        hand = state.hand
        early = state.early_events
        # (the codes that level it up: state.levelup_codes(pcard), read here while it is kept)
        same = () if "levelup" in used else (
            state._levelup_codes if pcard is state._levelup_for else state.levelup_codes(pcard))
        chars = []  # the hand's characters, in hand order (the later rules read only them)
        level = None
        for c in hand:
            code = c.code
            if code in early:
                event = self._early_event(state, c)
                if event is not None:
                    return event
            elif c.card_type == "character":
                chars.append(c)
                if level is None and code in same and state.can_level_up(c):
                    level = code  # (a card of another deck has no identity in state.idents: never)
        if level is not None:
            return ("levelup", level)
        summon = "summon" not in used
        extra = "extra" not in used and state.extra
        level_extra = "levelup" not in used and state.extra
        if not summon and not extra and not level_extra:
            return self._set_or_end(state, hand)
        names: dict[str, int] = {}  # state.names_on_field()
        field_extras = []  # the persons of each EXTRA on the field (else no EXTRA can level up)
        for i, c in enumerate(field):
            if c is not None:
                card = c.card
                names[card.person] = i
                persons = card.extra_persons
                if persons:  # (an EXTRA without persons can never level up: left out)
                    for person in persons:
                        names[person] = i
                    if card.card_type == "extra":
                        field_extras.append(persons)
        if level_extra or extra:
            choice = self._extra_choice(state, names, field_extras if level_extra else (), extra, chars)
            if choice is not None:
                return choice
        if not summon:
            return self._set_or_end(state, hand)
        return self._summon_or_set(state, names, pcard.person, chars)

    def _extra_choice(self, state: ChaosState, names: dict[str, int], field_extras: list, extra: bool,
                      chars: list[CardRecord]) -> tuple | None:
        """An EXTRA's level up (``field_extras``: the persons of the EXTRAs on the field that may
        level up), else an EXTRA stronger than the character it goes on (``extra``: one may be
        played), else None. ``chars``: the hand's characters."""
        hand_persons = set()  # the persons of the hand's characters
        for c in chars:
            hand_persons.add(c.person)
        for persons in field_extras:  # (a hand card naming one of its persons is needed)
            if not hand_persons.isdisjoint(persons):
                up = state.first_extra_levelup()
                if up is not None:
                    return ("levelup_extra", *up)
                break
        if not extra:
            return None
        field = state.field
        kinds = state._extra_kinds  # (state.extra_kinds(), read here while it is kept)
        kinds = kinds[2] if kinds is not None and kinds[0] is state.extra and kinds[1] == len(state.extra) \
            else state.extra_kinds()
        for ex in kinds:  # each code once
            atk = ex.atk or 0
            # only when it would be stronger than a character of one of its persons, and each of
            # its persons is on the field or in the hand
            weaker = False
            for person in ex.extra_persons:
                s = names.get(person)
                if s is None:
                    if person not in hand_persons:
                        break
                elif s != PARTNER_SLOT and field[s].atk < atk:
                    weaker = True
            else:
                if weaker:
                    base = state.first_stronger_extra(ex, names, hand_persons)
                    if base >= 0:
                        return ("extra", ex.code, base)
        return None

    def _summon_or_set(self, state: ChaosState, names: dict[str, int], pperson: str, chars: list[CardRecord]
                       ) -> tuple:
        """The best summon of the hand's characters ``chars`` (the most ATK gained on its slot), else
        a Set, else the end."""
        field = state.field
        conditional = state.summon_conditional
        best = None
        best_gain = 0.0
        free = -1  # the slot a new name goes to: the first empty ally slot, else the weakest ally
        for c in chars:
            if c.person == pperson or (conditional and c.code in conditional and not state.can_summon(c)):
                continue
            slot = names.get(c.person)
            if slot is None:
                if free < 0:
                    for s in ALLY_SLOTS:  # the first empty one
                        if field[s] is None:
                            free = s
                            break
                    else:
                        free = min(ALLY_SLOTS, key=lambda s: (field[s].atk, field[s].dfn, s))
                slot = free
            occ = field[slot]
            gain = (c.atk or 0) - (occ.atk if occ is not None else -1) + 0.01 * (c.defense or 0)
            if gain > best_gain:
                best, best_gain = ("summon", c.code, slot), gain
        if best is not None:
            return best
        return self._set_or_end(state, state.hand)

    def _set_or_end(self, state: ChaosState, hand: list) -> tuple:
        """An ATK-raising Set card to the partner, else the end of the main phase."""
        for c in hand:
            if c.card_type == "set":
                plan = state.plans.get(c.code) or state.plan(c)
                if plan.useful and plan.never is None and (plan.equip_to == "partner"
                                                           or state.field[PARTNER_SLOT] is not None):
                    choice = self._last_set = ("set", c.code, PARTNER_SLOT)  # (PARTNER_SLOT in state.set_targets(c))
                    return choice
        return ("end",)

    def _main_event(self, state: ChaosState) -> tuple | None:
        """A ``MAIN`` event worth playing (the first in hand order)."""
        early = state.early_events
        for c in state.hand:
            if c.code in early:
                event = self._early_event(state, c)
                if event is not None:
                    return event
        return None

    def _early_event(self, state: ChaosState, c: CardRecord) -> tuple | None:
        """Play ``c``, one of the deck's ``early_events`` (useful ``MAIN`` events that raise no ATK:
        cards drawn or fetched), now? Not when the deck would keep fewer than 6 cards, nor a fetch
        without a character in the waiting room."""
        plan = state.plans[c.code]
        if plan.takes and len(state.deck) < plan.takes + 6:
            return None
        if plan.fetch:
            for w in state.waiting:
                if w.card_type == "character":
                    break
            else:
                return None
        if not state._usable(plan, "MAIN"):  # (state.can_use(c, "MAIN"))
            return None
        return ("event", c.code, state.first_target(plan))  # (state.event_targets(c)[0])

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
            free = state.free_pumps
            for c in state.hand:  # ATK until end of turn on the next attacker
                code = c.code
                if code in pumps and (
                        ((a := field[slot]) is not None and not a.face_down) if code in free
                        else (state.can_use(c, "BATTLE") and slot in state.event_targets(c))):
                    return ("event", code, slot)
        if best is not None:
            return _ATTACK[slot]
        # the partner's attack draw is optional: take it, declined on an empty deck
        return _ATTACK[PARTNER_SLOT] if state.deck else _NO_DRAW

    def d_discard(self, state: ChaosState) -> tuple:
        return ("discard", state.worst_card(state.hand).code)
