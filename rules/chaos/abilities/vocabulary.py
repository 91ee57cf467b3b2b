"""The Chaos compiled-ability vocabulary: every ``kind`` the compiler produces, one line each.

Shared parameter shapes: a *target* is ``{"ref": "this"|"it"|"equipped"|"partner", ...}`` or a
chosen character ``{"choose": n, "side": "own"|"opponent", "in_battle": true}``; ``until`` is
``"end_of_turn"``; ``optional`` is true for "you may".
"""
from __future__ import annotations

ABILITY_KINDS: tuple[tuple[str, str], ...] = (
    ("keyword", "[Always] Penetrate / First Strike / First Defense / Maintain: <cost>"),
    ("always", "[Always] (black text): applies as partner and as ally"),
    ("ally", "[Ally] (red text): applies only while the character is an ally"),
    ("partner", "[Partner] (blue text): applies only while the character is the partner"),
    ("event", "an event's effect, with its timing (MAIN / BATTLE) and 【Use】 condition"),
    ("set", "a Set card: what it equips and its continuous or upkeep abilities"),
    ("summon_condition", "【登場】: the character can be summoned only when the condition holds"),
    ("levelup_condition", "【LEVELUP】: the character levels up from the hand only when the condition holds"),
)

EFFECT_KINDS: tuple[tuple[str, str], ...] = (
    ("keyword", "a keyword: params name (penetrate, first_strike, first_defense, maintain), cost"),
    ("stat_mod", "ATK/DEF change of the target: params target, atk, def, until"),
    ("draw", "draw cards: params count, player (self / each)"),
    ("discard", "discard cards from the hand: params count, optional"),
    ("look", "look at the top cards of your deck: params count"),
    ("to_hand", "put a card (chosen from the waiting room or looked at) into the hand: params source, count"),
    ("to_waiting_room", "put cards (the rest looked at, or this card) into the waiting room: params target"),
    ("equip", "a Set card equips a character: params target"),
    ("grant", "the target gains a keyword: params target, keyword"),
    ("cannot_attack", "the target cannot attack: params target"),
    ("replace_stun", "instead of the equipped character being stunned, this card goes to the waiting room"),
    ("choose", "choose one of the listed effects: params options"),
)

TRIGGER_KINDS: tuple[tuple[str, str], ...] = (
    ("attacks", "a character attacks: params who (this / opponent_character / ...)"),
    ("summoned", "this character is summoned as an ally"),
    ("levels_up", "this character levels up"),
    ("stuns", "this character stuns a character in battle"),
    ("stunned", "this character becomes stunned (would_be: the replacement form)"),
    ("turn_start", "the start of your turn"),
    ("battle_phase_start", "the start of your battle phase"),
)

CONDITION_KINDS: tuple[tuple[str, str], ...] = (
    ("timing", "an event's timing: params timing (MAIN / BATTLE)"),
    ("partner_is", "your partner has a trait / name: params trait or name"),
    ("field_has", "you have characters on your field: params trait or name, min"),
    ("once_per_turn", "the ability works once per turn"),
    ("if_done", "the previous optional effect was done (if you do)"),
)

ALL_KINDS: frozenset[str] = frozenset(
    k for table in (EFFECT_KINDS, TRIGGER_KINDS, CONDITION_KINDS) for k, _ in table
)
