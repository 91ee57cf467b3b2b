"""Issue 16, 1: a Chaos title is the card's own epithet (GAMES.md §4 Cards), never the product line.
Level up, deck damage and the copy limit go by title+name."""
from __future__ import annotations

import random

from catalog.importers.chaos_textproto import cards_of, convert
from rules.chaos import engine as chaos
from rules.construction import validate_deck
from rules.identity import card_identity
from rules.textproto import parse_textproto
from tests.engine_fixtures import fixture_cards, fixture_decks

CARDS = fixture_cards("chaos")


def test_fixture_titles_are_the_epithets():
    assert (CARDS["SR-009"].title, CARDS["SR-010"].title) == ("Spotlight", "Encore")
    assert card_identity(CARDS["SR-009"]) == "Spotlight【Sakuya Hoshino】"
    assert card_identity(CARDS["SR-010"]) == "Encore【Sakuya Hoshino】"
    assert CARDS["SR-013"].title == "Twin Stars" and CARDS["SR-016"].title == ""  # an event has no title
    for card in CARDS.values():
        if card.card_type in ("character", "extra"):
            assert card.name.startswith(f"{card.title} 「"), card.code
            assert card.work != card.title, card.code


def test_four_and_four_copies_of_two_titles_of_one_person_are_legal():
    main = {"SR-009": 4, "SR-010": 4, "SR-001": 4, "SR-002": 4, "SR-003": 4, "SR-004": 4, "SR-005": 4,
            "SR-006": 4, "SR-007": 4, "SR-008": 4, "SR-011": 4, "SR-023": 2, "SR-012": 4}
    assert sum(main.values()) == 50
    report = validate_deck("chaos", {"main": main, "partner": {"SR-009": 1}}, CARDS)
    assert report["errors"] == []
    main["SR-009"], main["SR-012"] = 5, 3
    report = validate_deck("chaos", {"main": main, "partner": {"SR-009": 1}}, CARDS)
    assert [(e["code"], e["identity"], e["count"]) for e in report["errors"]] == [
        ("copy_limit", "Spotlight【Sakuya Hoshino】", 5)]


def test_level_up_needs_the_same_title_and_name():
    deck = dict(fixture_decks("chaos"))["chaos-sunrise-stage"]
    state = chaos.ChaosState(deck, random.Random(0), 0, {}, None, setup=False)
    state.field[chaos.PARTNER_SLOT] = chaos.partner_char(CARDS["SR-009"])  # Spotlight【Sakuya Hoshino】
    state.hand = [CARDS["SR-010"]]  # Encore【Sakuya Hoshino】: another title of the same person
    state.deck = [CARDS["SR-012"]] * 20
    state.went_first = True
    state.start(state.scenario(state._my_turn()))
    assert not [o for o in state.options_main() if o[0] == "levelup" or o[1:2] == ("SR-010",)]
    state.hand.append(CARDS["SR-009"])
    assert ("levelup", "SR-009") in state.options_main()


TEXTPROTO = """
info {
  serial: "IM-T01"
  name: "항상 척척, 견실한 사람! 「아키츠키 리츠코」"
  [chaostcg.ChaosTcgCardInfo.extension] {
    title: PUCHIMAS
    os: IDOLMASTER
    type: CHARA
    power: 4
    tough: 4
    rule_name: "아키츠키 리츠코"
  }
}
"""


def test_the_textproto_title_field_is_the_product_and_the_epithet_comes_from_the_name():
    card, problems, _ = convert(cards_of(parse_textproto(TEXTPROTO))[0])
    assert card["title"] == "항상 척척, 견실한 사람!" and card["person"] == "아키츠키 리츠코"
    assert card["work"] == "IDOLMASTER" and "PUCHIMAS" not in card.values()
