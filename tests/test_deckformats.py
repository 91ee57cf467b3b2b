"""Deck files in the real formats: pure parsing, then the real player decks against the real cards."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from django.conf import settings

from rules.deckformats import (
    detect_deck_format,
    official_ws_code,
    parse_chaos_deck,
    parse_code_rarity,
    parse_deck,
    parse_ws_xml_deck,
    resolve_codes,
)

CARDDATA = Path(settings.SHARED_DIR) / "carddata"
WS_DECKS = CARDDATA / "weiss_schwarz" / "decks"
CHAOS = CARDDATA / "chaos"


# -- pure parsers ------------------------------------------------------------------------------------

def test_code_rarity_lines():
    deck = parse_code_rarity("RW/W15-004 R\nRW/W15-004 R\n\n// comment\nRW/W15-072 RR\nAB-W11-001 RR\n")
    assert deck.zones == {"main": {"RW/W15-004": 2, "RW/W15-072": 1, "AB/W11-001": 1}}
    assert deck.printings["RW/W15-004"] == ["R"] and not deck.errors
    bad = parse_code_rarity("RW/W15-004 R\nthis is not a card\n")
    assert bad.errors == [{"code": "parse_error", "line": 2, "message": "expected 'CODE RARITY' (e.g. 'RW/W15-004 R')",
                           "text": "this is not a card"}]


def test_ws_xml_deck_sums_repeated_ids_and_checks_totals():
    xml = """<?xml version="1.0" encoding="UTF-8"?><deck><DeckData><LVL0>3</LVL0><C>1</C></DeckData>
    <Card><Desc>a</Desc><ID>AB-W11-008</ID><Quantity>2</Quantity></Card>
    <Card><Desc>b</Desc><ID>AB-W11-008</ID><Quantity>2</Quantity></Card>
    <Card><Desc>c</Desc><ID>AB-W11-024</ID><Quantity>1</Quantity></Card></deck>"""
    deck = parse_ws_xml_deck(xml)
    assert deck.zones == {"main": {"AB/W11-008": 4, "AB/W11-024": 1}}
    assert any("listed twice" in n for n in deck.notes)
    assert any("totals say 4 cards; the <Card> rows hold 5" in n for n in deck.notes)
    broken = parse_ws_xml_deck("<deck><Card><ID>X-Y1-001</ID><Quantity>two</Quantity></Card></deck>")
    assert "quantity 'two'" in broken.errors[0]["message"]
    assert parse_ws_xml_deck("<deck><Card>").errors[0]["message"].startswith("not well-formed XML at line 1")


def test_chaos_textproto_deck():
    text = """mainDeck { id: "a" info { serial: "IM-T01" } }
mainDeck { id: "b" info { serial: "IM-T01" } }
extraDeck { id: "c" info { serial: "IM-T18" name: "x \\"y\\"" } }"""
    deck = parse_chaos_deck(text)
    assert deck.zones == {"main": {"IM-T01": 2}, "extra": {"IM-T18": 1}} and not deck.errors
    broken = parse_chaos_deck('mainDeck { info { serial: "IM-T01" }')
    assert broken.errors and broken.errors[0]["code"] == "parse_error" and "end of file" in broken.errors[0]["message"]


def test_detection_and_resolution():
    assert detect_deck_format("RW/W15-004 R\nRW/W15-004 R\n") == "code-rarity"
    assert detect_deck_format('<?xml version="1.0"?>\n<deck>\n</deck>') == "ws-xml"
    assert detect_deck_format('mainDeck {\n info { serial: "A" }\n}') == "chaos-textproto"
    assert detect_deck_format("4 DC/W01-001\n") is None
    assert parse_deck("hello world").errors[0]["message"].startswith("could not tell the deck format")
    assert official_ws_code("DC3-WE16-03") == "DC3/WE16-03"
    deck = resolve_codes(parse_code_rarity("X/Y1-001S SR\nX/Y1-001 R\n"), {"X/Y1-001S": "X/Y1-001"}.get)
    assert deck.zones == {"main": {"X/Y1-001": 2}}


# -- the real decks against the real catalog -----------------------------------------------------------

def _deck_files() -> list[Path]:
    return sorted(p for p in WS_DECKS.rglob("*") if p.is_file()) if WS_DECKS.is_dir() else []


@pytest.fixture(scope="module")
def deck_catalog(django_db_setup, django_db_blocker):
    """The WS cards the real decks name (both sources, merged) and the Chaos trial cards."""
    from catalog.importers import FORMATS, load_all
    from catalog.models import Card
    from catalog.services import card_import

    load_all()
    wanted = {code for p in _deck_files() for zone in parse_deck(p.read_text(encoding="utf-8")).zones.values()
              for code in zone}
    ws = CARDDATA / "weiss_schwarz"
    with django_db_blocker.unblock():
        Card.objects.filter(game__in=["ws", "chaos"]).delete()
        for fmt, files in (("ws-jsonl", sorted((ws / "alphac2_jp").glob("*.jsonl"))),
                           ("ws-hotc", sorted((ws / "rcyberw_hotc_en_jp").glob("*.txt")))):
            recs = [r for r in itertools.chain.from_iterable(FORMATS[fmt].read(f, "ws") for f in files)
                    if r.card and r.card["code"] in wanted]
            summary = card_import(records=recs, game="ws", merge=True)
            assert summary.ok, summary.errors[:3]
        chaos = card_import(records=FORMATS["chaos-textproto"].read(CHAOS / "IMT_puchimas_trial_ko.textproto", "chaos"),
                            game="chaos")
        assert chaos.created == 20
        try:
            yield wanted
        finally:
            Card.objects.filter(game__in=["ws", "chaos"]).delete()


def check(path: Path, game: str | None = None) -> dict:
    from decks.deckfiles import deck_file_check

    return deck_file_check(text=path.read_text(encoding="utf-8"), game=game)


@pytest.mark.carddata
@pytest.mark.django_db
def test_text_decks(deck_catalog):
    results = {p.name: check(p) for p in sorted((WS_DECKS / "rcyberw").glob("*.txt"))}
    assert len(results) == 12 and all(r["format"] == "code-rarity" for r in results.values())
    valid = sorted(name for name, r in results.items() if r["validation"]["valid"])
    assert len(valid) == 10 and "Random.txt" not in valid and "Newspaper.txt" not in valid
    for name in valid:
        assert sum(results[name]["zones"]["main"].values()) == 50
    random_errors = results["Random.txt"]["validation"]["errors"]
    assert [e["code"] for e in random_errors] == ["deck_size"]
    paper = results["Newspaper.txt"]["validation"]["errors"]
    assert {e["code"] for e in paper} == {"unknown_card"}
    unknown = {c for e in paper for c in e["cards"]}
    assert unknown and all(c.startswith("DC3/WE16-") for c in unknown)
    assert "DC3/WE16-03" in unknown and "DC3/WE16-03" in paper[0]["message"]


@pytest.mark.carddata
@pytest.mark.django_db
def test_xml_decks(deck_catalog):
    kanade = check(WS_DECKS / "alphac2" / "Kanade.xml")
    assert kanade["format"] == "ws-xml" and kanade["validation"]["valid"], kanade["validation"]["errors"]
    assert sum(kanade["zones"]["main"].values()) == 50
    aggro = check(WS_DECKS / "alphac2" / "AggroLvl0.xml")
    errors = aggro["validation"]["errors"]
    assert [e["code"] for e in errors] == ["copy_limit", "copy_limit"]
    assert "DC/W01-090" in errors[1]["cards"] and "8 copies" in errors[1]["message"]
    # 4× DC/W01-103 + 4× DC/WE01-026 ("Lvl 0 Vanilla" twice): one card reprinted, its name cut short in
    # one source (優等生の委員長) and spaced differently in the other: one identity, 8 copies
    assert sorted(errors[0]["cards"]) == ["DC/W01-103", "DC/WE01-026"] and "8 copies" in errors[0]["message"]
    assert aggro["zones"]["main"]["DC/W01-090"] == 8
    assert any("DC/W01-090 is listed twice" in n for n in aggro["notes"])


@pytest.mark.carddata
@pytest.mark.django_db
def test_chaos_trial_deck(deck_catalog):
    result = check(CHAOS / "decks" / "IMT_trial_deck_ko.textproto", game="chaos")
    assert result["format"] == "chaos-textproto"
    assert result["validation"]["valid"], result["validation"]["errors"]
    assert sum(result["zones"]["main"].values()) == 50 and sum(result["zones"]["extra"].values()) == 10
    assert result["zones"]["extra"] == {"IM-T18": 4, "IM-T19": 3, "IM-T20": 3}
    assert result["text"].startswith("# main\n4 IM-T01\n")


@pytest.mark.carddata
@pytest.mark.django_db
def test_import_deck_command(deck_catalog, capsys):
    from django.contrib.auth import get_user_model
    from django.core.management import CommandError, call_command

    from decks.models import Deck

    user = get_user_model().objects.create(username="player")
    call_command("import_deck", str(WS_DECKS / "alphac2" / "Kanade.xml"), "--owner", "player", "--name", "Kanade")
    out = capsys.readouterr().out
    assert "ws-xml deck" in out and out.rstrip().endswith("legal")
    deck = Deck.objects.get(owner=user, name="Kanade")
    assert deck.game == "ws" and sum(deck.zones["main"].values()) == 50
    with pytest.raises(CommandError) as exc:
        call_command("import_deck", str(WS_DECKS / "rcyberw" / "Random.txt"), "--check")
    assert exc.value.returncode == 1
    assert "deck_size" in capsys.readouterr().err
    with pytest.raises(CommandError) as exc:
        call_command("import_deck", str(WS_DECKS / "rcyberw" / "nope.txt"), "--check")
    assert exc.value.returncode == 2
    # without --owner (and without --check) nothing is read or saved, and the message names the flag
    decks = Deck.objects.count()
    with pytest.raises(CommandError) as exc:
        call_command("import_deck", str(WS_DECKS / "alphac2" / "Kanade.xml"))
    assert exc.value.returncode == 2 and "--owner USERNAME" in str(exc.value) and "nothing saved" in str(exc.value)
    assert Deck.objects.count() == decks
