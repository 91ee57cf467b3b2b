"""Small invented card pools and legal decks for each game, for tests and demos (not fixtures).

``test_cards(game)`` returns card dicts in the card JSON format; ``legal_deck(game)`` a legal
``{zone: {code: count}}`` made of them; ``cards_create(games)`` saves the cards in the catalog.
"""
from __future__ import annotations

from typing import Any

from rules import games as g
from rules.cards import CardRecord


def _pc() -> list[dict[str, Any]]:
    cards = [
        {"code": f"PCT-{i:03d}", "name": f"PC Hero {i}", "card_type": "character", "colors": [g.PC_COLORS[i % 4]],
         "work": "Test", "number": f"{i:03d}", "cost": i % 4, "cp": 3000 + 500 * (i % 3), "rank": 1 + i % 2,
         "bonus_mark": g.PC_BONUS_MARKS[i % 4]}
        for i in range(1, 15)
    ]
    cards.append({"code": "PCT-001a", "name": "PC Hero 1 (parallel)", "card_type": "character", "colors": ["red"],
                  "work": "Test", "number": "001a", "cost": 1, "cp": 3000, "rank": 1})
    cards.append({"code": "PCT-E01", "name": "PC Spark", "card_type": "event", "colors": ["blue"], "work": "Test",
                  "number": "E01", "cost": 1, "bonus_mark": "DRAW"})
    return cards


def _phantasma() -> list[dict[str, Any]]:
    attrs = g.PHANTASMA_ATTRIBUTES
    cards = [
        {"code": f"PHT-{i:03d}", "name": f"Phantom {i}", "card_type": "character", "attributes": [attrs[i % 5]],
         "work": "Test", "number": f"{i:03d}", "cost": 1 + i % 3, "cost_detail": {"white": 1 + i % 3}, "mhp": 300 + 10 * i,
         **{a: 100 + 10 * ((i + k) % 5) for k, a in enumerate(attrs)}}
        for i in range(1, 17)
    ]
    cards += [
        {"code": f"PHT-X{i}", "name": f"Secret Art {i}", "card_type": "ex_skill", "work": "Test", "number": f"X{i}",
         "ex_condition": 2 + i}
        for i in range(1, 5)
    ]
    cards.append({"code": "PHT-B01", "name": "Clash", "card_type": "battle", "work": "Test", "number": "B01",
                  "attack_attribute": "martial", "defense_attribute": "poise"})
    return cards


def _ws() -> list[dict[str, Any]]:
    cards = [
        {"code": f"WST/W01-{i:03d}", "name": f"Idol {i}", "card_type": "character", "colors": [g.WS_COLORS[i % 2]],
         "level": i % 4, "cost": max(0, i % 4 - 1), "power": 1500 + 1000 * (i % 4), "soul": 1 + (i % 4 == 3),
         "triggers": ["soul"] if i % 4 == 3 else []}
        for i in range(1, 12)
    ]
    cards += [
        {"code": f"WST/W01-C{i}", "name": f"Finale {i}", "card_type": "climax", "colors": ["yellow"],
         "triggers": ["soul", "soul"] if i == 1 else ["draw"], "effects": [{"kind": "climax_bonus", "power": 1000, "soul": 1}]}
        for i in range(1, 4)
    ]
    return cards


def _chaos() -> list[dict[str, Any]]:
    attrs = g.CHAOS_ATTRIBUTES
    cards = [
        {"code": f"CHT-{i:03d}", "name": f"Knight【Hero {i}】", "card_type": "character", "title": "Knight",
         "person": f"Hero {i}", "attributes": [attrs[i % 7]], "gender": "female", "atk": 1 + i % 4,
         "defense": 1 + i % 3, "partner_atk": 2, "partner_def": 1}
        for i in range(1, 14)
    ]
    cards += [
        {"code": f"CHT-X{i:02d}", "name": f"Union【Pair {i}】", "card_type": "extra", "title": "Union",
         "person": f"Pair {i}", "attributes": ["light"], "atk": 5, "defense": 4, "extra_persons": ["Hero 1", f"Hero {i + 1}"]}
        for i in range(1, 4)
    ]
    cards.append({"code": "CHT-E01", "name": "Rally", "card_type": "event", "timing": "MAIN"})
    return cards


def _lycee() -> list[dict[str, Any]]:
    attrs = ("snow", "moon", "flower")
    cards = [
        {"code": f"CH-T{i:03d}", "name": f"Student {i}", "card_type": "character", "attributes": [attrs[i % 3]],
         "cost": 1 + i % 2, "cost_detail": {attrs[i % 3]: 1, **({"star": 1} if i % 2 else {})},
         "ap": 1 + i % 3, "dp": 1 + i % 2, "sp": 1, "ex": 1 + i % 2}
        for i in range(1, 17)
    ]
    cards.append({"code": "CH-T100", "name": "Many Sisters", "card_type": "character", "attributes": ["snow"],
                  "cost": 1, "cost_detail": {"snow": 1}, "ap": 1, "dp": 1, "sp": 1, "ex": 1, "copy_limit": 8})
    cards.append({"code": "CH-T200", "name": "Sun Mage", "card_type": "character", "attributes": ["moon"],
                  "cost": 1, "cost_detail": {"sun": 1}, "ap": 2, "dp": 2, "sp": 1, "ex": 1})
    cards.append({"code": "EV-T001", "name": "Study Hall", "card_type": "event", "attributes": ["moon"],
                  "cost": 0, "ex": 2})
    return cards


def _pc_deck() -> dict[str, dict[str, int]]:
    return {"main": {**{f"PCT-{i:03d}": 3 for i in range(1, 14)}, "PCT-014": 1}}


def _phantasma_deck() -> dict[str, dict[str, int]]:
    return {"main": {f"PHT-{i:03d}": 4 for i in range(1, 16)}, "ace": {"PHT-016": 1},
            "ex": {"PHT-X1": 1, "PHT-X2": 1}}


def _ws_deck() -> dict[str, dict[str, int]]:
    main = {f"WST/W01-{i:03d}": 4 for i in range(1, 11)}
    return {"main": {**main, "WST/W01-011": 2, "WST/W01-C1": 4, "WST/W01-C2": 4}}


def _chaos_deck() -> dict[str, dict[str, int]]:
    main = {f"CHT-{i:03d}": 4 for i in range(1, 13)}
    return {"main": {**main, "CHT-E01": 2}, "extra": {"CHT-X01": 2, "CHT-X02": 2}, "partner": {"CHT-001": 1}}


def _lycee_deck() -> dict[str, dict[str, int]]:
    return {"main": {f"CH-T{i:03d}": 4 for i in range(1, 16)}}


# game -> (its card pool, a legal deck of that pool)
_POOLS = {
    g.PC: (_pc, _pc_deck), g.PHANTASMA: (_phantasma, _phantasma_deck), g.WS: (_ws, _ws_deck),
    g.CHAOS: (_chaos, _chaos_deck), g.LYCEE: (_lycee, _lycee_deck),
}


def test_cards(game: str) -> list[dict[str, Any]]:
    return [{"game": game, **c} for c in _POOLS[game][0]()]


test_cards.__test__ = False  # not a pytest test


def test_records(game: str) -> dict[str, CardRecord]:
    return {c["code"]: CardRecord.from_dict(c) for c in test_cards(game)}


test_records.__test__ = False


def legal_deck(game: str) -> dict[str, dict[str, int]]:
    if game not in _POOLS:
        raise ValueError(game)
    return _POOLS[game][1]()


def cards_create(games: tuple[str, ...] = g.GAMES) -> int:
    """Save the test pools into the catalog (skipping codes already there). Returns how many were made."""
    from catalog.services import cards_create_missing

    # tests/test_construction.py checks every pool card with validate_card
    return sum(cards_create_missing(game=game, cards=test_cards(game)) for game in games)
