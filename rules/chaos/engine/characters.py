"""Chaos TCG's characters on the field: identity (title+name), the partner and its level ups,
directions and blocked battles."""
from __future__ import annotations

from rules.cards import CardRecord

STAND, REST, REVERSE = 0, 1, 2
DIRECTION = ("stand", "rest", "reverse")


def identity(card: CardRecord) -> str:
    """Title+name of a character: the partner, level-up and deck-damage identity."""
    return f"{card.title}【{card.person}】"


class Char:
    """A character on the field: top card, current ATK/DEF, direction, face-down, damage, stack and
    the Set cards equipped to it."""

    __slots__ = ("card", "atk", "dfn", "state", "face_down", "dmg", "under", "level", "sets")

    def __init__(self, card: CardRecord, atk: int, dfn: int) -> None:
        self.card = card
        self.atk = atk
        self.dfn = dfn
        self.state = STAND
        self.face_down = False
        self.dmg = 0
        self.under: list[CardRecord] = []
        self.level = 0
        self.sets: list[CardRecord] = []


def partner_char(card: CardRecord) -> Char:
    """A revealed partner: printed ATK/DEF plus its partner bonus (2/2 with +3/+2 → 5/4)."""
    return Char(card, (card.atk or 0) + (card.partner_atk or 0), (card.defense or 0) + (card.partner_def or 0))


def level_up(char: Char, card: CardRecord) -> None:
    """Put ``card`` on ``char``: the bonus applies again (5/4 → 8/6 with +3/+2), it stands, damage resets."""
    char.under.append(char.card)
    char.card = card
    char.atk += card.partner_atk or 0
    char.dfn += card.partner_def or 0
    char.state = STAND
    char.dmg = 0
    char.level += 1


def improve(char: Char) -> None:
    """One step: reverse → rest → stand."""
    if char.state:
        char.state -= 1


def resolve_block(
    attacker: tuple[int, int, int, tuple[str, ...]], defender: tuple[int, int, int, tuple[str, ...]]
) -> tuple[int, int, int]:
    """A blocked battle, each side ``(ATK, DEF, damage already taken, keywords)``.

    Returns ``(damage to the defender, damage to the attacker, deck damage)``. First strike (the
    attacker) / first defense (the defender) deal their damage first, and a side it stuns deals none
    back; both present, or neither → simultaneous. Penetrate: the attacker's damage in excess of
    the defender's DEF becomes deck damage. Stunned = accumulated damage exceeds DEF.
    """
    a_atk, a_def, a_dmg, a_kw = attacker
    d_atk, d_def, d_dmg, d_kw = defender
    a_first = "first_strike" in a_kw
    d_first = "first_defense" in d_kw
    to_def, to_att = a_atk, d_atk
    if a_first and not d_first and d_dmg + a_atk > d_def:
        to_att = 0
    elif d_first and not a_first and a_dmg + d_atk > a_def:
        to_def = 0
    deck = to_def - d_def if "penetrate" in a_kw and to_def > d_def else 0
    return to_def, to_att, deck
