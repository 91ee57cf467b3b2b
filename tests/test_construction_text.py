"""The deck text format: accepted forms, sections, and line-numbered errors."""
from __future__ import annotations

import pytest

from rules.decktext import format_deck_text, parse_deck_text


@pytest.mark.parametrize("line", ["4 DC/W01-001", "4x DC/W01-001", "4X DC/W01-001", "4 x DC/W01-001",
                                  "4xDC/W01-001", "4 DC/W01-001 Some Card Name", "  4   DC/W01-001  ",
                                  "４ DC/W01-001", "4× DC/W01-001"])
def test_accepted_entry_forms(line):
    parsed = parse_deck_text(line)
    assert parsed.errors == []
    (entry,) = parsed.entries
    assert (entry.zone, entry.code, entry.count, entry.line) == ("main", "DC/W01-001", 4, 1)


def test_name_is_kept_but_not_needed():
    (entry,) = parse_deck_text("3 PCT-001 PC Hero 1").entries
    assert entry.name == "PC Hero 1"


@pytest.mark.parametrize("header,zone", [("# main", "main"), ("# extra", "extra"), ("# ace", "ace"), ("# ex", "ex"),
                                         ("# partner", "partner"), ("#Extra", "extra"), ("## Main deck", "main"),
                                         ("# Extra deck (10)", "extra"), ("# EX skills:", "ex"), ("# ACE:", "ace")])
def test_section_headers(header, zone):
    parsed = parse_deck_text(f"4 A-1\n{header}\n1 B-2\n")
    assert parsed.errors == []
    assert [(e.zone, e.code) for e in parsed.entries] == [("main", "A-1"), (zone, "B-2")]


def test_comments_blank_lines_and_repeats():
    text = "// my deck\n\n# a comment about the deck\n2 A-1\n2 A-1\n# partner\n1 A-1\n"
    parsed = parse_deck_text(text)
    assert parsed.errors == []
    assert parsed.zones() == {"main": {"A-1": 4}, "partner": {"A-1": 1}}


def test_errors_carry_line_numbers():
    text = "4 A-1\nfour A-2\n\n0 A-3\n# sideboard\n100 A-4\n4\n-2 A-5\n3 A-6\n"
    parsed = parse_deck_text(text)
    assert [(e.line, e.message.split(" ")[0]) for e in parsed.errors] == [
        (2, "expected"), (4, "count"), (5, "unknown"), (6, "count"), (7, "expected"), (8, "count")]
    assert "at least 1" in parsed.errors[1].message
    assert "sideboard" in parsed.errors[2].message
    assert "at most 99" in parsed.errors[3].message
    assert parsed.errors[0].text == "four A-2"
    assert parsed.errors[0].as_dict() == {"code": "parse_error", "line": 2, "text": "four A-2",
                                          "message": parsed.errors[0].message}
    assert [e.code for e in parsed.entries] == ["A-1", "A-6"]


def test_huge_count_and_too_many_lines():
    assert "too large" in parse_deck_text("123456789 A").errors[0].message
    parsed = parse_deck_text("1 A\n" * 6000)
    assert parsed.entries == [] and "at most 5000" in parsed.errors[0].message


def test_round_trip():
    text = format_deck_text([("main", "A-1", 4), ("extra", "X-1", 2), ("partner", "A-1", 1)], {"A-1": "Alice"})
    assert text == "# main\n4 A-1 Alice\n\n# extra\n2 X-1\n\n# partner\n1 A-1 Alice\n"
    assert parse_deck_text(text).zones() == {"main": {"A-1": 4}, "extra": {"X-1": 2}, "partner": {"A-1": 1}}
