"""Lycee's field: characters in play, Step-family moves, support neighbours and battles."""
from __future__ import annotations

from rules.cards import CardRecord

from .info import ALL_SLOTS, info_of

# orthogonal neighbours of each slot (rows AF=0..2, DF=3..5)
NEIGHBOURS: tuple[tuple[int, ...], ...] = (
    (1, 3), (0, 2, 4), (1, 5),
    (0, 4), (1, 3, 5), (2, 4),
)


def moves(slot: int, keyword: str) -> tuple[int, ...]:
    col, row = slot % 3, slot // 3
    if keyword == "jump":
        return tuple(s for s in ALL_SLOTS if s != slot)
    side = tuple(row * 3 + c for c in (col - 1, col + 1) if 0 <= c < 3)
    order = ((1 - row) * 3 + col,)
    if keyword == "sidestep":
        return side
    if keyword == "orderstep":
        return order
    return side + order  # step


def battle_result(att_ap: int, att_dp: int, def_ap: int, def_dp: int,
                  att_dash: bool = False, def_dash: bool = False) -> tuple[bool, bool]:
    """(attacker downed, defender downed): a character whose DP is lower than the opposing AP is
    downed; Dash: if the opposing character is downed, the Dash character is not."""
    def_down = def_dp < att_ap
    att_down = att_dp < def_ap
    if att_dash and not def_dash and def_down:
        att_down = False
    elif def_dash and not att_dash and att_down:
        def_down = False
    return att_down, def_down


# shared empty containers a new character starts with (never written: replaced on first write)
NONE: list = []
NO_USES: dict = {}


class Char:
    """A character on the field."""

    __slots__ = ("card", "info", "standing", "entered", "item", "moved", "touched", "supported", "ap", "dp", "sp",
                 "dmg", "names", "dmg_lasting", "aggressive", "charge", "uses", "skip_wakeup", "bonus_ops", "under", "item_under")

    def __init__(self, card: CardRecord, turn: int) -> None:
        self.card = card
        self.info = info = info_of(card)
        self.standing = True
        self.entered = turn
        self.item: CardRecord | None = None
        self.moved = False  # a Step-family keyword used this turn
        self.touched = False  # Touch used this turn
        self.supported = False  # Supporter used this turn
        self.ap = card.ap or 0  # current values (item, area and until-end-of-turn changes included)
        self.dp = card.dp or 0
        self.sp = card.sp or 0
        self.dmg = info.damage  # the damage it deals (printed DMG, or AP for a card without DMG), changes included
        self.names = info.names
        self.dmg_lasting = 0  # DMG changes it gained ("を得る": they stay while it is on the field)
        self.aggressive = info.aggressive  # printed, or gained
        # (the containers below start as shared empty ones and are replaced when first written)
        self.charge: list[CardRecord] = NONE  # its charge (cards under it, from the top of my deck)
        self.uses: dict[int, int] = NO_USES  # its abilities used this turn (ability index -> times)
        self.skip_wakeup = False  # it does not wake up at my next wake-up
        self.bonus_ops: tuple = ()  # [ボーナス] abilities it gained (tuples of abilities.Op)
        self.under: list[CardRecord] = NONE  # cards put under it (このキャラの下)
        self.item_under: list[CardRecord] = NONE  # cards put under its item (このアイテムの下)


def stat_mods(card: CardRecord | None) -> tuple[int, int, int, int]:
    """(AP, DP, SP, DMG) changes of an item's or area's structured ``stat_mod`` effects."""
    if card is None:
        return 0, 0, 0, 0
    ap = dp = sp = dmg = 0
    for e in card.effects:
        if e.get("kind") == "stat_mod":
            ap += int(e.get("ap", 0))
            dp += int(e.get("dp", 0))
            sp += int(e.get("sp", 0))
            dmg += int(e.get("dmg", 0))
    return ap, dp, sp, dmg
