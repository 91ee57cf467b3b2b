"""Construction rules: a legal deck per game, and one deck per error code giving exactly that code."""
from __future__ import annotations

import copy

import pytest

from decks.testing import legal_deck, test_cards, test_records
from rules import games as g
from rules.cards import CardRecord, validate_card
from rules.construction import ERROR_CODES, validate_deck

ALL = {**{code: rec for game in g.GAMES for code, rec in test_records(game).items()}}


def run(game, zones, **kw):
    return validate_deck(game, zones, ALL, **kw)


def codes(report):
    return [e["code"] for e in report["errors"]]


@pytest.mark.parametrize("game", g.GAMES)
def test_pool_cards_are_valid(game):
    for card in test_cards(game):
        assert validate_card(card) == [], card["code"]


@pytest.mark.parametrize("game", g.GAMES)
def test_legal_deck(game):
    report = run(game, legal_deck(game))
    assert report["errors"] == []
    assert report["valid"] is True
    assert report["summary"]["main"] == g.CONSTANTS[game].deck_size
    assert report["summary"]["deck_size"] == g.CONSTANTS[game].deck_size
    assert report["warnings"] == []


def _swap(zones, zone, remove, add, n=1):
    z = copy.deepcopy(zones)
    z[zone][remove] -= n
    if not z[zone][remove]:
        del z[zone][remove]
    z.setdefault(zone, {})[add] = z.get(zone, {}).get(add, 0) + n
    return z


FIRST = {g.PC: "PCT-014", g.PHANTASMA: "PHT-001", g.WS: "WST/W01-001", g.CHAOS: "CHT-002", g.LYCEE: "CH-T001"}
OTHER = {g.PC: "WST/W01-001", g.PHANTASMA: "PCT-001", g.WS: "CHT-001", g.CHAOS: "CH-T001", g.LYCEE: "PHT-001"}


def exactly(report, code):
    assert codes(report) == [code], report["errors"]
    return report["errors"][0]


@pytest.mark.parametrize("game", g.GAMES)
def test_deck_size(game):
    zones = copy.deepcopy(legal_deck(game))
    zones["main"][FIRST[game]] -= 1
    err = exactly(run(game, zones), "deck_size")
    size = g.CONSTANTS[game].deck_size
    assert f"has {size - 1} cards" in err["message"] and f"exactly {size}" in err["message"]
    assert "1 missing" in err["message"]
    assert err["count"] == size - 1 and err["limit"] == size


@pytest.mark.parametrize("game", g.GAMES)
def test_unknown_card(game):
    zones = _swap(legal_deck(game), "main", FIRST[game], "NOPE-999")
    err = exactly(run(game, zones), "unknown_card")
    assert err["cards"] == ["NOPE-999"]
    assert "unknown card code NOPE-999" in err["message"] and "1× in the main deck" in err["message"]


@pytest.mark.parametrize("game", g.GAMES)
def test_wrong_game(game):
    other = OTHER[game]
    zones = _swap(legal_deck(game), "main", FIRST[game], other)
    err = exactly(run(game, zones), "wrong_game")
    assert err["cards"] == [other]
    assert ALL[other].name in err["message"]
    assert f"not a {g.GAME_NAMES[game]} card" in err["message"]
    assert err["card_game"] == ALL[other].game


COPY = {
    # PC: the 023a-style parallel counts as the plain number: 3× PCT-001 + 1× PCT-001a = 4.
    g.PC: ("PCT-014", "PCT-001a", 4, 3),
    g.PHANTASMA: ("PHT-002", "PHT-001", 5, 4),
    g.WS: ("WST/W01-011", "WST/W01-001", 5, 4),
    g.CHAOS: ("CHT-E01", "CHT-001", 5, 4),
    g.LYCEE: ("CH-T002", "CH-T001", 5, 4),
}


@pytest.mark.parametrize("game", g.GAMES)
def test_copy_limit(game):
    remove, add, total, limit = COPY[game]
    zones = _swap(legal_deck(game), "main", remove, add)
    err = exactly(run(game, zones), "copy_limit")
    assert err["count"] == total and err["limit"] == limit
    assert f"{total} copies of" in err["message"] and f"at most {limit}" in err["message"]
    assert add in err["cards"]


def test_pc_variant_message_names_both_printings():
    zones = _swap(legal_deck(g.PC), "main", "PCT-014", "PCT-001a")
    err = exactly(run(g.PC, zones), "copy_limit")
    assert err["cards"] == ["PCT-001", "PCT-001a"]
    assert "3× PC Hero 1 (PCT-001)" in err["message"] and "1× PC Hero 1 (parallel) (PCT-001a)" in err["message"]
    assert "letter suffixes ignored" in err["message"]


def test_lycee_copy_limit_override():
    zones = copy.deepcopy(legal_deck(g.LYCEE))
    for code in ("CH-T014", "CH-T015"):
        del zones["main"][code]
    zones["main"]["CH-T100"] = 8
    assert run(g.LYCEE, zones)["errors"] == []
    zones["main"]["CH-T100"] = 9
    zones["main"]["CH-T013"] -= 1
    err = exactly(run(g.LYCEE, zones), "copy_limit")
    assert err["limit"] == 8 and err["count"] == 9


def test_chaos_copy_limit_by_title_and_name_across_printings():
    records = dict(ALL)
    records["CHT-001b"] = CardRecord.from_dict({**next(c for c in test_cards(g.CHAOS) if c["code"] == "CHT-001"),
                                                "code": "CHT-001b"})
    zones = _swap(legal_deck(g.CHAOS), "main", "CHT-E01", "CHT-001b")
    report = validate_deck(g.CHAOS, zones, records)
    err = exactly(report, "copy_limit")
    assert err["identity"] == "Knight【Hero 1】" and err["count"] == 5


ZONE_NOT_ALLOWED = {
    g.PC: lambda z: {**z, "extra": {"PCT-014": 1}},
    g.WS: lambda z: {**z, "ace": {"WST/W01-001": 1}},
    g.LYCEE: lambda z: {**z, "ex": {"CH-T001": 1}},
    # EX skill in the main deck
    g.PHANTASMA: lambda z: _swap(z, "main", "PHT-001", "PHT-X3"),
    # EXTRA in the main deck
    g.CHAOS: lambda z: _swap(z, "main", "CHT-E01", "CHT-X03"),
}


@pytest.mark.parametrize("game", g.GAMES)
def test_zone_not_allowed(game):
    zones = ZONE_NOT_ALLOWED[game](copy.deepcopy(legal_deck(game)))
    err = exactly(run(game, zones), "zone_not_allowed")
    assert err["cards"]
    if game == g.PHANTASMA:
        assert "EX-skill cards may not be in the main deck" in err["message"] and "Secret Art 3" in err["message"]
    elif game == g.CHAOS:
        assert "EXTRA cards may not be in the main deck" in err["message"] and "CHT-X03" in err["message"]
    else:
        assert f"{g.GAME_NAMES[game]} decks have no" in err["message"]


def test_phantasma_non_character_ace():
    zones = copy.deepcopy(legal_deck(g.PHANTASMA))
    zones["ace"] = {"PHT-B01": 1}
    err = exactly(run(g.PHANTASMA, zones), "zone_not_allowed")
    assert "the ACE must be a character" in err["message"] and err["zone"] == "ace"


def test_phantasma_non_ex_skill_in_ex_zone():
    zones = copy.deepcopy(legal_deck(g.PHANTASMA))
    zones["ex"]["PHT-B01"] = 1
    err = exactly(run(g.PHANTASMA, zones), "zone_not_allowed")
    assert "only EX-skill cards" in err["message"]


def test_chaos_non_extra_in_extra_deck():
    zones = copy.deepcopy(legal_deck(g.CHAOS))
    zones["extra"]["CHT-013"] = 1
    err = exactly(run(g.CHAOS, zones), "zone_not_allowed")
    assert "EXTRA cards only" in err["message"] and err["cards"] == ["CHT-013"]


def test_phantasma_ex_zone_size():
    zones = copy.deepcopy(legal_deck(g.PHANTASMA))
    zones["ex"] = {f"PHT-X{i}": 1 for i in range(1, 5)}
    err = exactly(run(g.PHANTASMA, zones), "zone_size")
    assert "4 EX-skill cards" in err["message"] and "at most 3" in err["message"]


def test_chaos_extra_zone_size():
    zones = copy.deepcopy(legal_deck(g.CHAOS))
    zones["extra"] = {"CHT-X01": 4, "CHT-X02": 4, "CHT-X03": 3}
    err = exactly(run(g.CHAOS, zones), "zone_size")
    assert "extra deck has 11 cards" in err["message"] and "at most 10" in err["message"]


@pytest.mark.parametrize("ace", [{}, {"PHT-016": 2}])
def test_phantasma_ace_count(ace):
    zones = copy.deepcopy(legal_deck(g.PHANTASMA))
    zones["ace"] = ace
    err = exactly(run(g.PHANTASMA, zones), "ace_count")
    assert f"this one has {sum(ace.values())}" in err["message"]


def test_ws_climax_limit():
    zones = _swap(legal_deck(g.WS), "main", "WST/W01-011", "WST/W01-C3")
    err = exactly(run(g.WS, zones), "climax_limit")
    assert "9 climaxes" in err["message"] and "at most 8" in err["message"]
    assert err["cards"] == ["WST/W01-C1", "WST/W01-C2", "WST/W01-C3"]


@pytest.mark.parametrize("partner,why", [
    ("CHT-013", "is not in the main deck"),
    ("CHT-E01", "is an event card"),
    ("CHT-X01", "is an extra card"),
    ("NOPE-1", "is not a known Chaos card"),
])
def test_chaos_partner_invalid(partner, why):
    zones = copy.deepcopy(legal_deck(g.CHAOS))
    zones["partner"] = {partner: 1}
    err = exactly(run(g.CHAOS, zones), "partner_invalid")
    assert why in err["message"] and err["cards"] == [partner]


def test_chaos_partner_given_as_argument():
    zones = copy.deepcopy(legal_deck(g.CHAOS))
    del zones["partner"]
    assert run(g.CHAOS, zones, partner="CHT-002")["valid"]
    assert codes(run(g.CHAOS, zones, partner="CHT-X01")) == ["partner_invalid"]
    report = run(g.CHAOS, zones)
    assert report["valid"] and [w["code"] for w in report["warnings"]] == ["partner_missing"]


def test_two_partners():
    zones = copy.deepcopy(legal_deck(g.CHAOS))
    zones["partner"] = {"CHT-001": 1, "CHT-002": 1}
    err = exactly(run(g.CHAOS, zones), "partner_invalid")
    assert "one partner, not 2" in err["message"]


def test_ws_few_climaxes_is_a_warning():
    zones = _swap(legal_deck(g.WS), "main", "WST/W01-C2", "WST/W01-011", 2)
    report = run(g.WS, zones)
    assert report["valid"] and report["summary"]["climaxes"] == 6
    assert [w["code"] for w in report["warnings"]] == ["climax_count"]
    assert "only 6 climaxes" in report["warnings"][0]["message"]


def test_lycee_unpayable_attribute_warning():
    zones = _swap(legal_deck(g.LYCEE), "main", "CH-T001", "CH-T200")
    report = run(g.LYCEE, zones)
    assert report["valid"]
    (w,) = report["warnings"]
    assert w["code"] == "attribute_unpayable" and w["attribute"] == "sun" and w["cards"] == ["CH-T200"]
    assert "Sun Mage (CH-T200)" in w["message"]


def test_phantasma_ex_skill_unusable_warning():
    zones = copy.deepcopy(legal_deck(g.PHANTASMA))
    zones["ace"] = {"PHT-002": 1}  # cost 3; PHT-X1 needs cost ≤ 3, PHT-X2 ≤ 4
    zones["main"]["PHT-002"] = 3
    zones["main"]["PHT-016"] = 1
    report = run(g.PHANTASMA, zones)
    assert report["valid"] and report["warnings"] == []
    zones["ace"] = {"PHT-016": 1}
    zones["main"]["PHT-016"] = 0
    zones["main"]["PHT-002"] = 4
    records = dict(ALL)
    records["PHT-016"] = CardRecord.from_dict({**next(c for c in test_cards(g.PHANTASMA) if c["code"] == "PHT-016"),
                                               "cost": 4, "cost_detail": {"white": 4}})
    report = validate_deck(g.PHANTASMA, zones, records)
    assert report["valid"]
    assert [w["code"] for w in report["warnings"]] == ["ex_skill_unusable"]
    assert "cost ≤ 3" in report["warnings"][0]["message"]


def test_every_problem_at_once():
    zones = {"main": {"WST/W01-001": 7, "WST/W01-C1": 4, "WST/W01-C2": 4, "WST/W01-C3": 4, "NOPE": 1, "PCT-001": 1},
             "extra": {"WST/W01-002": 1}}
    report = run(g.WS, zones)
    assert sorted(set(codes(report))) == sorted(
        {"deck_size", "copy_limit", "unknown_card", "wrong_game", "zone_not_allowed", "climax_limit"})
    assert report["valid"] is False


def test_parse_errors_are_errors_with_line():
    report = run(g.PC, legal_deck(g.PC), parse_errors=[{"code": "parse_error", "line": 3, "message": "bad"}])
    assert codes(report) == ["parse_error"] and report["errors"][0]["line"] == 3


def test_codes_are_documented():
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "decks.md").read_text()
    for code in ERROR_CODES:
        assert f"`{code}`" in doc, code


def test_unknown_game():
    with pytest.raises(ValueError, match="unknown game"):
        validate_deck("mtg", {}, {})


def test_phantasma_ace_is_outside_the_copy_limit():
    """Issue 16, 7: 4 copies in the main deck and a fifth as the ACE are legal (GAMES.md §2)."""
    zones = copy.deepcopy(legal_deck(g.PHANTASMA))
    zones["ace"] = {"PHT-001": 1}
    report = run(g.PHANTASMA, zones)
    assert zones["main"]["PHT-001"] == 4 and report["errors"] == []


def test_phantasma_ex_skill_warning_reads_the_ace_cost_detail():
    """Issue 16, 7: an ACE with only ``cost_detail`` (3 white + 2 blue = 5) cannot use a condition-4 skill."""
    zones = copy.deepcopy(legal_deck(g.PHANTASMA))
    records = dict(ALL)
    records["PHT-016"] = CardRecord.from_dict({
        **next(c for c in test_cards(g.PHANTASMA) if c["code"] == "PHT-016"),
        "cost": None, "cost_detail": {"white": 3, "blue": {"martial": 2}}})
    report = validate_deck(g.PHANTASMA, zones, records)
    assert [w["code"] for w in report["warnings"]] == ["ex_skill_unusable", "ex_skill_unusable"]
    assert "costs 5" in report["warnings"][0]["message"]
