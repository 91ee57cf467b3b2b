"""import_cards / export_cards / load_sample_data and the card_import service, on a real database."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.importers import FORMATS, ImportProblem, ImportRecord, detect_format, load_all
from catalog.models import Card, CardFacet, CardPrinting
from catalog.services import card_import
from rules import games as g

load_all()
pytestmark = pytest.mark.django_db


def ws_card(n: int, **extra) -> dict:
    return {"code": f"TS/W01-{n:03d}", "name": f"Tester {n}", "card_type": "character", "colors": ["yellow"],
            "level": n % 4, "cost": n % 3, "power": 1000 + 500 * (n % 20), "soul": 1, "traits": ["Test"], **extra}


def doc(cards: list, game: str = "ws") -> dict:
    return {"format": "tcgdb-cards", "version": 1, "game": game, "cards": cards}


def write_json(tmp_path: Path, data, name: str = "cards.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def run_fail(*args) -> tuple[CommandError, str]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as exc:
        call_command(*args, stdout=out, stderr=err)
    return exc.value, err.getvalue()


# -- good and bad files ---------------------------------------------------------------------------

def test_import_good_json_file(tmp_path):
    path = write_json(tmp_path, doc([ws_card(1), ws_card(2), ws_card(3)]))
    out, err = run("import_cards", str(path), "--game", "ws")
    assert "created 3" in out and err == ""
    assert Card.objects.filter(game="ws").count() == 3
    card = Card.objects.get(code="TS/W01-002")
    assert (card.level, card.cost, card.power, card.traits) == (2, 2, 2000, ["Test"])
    assert set(CardFacet.objects.filter(card=card).values_list("facet", "value")) == {("colors", "yellow"), ("traits", "test")}


def test_bad_record_after_good_ones_writes_nothing_and_names_record_and_field(tmp_path):
    climax_with_level = {"code": "TS/W01-010", "name": "Bad Climax", "card_type": "climax", "colors": ["red"], "level": 2}
    unknown_field = {**ws_card(11), "hp": 3}
    wrong_type = {**ws_card(12), "power": "lots"}
    path = write_json(tmp_path, doc([ws_card(1), ws_card(2), climax_with_level, unknown_field, ws_card(5), wrong_type]))
    report = tmp_path / "report.json"
    exc, err = run_fail("import_cards", str(path), "--game", "ws", "--report", str(report))
    assert exc.returncode == 1
    assert "record 3 (TS/W01-010): level: a ws climax has no level" in err
    assert "record 4 (TS/W01-011): hp: unknown card field 'hp'" in err
    assert "record 6 (TS/W01-012): power: power must be a whole number" in err
    assert Card.objects.count() == 0 and CardFacet.objects.count() == 0
    data = json.loads(report.read_text())
    assert data["status"] == "failed" and data["written"] is False
    assert {(e["record"], e["field"]) for e in data["errors"]} == {(3, "level"), (4, "hp"), (6, "power")}
    assert data["read"] == 6 and data["created"] == 0


def test_bad_file_leaves_existing_cards_untouched(tmp_path):
    run("import_cards", str(write_json(tmp_path, doc([ws_card(1)]), "a.json")), "--game", "ws")
    changed = {**ws_card(1), "power": 9000}
    bad = {**ws_card(2), "colors": ["purple"]}
    exc, err = run_fail("import_cards", str(write_json(tmp_path, doc([changed, bad]), "b.json")), "--game", "ws")
    assert exc.returncode == 1 and "record 2 (TS/W01-002): colors: 'purple'" in err
    assert Card.objects.get(code="TS/W01-001").power == 1500
    assert not Card.objects.filter(code="TS/W01-002").exists()


def test_every_bad_record_is_reported(tmp_path):
    cards = [ws_card(i) for i in range(1, 21)]
    for i in (4, 9, 17):
        cards[i - 1]["soul"] = -1
    exc, err = run_fail("import_cards", str(write_json(tmp_path, doc(cards))), "--game", "ws")
    assert [line.split(":")[2].strip() for line in err.splitlines()] == [
        "record 4 (TS/W01-004)", "record 9 (TS/W01-009)", "record 17 (TS/W01-017)"]
    assert "3 bad record(s)" in str(exc)


def test_dry_run_writes_nothing(tmp_path):
    path = write_json(tmp_path, doc([ws_card(1), ws_card(2)]))
    out, _ = run("import_cards", str(path), "--game", "ws", "--dry-run")
    assert "dry run, nothing written" in out and "created 2" in out
    assert Card.objects.count() == 0 and CardFacet.objects.count() == 0
    run("import_cards", str(path), "--game", "ws")
    changed = write_json(tmp_path, doc([{**ws_card(1), "power": 7000}, ws_card(2), ws_card(3)]), "c.json")
    out, _ = run("import_cards", str(changed), "--game", "ws", "--dry-run")
    assert "created 1, updated 1, unchanged 1" in out
    assert Card.objects.count() == 2 and Card.objects.get(code="TS/W01-001").power == 1500


def test_upsert_updates_and_counts_unchanged(tmp_path):
    run("import_cards", str(write_json(tmp_path, doc([ws_card(1), ws_card(2)]), "a.json")), "--game", "ws")
    pk = Card.objects.get(code="TS/W01-001").pk
    report = tmp_path / "r.json"
    new = doc([{**ws_card(1), "power": 7000, "traits": ["Other"]}, ws_card(2), ws_card(3)])
    run("import_cards", str(write_json(tmp_path, new, "b.json")), "--game", "ws", "--report", str(report))
    data = json.loads(report.read_text())
    assert (data["read"], data["created"], data["updated"], data["unchanged"], data["skipped"]) == (3, 1, 1, 1, 0)
    card = Card.objects.get(code="TS/W01-001")
    assert card.pk == pk and card.power == 7000
    assert list(CardFacet.objects.filter(card=card, facet="traits").values_list("value", flat=True)) == ["other"]
    assert Card.objects.count() == 3


def test_allow_skips_imports_the_good_records(tmp_path):
    bad = {**ws_card(2), "level": 7}
    report = tmp_path / "r.json"
    out, err = run("import_cards", str(write_json(tmp_path, doc([ws_card(1), bad, ws_card(3)]))), "--game", "ws",
                   "--allow-skips", "--report", str(report))
    assert "skipped: " in err and "record 2 (TS/W01-002): level" in err
    assert sorted(Card.objects.values_list("code", flat=True)) == ["TS/W01-001", "TS/W01-003"]
    data = json.loads(report.read_text())
    assert data["status"] == "imported" and data["skipped"] == 1 and data["created"] == 2
    assert data["errors"][0]["field"] == "level"


def test_duplicate_code_in_one_import_is_an_error(tmp_path):
    exc, err = run_fail("import_cards", str(write_json(tmp_path, doc([ws_card(1), ws_card(2), ws_card(1)]))), "--game", "ws")
    assert "record 3 (TS/W01-001): code: code TS/W01-001 already appears in record 1" in err
    assert Card.objects.count() == 0


def test_wrong_game_is_refused(tmp_path):
    exc, err = run_fail("import_cards", str(write_json(tmp_path, doc([ws_card(1)]))), "--game", "lycee")
    assert exc.returncode == 1 and "game" in err and "'ws'" in err
    mixed = doc([ws_card(1), {**ws_card(2), "game": "pc"}])
    exc, err = run_fail("import_cards", str(write_json(tmp_path, mixed, "m.json")), "--game", "ws")
    assert "record 2 (TS/W01-002): game: this is a pc card but the import is for ws" in err


def test_invalid_json_reports_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "tcgdb-cards", "version": 1, "game": "ws", "cards": [\n  {"code": }\n]}')
    exc, err = run_fail("import_cards", str(path), "--game", "ws")
    assert exc.returncode == 1 and "invalid JSON at line 2" in err


def test_unknown_format_and_missing_file_are_usage_errors(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n")
    exc, _ = run_fail("import_cards", str(path), "--game", "ws")
    assert exc.returncode == 2 and "--format" in str(exc)
    exc, _ = run_fail("import_cards", str(tmp_path / "missing.json"), "--game", "ws")
    assert exc.returncode == 2 and "no such file" in str(exc)


def test_too_long_text_is_refused_not_a_database_error(tmp_path):
    exc, err = run_fail("import_cards", str(write_json(tmp_path, doc([{**ws_card(1), "rarity": "R" * 40}]))), "--game", "ws")
    assert "rarity: rarity is too long" in err


def test_format_detection_by_content(tmp_path):
    j = write_json(tmp_path, doc([ws_card(1)]), "no_extension")
    c = tmp_path / "cards.data"
    c.write_text("code,name,card_type,game\nX,Y,event,ws\n")
    assert detect_format(j) == "json" and detect_format(c) == "csv"
    reordered = tmp_path / "reordered"
    reordered.write_text('{"game": "ws", "version": 1,\n "format": "tcgdb-cards", "cards": []}')
    assert detect_format(reordered) == "json"
    other = tmp_path / "other.csv"
    other.write_text("id,title,kind\n1,2,3\n")
    assert detect_format(other) is None


# -- CSV cells --------------------------------------------------------------------------------------

CSV_TEXT = (
    "code,name,card_type,colors,traits,level,cost,power,soul,triggers,counter,text,text_modelled,effects,printings\n"
    'TS/W01-001,Tester,character,yellow,Music|Strings,1,0,5000,1,"[""soul""]",true,"Line one,\nline two",false,,'
    '"[{""code"": ""TS/W01-001SP"", ""rarity"": ""SP"", ""image_url"": ""https://example.org/a.png""}]"\n'
    'TS/W01-025,Climax,climax,"[""red""]",,,,,,soul|soul,no,[CONT] +2000 power.,1,'
    '"[{""kind"": ""climax_bonus"", ""power"": 2000, ""soul"": 0}]",\n'
)


def test_csv_cells_lists_json_bools_and_empty_numbers(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(CSV_TEXT, encoding="utf-8")
    out, err = run("import_cards", str(path), "--game", "ws")
    assert "created 2" in out
    a = Card.objects.get(code="TS/W01-001")
    assert a.colors == ["yellow"] and a.traits == ["Music", "Strings"] and a.triggers == ["soul"]
    assert a.counter is True and a.text == "Line one,\nline two" and a.text_modelled is False
    assert (a.level, a.cost, a.power) == (1, 0, 5000)
    assert list(a.printings.values_list("code", "rarity", "image_url")) == [("TS/W01-001SP", "SP", "https://example.org/a.png")]
    cx = Card.objects.get(code="TS/W01-025")
    assert cx.level is None and cx.power is None and cx.colors == ["red"] and cx.triggers == ["soul", "soul"]
    assert cx.counter is False and cx.text_modelled is True
    assert cx.effects == [{"kind": "climax_bonus", "power": 2000, "soul": 0}]


def test_csv_bad_cells_name_line_and_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("code,name,card_type,colors,level,cost,power,soul,counter\n"
                    "TS/W01-001,Ok,character,yellow,0,0,2000,1,false\n"
                    "TS/W01-002,Bad,character,yellow,0,0,6k,1,maybe\n"
                    "TS/W01-003,Bad2,character,yellow,1,0,5000,1,false,extra\n", encoding="utf-8")
    exc, err = run_fail("import_cards", str(path), "--game", "ws")
    assert "record 3 (TS/W01-002): power: power must be a whole number, got '6k'" in err
    assert "record 3 (TS/W01-002): counter: counter must be true or false" in err
    assert "record 4: row: 10 cells but the header has 9 columns" in err
    assert Card.objects.count() == 0


def test_csv_unknown_column_is_refused(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("code,name,card_type,hp\nX,Y,event,3\n", encoding="utf-8")
    exc, err = run_fail("import_cards", str(path), "--game", "ws", "--format", "csv")
    assert "unknown column 'hp'" in err and exc.returncode == 1


TRANSLATED = {"en": {"name": "Sending Everyone Off, Kanade", "text": "[C] All your other Characters get +500 Power.\n"
                                                                   '[S] [REST this card] "Draw" 1 card.',
                      "flavor": "Is that all?"},
              "zh-hans": {"name": "送别众人的职责"}}


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_translations_round_trip_through_json_and_csv(tmp_path, fmt):
    run("import_cards", str(write_json(tmp_path, doc([ws_card(1, translations=TRANSLATED), ws_card(2)]))), "--game", "ws")
    assert Card.objects.get(code="TS/W01-001").translations == TRANSLATED
    out_file = tmp_path / f"out.{fmt}"
    run("export_cards", "--game", "ws", "--format", fmt, "-o", str(out_file))
    exported = out_file.read_text(encoding="utf-8")
    if fmt == "csv":
        rows = {r["code"]: r for r in csv.DictReader(io.StringIO(exported))}
        assert json.loads(rows["TS/W01-001"]["translations"]) == TRANSLATED  # a JSON object cell
        assert rows["TS/W01-002"]["translations"] == ""
    else:
        cards = {c["code"]: c for c in json.loads(exported)["cards"]}
        assert cards["TS/W01-001"]["translations"] == TRANSLATED and "translations" not in cards["TS/W01-002"]
        assert list(cards["TS/W01-001"]["translations"]["en"]) == ["name", "flavor", "text"]  # canonical key order
    Card.objects.all().delete()
    out, _ = run("import_cards", str(out_file), "--game", "ws")
    assert "created 2" in out
    assert Card.objects.get(code="TS/W01-001").translations == TRANSLATED
    assert Card.objects.get(code="TS/W01-002").translations == {}
    out, _ = run("import_cards", str(out_file), "--game", "ws")
    assert "unchanged 2" in out


def test_bad_translations_are_refused_naming_field_language_and_key(tmp_path):
    bad = [ws_card(1, translations={"en": {"name": 7}}), ws_card(2, translations={"EN GB": {"name": "x"}}),
           ws_card(3, translations={"ja": {"reading": "x"}}), ws_card(4, translations="English")]
    exc, err = run_fail("import_cards", str(write_json(tmp_path, doc(bad))), "--game", "ws")
    assert "record 1 (TS/W01-001): translations: translations.en.name must be text, got 7" in err
    assert "record 2 (TS/W01-002): translations: translations: 'en gb' is not a language code" in err
    assert "record 3 (TS/W01-003): translations: translations.ja: unknown key 'reading'" in err
    assert "record 4 (TS/W01-004): translations: translations must be an object" in err
    path = tmp_path / "bad.csv"
    path.write_text('code,name,card_type,level,cost,power,soul,translations\n'
                    'TS/W01-001,A,character,0,0,1000,1,"{""en"": {""name"": ""A""}"\n'
                    'TS/W01-002,B,character,0,0,1000,1,"{""en"": {""text"": [1]}}"\n', encoding="utf-8")
    exc, err = run_fail("import_cards", str(path), "--game", "ws")
    assert "record 2 (TS/W01-001): translations: translations is not valid JSON" in err
    assert "record 3 (TS/W01-002): translations: translations.en.text must be text, got [1]" in err
    assert Card.objects.count() == 0


def test_csv_export_columns_are_documented_fields(tmp_path):
    run("import_cards", str(write_json(tmp_path, doc([ws_card(1)]))), "--game", "ws")
    out, _ = run("export_cards", "--game", "ws", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    from catalog.cardfields import FIELD_ORDER

    assert list(rows[0]) == [*FIELD_ORDER, "printings"]
    assert rows[0]["colors"] == '["yellow"]' and rows[0]["counter"] == "false" and rows[0]["mhp"] == ""


# -- printings ------------------------------------------------------------------------------------

def test_printings_are_written_replaced_and_exported(tmp_path):
    p1 = [{"code": "TS/W01-001", "rarity": "C"}, {"code": "TS/W01-001S", "rarity": "SR", "image_url": "https://x.test/1.png"}]
    run("import_cards", str(write_json(tmp_path, doc([{**ws_card(1), "printings": p1}]), "a.json")), "--game", "ws")
    assert set(CardPrinting.objects.values_list("code", "rarity")) == {("TS/W01-001", "C"), ("TS/W01-001S", "SR")}
    out, _ = run("import_cards", str(write_json(tmp_path, doc([{**ws_card(1), "printings": p1}]), "b.json")), "--game", "ws")
    assert "unchanged 1" in out
    p2 = [{"code": "TS/W01-001", "rarity": "C"}]
    out, _ = run("import_cards", str(write_json(tmp_path, doc([{**ws_card(1), "printings": p2}]), "c.json")), "--game", "ws")
    assert "updated 1" in out
    assert list(CardPrinting.objects.values_list("code", "rarity")) == [("TS/W01-001", "C")]
    bad = [{"code": "TS/W01-001", "rarity": "C", "image_url": "javascript:alert(1)"}]
    exc, err = run_fail("import_cards", str(write_json(tmp_path, doc([{**ws_card(1), "printings": bad}]), "d.json")),
                        "--game", "ws")
    assert "printings: printing 1: image_url" in err


# -- round trip -----------------------------------------------------------------------------------

def snapshot(game: str) -> list:
    return [
        (c.to_dict(), sorted(c.printings.values_list("code", "rarity", "image_url")))
        for c in Card.objects.filter(game=game).order_by("code").prefetch_related("printings")
    ]


@pytest.mark.parametrize("fmt", ["json", "csv"])
@pytest.mark.parametrize("game", g.GAMES)
def test_export_import_round_trip_is_lossless(tmp_path, game, fmt):
    run("load_sample_data")
    first = Card.objects.filter(game=game).order_by("code").first()
    CardPrinting.objects.create(card=first, game=game, code=first.code, rarity="SP", image_url="https://example.org/sp.png")
    # Values an exporter could mangle: quotes, commas, newlines, unicode, zero, empty-vs-null.
    first.text = 'He said "go", then left.\nNext line; 「括弧」 ★'
    first.flavor = "  leading and trailing spaces  "
    first.translations = {"ja": {"name": "「括弧」の名前", "text": '彼は"行く", と言った。\n次の行', "flavor": "★"},
                          "zh-hans": {"name": "名字, 带逗号"}}
    first.save()
    before = snapshot(game)
    out_file = tmp_path / f"{game}.{fmt}"
    run("export_cards", "--game", game, "--format", fmt, "-o", str(out_file))
    exported = out_file.read_text(encoding="utf-8")
    Card.objects.filter(game=game).delete()
    assert Card.objects.filter(game=game).count() == 0
    out, _ = run("import_cards", str(out_file), "--game", game)
    assert f"created {len(before)}," in out
    assert snapshot(game) == before
    again = tmp_path / f"again.{fmt}"
    run("export_cards", "--game", game, "--format", fmt, "-o", str(again))
    assert again.read_text(encoding="utf-8") == exported


def test_csv_export_reads_back_as_json_export(tmp_path):
    run("load_sample_data")
    json_before, _ = run("export_cards", "--game", "lycee")
    csv_file = tmp_path / "lycee.csv"
    run("export_cards", "--game", "lycee", "--format", "csv", "-o", str(csv_file))
    Card.objects.filter(game="lycee").delete()
    run("import_cards", str(csv_file), "--game", "lycee")
    json_after, _ = run("export_cards", "--game", "lycee")
    assert json_after == json_before


# -- the service and the sample data ----------------------------------------------------------------

def test_service_is_keyword_only_and_honours_importer_problems():
    with pytest.raises(TypeError):
        card_import([], "ws")  # type: ignore[misc]
    records = [
        ImportRecord(1, {"game": "ws", **ws_card(1)}),
        ImportRecord(2, None, [ImportProblem("line", "unreadable line")]),
    ]
    summary = card_import(records=records, game="ws")
    assert not summary.ok and summary.status == "failed"
    assert [(e.record, e.field) for e in summary.errors] == [(2, "line")]
    assert Card.objects.count() == 0
    summary = card_import(records=records, game="ws", allow_skips=True)
    assert summary.ok and summary.created == 1 and summary.skipped == 1


def test_bulk_import_uses_a_bounded_number_of_queries(django_assert_max_num_queries):
    records = [ImportRecord(i, {"game": "ws", **ws_card(i)}) for i in range(1, 1201)]
    with django_assert_max_num_queries(120):  # SQLite inserts at most 999 parameters per query
        summary = card_import(records=records, game="ws")
    assert summary.created == 1200
    changed = [ImportRecord(i, {"game": "ws", **(ws_card(i, power=12000) if i % 2 else ws_card(i))})
               for i in range(1, 1201)]
    with django_assert_max_num_queries(120):  # SQLite inserts at most 999 parameters per query
        summary = card_import(records=changed, game="ws")
    assert (summary.updated, summary.unchanged) == (600, 600)
    assert Card.objects.filter(power=12000).count() == 600


def test_load_sample_data_is_idempotent():
    out, _ = run("load_sample_data")
    counts = {game: Card.objects.filter(game=game).count() for game in g.GAMES}
    assert all(n >= 40 for n in counts.values()), counts
    out, _ = run("load_sample_data")
    assert "created 0, updated 0" in out and out.count("created 0, updated 0") == len(g.GAMES)
    assert {game: Card.objects.filter(game=game).count() for game in g.GAMES} == counts


def test_registry_has_the_project_formats_with_writers():
    assert {"json", "csv"} <= set(FORMATS)
    assert hasattr(FORMATS["json"], "write") and hasattr(FORMATS["csv"], "write")


# -- property: the CSV and JSON writers and readers are inverse -----------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from catalog.cardfields import card_normalize  # noqa: E402

TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)
IDENT = TEXT.map(str.strip).filter(bool)
CARDS = st.fixed_dictionaries({
    "game": st.just("ws"), "code": IDENT, "name": IDENT, "card_type": st.just("character"),
    "text": TEXT, "flavor": TEXT, "rarity": TEXT, "traits": st.lists(TEXT, max_size=4),
    "colors": st.lists(st.sampled_from(["red", "blue"]), max_size=2), "level": st.none() | st.integers(0, 3),
    "power": st.none() | st.integers(0, 2_000_000_000), "counter": st.booleans(), "text_modelled": st.booleans(),
    "effects": st.lists(st.fixed_dictionaries({"kind": st.just("climax_bonus"), "power": st.integers(-5000, 5000)}),
                        max_size=2),
}, optional={"alt_names": st.lists(TEXT, max_size=3),
            "translations": st.dictionaries(st.sampled_from(["en", "ja", "zh-hans", "ko"]), st.dictionaries(
                st.sampled_from(["name", "text", "flavor"]), TEXT, max_size=3), max_size=3)})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(CARDS, min_size=1, max_size=4, unique_by=lambda c: c["code"]))
def test_csv_and_json_writers_round_trip_any_values(cards):
    normal = [card_normalize(c)[0] for c in cards]
    for fmt in ("csv", "json"):
        buf = io.StringIO()
        FORMATS[fmt].write([(c, []) for c in normal], buf, "ws")
        text = buf.getvalue()
        if fmt == "csv":
            records = list(FORMATS["csv"].read_text(text, "ws"))
        else:
            records = list(FORMATS["json"].read_document(json.loads(text), "ws"))
        assert [r.problems for r in records] == [[] for _ in normal]
        back = [card_normalize(r.card) for r in records]
        assert [p for _, p in back] == [[] for _ in normal]
        assert [c for c, _ in back] == normal, fmt


def test_nul_characters_are_refused_by_field():
    _, problems = card_normalize({**ws_card(1), "game": "ws", "text": "a\x00b", "traits": ["x\x00"]})
    assert {f for f, _ in problems} == {"text", "traits"}


def test_report_to_stdout_and_export_errors(tmp_path):
    out, _ = run("import_cards", str(write_json(tmp_path, doc([ws_card(1)]))), "--game", "ws", "--report", "-")
    report = json.loads(out)
    assert report["status"] == "imported" and report["files"][0]["format"] == "json"
    exc, _ = run_fail("export_cards", "--game", "ws", "-o", str(tmp_path / "missing-dir" / "x.json"))
    assert exc.returncode == 2
    empty, _ = run("export_cards", "--game", "chaos")
    assert json.loads(empty) == {"format": "tcgdb-cards", "version": 1, "game": "chaos", "cards": []}
