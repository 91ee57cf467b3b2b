"""What the Chaos goldfish engine plays of a card's compiled abilities (``rules.chaos.abilities``).

Each card's abilities (``CardRecord.abilities``, else compiled from its text) are read once into a
:class:`Plan`: an event's timing, use conditions and effects; a Set card's target, ATK/DEF bonus
and upkeep; a character's ``【登場】`` / ``【LEVELUP】`` conditions and the triggers the engine runs
(summoned, levels up, attacks, start of the battle phase) and ``cannot attack``.

``classify_ability`` and ``plays_card`` are the coverage contract (``rules.coverage``): what the
engine plays, what changes nothing in a goldfish game (the dummy never defends, never attacks and
plays nothing: no battle is fought, so DEF, first strike / defense, penetrate and stun triggers
never matter) and what it does not play.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.abilities import NO_EFFECT, NOT_PLAYED, NOT_UNDERSTOOD, PLAYED, Ability, Coverage, Effect
from rules.cards import CardRecord
from rules.engine.core import gettext_noop

NO_BATTLE = gettext_noop("the dummy never defends, so no battle is fought: DEF, first strike / defense, "
                         "penetrate and stuns never matter")
DUMMY_NEVER_ATTACKS = gettext_noop("the dummy never attacks")
DUMMY_HAS_NO_CHARACTERS = gettext_noop("the dummy's partner never battles: changing it changes nothing")
CONDITIONS_KNOWN = ("timing", "partner_is", "field_has", "once_per_turn", "if_done")


def _mine(target: Any) -> bool:
    return isinstance(target, dict) and (target.get("side") == "own" or target.get("ref") in (
        "this", "it", "equipped", "partner"))


def effect_status(e: Effect, kind: str) -> tuple[str, str]:
    """How the engine treats one effect of an ability of ``kind`` (event, set, always, ally, partner)."""
    k, p = e.kind, e.params
    if k == "stat_mod":
        if not _mine(p.get("target")):
            return NO_EFFECT, DUMMY_HAS_NO_CHARACTERS
        return (PLAYED, "") if p.get("atk") else (NO_EFFECT, NO_BATTLE)
    if k == "draw" and p.get("player", "self") in ("self", "each"):
        return PLAYED, ""
    if k == "discard" and (kind == "event" and p.get("optional") or kind != "event"):
        return PLAYED, ""
    if k == "look" and not p.get("optional"):
        return PLAYED, ""
    if k == "to_hand" and p.get("source") in ("looked", "waiting_room"):
        return PLAYED, ""
    if k == "to_waiting_room" and p.get("target") in ("rest_looked", "this"):
        return PLAYED, ""
    if k == "equip" and _mine(p.get("target")):
        return PLAYED, ""
    if k == "cannot_attack" and p.get("target", {}).get("ref") == "this":
        return PLAYED, ""
    if k in ("grant", "replace_stun"):
        return NO_EFFECT, NO_BATTLE
    if k == "choose":
        statuses = [effect_status(x, kind) for opt in p.get("options", ()) for x in (Effect.from_dict(o) if isinstance(
            o, dict) else o for o in opt)]
        return (PLAYED, "") if statuses and all(s == PLAYED for s, _ in statuses) else (NOT_PLAYED, "")
    return NOT_PLAYED, gettext_noop("the engine does not play this effect")


def classify_ability(ability: Ability, card: CardRecord) -> Coverage:
    """The coverage of one compiled Chaos ability (``rules.coverage``)."""
    if ability.unrecognised is not None:
        return Coverage(NOT_UNDERSTOOD, ability.unrecognised)
    kind = ability.kind
    if kind == "keyword":
        if "maintain" in ability.keywords:
            return Coverage(PLAYED)
        return Coverage(NO_EFFECT, NO_BATTLE)
    if kind in ("summon_condition", "levelup_condition"):
        if all(c.kind in ("partner_is", "field_has") for c in ability.conditions):
            return Coverage(PLAYED)
        return Coverage(NOT_PLAYED, gettext_noop("the engine does not check this condition"))
    if any(c.kind not in CONDITIONS_KNOWN for c in ability.conditions):
        return Coverage(NOT_PLAYED, gettext_noop("the engine does not check this condition"))
    trig = ability.trigger
    if trig is not None:
        who = trig.params.get("who", "this")
        if trig.kind == "attacks" and who != "this":
            return Coverage(NO_EFFECT, DUMMY_NEVER_ATTACKS)
        if trig.kind in ("stuns", "stunned"):
            return Coverage(NO_EFFECT, NO_BATTLE)
        if trig.kind not in ("attacks", "summoned", "levels_up", "battle_phase_start", "turn_start"):
            return Coverage(NOT_PLAYED, gettext_noop("the engine does not run this trigger"))
        if trig.kind == "turn_start" and card.card_type != "set":
            return Coverage(NOT_PLAYED, gettext_noop("the engine does not run this trigger"))
        if trig.kind == "summoned" and kind == "partner":
            return Coverage(NO_EFFECT, gettext_noop("a partner is never summoned"))
    statuses = [effect_status(e, kind) for e in ability.effects]
    if not statuses:
        return Coverage(NOT_PLAYED, gettext_noop("the engine does not play this ability"))
    for status, reason in statuses:
        if status == NOT_PLAYED:
            return Coverage(NOT_PLAYED, reason or gettext_noop("the engine does not play this effect"))
    if all(s == NO_EFFECT for s, _ in statuses):
        return Coverage(NO_EFFECT, statuses[0][1])
    return Coverage(PLAYED)


@dataclass(slots=True)
class Plan:
    """One card's abilities as the engine uses them."""

    abilities: tuple[Ability, ...] = ()
    never: str | None = None  # why the engine never plays the card (None: it does)
    timing: str = ""  # event: MAIN / BATTLE
    use: tuple[Effect, ...] = ()  # event: its 【Use】 conditions
    effects: tuple[Effect, ...] = ()  # event effects; Set: the equip effect first
    summon_if: tuple[Effect, ...] = ()
    levelup_if: tuple[Effect, ...] = ()
    # triggered effects: (tag, effects) with tag always / ally / partner
    on: dict[str, list[tuple[str, tuple[Effect, ...]]]] = field(default_factory=dict)
    cannot_attack: bool = False
    equip_to: str = ""  # Set: "own" (any of your characters) or "partner"
    set_atk: int = 0
    set_def: int = 0
    upkeep: tuple[Effect, ...] = ()  # Set: the start-of-turn choice
    useful: bool = False  # an event / Set that can change a goldfish game (ATK, cards)
    takes: int = 0  # event: cards it draws or looks at from the deck
    fetch: bool = False  # event: a card from the waiting room into the hand
    pump: bool = False  # event: ATK up for a character of yours
    own_target: bool = False  # event: its stat change targets one of your characters (a slot is chosen)


def compiled_abilities(card: CardRecord) -> tuple[Ability, ...]:
    stored = getattr(card, "abilities", ())
    if stored:
        return tuple(stored)
    if not card.text or card.text.strip() in ("", "-", "－"):
        return ()
    from rules.chaos.abilities import compile_text_cached

    return compile_text_cached(card.text, card.card_type)


_PLANS: dict[tuple[str, str, int], Plan] = {}


def plan_of(card: CardRecord) -> Plan:
    """The card's :class:`Plan` (memoised by code, text and its stored abilities)."""
    key = (card.code, card.text or "", id(getattr(card, "abilities", ())) if getattr(card, "abilities", ()) else 0)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = _build(card)
    return plan


def _build(card: CardRecord) -> Plan:
    abilities = compiled_abilities(card)
    plan = Plan(abilities=abilities)
    ctype = card.card_type
    statuses = [classify_ability(a, card) for a in abilities]
    bad = next((c for c in statuses if not c.modelled), None)
    if ctype in ("event", "set"):
        if not abilities:
            plan.never = gettext_noop("events and Set cards without compiled effects are never played")
        elif bad is not None:
            plan.never = gettext_noop("an ability of this card is not played")
    for a, cov in zip(abilities, statuses, strict=True):
        if a.kind == "summon_condition":
            plan.summon_if += a.conditions
            continue
        if a.kind == "levelup_condition":
            plan.levelup_if += a.conditions
            continue
        if not cov.modelled:
            continue
        if a.kind == "event":
            plan.timing = next((c.params.get("timing", "") for c in a.conditions if c.kind == "timing"), "MAIN")
            plan.use = tuple(c for c in a.conditions if c.kind in ("partner_is", "field_has"))
            plan.effects = a.effects
            plan.useful = cov.status == PLAYED
        elif a.kind == "set":
            equip = next((e for e in a.effects if e.kind == "equip"), None)
            if equip is not None:
                target = equip.params.get("target", {})
                plan.equip_to = "partner" if target.get("ref") == "partner" else "own"
        elif a.trigger is not None:
            if cov.status != PLAYED:
                continue
            if a.trigger.kind == "turn_start" and ctype == "set":
                plan.upkeep = a.effects
            else:
                plan.on.setdefault(a.trigger.kind, []).append((a.kind, a.effects))
        else:
            for e in a.effects:
                if e.kind == "stat_mod" and ctype == "set":
                    plan.set_atk += int(e.params.get("atk", 0) or 0)
                    plan.set_def += int(e.params.get("def", 0) or 0)
                elif e.kind == "cannot_attack":
                    plan.cannot_attack = True
    if ctype == "set":
        plan.useful = plan.set_atk > 0
        if not plan.equip_to and plan.never is None:
            plan.never = gettext_noop("a Set card the engine cannot equip is never played")
    elif ctype == "event" and plan.never is None and not plan.effects:
        plan.never = gettext_noop("an event without effects the engine plays is never played")
    for e in plan.effects:
        if e.kind in ("draw", "look"):
            plan.takes += int(e.params.get("count", 1))
        elif e.kind == "to_hand" and e.params.get("source") == "waiting_room":
            plan.fetch = True
        elif e.kind == "stat_mod" and (e.params.get("atk") or 0) > 0 and _mine(e.params.get("target")):
            plan.pump = True
    plan.own_target = next((True for e in plan.effects if e.kind == "stat_mod" and isinstance(
        e.params.get("target"), dict) and e.params["target"].get("side") == "own"), False)
    return plan


def plays_card(card: CardRecord) -> str | None:
    """``None`` when the engine plays the card, else why it never does (``rules.coverage``)."""
    if card.card_type in ("character", "extra"):
        return None
    return plan_of(card).never


def conditions_met(conds: Sequence[Effect], partner: CardRecord | None, field_cards: Sequence[CardRecord]) -> bool:
    """``partner_is`` (trait / name of your partner) and ``field_has`` (at least ``min`` characters
    of yours with the trait / name on the field)."""
    for c in conds:
        p = c.params
        if c.kind == "partner_is":
            if partner is None or not _has(partner, p):
                return False
        elif c.kind == "field_has":
            if sum(1 for f in field_cards if _has(f, p)) < int(p.get("min", 1) or 1):
                return False
        else:
            return False
    return True


def _has(card: CardRecord, p: Any) -> bool:
    if p.get("trait"):
        return p["trait"] in card.traits
    if p.get("name"):
        name = p["name"]
        return card.person == name or name in card.extra_persons
    return True
