"""Phantasmagoria's cards in play: per-card data (``CardInfo``), characters, the dummy ACE, battles
and the structured effects the engine executes (``attack_mod``, ``defense_mod``, ``heal``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.cards import CardRecord

ATTRS = ("martial", "agility", "wisdom", "craft", "poise")
def _fold(values: dict[str, Any], item: CardRecord, sign: int) -> None:
    """An equipped item's modifiers apply to whoever holds it, whatever their sign.

    ``values`` holds the five ability values plus the item totals under ``"atk"`` and ``"def"``;
    attack/defense values read ``values[attr] + values["atk"|"def"] + until-end-of-turn mods``.
    """
    for e in item.effects:
        k = e.get("kind")
        if k == "attack_mod":
            values["atk"] += sign * amount(e)
        elif k == "defense_mod":
            values["def"] += sign * amount(e)


def amount(effect: Mapping[str, Any]) -> int:
    """An effect's number: ``amount`` (the card format's key) or ``value``."""
    return int(effect.get("amount", effect.get("value", 0)) or 0)


def effect_target(effect: Mapping[str, Any]) -> int:
    """+1 = one of my characters, -1 = the opponent's. Default: by the sign of the amount."""
    t = effect.get("target")
    if t in ("self", "own", "own_character", "equipped"):
        return 1
    if t in ("opponent", "enemy", "opponent_character", "opponent_ace"):
        return -1
    return 1 if amount(effect) >= 0 or effect.get("kind") == "heal" else -1


_MODELLED: dict[int, tuple[CardRecord, tuple[Mapping[str, Any], ...]]] = {}


def modelled_effects(card: CardRecord) -> tuple[Mapping[str, Any], ...]:
    """The card's structured effects this engine executes (cached by identity, checked with ``is``)."""
    if not card.effects:
        return ()
    hit = _MODELLED.get(id(card))
    if hit is None or hit[0] is not card:
        if len(_MODELLED) > 50_000:
            _MODELLED.clear()
        hit = _MODELLED[id(card)] = (
            card, tuple(e for e in card.effects if e.get("kind") in ("attack_mod", "defense_mod", "heal")))
    return hit[1]


class CardInfo:
    """What the engine and the pilot read from a card over and over, computed once per card
    (records are immutable)."""

    __slots__ = ("card", "code", "card_type", "is_battle", "is_char", "number", "values", "worth", "power",
                 "char_value", "other_value", "effects", "buff", "cost", "unpayable", "white", "blue")

    def __init__(self, card: CardRecord) -> None:
        self.card = card
        self.code = card.code
        self.card_type = t = card.card_type
        self.is_battle = t == "battle"
        self.is_char = t == "character"
        self.number = f"{card.work}|{card.number or card.code}"  # the same-number rule
        self.values = {a: getattr(card, a) or 0 for a in ATTRS}  # printed ability values
        self.worth = max(self.values[a] for a in ATTRS)
        self.power = self.worth + (card.mhp or 0) / 10  # the pilot's deploy preference (after _hit)
        self.char_value = 5.0 + self.worth / 100.0  # hand value of a character (number not on my field)
        self.effects = modelled_effects(card)
        self.other_value = 3.0 if self.effects else 1.0  # hand value of an item / event / other card
        cost = card.cost_detail
        self.cost = cost or {"white": card.cost or 0}
        # red and HP symbols are ability costs: not modelled, such a card cannot be paid
        self.unpayable = bool(self.cost.get("red") or self.cost.get("hp"))
        self.white = self.cost.get("white", 0)
        self.blue = self.cost.get("blue")
        # an item / event the pilot may play to help an attack: modelled effects, no cost that rests
        self.buff = (t in ("item", "event") and bool(self.effects)
                     and not (cost and (cost.get("blue") or cost.get("red") or cost.get("hp"))))


# Keyed by the record itself (``eq=False``: hashed and compared by identity). Each entry keeps its
# card alive, so a key is never another card's; cleared wholesale when it grows too large.
CARD_INFO: dict[CardRecord, CardInfo] = {}


def info_of(card: CardRecord) -> CardInfo:
    """The card's ``CardInfo`` (cached)."""
    info = CARD_INFO.get(card)
    if info is None:
        if len(CARD_INFO) > 50_000:
            CARD_INFO.clear()
        info = CARD_INFO[card] = CardInfo(card)
    return info


class Char:
    """A character in play: printed values, MHP (doubled for an ACE), damage + HP lost, modifiers."""

    __slots__ = ("card", "values", "mhp", "dmg", "rested", "atk_mod", "def_mod", "items", "is_ace", "number", "worth")

    def __init__(self, card: CardRecord, is_ace: bool = False) -> None:
        self.card = card
        info = CARD_INFO.get(card) or info_of(card)
        self.values = {**info.values, "atk": 0, "def": 0}  # a copy: items fold into it
        self.mhp = (card.mhp or 0) * (2 if is_ace else 1)
        self.dmg = 0
        self.rested = True  # the ACE starts the game rested; other characters enter rested
        self.atk_mod = 0  # until end of turn
        self.def_mod = 0
        self.items: list[CardRecord] = []
        self.is_ace = is_ace
        self.number = info.number
        self.worth = info.worth

    def equip(self, item: CardRecord) -> None:
        """Items' attack/defense modifiers last while equipped: folded into the printed values."""
        self.items.append(item)
        _fold(self.values, item, 1)

    def attack_value(self, attr: str) -> int:
        v = self.values
        return v[attr] + v["atk"] + self.atk_mod

    def defense_value(self, attr: str) -> int:
        v = self.values
        return v[attr] + v["def"] + self.def_mod

    @property
    def hp(self) -> int:
        return self.mhp - self.dmg


class Dummy:
    """The goldfish ACE: fixed values, MHP, accumulated damage and the modifiers my cards give it."""

    __slots__ = ("values", "mhp", "dmg", "atk_mod", "def_mod", "items")

    def __init__(self, values: Mapping[str, int], mhp: int) -> None:
        self.values = dict(values)
        self.values["atk"] = self.values["def"] = 0
        self.mhp = mhp
        self.dmg = 0
        self.atk_mod = 0
        self.def_mod = 0
        self.items: list[CardRecord] = []

    def equip(self, item: CardRecord) -> None:
        self.items.append(item)
        _fold(self.values, item, 1)

    def attack_value(self, attr: str) -> int:
        v = self.values
        return v[attr] + v["atk"] + self.atk_mod

    def defense_value(self, attr: str) -> int:
        v = self.values
        return v[attr] + v["def"] + self.def_mod


def battle_damage(attacker: Char, defender: Char | Dummy, atk_attr: str, def_attr: str) -> tuple[int, int]:
    """Both-ways battle result: (damage to the defender, damage to the attacker)."""
    to_def = attacker.attack_value(atk_attr) - defender.defense_value(def_attr)
    to_att = defender.attack_value(atk_attr) - attacker.defense_value(def_attr)
    return (to_def if to_def > 0 else 0), (to_att if to_att > 0 else 0)


def heal(char: Char, effect: Mapping[str, Any]) -> None:
    """Remove ``value`` damage (all of it when no value is given)."""
    n = amount(effect) or char.dmg
    char.dmg = max(0, char.dmg - n)
