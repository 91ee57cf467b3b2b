"""Lycee's per-card data, computed once per card: ``CardInfo`` (mana, slot masks, names, cost, the
pilot's static values), the field's slots and the cost of a card."""
from __future__ import annotations

from collections.abc import Mapping

from rules.cards import CardRecord

from ..cardmatch import card_names as text_names
from .abilities import Op, Program, card_plan

SLOTS = ("AF-L", "AF-C", "AF-R", "DF-L", "DF-C", "DF-R")
SLOT_INDEX = {s: i for i, s in enumerate(SLOTS)}
ALL_SLOTS = tuple(range(6))
LOWEST_SLOT = tuple((m & -m).bit_length() - 1 for m in range(64))  # the lowest slot of a slot mask
STAR = "star"
STEP_KEYWORDS = ("step", "sidestep", "orderstep", "jump")


def cost_of(card: CardRecord) -> Mapping[str, int]:
    """The structured cost; a bare ``cost`` number without detail is that many star (無) symbols."""
    if card.cost_detail:
        return card.cost_detail
    return {STAR: card.cost} if card.cost else {}



def card_names(card: CardRecord) -> tuple[str, ...]:
    """Every name the card counts as on the field (aliases and a conversion's target)."""
    names = (card.name, *card.alt_names)
    if card.conversion_target:
        names += (card.conversion_target,)
    return names


_INF = float("inf")
_ALLY_AWAY = frozenset({"destroy_ally", "ally_to_hand", "ally_to_deck", "exile_ally"})


def _op_bound(op: Op) -> float:
    """The most ``pilot.program_value`` can count for one operation (keep the two in step)."""
    k = op.kind
    if k == "draw" or k == "opp_mill" or k == "opp_draw":
        return float(op.n)
    if k == "dmg":
        return float(op.n)
    if k in ("stand", "aggressive", "move_up"):
        return _INF  # as much as a character of mine deals
    if k in ("search", "dust_to_hand", "deploy", "deploy_this"):
        return 1.0
    if k in ("recover", "dust_to_deck", "dust_this_to_deck"):
        return 0.1 * (op.n or 1)
    if k == "mill":
        return -0.2 * op.n
    if k == "discard":
        return float(-op.n)
    if k in ("destroy_this", "this_to_hand", "this_to_deck"):
        return -1.0
    if k == "charge":
        return -0.3 * op.n
    return 0.0


def value_bound(prog: Program) -> float:
    """The most ``pilot.program_value`` can ever return for ``prog``: for each operation, run or
    skipped as its conditions allow, and an operation chained on the previous one (``done``) run
    only when that one was (``EffectsMixin._run``)."""
    best = {True: 0.0}  # whether the last operation was done -> the best value so far
    for op in prog.ops:
        conds = op.conds
        bound = _op_bound(op)
        may_fail = op.kind in _ALLY_AWAY  # no character of mine to send away
        if not conds and not may_fail:
            best = {True: max(best.values()) + bound}
            continue
        chained = [c.kind for c in conds if c.kind in ("done", "not_done")]
        plain = len(chained) < len(conds)
        nxt: dict[bool, float] = {}
        for done, value in best.items():
            outcomes: list[tuple[bool, float]] = []
            if not all((k == "done") == done for k in chained):
                outcomes.append((done, value))  # skipped, the previous operation's state kept
            else:
                outcomes.append((True, value + bound))
                if plain:  # a plain condition fails: not done, unless chained (then kept)
                    outcomes.append((done if chained else False, value))
                if may_fail:
                    outcomes.append((False, value))
            for after, v in outcomes:
                nxt[after] = max(nxt.get(after, -_INF), v)
        best = nxt
    return max(best.values())


class CardInfo:
    """Everything the engine and the pilot read from a card over and over, computed once per card
    (records are immutable): its mana, slot masks, names, cost and the static part of its value."""

    __slots__ = (
        "card", "code", "is_char", "conversion", "mask", "af_mask", "own", "names", "ex", "attrs", "mana", "attr1",
        "cost", "cost_key", "symbols", "specific", "star", "min_pay", "base", "dup_value", "free_value", "same_name", "up", "aggressive",
        "ap", "dp", "sp", "damage", "by_dmg", "taxes", "event_gain",
        "attack_score", "step_score", "filler_score", "plan", "flags", "engage", "charge_cap", "enter_only_by",
        "convert_cost", "self_exiles", "deploy_mask", "pilot_acts", "total_cost", "snames", "stand_acts", "stands_itself", "stand_only", "steps",
        "pick_mask",
    )

    def __init__(self, card: CardRecord) -> None:
        self.card = card
        self.code = card.code
        kw = card.keywords
        self.is_char = card.card_type == "character"
        self.conversion = card.conversion_target
        allowed = card.slots
        mask = 0
        for s in ALL_SLOTS:
            if not allowed or SLOTS[s] in allowed:
                mask |= 1 << s
        self.mask = mask  # the six slots its position restriction allows
        self.af_mask = mask & 0b111 if self.is_char else 0  # ... of them the AF slots (characters only)
        # its compiled abilities, read once: what the engine plays, by hook (abilities.py)
        self.plan = plan = card_plan(card)
        self.flags = flags = plan.flags
        self.engage = bool(flags.get("engage"))  # [エンゲージ]: may enter onto a character of mine
        self.charge_cap = int(flags.get("charge", 0))  # [チャージ:N]
        self.enter_only_by = bool(flags.get("enter_only_by"))  # ※[コンバート]以外で登場できない
        # an ability on entering that sends it away again unconditionally (the pilot never plays it)
        self.self_exiles = any(op.kind in ("exile_this", "destroy_this") and not op.optional and not op.conds
                               for prog in plan.get("enter") for op in prog.ops)
        # the declared abilities the pilot may use in my main phase: those that can gain something
        # (never worth using when ``value_bound`` says the pilot's value of it cannot be positive)
        acts = {hook: tuple(p for p in plan.get(hook) if p.gain > 0 and not p.battle and value_bound(p) > 0)
                for hook in ("act", "hand_act", "dust_act")}
        self.pilot_acts = {hook: progs for hook, progs in acts.items() if progs}
        # ... of them, on the field, those that stand a character: worth it after an attack
        self.stand_acts = tuple(p for p in acts["act"] if any(op.kind == "stand" for op in p.ops))
        self.stands_itself = all(op.target is not None and op.target.ref == "this"
                                 for p in self.stand_acts for op in p.ops if op.kind == "stand")
        # ... the indices of those that gain nothing else (worth nothing while no attacker of mine is rested)
        self.stand_only = frozenset(p.index for p in self.stand_acts
                                    if all(op.kind == "stand" or _op_bound(op) <= 0 for op in p.ops))
        aliases = tuple(a for a in flags.get("aliases", ()) if a)
        self.own = (card.name, *card.alt_names, *aliases)  # its own names (the same-name rule)
        self.names = (*card_names(card), *aliases)  # every name it counts as on the field
        self.snames = frozenset(text_names(card))  # the names printed text calls it (cardmatch.matches)
        self.ex = card.ex or 0
        self.attrs = tuple(a for a in card.attributes if a != STAR) or (STAR,)
        self.mana = (self.ex, self.attrs)  # what it pays when discarded
        self.attr1 = self.attrs[0] if len(self.attrs) == 1 else None  # its attribute, if only one
        self.cost = cost_of(card)
        self.cost_key = tuple(self.cost.items())
        # a conversion pays the [コンバート] keyword's printed cost when it prints one (Overture)
        convert = flags.get("convert")
        self.convert_cost = dict(convert["cost"]) if convert and convert.get("cost") is not None else self.cost
        self.symbols = tuple((a, n) for a, n in self.cost_key if a != STAR)  # attribute symbols
        self.specific = sum(n for _, n in self.symbols)
        self.star = self.cost.get(STAR, 0)  # star (無) symbols
        self.total_cost = sum(n for n in self.cost.values() if n > 0)
        # the fewest cards any payment of the cost takes: one card gives one attribute
        symbols = sum(1 for a, n in self.cost_key if a != STAR and n > 0)
        self.min_pay = (symbols or 1) if sum(self.cost.values()) > 0 else 0
        self.ap = card.ap or 0
        self.dp = card.dp or 0
        self.sp = card.sp or 0
        # the damage an undefended attack deals: the card's printed DMG when it prints one
        # (Lycee Overture; GAMES.md §5 Battle, decision), else its printed AP
        self.by_dmg = card.dmg is not None
        self.damage = card.dmg if card.dmg is not None else self.ap
        self.aggressive = "aggressive" in kw
        self.up = "step" in kw or "orderstep" in kw or "jump" in kw  # can move up from DF to AF
        self.steps = any(k in kw for k in STEP_KEYWORDS)  # has a movement keyword
        self.taxes = tuple(k for k in ("tax_trash", "tax_wakeup") if k in kw)
        # the slots the pilot deploys it to: never one when it removes itself on entering, never the
        # attack row when it deals no damage
        self.deploy_mask = 0 if self.self_exiles else (mask if self.damage > 0 else mask & 0b111000)
        # ... those the pilot's deploy step looks at: none for a card that is not a character, or is
        # a conversion (which enters the slot of the character it converts)
        self.pick_mask = self.deploy_mask if self.is_char and not self.conversion else 0
        # the pilot's deploy scores: into an AF slot, into DF to step up later, as a filler
        self.attack_score = 20.0 + 2 * self.damage + (5.0 if self.aggressive else 0.0)
        self.step_score = 10.0 + self.damage
        self.filler_score = 1.0 + 0.1 * self.dp
        # an event: the cards its modelled draw / mill effects gain when played
        self.event_gain = sum(int(e.get("n", 1)) for e in card.effects
                              if e.get("kind") in ("draw", "opp_mill") and e.get("when", "play") == "play"
                              ) if card.card_type == "event" else 0
        # the pilot's static value: characters 3 + damage + DP/10 (+2 Aggressive), other cards 1
        # (2 with a modelled draw / mill); the name the same-name rule checks ("" for a conversion,
        # which replaces its target)
        if self.is_char:
            self.base = 3.0 + self.damage + 0.1 * self.dp + (2.0 if self.aggressive else 0.0)
            self.same_name = "" if card.conversion_target else card.name
            self.dup_value = 0.5 + 0.01 * self.ex  # its name is already on the field
            self.free_value = self.base + 5.0  # an AF slot it may enter is free
        else:
            drawish = any(e.get("kind") in ("draw", "opp_mill") for e in card.effects)
            self.base = self.dup_value = self.free_value = 2.0 if drawish else 1.0
            self.same_name = ""


# Keyed by the record itself (``eq=False``: hashed and compared by identity). Each entry keeps its
# card alive, so a key is never another card's; cleared wholesale when it grows too large.
CARD_INFO: dict[CardRecord, CardInfo] = {}
_CACHE_LIMIT = 50_000


def info_of(card: CardRecord) -> CardInfo:
    """The card's ``CardInfo`` (cached)."""
    info = CARD_INFO.get(card)
    if info is None:
        if len(CARD_INFO) > _CACHE_LIMIT:
            CARD_INFO.clear()
        info = CARD_INFO[card] = CardInfo(card)
    return info


def mana_of(card: CardRecord) -> tuple[str, ...]:
    """Attributes a discarded card can provide (a colorless card provides only ``star``)."""
    return info_of(card).attrs
