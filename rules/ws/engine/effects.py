"""The runtime of played abilities: what each step of a ``Program`` does to a ``WSState``.

``AbilityRuntime`` is mixed into ``WSState``: ``run_program`` resolves one ability (once-per-turn
limit, conditions, the optional cost — a ``pay`` decision —, the steps, then any pending refresh
damage), and the ``fx_*`` methods are the steps the compiled abilities call
(``rules.ws.engine.abilities``). Choices inside an effect are the engine's, by fixed rules
(docs/engine.md "Abilities"): the best cards by the pilot's card values are searched, salvaged
and put on the stage, the least valuable are discarded; a climax looked at stays on top.
"""
from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from rules.cards import CardRecord
from rules.engine._zones import shuffle

from .abilities import FRONT_OF, Program, Sel

if TYPE_CHECKING:
    from .state import WSState

STAND, REST, REVERSED = 0, 1, 2
# the destinations the event log names (playtest/i18n.py TERMS["dest"] translates them)
_DEST_TERMS = {"waiting": "waiting room", "deck_top": "deck top", "deck_bottom": "deck bottom", "deck_deck": "deck"}
_STATES = {"standing": STAND, "rested": REST, "reversed": REVERSED}
# stage slots: the front row, the back row, all (front first), all (back first)
_FRONT_ROW, _BACK_ROW, _STAGE_SLOTS, _BACK_ROW_FIRST = (0, 1, 2), (3, 4), (0, 1, 2, 3, 4), (3, 4, 0, 1, 2)


class Ctx:
    """One resolution: the source card (and its stage slot when it is on the stage), the cards
    chosen / looked at / revealed so far, and whether the last optional action was done."""

    __slots__ = ("card", "slot", "that", "those", "rest", "looked", "done", "needs_optional", "moved")

    def __init__(self, card: CardRecord, slot: int | None = None, needs_optional: bool = False) -> None:
        self.card = card
        self.slot = slot
        self.that: CardRecord | None = None
        self.those: list[CardRecord] = []
        self.rest: list[CardRecord] = []
        self.looked: list[CardRecord] = []
        self.done = True
        self.needs_optional = needs_optional
        self.moved = False  # the source left the zone it resolved from (an event put into memory...)

    def source_slot(self, st: WSState) -> int | None:
        s = self.slot
        stage = st.stage
        if s is not None and stage[s] is self.card:
            return s
        return None


def card_value(st: Any, c: CardRecord) -> float:
    """How much the greedy pilot wants ``c`` in hand (the pilot's per-deck values)."""
    v = st.values.get(c.code)
    if v is None:
        v = -1.0 if c.card_type == "climax" else 0.5 if c.card_type == "event" else \
            10.0 + (c.soul or 0) * 3 + (c.power or 0) / 5000
    if c.card_type == "character" and (c.level or 0) > len(st.level) + 1:
        v -= 6.0
    return v


class AbilityRuntime:
    """The steps of played abilities (mixed into ``WSState``)."""

    # -- resolution ----------------------------------------------------------------------------
    def run_program(self: WSState, prog: Program, ctx: Ctx) -> Generator[str, tuple, None]:
        """Resolve ``prog``: its per-turn limit, conditions, cost (optional for an 【自】: the
        ``pay`` decision), steps, then pending refresh damage."""
        key = None
        if prog.limit:
            key = (prog.code, prog.index, ctx.slot)
            if self.used.get(key, 0) >= prog.limit:
                return
        for cond in prog.conds:
            if not cond(self, ctx):
                return
        if key is not None:
            self.used[key] = self.used.get(key, 0) + 1
        self.counters["abilities"] += 1
        if prog.cost:
            if prog.hook == "act":
                paid = True
            elif all(c.can(self, ctx) for c in prog.cost):
                self.paying = (prog, ctx)
                paid = (yield "pay")[0] == "yes"
                self.paying = None
            else:
                paid = False
            if paid:
                for c in prog.cost:
                    g = c.pay(self, ctx)
                    if g is not None:
                        yield from g
            ctx.done = paid
        if self.log is not None:
            self.say("me", "ability", "ability", card=self.name(prog.code), text=prog.text[:60])
        for step in prog.steps:
            g = step(self, ctx)
            if g is not None:
                yield from g
        if self.pen_me or self.pen_opp:
            yield from self._settle()

    def fire(self: WSState, hook: str, card: CardRecord, slot: int | None = None, **extra: Any
             ) -> Generator[str, tuple, None]:
        """Run ``card``'s programs for ``hook`` (its own abilities: placed, attack, climax...)."""
        progs = self.progs_of(card)
        if progs is None:
            return
        for prog in progs.get(hook):
            if hook == "placed" and extra.get("how") not in prog.arg:
                continue
            if hook == "cancelled" and prog.arg and not extra.get("placed_this_turn"):
                continue
            yield from self.run_program(prog, Ctx(card, slot, prog.needs_optional))

    def fire_stage(self: WSState, hook: str, subject: CardRecord | None = None, subject_slot: int | None = None,
                   how: str | None = None) -> Generator[str, tuple, None]:
        """Run the programs for ``hook`` of every character on the stage (slot order; the turn
        player orders simultaneous abilities: the engine takes slot order), and of the clock's
        top card and memory for alarm / memory abilities. ``subject``: the card the event is
        about (a climax placed, another character placed or attacking)."""
        if hook not in self.hooks:
            return
        codes = self.codes_by_hook.get(hook, ())
        for s in range(5):
            card = self.stage[s]
            if card is None or card.code not in codes and card.code in self.progs:
                continue  # (a card from outside the deck, in scenario tests, is looked up)
            progs = self.progs_of(card)
            if progs is None:
                continue
            for prog in progs.get(hook):
                if prog.where != "stage":
                    continue
                if self.stage[s] is not card:
                    break
                if not self._hook_matches(prog, card, s, subject, subject_slot, how):
                    continue
                yield from self.run_program(prog, Ctx(card, s, prog.needs_optional))
        if self.clock:
            top = self.clock[-1]
            progs = self.progs_of(top)
            if progs is not None:
                for prog in progs.get(hook):
                    if prog.where == "clock_top" and self._hook_matches(prog, top, None, subject, subject_slot, how):
                        yield from self.run_program(prog, Ctx(top, None, prog.needs_optional))
        if self.memory and "memory" in self.hooks:
            for card in list(self.memory):
                progs = self.progs_of(card)
                if progs is not None:
                    for prog in progs.get(hook):
                        if prog.where == "memory" and self._hook_matches(prog, card, None, subject, subject_slot, how):
                            yield from self.run_program(prog, Ctx(card, None, prog.needs_optional))

    def _hook_matches(self: WSState, prog: Program, card: CardRecord, slot: int | None, subject: CardRecord | None,
                      subject_slot: int | None, how: str | None) -> bool:
        hook = prog.hook
        if hook in ("cx_placed", "event_played", "to_level", "clocked"):
            pred = prog.arg
            return pred is None or (subject is not None and pred(self, subject))
        if hook in ("taken_cancelled", "taken_not_cancelled"):
            return not prog.arg or self._opp_active
        if hook in ("other_placed", "other_attack"):
            if subject is None or subject_slot is None or subject_slot == slot:
                return False
            sel, ways = prog.arg if hook == "other_placed" else (prog.arg, None)
            if ways is not None and how not in ways:
                return False
            if subject_slot not in sel.slots:
                return False
            if sel.state is not None and not self.slot_state_is(subject_slot, sel.state):
                return False
            return sel.pred is None or sel.pred(self, subject)
        return True

    # -- delayed effects ------------------------------------------------------------------------
    def schedule(self: WSState, hook: str, step: Any, ctx: Ctx) -> None:
        """A delayed effect ("ターンの終わりに、…"): ``step`` runs at the next ``hook``."""
        later = Ctx(ctx.card, ctx.slot, ctx.needs_optional)
        later.that, later.those = ctx.that, list(ctx.those)
        self.delayed = [*self.delayed, (hook, step, later)]  # (a new list: the class default is shared)

    def run_delayed(self: WSState, hook: str) -> Generator[str, tuple, None]:
        due = [d for d in self.delayed if d[0] == hook]
        if not due:
            return
        self.delayed = [d for d in self.delayed if d[0] != hook]
        for _, step, ctx in due:
            g = step(self, ctx)
            if g is not None:
                yield from g
        if self.pen_me or self.pen_opp:
            yield from self._settle()

    # -- continuous restrictions and シフト ---------------------------------------------------------
    def restricted(self: WSState, slot: int, flag: str) -> bool:
        """Whether a 【永】 ability of the character in ``slot`` stops it attacking (``no_attack``:
        it cannot attack, or cannot direct-attack: every attack on the goldfish is direct) or
        standing in the stand phase (``no_stand``) now."""
        card = self.stage[slot]
        if card is None or card.code not in self.codes_by_hook.get(flag, ()):
            return False
        progs = self.progs_of(card)
        for prog in progs.get("cont"):  # type: ignore[union-attr]
            if prog.arg and prog.arg.get(flag):
                ctx = Ctx(card, slot)  # type: ignore[arg-type]
                if all(c(self, ctx) for c in prog.conds):
                    return True
        return False

    def shift(self: WSState) -> None:
        """シフト: at the start of the main phase, a clock card with シフト (your level at least its
        level) may swap with a hand card of its colour. Decision: the engine swaps when the clock
        card is worth more to the pilot than the least valuable hand card of that colour."""
        level = len(self.level)
        codes = self.codes_by_hook.get("shift", ())
        for i, card in enumerate(self.clock):
            if card.code not in codes:
                continue
            progs = self.progs_of(card)
            for prog in progs.get("shift"):  # type: ignore[union-attr]
                need, color = prog.arg
                if level < need:
                    continue
                hand = [c for c in self.hand if color in c.colors]
                if not hand:
                    continue
                worst = min(hand, key=lambda c: card_value(self, c))
                if card_value(self, card) <= card_value(self, worst) + 1.0:
                    continue
                self.hand.remove(worst)
                self.clock[i] = worst
                self.cmods += 1
                self.hand.append(card)
                self.counters["shifts"] += 1
                if self.log is not None:
                    self.say("me", "shift", "shift", card=self.name(card.code), card2=self.name(worst.code))
                break

    # -- state queries -------------------------------------------------------------------------
    def slot_state_is(self: WSState, slot: int, state: str) -> bool:
        return self.stage_state[slot] == _STATES[state]

    def can_discard(self: WSState, ctx: Ctx, n: int, pred: Any) -> bool:
        card = ctx.card
        k = 0
        for c in self.hand:
            if c is card and ctx.slot is None:
                continue
            if pred is None or pred(self, c):
                k += 1
                if k >= n:
                    return True
        return n <= 0

    def can_rest_this(self: WSState, ctx: Ctx) -> bool:
        s = ctx.source_slot(self)
        return s is not None and self.stage_state[s] == STAND

    def can_move_this(self: WSState, ctx: Ctx) -> bool:
        return ctx.source_slot(self) is not None or any(c is ctx.card for c in self.hand)

    # -- choices -------------------------------------------------------------------------------
    def _best(self: WSState, cards: list[CardRecord], n: int) -> list[CardRecord]:
        if n >= len(cards):
            return list(cards)
        if n == 1:
            return [max(cards, key=lambda c: card_value(self, c))]
        return sorted(cards, key=lambda c: -card_value(self, c))[:n]

    def _worst(self: WSState, cards: list[CardRecord], n: int) -> list[CardRecord]:
        if n >= len(cards):
            return list(cards)
        if n == 1:
            return [min(cards, key=lambda c: card_value(self, c))]
        return sorted(cards, key=lambda c: card_value(self, c))[:n]

    def _free_slot(self: WSState, rows: str | None = None) -> int | None:
        order = _FRONT_ROW if rows == "front_row" else _BACK_ROW if rows == "back_row" else _STAGE_SLOTS
        for s in order:
            if self.stage[s] is None:
                return s
        return None

    def _soul_targets(self: WSState, sel: Sel, ctx: Ctx) -> list[int]:
        """The slots a "choose N of your characters" soul boost goes to: a standing front-row
        character (it will attack), then the attacker now resolving, then any."""
        slots = sel.stage_slots(self, ctx)
        if sel.all:
            return slots
        attacking = self.attacking
        st = self.stage_state

        def rank(s: int) -> tuple[int, int]:
            if s <= 2 and st[s] == STAND:
                return (0, s)
            if s == attacking:
                return (1, s)
            return (2, s)
        return sorted(slots, key=rank)[:sel.count]

    # -- steps: cards ----------------------------------------------------------------------------
    def fx_draw(self: WSState, n: int) -> None:
        if n > 0:
            self._draw(n, "effect")

    def fx_draw_both(self: WSState, n: int) -> None:
        self.fx_draw(n)
        self.fx_opp_draw(n)

    def fx_opp_draw(self: WSState, n: int) -> None:
        for _ in range(n):
            self.ohand.append(self._otop())

    def fx_discard(self: WSState, n: int, pred: Any, upto: bool) -> None:
        if upto:
            return  # Decision: "up to N" discards: none
        cards = [c for c in self.hand if pred is None or pred(self, c)]
        for c in self._worst(cards, n):
            self.hand.remove(c)
            self.waiting.append(c)
            if self.log is not None:
                self.say("me", "discard", "fx_discard", card=self.name(c.code))

    def pay_discard(self: WSState, ctx: Ctx, n: int, pred: Any) -> None:
        cards = [c for c in self.hand if (pred is None or pred(self, c)) and not (c is ctx.card and ctx.slot is None)]
        for c in self._worst(cards, n):
            self.hand.remove(c)
            self.waiting.append(c)

    def pay_hand_to_clock(self: WSState, ctx: Ctx, n: int, pred: Any) -> Generator[str, tuple, None] | None:
        cards = [c for c in self.hand if (pred is None or pred(self, c)) and not (c is ctx.card and ctx.slot is None)]
        for c in self._worst(cards, n):
            self.hand.remove(c)
            self.clock.append(c)
        return self._level_up_me() if len(self.clock) >= 7 else None

    def fx_hand_to_clock(self: WSState, n: int) -> Generator[str, tuple, None] | None:
        for c in self._worst(list(self.hand), n):
            self.hand.remove(c)
            self.clock.append(c)
        return self._level_up_me() if len(self.clock) >= 7 else None

    def fx_opp_discard(self: WSState, n: int) -> None:
        # Decision: the goldfish discards its earliest-drawn cards
        for _ in range(min(n, len(self.ohand))):
            self.owaiting.append(self.ohand.pop(0))

    def fx_stock_from_top(self: WSState, n: int) -> None:
        for _ in range(n):
            self.stock.append(self._top())

    def fx_mill(self: WSState, ctx: Ctx, n: int) -> None:
        milled = []
        for _ in range(n):
            c = self._top()
            self.waiting.append(c)
            milled.append(c)
        ctx.those = milled
        ctx.that = milled[-1] if milled else None

    def fx_opp_mill(self: WSState, n: int) -> None:
        for _ in range(n):
            self.owaiting.append(self._otop())

    def fx_brainstorm(self: WSState, ctx: Ctx, n: int) -> None:
        self.fx_mill(ctx, n)
        self.counters["brainstorms"] += 1

    def fx_clock_damage(self: WSState, n: int) -> Generator[str, tuple, None] | None:
        for _ in range(n):
            self.clock.append(self._top())
        return self._level_up_me() if len(self.clock) >= 7 else None

    def fx_heal(self: WSState, n: int, pred: Any, where: str) -> None:
        clock = self.clock
        for _ in range(n):
            if not clock:
                return
            if where == "bottom":
                idx = 0
            elif pred is None:
                idx = len(clock) - 1
            else:
                idx = next((i for i in range(len(clock) - 1, -1, -1) if pred(self, clock[i])), -1)
                if idx < 0:
                    return
                if where == "top" and idx != len(clock) - 1:
                    return
            c = clock.pop(idx)
            self.cmods += 1
            self.waiting.append(c)
            self.counters["healed"] += 1
            if self.log is not None:
                self.say("me", "heal", "heal", card=self.name(c.code))

    def fx_opp_heal(self: WSState, n: int) -> None:
        for _ in range(min(n, len(self.oclock))):
            self.owaiting.append(self.oclock.pop())

    def _zone_list(self: WSState, sel: Sel) -> list[CardRecord]:
        return getattr(self, sel.zone)  # type: ignore[arg-type]

    def fx_move_chosen(self: WSState, ctx: Ctx, sel: Sel, n: int, dest: str) -> Generator[str, tuple, None] | None:
        """Choose ``n`` cards of ``sel`` (the best for the hand or the stock) and move them."""
        if sel.ref is not None:
            return None
        zone = self._zone_list(sel)
        cards = [c for c in zone if (sel.pred is None or sel.pred(self, c)) and not (c is ctx.card and ctx.slot is None
                                                                                    and zone is self.hand)]
        if sel.zone == "clock" and dest == "stock":
            chosen = [c for c in reversed(cards)][:n]
        elif dest == "stock":
            chosen = self._worst([c for c in cards if c.card_type != "climax"] or cards, n)
        else:
            chosen = self._best(cards, n)
        if not chosen:
            ctx.done = False
            return None
        if zone is self.clock:
            self.cmods += 1
        for c in chosen:
            zone.remove(c)
            if dest == "hand":
                self.hand.append(c)
            elif dest == "stock":
                self.stock.append(c)
            elif dest == "deck_top":
                self.deck.append(c)
            elif dest == "deck_bottom" or dest == "deck_deck":
                self.deck.insert(0, c)
            elif dest == "memory":
                self.memory.append(c)
            else:  # pragma: no cover - the compiled abilities name no other destination
                raise ValueError(f"no destination {dest}")
            if self.log is not None:
                self.say("me", "move", "fx_move", card=self.name(c.code), dest=_DEST_TERMS.get(dest, dest))
        ctx.those = chosen
        ctx.that = chosen[-1]
        if sel.zone == "deck" and not self.deck:
            self._refill()
        if sel.zone == "clock":
            self.counters["healed"] += len(chosen)
        return None

    def fx_search(self: WSState, pred: Any, n: int) -> None:
        deck = self.deck
        cards = [c for c in deck if pred is None or pred(self, c)]
        for c in self._best(cards, n):
            deck.remove(c)
            self.hand.append(c)
            self.counters["searched"] += 1
            if self.log is not None:
                self.say("me", "search", "search", card=self.name(c.code))
        if not deck:
            self._refill()

    def fx_look(self: WSState, ctx: Ctx, n: int) -> None:
        """Look at / reveal the top ``n`` cards (they stay on the deck)."""
        deck = self.deck
        looked = deck[-n:][::-1] if n > 0 else []
        ctx.looked = looked
        ctx.those = list(looked)
        ctx.rest = list(looked)
        ctx.that = looked[0] if looked else None

    def _take_from_deck(self: WSState, c: CardRecord) -> None:
        deck = self.deck
        for i in range(len(deck) - 1, -1, -1):
            if deck[i] is c:
                del deck[i]
                break
        if not deck:
            self._refill()

    def fx_take_looked(self: WSState, ctx: Ctx, pred: Any, n: int, dest: str) -> None:
        cards = [c for c in ctx.rest if pred is None or pred(self, c)]
        chosen = self._best(cards, n)
        for c in chosen:
            ctx.rest.remove(c)
            self._take_from_deck(c)
            self.hand.append(c)
            if self.log is not None:
                self.say("me", "search", "search", card=self.name(c.code))
        if chosen:
            ctx.that = chosen[-1]

    def fx_rest_to_waiting(self: WSState, ctx: Ctx) -> None:
        for c in list(ctx.rest):
            self._take_from_deck(c)
            self.waiting.append(c)
        ctx.rest = []

    def fx_rest_to_top(self: WSState, ctx: Ctx) -> None:
        self._order_top(ctx.rest)

    def _order_top(self: WSState, cards: list[CardRecord]) -> None:
        """Put ``cards`` (on the top of the deck) back with the climaxes on top."""
        if len(cards) < 2:
            return
        deck = self.deck
        k = len(cards)
        top = deck[-k:]
        top.sort(key=lambda c: c.card_type == "climax")
        deck[-k:] = top

    def fx_look_order(self: WSState, n: int) -> None:
        self._order_top(self.deck[-n:])

    def fx_look_keep_climax(self: WSState, n: int, to: str) -> None:
        """Look at the top card(s): a climax stays on top; anything else goes to the waiting room
        (or the bottom)."""
        deck = self.deck
        looked = deck[-n:][::-1]
        for c in looked:
            if c.card_type == "climax":
                continue
            self._take_from_deck(c) if c in deck else None
            if to == "top_or_bottom":
                self.deck.insert(0, c)
            else:
                self.waiting.append(c)

    def fx_opp_order_top(self: WSState, n: int) -> None:
        """The goldfish's top cards back in the order that delays its cancels: climaxes deepest."""
        od = self.odeck
        k = min(n, len(od))
        if k < 2:
            return
        top = od[-k:]
        top.sort(key=lambda c: c.card_type != "climax")
        od[-k:] = top

    def fx_opp_waiting_to_top(self: WSState, n: int) -> None:
        for _ in range(n):
            pick = next((c for c in self.owaiting if c.card_type != "climax"), None)
            if pick is None:
                return
            self.owaiting.remove(pick)
            self.odeck.append(pick)

    def fx_opp_memory(self: WSState, n: int) -> None:
        for _ in range(n):
            pick = next((c for c in self.owaiting if c.card_type == "climax"), None) or (
                self.owaiting[0] if self.owaiting else None)
            if pick is None:
                return
            self.owaiting.remove(pick)
            self.omemory = [*self.omemory, pick]  # (a new list: the class default is shared)

    def fx_revealed_to(self: WSState, ctx: Ctx, dest: str) -> None:
        c = ctx.that
        if c is None or not any(x is c for x in self.deck):
            return
        self._take_from_deck(c)
        (self.hand if dest == "hand" else self.stock).append(c)
        if ctx.rest and c in ctx.rest:
            ctx.rest.remove(c)

    def fx_hand_to_deck(self: WSState, n: int, to: str) -> None:
        for c in self._worst(list(self.hand), n):
            self.hand.remove(c)
            if to == "top":
                self.deck.append(c)
            else:
                self.deck.insert(0, c)

    def fx_waiting_to_deck(self: WSState, both: bool) -> None:
        self.deck[:0] = self.waiting
        self.waiting = []
        if both:
            self.odeck[:0] = self.owaiting
            self.owaiting = []

    def fx_shuffle(self: WSState) -> None:
        shuffle(self.rng, self.deck)

    def fx_opp_shuffle(self: WSState) -> None:
        shuffle(self.rng, self.odeck)

    # -- steps: the source card ----------------------------------------------------------------
    def fx_this_to(self: WSState, ctx: Ctx, dest: str) -> Generator[str, tuple, None] | None:
        """The source card to ``dest`` (waiting, hand, memory, stock, clock) from wherever it is:
        the stage (to the waiting room: its encore may follow), resolving (an event), the hand."""
        card = ctx.card
        s = ctx.source_slot(self)
        if s is not None:
            if dest == "waiting":
                ctx.moved = True
                return self._leave_stage(s, "effect")
            self._remove_from_stage(s)
        elif ctx.moved:
            return None
        elif ctx.slot is not None:  # it has just left the stage (a "when this card leaves" ability)
            if not any(c is card for c in self.waiting):
                return None
            self.waiting.remove(card)
        elif self.climax is card:
            self.climax = None
        elif card.card_type == "event" and any(c is card for c in self.resolving):
            self.resolving.remove(card)
        elif any(c is card for c in self.hand):
            self.hand.remove(card)
        else:
            return None
        ctx.moved = True
        self._to_zone(card, dest)
        if dest == "clock" and len(self.clock) >= 7:
            return self._level_up_me()
        return None

    def fx_that_to(self: WSState, ctx: Ctx, dest: str) -> Generator[str, tuple, None] | None:
        """The card chosen before (a character of yours) to ``dest``."""
        c = ctx.that
        if c is None:
            return None
        for s in range(5):
            if self.stage[s] is c:
                if dest == "waiting":
                    return self._leave_stage(s, "effect")
                self._remove_from_stage(s)
                self._to_zone(c, dest)
                return self._level_up_me() if dest == "clock" and len(self.clock) >= 7 else None
        return None

    def fx_choose(self: WSState, ctx: Ctx, sel: Sel) -> None:
        """Choose one of your characters for a later effect ("そのキャラ"): as a soul boost would."""
        slots = self._soul_targets(sel, ctx)
        ctx.that = self.stage[slots[0]] if slots else None

    def fx_grant_encore(self: WSState, ctx: Ctx, sel: Sel, costs: tuple) -> None:
        """『【自】アンコール[…]』 given until the end of the turn to the source or chosen characters
        (Decision: a grant lasting to the end of the goldfish's next turn ends with yours — your
        characters never leave the stage on the goldfish's turn)."""
        if sel.ref == "this":
            slots = [s] if (s := ctx.source_slot(self)) is not None else []
        elif sel.ref == "that":
            slots = [i for i in range(5) if ctx.that is not None and self.stage[i] is ctx.that][:1]
        else:
            slots = sel.stage_slots(self, ctx) if sel.all else self._soul_targets(sel, ctx)
        for s in slots:
            self.granted = [*self.granted, (self.stage[s], s, costs)]

    def fx_opp_waiting_to_deck(self: WSState) -> None:
        self.odeck[:0] = self.owaiting
        self.owaiting = []

    def fx_reveal_hand(self: WSState, ctx: Ctx, opponent: bool) -> None:
        ctx.those = list(self.ohand if opponent else self.hand)
        ctx.that = ctx.those[-1] if ctx.those else None

    # -- costs moving cards ----------------------------------------------------------------------
    def cost_slots(self: WSState, ctx: Ctx, sel: Sel) -> list[int]:
        return sel.stage_slots(self, ctx)

    def pay_stage_to(self: WSState, ctx: Ctx, sel: Sel, n: int, dest: str) -> Generator[str, tuple, None]:
        """Put ``n`` of your characters (the weakest, back row first, never the source if another
        will do) into ``dest`` as a cost."""
        slots = self.cost_slots(ctx, sel)
        src = ctx.source_slot(self)
        slots.sort(key=lambda s: (s == src, s <= 2, self.soul_of(s), s))
        for s in slots[:n]:
            if self.stage[s] is None:
                continue
            if dest == "waiting":
                yield from self._leave_stage(s, "cost")
            else:
                card = self._remove_from_stage(s)
                self._to_zone(card, dest)
        if dest == "clock" and len(self.clock) >= 7:
            yield from self._level_up_me()

    def cost_cards(self: WSState, ctx: Ctx, sel: Sel) -> list[CardRecord]:
        if sel.zone == "climax_list":
            cards = [] if self.climax is None else [self.climax]
            return [c for c in cards if sel.pred is None or sel.pred(self, c)]
        return [c for c in sel.cards(self, ctx) if not (c is ctx.card and ctx.slot is None and sel.zone == "hand")]

    def pay_cards_to(self: WSState, ctx: Ctx, sel: Sel, n: int, dest: str) -> Generator[str, tuple, None] | None:
        cards = self.cost_cards(ctx, sel)
        chosen = self._worst(cards, n) if sel.zone in ("hand", "waiting") else cards[-n:]
        for c in chosen:
            if sel.zone == "climax_list":
                self.climax = None
            else:
                self._zone_list(sel).remove(c)
                self.cmods += 1
            if dest == "deck":
                self.deck.insert(0, c)
            else:
                self._to_zone(c, dest)
        if dest == "clock" and len(self.clock) >= 7:
            return self._level_up_me()
        return None

    def _to_zone(self: WSState, card: CardRecord, dest: str) -> None:
        {"waiting": self.waiting, "hand": self.hand, "memory": self.memory, "stock": self.stock,
         "clock": self.clock}[dest].append(card)
        if self.log is not None:
            self.say("me", "move", "fx_move", card=self.name(card.code), dest=_DEST_TERMS.get(dest, dest))

    def _remove_from_stage(self: WSState, s: int) -> CardRecord:
        card = self.stage[s]
        self.stage[s] = None
        self.stage_state[s] = STAND
        self.slot_soul[s] = 0
        return card  # type: ignore[return-value]

    def fx_rest_this(self: WSState, ctx: Ctx) -> None:
        s = ctx.source_slot(self)
        if s is not None and self.stage_state[s] == STAND:
            self.stage_state[s] = REST

    def pay_rest(self: WSState, ctx: Ctx, sel: Sel, n: int) -> None:
        slots = sel.stage_slots(self, ctx)
        # Decision: rest the back row first, then the front row's weakest (it would attack)
        slots.sort(key=lambda s: (s <= 2, self.soul_of(s), s))
        for s in slots[:n]:
            self.stage_state[s] = REST

    def fx_stand(self: WSState, ctx: Ctx, sel: Sel) -> None:
        if sel.ref == "this":
            slots = [s] if (s := ctx.source_slot(self)) is not None else []
        else:
            slots = [s for s in sel.stage_slots(self, ctx) if self.stage_state[s] != STAND]
            slots.sort(key=lambda s: (s > 2, -self.soul_of(s)))
            if not sel.all:
                slots = slots[:sel.count]
        for s in slots:
            self.stage_state[s] = STAND

    def fx_soul(self: WSState, ctx: Ctx, sel: Sel, n: int) -> None:
        if n <= 0:
            return
        if sel.ref == "this":
            s = ctx.source_slot(self)
            slots = [] if s is None else [s]
        elif sel.ref == "that":
            c = ctx.that
            slots = [i for i in range(5) if c is not None and self.stage[i] is c][:1]
        else:
            slots = self._soul_targets(sel, ctx)
        for s in slots:
            self.slot_soul[s] += n
        if slots and sel.ref is None:
            ctx.that = self.stage[slots[-1]]

    def fx_burn(self: WSState, n: int) -> None:
        if n <= 0:
            return
        self.counters["burns"] += 1
        dealt = self._damage(n, "burn")
        self.counters["burn_damage"] += dealt
        if not dealt:
            self.counters["burn_cancels"] += 1

    def fx_self_damage(self: WSState, n: int) -> Generator[str, tuple, None]:
        return self._take_damage(n, "effect")

    # -- steps: putting characters on the stage ------------------------------------------------
    def _place(self: WSState, card: CardRecord, rested: bool, pos: str | None, rows: str | None,
               that_slot: int | None = None) -> Generator[str, tuple, None]:
        """Put ``card`` (already out of its zone) onto the stage: the slot ``that_slot`` (チェンジ),
        else an empty slot (front row first), else in place of the weakest character."""
        s = that_slot if that_slot is not None else self._free_slot(rows)
        if s is None:
            cands = _FRONT_ROW if rows == "front_row" else _BACK_ROW if rows == "back_row" else _BACK_ROW_FIRST
            s = min(cands, key=lambda i: (self.scores.get(self.stage[i].code, (0,)), i))  # type: ignore[union-attr]
        if self.stage[s] is not None:
            self.resolving.append(card)  # in transit while the replaced character leaves
            yield from self._leave_stage(s, "replaced", occupied_after=True)
            self.resolving.remove(card)
        self.stage[s] = card
        self.stage_state[s] = REST if rested else STAND
        self.slot_soul[s] = 0
        self.entered[s] = True
        if self.log is not None:
            self.say("me", "play", "fx_place", card=self.name(card.code), slot=self.slot_name(s))
        yield from self.fire("placed", card, s, how="effect")
        yield from self.fire_stage("other_placed", card, s, how="effect")

    def fx_put_on_stage(self: WSState, ctx: Ctx, src: str, pred: Any, n: int, rested: bool, pos: str | None,
                        rows: str | None) -> Generator[str, tuple, None]:
        zone = {"deck": self.deck, "hand": self.hand, "waiting_room": self.waiting, "clock": self.clock,
                "memory": self.memory}[src]
        cards = [c for c in zone if c.card_type == "character" and (pred is None or pred(self, c))
                 and not (c is ctx.card and zone is self.hand)]
        chosen = self._best(cards, n)
        if not chosen:
            ctx.done = False
            return
        that_slot = ctx.slot if pos == "this_slot" else None  # チェンジ: the slot this card left
        for c in chosen:
            if src == "deck":
                self._take_from_deck(c)
            else:
                zone.remove(c)
                self.cmods += 1
            yield from self._place(c, rested, pos, rows, that_slot)
            that_slot = None
        if src == "clock":
            self.counters["healed"] += len(chosen)

    def fx_put_looked(self: WSState, ctx: Ctx, pred: Any, n: int, rested: bool, pos: str | None,
                      rows: str | None) -> Generator[str, tuple, None]:
        cards = [c for c in (ctx.rest or ([ctx.that] if ctx.that is not None else []))
                 if pred is None or pred(self, c)]
        for c in self._best(cards, n):
            if not any(x is c for x in self.deck):
                continue
            self._take_from_deck(c)
            if c in ctx.rest:
                ctx.rest.remove(c)
            yield from self._place(c, rested, pos, rows)

    def fx_put_that(self: WSState, ctx: Ctx, src: str, rested: bool, pos: str | None,
                    rows: str | None) -> Generator[str, tuple, None]:
        return
        yield

    def slot_name(self: WSState, s: int) -> str:
        from .state import SLOTS
        return SLOTS[s]

    # -- trigger icons performed by an effect ----------------------------------------------------
    def fx_icon(self: WSState, icon: str) -> Generator[str, tuple, None]:
        return self._icon_effect(icon, None)

    # -- continuous abilities --------------------------------------------------------------------
    def cont_soul(self: WSState, slot: int) -> int:
        """The soul continuous abilities give the character in ``slot`` now (stage, climax, clock
        top, memory)."""
        sources = self.cont_sources()
        if not sources:
            return 0
        total = 0
        card = self.stage[slot]
        for src, s, prog in sources:
            target = prog.target
            if target is None:
                continue
            ctx = Ctx(src, s)
            if target.ref == "this":
                if s != slot:
                    continue
            elif target.zone == "stage":
                if target.relative == "front":
                    if s is None or slot not in FRONT_OF.get(s, ()):
                        continue
                elif slot not in target.slots:
                    continue
                if target.other and card is src and s == slot:
                    continue
                if target.state is not None and not self.slot_state_is(slot, target.state):
                    continue
                if target.pred is not None and not target.pred(self, card):  # type: ignore[arg-type]
                    continue
            else:
                continue
            if all(c(self, ctx) for c in prog.conds):
                total += prog.soul
        return total

    def cont_sources(self: WSState) -> list[tuple[CardRecord, int | None, Program]]:
        """Every continuous soul program in force: (source card, its slot, program)."""
        out = []
        cs = self.cont_soul_codes
        for s in range(5):
            c = self.stage[s]
            if c is not None and c.code in cs:
                for prog in self.progs_of(c).get("cont"):  # type: ignore[union-attr]
                    if prog.soul and prog.where == "stage":
                        out.append((c, s, prog))
        cx = self.climax
        if cx is not None and cx.code in cs:
            for prog in self.progs_of(cx).get("climax_cont"):  # type: ignore[union-attr]
                if prog.soul and prog.target is not None and not self._global_climax(prog):
                    out.append((cx, None, prog))
        if self.clock and self.clock[-1].code in cs:
            top = self.clock[-1]
            for prog in self.progs_of(top).get("cont"):  # type: ignore[union-attr]
                if prog.soul and prog.where == "clock_top":
                    out.append((top, None, prog))
        if self.memory and "memory" in self.hooks:
            for c in self.memory:
                if c.code in cs:
                    for prog in self.progs_of(c).get("cont"):  # type: ignore[union-attr]
                        if prog.soul and prog.where == "memory":
                            out.append((c, None, prog))
        return out

    @staticmethod
    def _global_climax(prog: Program) -> bool:
        """A climax's "all your characters" change without conditions: folded into the turn's bonus."""
        t = prog.target
        return (not prog.conds and t is not None and t.zone == "stage" and t.all and t.pred is None
                and t.state is None and not t.other and t.slots == (0, 1, 2, 3, 4))
