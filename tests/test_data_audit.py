"""Real card data a player can trust (issue 17, "Data"), proven on the real data.

One ``manage.py import_cards`` command imports both Weiß Schwarz sources (the AlphaC2 JSON lines,
then the HOTC text files merged into them) and another the Lycee Overture JSON lines; then
``manage.py audit_cards`` finds none of the defects the importers fix, the 8-copy decks of the issue
are ``copy_limit`` errors, and the smaller defects are gone. Skipped visibly without ../shared/carddata.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from catalog.audit import audit_cards
from catalog.models import Card, CardPrinting
from tests.conftest import CARDDATA

WS = CARDDATA / "weiss_schwarz"
JSONL = sorted((WS / "alphac2_jp").glob("*.jsonl")) if WS.is_dir() else []
HOTC = sorted((WS / "rcyberw_hotc_en_jp").glob("*.txt")) if WS.is_dir() else []
TRAITS = WS / "alphac2_jp" / "traits_en_jp.csv"
LYCEE = CARDDATA / "lycee" / "lycee_overture_cards.jsonl"

# The kinds the importers fix: none left after an import of the real data.
FIXED_KINDS = ("name_number", "name_marker", "name_printings_differ", "climax_bonus")
# Climaxes whose trigger icons their own reminder text contradicts and that no second source settles:
# flagged, not guessed (the HOTC-only DD/WE12-15, NS/W04-074 and RW/W15-048R among them).
FLAGGED_TRIGGERS = {"DD/WE12-15", "DG/SE17-07", "FS/S36-030", "HLL/WE28-49", "HLL/WE28-50", "MK/SE29-P06",
                    "N2/W32-099", "NS/W04-074", "RW/W15-048R", "RZ/S46-029"}
# The 20 Overture cards whose basic-ability line has unbalanced brackets (or spaces between tokens).
LYCEE_BRACKETS = {"LO-1466", "LO-1616", "LO-2163", "LO-2460", "LO-3751", "LO-5270", "LO-5279", "LO-5280",
                  "LO-5283", "LO-5284", "LO-5286", "LO-5327", "LO-5759", "LO-5893", "LO-6004", "LO-6020",
                  "LO-6086", "LO-6089", "LO-6261", "LO-6590"}


@pytest.fixture(scope="module")
def catalog(django_db_setup, django_db_blocker, tmp_path_factory):
    """Both WS sources in one command (in order, merged), and the Lycee JSON lines; cleaned up after."""
    reports = tmp_path_factory.mktemp("reports")
    with django_db_blocker.unblock():
        Card.objects.filter(game__in=["ws", "lycee"]).delete()
        call_command("import_cards", *map(str, JSONL + HOTC), "--game", "ws", "--allow-skips",
                     "--report", str(reports / "ws.json"), stdout=io.StringIO(), stderr=io.StringIO())
        call_command("import_cards", str(LYCEE), "--game", "lycee", "--report", str(reports / "lycee.json"),
                     stdout=io.StringIO(), stderr=io.StringIO())
        try:
            yield {name: json.loads((reports / f"{name}.json").read_text(encoding="utf-8")) for name in ("ws", "lycee")}
        finally:
            Card.objects.filter(game__in=["ws", "lycee"]).delete()


def ws_audit():
    return audit_cards(game="ws", trait_table=TRAITS)


def codes(result) -> set[str]:
    return {f.code for f in result.findings}


# -- 5. one command, two formats -------------------------------------------------------------------

@pytest.mark.carddata
@pytest.mark.django_db
def test_one_command_merges_two_formats_in_order(catalog):
    report = catalog["ws"]
    assert report["status"] == "imported" and not [e for e in report["errors"] if "already appears" in e["message"]]
    first, second = report["passes"]
    assert first["label"].startswith("ws-jsonl: ") and second["label"].startswith("ws-hotc: 84 files")
    # as two commands: the second source merges into what the first wrote (AlphaC2's '-' is no text
    # since 106f01d, so HOTC's text fills three more cards than before)
    assert (first["read"], first["created"], first["skipped"]) == (10807, 10806, 1)
    assert (second["read"], second["created"], second["updated"], second["unchanged"], second["skipped"]) == (
        7146, 2809, 4135, 200, 2)
    assert (report["read"], report["skipped"]) == (17953, 3)
    assert Card.objects.filter(game="ws").count() == 10806 + 2809
    assert {e["code"] for e in report["errors"]} == {"AB/W11-103", "LS/W05-103P", "LS/W05-105P"}


@pytest.mark.carddata
@pytest.mark.django_db
def test_a_refused_source_writes_nothing_of_any(catalog, tmp_path):
    """Without --allow-skips the bad record of the second source refuses the whole import: not even the
    first source's cards are written (one transaction)."""
    good = tmp_path / "one.jsonl"
    good.write_text(next(ln for ln in JSONL[0].read_text(encoding="utf-8").splitlines() if '"AB-W11-001"' in ln)
                    .replace("AB-W11-001", "ZZ-W99-001") + "\n", encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text("名前\nZZ/W99-002 R\nType: Character\nLevel: 9\nColor: Red\nCost: 0\nTrigger: 0\nPower: 500\n"
                   "Soul: 1\nTraits:: ,\nCard Text/Abilities:\nFlavor Text:\n==========================\n", encoding="utf-8")
    report = tmp_path / "r.json"
    with pytest.raises(CommandError) as exc:
        call_command("import_cards", str(good), str(bad), "--game", "ws", "--report", str(report),
                     stdout=io.StringIO(), stderr=io.StringIO())
    assert exc.value.returncode == 1
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["status"] == "failed" and data["created"] == 0
    assert [(e["source"], e["code"], e["field"]) for e in data["errors"]] == [("bad.txt", "ZZ/W99-002", "level")]
    assert not Card.objects.filter(game="ws", code__startswith="ZZ/").exists()


# -- 1. names, 4. the audit ----------------------------------------------------------------------------

@pytest.mark.carddata
@pytest.mark.django_db
def test_audit_finds_none_of_the_fixed_kinds(catalog):
    report = ws_audit()
    for kind in FIXED_KINDS:
        assert report.results[kind].available and report.results[kind].findings == [], kind
    # script mixes: only 迷走Mind (IM/S07-075), a song title printed so (the AlphaC2 name; HOTC's
    # English name is "Mind") — no English glued on any name any more
    assert codes(report.results["name_script_mix"]) == {"IM/S07-075"}
    assert codes(report.results["trigger_reminder"]) == FLAGGED_TRIGGERS
    # traits outside the table: a trait one source cut short (ウェイトレ) and one it split in two; not the
    # English enums of AB/W11-101/-104
    unknown = {(f.code, f.message.split("'")[1]) for f in report.results["trait_unknown"].findings}
    assert {t for _, t in unknown} == {"ウェイトレ", "ラビットハウス・フルール・ド", "ラパン"}
    assert not {c for c, _ in unknown} & {"AB/W11-101", "AB/W11-103", "AB/W11-104"}
    abilities = report.results["text_no_abilities"]
    has_field = any(f.name == "abilities" for f in Card._meta.get_fields())
    assert abilities.available == has_field and (has_field or "not available yet" in abilities.reason)
    lycee = audit_cards(game="lycee")
    assert lycee.results["lycee_basic_unread"].findings == []


@pytest.mark.carddata
@pytest.mark.django_db
def test_names_as_printed(catalog):
    def name(code: str) -> str:
        return Card.objects.get(game="ws", code=code).name

    # English no longer glued on; the English name is the English name
    railgun = Card.objects.get(game="ws", code="RG/W10-051")
    assert railgun.name == "“超電磁砲”美琴" and railgun.translations["en"]["name"] == "“Railgun” Mikoto"
    assert name("AB/W11-101") == "“天使”と呼ばれる少女 かなで"
    assert name("BR/SE06-31") == "青き炎の瞳 ブラック★ロックシューター"
    assert name("DC/WE02-009") == "一緒に食べよ♪" and name("AB/WE10-35") == "陽気なダンサーTK"
    # card numbers no longer glued on (PT/W07, LB/W02)
    assert name("PT/W07-096") == "44オートマグ" and name("LB/W02-T03") == "“ポニーガール”鈴"
    assert name("LB/W02-121") == "“犬まみれ”佐々美"  # its name carried another number, 114
    # a printing marker is the printing's, not the name's
    assert name("DC/WE08-65") == "決意" and name("RW/W15-106") == "ちびルチア"
    assert CardPrinting.objects.get(game="ws", code="DC/WE08-65", rarity="S-C").marker == "ホロ"
    assert CardPrinting.objects.get(game="ws", code="RW/W15-106").marker == "エラッタ前"
    assert CardPrinting.objects.get(game="ws", code="MK/S11-T01").marker.startswith("おやつを")
    assert name("MK/S11-T01") == name("MK/S11-058") == "活発なネロ"
    # a name cut short in one source, repaired from the other printings of the same card, and reported
    assert name("AB/W31-012") == name("AB/W11-002") == "結弦の心臓 かなで"
    repairs = {r["code"]: r for r in catalog["ws"]["repairs"]}
    assert repairs["AB/W31-012"]["old"] == "結弦の心臓" and "AB/W11-002" in repairs["AB/W31-012"]["from"]
    assert name("SY/W08-064") == "涼宮 ハルヒ"  # a vanilla: not taken for 涼宮ハルヒの憂鬱 (no text to prove it)


# -- 2. one identity for reprints ----------------------------------------------------------------------

@pytest.mark.carddata
@pytest.mark.django_db
@pytest.mark.parametrize("deck", [
    {"DC/WE08-65": 4, "DC/W01-019": 4},  # 決意 + 決意(ホロ)
    {"LB/W02-036": 4, "LB/W02-T03": 4},  # “ポニーガール”鈴 + “ポニーガール”鈴T03
    {"AB/W31-012": 4, "AB/W11-002": 4},  # 結弦の心臓 + 結弦の心臓 かなで
])
def test_eight_copies_of_one_card_are_a_copy_limit_error(catalog, deck):
    from decks.selectors import deck_validate

    errors = deck_validate(game="ws", zones={"main": deck})["errors"]
    limits = [e for e in errors if e["code"] == "copy_limit"]
    assert len(limits) == 1 and sorted(limits[0]["cards"]) == sorted(deck) and "8 copies" in limits[0]["message"]


# -- 3. smaller defects ---------------------------------------------------------------------------------

@pytest.mark.carddata
@pytest.mark.django_db
def test_smaller_defects(catalog):
    def card(code: str) -> Card:
        return Card.objects.get(game="ws", code=code)

    for code in ("MK/SE29-49", "MK/SE29-P06"):  # ソウルを+1(引@:… — the reminder after the figure
        assert card(code).effects == [{"kind": "climax_bonus", "power": 1000, "soul": 1}]
    akiha = card("MB/S10-054")  # the Japanese lines are on its second printing's block
    assert akiha.text.startswith("【自】このカードがリバースした時") and akiha.translations["en"]["text"].startswith("【A】")
    # pool in the first source; the reminder text and the second source say treasure
    for code in ("IM/S14-048", "RG/W13-049", "RW/W20-039"):
        assert card(code).triggers == ["treasure"], code
    fixed = {d["code"] for d in catalog["ws"]["disagreements"] if d["kind"] == "triggers_reminder"}
    assert {"IM/S14-048", "RG/W13-049", "RW/W20-039"} <= fixed
    # the HOTC-only climaxes whose icons contradict their reminder text are flagged in the import report
    flagged = {w["code"] for w in catalog["ws"]["warnings"] if "disagree with the reminder text" in w["message"]}
    assert {"DD/WE12-15", "NS/W04-074", "RW/W15-048R"} <= flagged
    # English trait enums in another case or spaced: mapped
    assert card("AB/W11-101").traits == ["死", "生徒会"] and card("AB/W11-104").traits == ["死", "音楽"]
    # Lycee: the basic abilities of lines with unbalanced brackets are read (or flagged when unmodelled)
    lycee = {c.code: c for c in Card.objects.filter(game="lycee", code__in=LYCEE_BRACKETS)}
    assert lycee["LO-2163"].keywords == ["step"] and lycee["LO-6261"].keywords == ["jump"]
    assert lycee["LO-6590"].keywords == [{"name": "supporter", "cost": {"flower": 2}}]
    noted = {w["code"] for w in catalog["lycee"]["warnings"] if w["message"].startswith("basic-ability line")}
    assert noted == LYCEE_BRACKETS


# -- the audit command ---------------------------------------------------------------------------------

@pytest.mark.carddata
@pytest.mark.django_db
def test_audit_command_threshold_and_json(catalog):
    out = io.StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("audit_cards", "--game", "ws", "--trait-table", str(TRAITS), stdout=out)
    assert exc.value.returncode == 1 and "above the threshold of 0" in str(exc.value)
    assert "trigger_reminder: 10" in out.getvalue() and "name_number: 0" in out.getvalue()
    out = io.StringIO()
    call_command("audit_cards", "--game", "ws", "--trait-table", str(TRAITS), "--json", "--max", "100", stdout=out)
    data = json.loads(out.getvalue())
    assert data["total"] == sum(k["count"] for k in data["kinds"].values()) <= 100
    assert data["kinds"]["climax_bonus"] == {"description": data["kinds"]["climax_bonus"]["description"],
                                             "available": True, "reason": "", "count": 0, "findings": []}
    call_command("audit_cards", "--game", "ws", "--kind", "name_marker", "--kind", "name_number", stdout=io.StringIO())
    with pytest.raises(CommandError) as exc:
        call_command("audit_cards", "--game", "ws", "--trait-table", str(Path("/nonexistent.csv")), stdout=io.StringIO())
    assert exc.value.returncode == 2 and "/nonexistent.csv" in str(exc.value)
