"""The five games: short codes, card types, enumerations and per-game constants from GAMES.md.

This module is the single source of truth for enumerations; the catalog model, the query language
and the engines all read them from here.
"""
from __future__ import annotations

from dataclasses import dataclass

PC = "pc"
PHANTASMA = "phantasma"
WS = "ws"
CHAOS = "chaos"
LYCEE = "lycee"

GAMES: tuple[str, ...] = (PC, PHANTASMA, WS, CHAOS, LYCEE)
GAME_NAMES: dict[str, str] = {
    PC: "Prism Connect",
    PHANTASMA: "Phantasmagoria",
    WS: "Weiß Schwarz",
    CHAOS: "Chaos TCG",
    LYCEE: "Lycee",
}

# Card types per game (codes stored in Card.card_type).
CARD_TYPES: dict[str, tuple[str, ...]] = {
    PC: ("character", "event", "scene"),
    PHANTASMA: ("character", "battle", "item", "event", "ex_skill"),
    WS: ("character", "event", "climax"),
    CHAOS: ("character", "extra", "event", "set"),
    LYCEE: ("character", "event", "item", "area"),
}
ALL_CARD_TYPES: tuple[str, ...] = tuple(sorted({t for ts in CARD_TYPES.values() for t in ts}))

# Colors / attributes.
PC_COLORS = ("red", "blue", "yellow", "green")
WS_COLORS = ("yellow", "green", "red", "blue")
PHANTASMA_ATTRIBUTES = ("martial", "agility", "wisdom", "craft", "poise")
CHAOS_ATTRIBUTES = ("earth", "water", "fire", "wind", "light", "dark", "none")
LYCEE_ATTRIBUTES = ("snow", "moon", "flower", "space", "sun", "star")  # star = none/colorless (無)
COLORS: dict[str, tuple[str, ...]] = {PC: PC_COLORS, WS: WS_COLORS}
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    PHANTASMA: PHANTASMA_ATTRIBUTES,
    CHAOS: CHAOS_ATTRIBUTES,
    LYCEE: LYCEE_ATTRIBUTES,
}

PC_BONUS_MARKS = ("", "RANK+1", "LIFE+1", "DRAW")
PC_KEYWORDS = ("connect_mark", "support_mark")

WS_TRIGGERS = (
    "soul", "draw", "pool", "comeback", "return", "treasure", "shot", "gate", "choice", "standby",
)

CHAOS_GENDERS = ("female", "male", "both")
CHAOS_KEYWORDS = ("penetrate", "first_strike", "first_defense", "maintain")
CHAOS_TIMINGS = ("MAIN", "BATTLE")

LYCEE_SLOTS = ("AF-L", "AF-C", "AF-R", "DF-L", "DF-C", "DF-R")
LYCEE_KEYWORDS = (
    "dash", "aggressive", "step", "sidestep", "orderstep", "jump", "escape", "sideattack",
    "tax_trash", "tax_wakeup", "supporter", "touch", "attacker", "defender", "bonus", "deck_bonus",
    "penalty",
)

KEYWORDS: dict[str, tuple[str, ...]] = {
    PC: PC_KEYWORDS,
    PHANTASMA: (),
    WS: (),
    CHAOS: CHAOS_KEYWORDS,
    LYCEE: LYCEE_KEYWORDS,
}

# Structured effect kinds the engines model (Card.effects entries carry {"kind": ...}).
EFFECT_KINDS: dict[str, tuple[str, ...]] = {
    PC: (),
    PHANTASMA: ("attack_mod", "defense_mod", "heal"),
    WS: ("climax_bonus",),
    CHAOS: (),
    # Lycee: stat_mod {ap, dp, sp} (items: the equipped character; areas: the character in that
    # slot); draw / opp_mill {n, when: play | deck_bonus | bonus | penalty} (I draw n / the opponent mills n)
    LYCEE: ("stat_mod", "draw", "opp_mill"),
}


@dataclass(frozen=True)
class GameConstants:
    deck_size: int
    copy_limit: int
    opening_hand: int
    draws_per_turn: int
    first_turn_draws: int
    hand_limit: int


CONSTANTS: dict[str, GameConstants] = {
    PC: GameConstants(deck_size=40, copy_limit=3, opening_hand=6, draws_per_turn=1, first_turn_draws=0, hand_limit=6),
    PHANTASMA: GameConstants(deck_size=60, copy_limit=4, opening_hand=7, draws_per_turn=2, first_turn_draws=1, hand_limit=7),
    WS: GameConstants(deck_size=50, copy_limit=4, opening_hand=5, draws_per_turn=1, first_turn_draws=1, hand_limit=7),
    CHAOS: GameConstants(deck_size=50, copy_limit=4, opening_hand=5, draws_per_turn=1, first_turn_draws=1, hand_limit=7),
    LYCEE: GameConstants(deck_size=60, copy_limit=4, opening_hand=7, draws_per_turn=2, first_turn_draws=1, hand_limit=7),
}

# Deck zones in the deck text format (`# main`, `# extra`, ...) and which games have them.
ZONES: tuple[str, ...] = ("main", "extra", "ace", "ex", "partner")
GAME_ZONES: dict[str, tuple[str, ...]] = {
    PC: ("main",),
    PHANTASMA: ("main", "ace", "ex"),
    WS: ("main",),
    CHAOS: ("main", "extra", "partner"),
    LYCEE: ("main",),
}
