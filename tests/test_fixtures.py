"""The invented sample catalog and decks in fixtures/: complete, valid, at each game's real scale, legal decks."""
from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from catalog.cardfields import card_normalize
from catalog.models import Card
from rules import games as g
from rules.cards import CARD_FIELDS, CardRecord, validate_card
from rules.construction import validate_deck
from rules.decktext import parse_deck_text
from rules.identity import card_identity

FIXTURES = Path(settings.BASE_DIR) / "fixtures"


def load(game: str) -> list[dict]:
    data = json.loads((FIXTURES / "cards" / f"{game}.json").read_text(encoding="utf-8"))
    assert data["format"] == "tcgdb-cards" and data["version"] == 1 and data["game"] == game
    return [{"game": game, **c} for c in data["cards"]]


CARDS = {game: load(game) for game in g.GAMES}
DECKS = sorted((FIXTURES / "decks").glob("*.txt"))


def kw_names(card: dict) -> list[str]:
    return [k if isinstance(k, str) else k["name"] for k in card.get("keywords", [])]


@pytest.mark.parametrize("game", g.GAMES)
def test_every_fixture_card_is_valid(game):
    cards = CARDS[game]
    assert len(cards) >= 40
    codes = [c["code"] for c in cards]
    assert len(set(codes)) == len(codes), "codes are unique"
    for card in cards:
        assert set(card) <= CARD_FIELDS, (card["code"], set(card) - CARD_FIELDS)
        normal, problems = card_normalize(card)
        assert problems == [], (card["code"], problems)
        assert validate_card(normal) == [], (card["code"], validate_card(normal))


@pytest.mark.parametrize("game", g.GAMES)
def test_every_card_type_and_keyword_is_present(game):
    cards = CARDS[game]
    assert {c["card_type"] for c in cards} == set(g.CARD_TYPES[game])
    assert {k for c in cards for k in kw_names(c)} == set(g.KEYWORDS[game])
    assert any(c.get("text_modelled") for c in cards), "some cards are fully modelled"
    assert any(c.get("text") and not c.get("text_modelled") for c in cards), "some cards have unmodelled text"
    assert len({c["name"] for c in cards}) >= 40, "at least 40 distinct cards"


def test_pc_sample():
    cards = CARDS["pc"]
    chars = [c for c in cards if c["card_type"] == "character"]
    assert {c["cost"] for c in chars} == {0, 1, 2, 3, 4}
    assert {c.get("bonus_mark", "") for c in cards} == set(g.PC_BONUS_MARKS)
    assert {c["connect_attack"] for c in chars if c.get("connect_attack")} >= {2, 3, 4, 5}
    assert all(c["cp"] % 500 == 0 and 1000 <= c["cp"] <= 8000 and 1 <= c["rank"] <= 3 for c in chars)
    assert {col for c in cards for col in c["colors"]} == set(g.PC_COLORS)
    by_code = {c["code"]: CardRecord.from_dict(c) for c in cards}
    assert by_code["SLR-023a"].number == "023a"
    assert card_identity(by_code["SLR-023a"]) == card_identity(by_code["SLR-023"])
    assert any("&" in c["name"] for c in chars), "an A&B name"


def test_phantasma_sample():
    cards = CARDS["phantasma"]
    chars = [c for c in cards if c["card_type"] == "character"]
    assert {a for c in chars for a in c["attributes"]} == set(g.PHANTASMA_ATTRIBUTES)
    for c in chars:
        assert c["mhp"] % 100 == 0 and 300 <= c["mhp"] <= 1000
        assert all(c[a] % 100 == 0 and 100 <= c[a] <= 600 for a in g.PHANTASMA_ATTRIBUTES)
    battles = [c for c in cards if c["card_type"] == "battle"]
    assert {c["attack_attribute"] for c in battles} == set(g.PHANTASMA_ATTRIBUTES)
    assert {c["defense_attribute"] for c in battles} == set(g.PHANTASMA_ATTRIBUTES)
    assert all(c["ex_condition"] >= 1 for c in cards if c["card_type"] == "ex_skill")
    costs = [c.get("cost_detail", {}) for c in cards]
    assert any("blue" in cd for cd in costs) and any("hp" in cd for cd in costs) and any("white" in cd for cd in costs)


def test_ws_sample():
    cards = CARDS["ws"]
    chars = [c for c in cards if c["card_type"] == "character"]
    assert {(c["level"], col) for c in chars for col in c["colors"]} == {
        (lv, col) for lv in range(4) for col in g.WS_COLORS}
    assert all(c["power"] % 500 == 0 and 500 <= c["power"] <= 11000 for c in chars)
    climaxes = [c for c in cards if c["card_type"] == "climax"]
    assert {t for c in climaxes for t in c["triggers"]} == set(g.WS_TRIGGERS)
    for c in climaxes:
        assert c["effects"][0]["kind"] == "climax_bonus" and {"power", "soul"} <= set(c["effects"][0])
        assert c.get("text_modelled") is True
    assert any(c.get("counter") for c in cards if c["card_type"] == "event")
    assert any(c.get("counter") for c in chars)


def test_chaos_sample():
    cards = CARDS["chaos"]
    chars = [c for c in cards if c["card_type"] in ("character", "extra")]
    assert {c["gender"] for c in chars} == set(g.CHAOS_GENDERS)
    assert {a for c in cards for a in c.get("attributes", [])} == set(g.CHAOS_ATTRIBUTES)
    assert all(c.get("partner_atk") is not None and c.get("partner_def") is not None and c["title"] and c["person"]
               for c in chars)
    assert all(0 <= c["atk"] <= 9 and 0 <= c["defense"] <= 9 for c in chars)
    assert all(len(c["extra_persons"]) >= 2 for c in cards if c["card_type"] == "extra")
    assert {c["timing"] for c in cards if c["card_type"] == "event"} == set(g.CHAOS_TIMINGS)


def test_lycee_sample():
    cards = CARDS["lycee"]
    chars = [c for c in cards if c["card_type"] == "character"]
    assert all(c.get("ex") is not None for c in cards), "every card has an EX value"
    assert all(max(c["ap"], c["dp"], c["sp"]) <= 9 for c in chars)
    assert {s for c in chars for s in c.get("slots", [])} == set(g.LYCEE_SLOTS)
    assert any(c.get("slots") for c in chars) and any(not c.get("slots") for c in chars)
    assert any(len(c["attributes"]) > 1 for c in cards), "a multi-attribute card"
    assert {a for c in cards for a in c["attributes"]} == set(g.LYCEE_ATTRIBUTES)
    assert any(c.get("cost_detail", {}).get("star") and len(c["cost_detail"]) > 1 for c in cards)
    assert any(c.get("copy_limit") for c in cards)
    converting = [c for c in chars if c.get("conversion_target")]
    assert converting and all(any(o["name"] == c["conversion_target"] for o in chars) for c in converting)
    assert any(isinstance(k, dict) and k.get("cost") for c in chars for k in c.get("keywords", []))


@pytest.mark.django_db
def test_fixtures_load_into_the_database():
    call_command("load_sample_data", stdout=io.StringIO())
    for game in g.GAMES:
        assert Card.objects.filter(game=game).count() == len(CARDS[game]) >= 40
        assert set(Card.objects.filter(game=game).values_list("card_type", flat=True)) == set(g.CARD_TYPES[game])


# -- decks ------------------------------------------------------------------------------------------

def test_at_least_two_decks_per_game():
    per_game = Counter(p.name.split("-", 1)[0] for p in DECKS)
    assert all(per_game[game] >= 2 for game in g.GAMES), per_game


@pytest.mark.parametrize("path", DECKS, ids=[p.name for p in DECKS])
def test_sample_deck_parses_resolves_and_is_legal(path):
    game = path.name.split("-", 1)[0]
    assert game in g.GAMES
    parsed = parse_deck_text(path.read_text(encoding="utf-8"))
    assert parsed.errors == []
    own = {c["code"]: CardRecord.from_dict(c) for c in CARDS[game]}
    zones: dict[str, dict[str, int]] = {}
    for entry in parsed.entries:
        assert entry.code in own, f"{entry.code} is not a {game} fixture card"
        assert entry.name == own[entry.code].name, f"line {entry.line}: name does not match the card"
        assert entry.zone in g.GAME_ZONES[game]
        zones.setdefault(entry.zone, {})
        zones[entry.zone][entry.code] = zones[entry.zone].get(entry.code, 0) + entry.count
    result = validate_deck(game, zones, own)
    assert result["valid"], result["errors"]
    assert result["warnings"] == []
    assert sum(zones["main"].values()) == g.CONSTANTS[game].deck_size
    if game == "ws":
        assert sum(n for c, n in zones["main"].items() if own[c].card_type == "climax") == 8
        levels = Counter(own[c].level for c, n in zones["main"].items() for _ in range(n) if own[c].card_type != "climax")
        assert levels[0] >= 12 and levels[3] >= 4, levels
    if game == "phantasma":
        assert sum(zones["ace"].values()) == 1 and sum(zones.get("ex", {}).values()) <= 3
    if game == "chaos":
        assert 0 < sum(zones["extra"].values()) <= 10
        (partner,) = zones["partner"]
        assert partner in zones["main"] and own[partner].card_type == "character"


@pytest.mark.django_db
def test_fixture_files_are_in_canonical_export_form():
    """``export_cards`` reproduces each fixture file byte for byte (edit them, then re-export to tidy)."""
    call_command("load_sample_data", stdout=io.StringIO())
    for game in g.GAMES:
        out = io.StringIO()
        call_command("export_cards", "--game", game, stdout=out)
        assert out.getvalue() == (FIXTURES / "cards" / f"{game}.json").read_text(encoding="utf-8"), game
