"""Importing all the real Weiß Schwarz data (both sources) into the catalog.

The module imports the AlphaC2 JSON lines, then merges the HOTC text files into them, once (a
module-scoped fixture; ~18,000 records in bulk), and checks the summaries, stored values, the
merge report, idempotency and a Japanese name search. Skipped visibly without ../shared/carddata.
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from catalog.importers import FORMATS, load_all
from catalog.models import Card, CardPrinting
from catalog.services import card_import

WS = Path(settings.SHARED_DIR) / "carddata" / "weiss_schwarz"
JSONL = sorted((WS / "alphac2_jp").glob("*.jsonl")) if WS.is_dir() else []
HOTC = sorted((WS / "rcyberw_hotc_en_jp").glob("*.txt")) if WS.is_dir() else []
MALFORMED = sorted((WS / "alphac2_jp" / "malformed_raw").glob("*.xml")) if WS.is_dir() else []

pytestmark = [pytest.mark.carddata, pytest.mark.django_db]


def records(fmt: str, files: list[Path]) -> list:
    load_all()
    return list(itertools.chain.from_iterable(FORMATS[fmt].read(f, "ws") for f in files))


@pytest.fixture(scope="module")
def imported(django_db_setup, django_db_blocker):
    """Both WS sources imported (merge mode, skipping the 3 unusable records); cleaned up after."""
    with django_db_blocker.unblock():
        Card.objects.filter(game="ws").delete()
        first = card_import(records=records("ws-jsonl", JSONL), game="ws", allow_skips=True, merge=True,
                            repair_names=True)
        second = card_import(records=records("ws-hotc", HOTC), game="ws", allow_skips=True, merge=True,
                             repair_names=True)
        try:
            yield {"jsonl": first, "hotc": second}
        finally:
            Card.objects.filter(game="ws").delete()


def test_first_source_summary(imported):
    s = imported["jsonl"]
    assert (s.read, s.created, s.updated, s.skipped) == (10807, 10806, 0, 1)
    assert s.ok and s.written
    # The one skipped record, with its reason.
    assert [(e.code, e.field) for e in s.errors] == [("AB/W11-103", "power")]
    assert "needs power and soul" in s.errors[0].message
    kinds = {(w.field, w.message.split(" ")[0]) for w in s.warnings}
    assert ("colors", "'PURPLE'") in kinds and ("card_type", "type") in kinds
    assert sum(1 for w in s.warnings if "junk trigger" in w.message) == 1


def test_second_source_merges_by_code(imported):
    s = imported["hotc"]
    # updated: the cards whose fields the HOTC source fills or extends (names repaired, printing
    # markers, triggers its reminder text confirms) and those to which it adds only the English
    # name/text (translations); unchanged: 200 with nothing new. (AlphaC2's '-' placeholder is stored
    # as no text since 106f01d, so HOTC's text now fills three more cards, e.g. DG/S02-T14.)
    assert (s.read, s.created, s.updated, s.unchanged, s.skipped) == (7146, 2809, 4135, 200, 2)
    assert {e.code for e in s.errors} == {"LS/W05-103P", "LS/W05-105P"}
    assert Card.objects.filter(game="ws").count() == 10806 + 2809
    assert CardPrinting.objects.filter(game="ws").count() == 14067


def test_full_name_kept_and_reported(imported):
    card = Card.objects.get(game="ws", code="DC/WE08-25")
    assert card.name == "優等生の委員長 沢井麻耶"
    assert "Honor Student Class President Sawai Maya" in card.alt_names
    report = [d for d in imported["hotc"].disagreements if d["code"] == "DC/WE08-25" and d["field"] == "name"]
    assert report == [{
        "source": "DC-WE08.txt", "record": report[0]["record"], "code": "DC/WE08-25", "field": "name",
        "kind": "name_title_only", "kept": "優等生の委員長 沢井麻耶", "other": "優等生の委員長",
    }]
    kinds = {d["kind"] for d in imported["hotc"].disagreements if d["field"] == "name"}
    assert {"name_title_only", "name_spacing"} <= kinds


def test_stored_values_from_both_sources(imported):
    card = Card.objects.get(game="ws", code="AB/W11-001")
    assert (card.name, card.card_type, card.colors, card.level, card.cost, card.power, card.soul) == (
        "皆を見送る役目 かなで", "character", ["yellow"], 1, 0, 3500, 1)
    assert card.traits == ["死", "生徒会"] and card.triggers == []
    assert card.text.startswith("【永】他のあなたの《死》のキャラすべてに")
    printings = sorted(card.printings.values_list("code", "rarity", "image_url"))
    assert printings[0] == ("AB/W11-001", "RR", "https://yuyu-tei.jp/card_image/ws/front/ab/10025.jpg")
    climax = Card.objects.get(game="ws", code="AB/W11-024")
    assert climax.card_type == "climax" and climax.level is None and climax.triggers == ["soul", "shot"]
    assert climax.effects == [{"kind": "climax_bonus", "power": 1000, "soul": 1}] and climax.text_modelled
    # only in the HOTC source: rarity printings of one card
    dc = Card.objects.get(game="ws", code="DC/W01-006")
    assert sorted(dc.printings.values_list("rarity", flat=True)) == ["R", "RRR"]
    assert Card.objects.filter(game="ws", code="DC/W01-006").count() == 1
    # every stored card is valid (a merge never produces an impossible card)
    from rules.cards import validate_card

    invalid = [(c.code, validate_card(c.to_dict())) for c in Card.objects.filter(game="ws")]
    assert [i for i in invalid if i[1]] == []
    # facets follow the stored lists
    assert set(card.facets.values_list("facet", "value")) >= {("colors", "yellow"), ("traits", "死")}


def test_reimport_is_idempotent(imported):
    before = dict(Card.objects.filter(game="ws").values_list("code", "updated"))
    again1 = card_import(records=records("ws-jsonl", JSONL), game="ws", allow_skips=True, merge=True,
                         repair_names=True)
    again2 = card_import(records=records("ws-hotc", HOTC), game="ws", allow_skips=True, merge=True,
                         repair_names=True)
    assert again1.repairs == again2.repairs == []
    assert (again1.created, again1.updated, again1.unchanged) == (0, 0, 10806)
    assert (again2.created, again2.updated, again2.unchanged) == (0, 0, 7144)
    assert dict(Card.objects.filter(game="ws").values_list("code", "updated")) == before
    assert CardPrinting.objects.filter(game="ws").count() == 14067


def test_japanese_name_search(imported):
    from catalog.selectors import card_search

    codes = set(card_search(q="委員長", game="ws").values_list("code", flat=True))
    assert {"DC/WE08-25", "DC/W01-103"} <= codes
    assert "DC/WE08-25" in set(card_search(q="沢井麻耶", game="ws").values_list("code", flat=True))
    # the English name from the HOTC source is an alternate name
    assert "DC/WE08-25" in set(card_search(q="Sawai Maya", game="ws").values_list("code", flat=True))


def test_english_from_hotc_merged_into_the_japanese_cards(imported):
    card = Card.objects.get(game="ws", code="AB/W11-001")  # AlphaC2 first (Japanese), then HOTC
    assert card.text.startswith("【永】他のあなたの《死》のキャラすべてに")
    en = card.translations["en"]
    assert en["name"] == "Sending Everyone Off, Kanade"
    assert en["text"].startswith("【C】 All your other 《死》 Characters gain, 『【A】 ENCORE [Place 1 Character from Hand")
    assert "【永】" not in en["text"] and "【C】" not in card.text
    assert Card.objects.get(game="ws", code="AB/W11-008").translations["en"]["flavor"] == "Just like a villain."
    # a card only the HOTC source has keeps its English too
    only_hotc = Card.objects.get(game="ws", code="RW/W15-002")
    assert only_hotc.translations["en"]["name"] == "Senri Akane"
    assert only_hotc.translations["en"]["text"].startswith("【A】When this card is placed on Stage from Hand or through")
    assert Card.objects.filter(game="ws").exclude(translations={}).count() > 6000
    # no disagreement on a translated part: the first source has none; cards whose sources give
    # different card types are not merged, so their translations are reported whole
    report = imported["hotc"].disagreements
    assert not [d for d in report if d["field"].startswith("translations.")]
    other_type = {d["code"] for d in report if d["field"] == "card_type"}
    assert {d["code"] for d in report if d["field"] == "translations"} <= other_type


def test_card_page_in_english_and_japanese(imported, client):
    from tests.test_i18n import visible_text

    url = "/cards/ws/AB/W11-001/"
    en = visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Name and text in English: Sending Everyone Off, Kanade" in en
    assert "All your other 《死》 Characters gain" in en
    assert "Text as printed" in en and "他のあなたの《死》のキャラすべてに" in en  # one click away
    ja_page = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    ja = visible_text(ja_page)
    assert "他のあなたの《死》のキャラすべてに" in ja and "皆を見送る役目 かなで" in ja
    assert "All your other" not in ja  # (the English name stays listed among the alternate names)
    assert 'data-text-language=""' in ja_page and 'href="?text=en"' in ja_page  # printed, English one link away
    assert "名前とテキストは印刷されたまま（日本語）です。 ほかの言語: English" in ja
    # the English flavor replaces the printed one on the English page only
    en8 = visible_text(client.get("/cards/ws/AB/W11-008/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    ja8 = visible_text(client.get("/cards/ws/AB/W11-008/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "Just like a villain." in en8 and "Just like a villain." not in ja8 and "悪役" in ja8


def test_search_by_english_words_of_the_hotc_text(imported):
    from catalog.selectors import card_search

    phrase = "place the top card of your Clock into Waiting Room"
    found = list(card_search(q=f'o:"{phrase}"', game="ws"))
    assert "RW/W15-002" in {c.code for c in found}
    assert all(phrase.lower() in c.translations.get("en", {}).get("text", "").lower() for c in found)
    # an English name finds the Japanese card, as its Japanese name does
    codes = set(card_search(q="Student Council President, Kanade", game="ws").values_list("code", flat=True))
    assert "AB/W11-008" in codes


def test_command_refuses_without_allow_skips_and_writes_report(imported, tmp_path):
    report = tmp_path / "report.json"
    before = Card.objects.filter(game="ws").count()
    with pytest.raises(CommandError) as exc:
        call_command("import_cards", *map(str, MALFORMED), "--game", "ws", "--report", str(report))
    assert exc.value.returncode == 1
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["status"] == "failed" and data["read"] == 6 and data["created"] == 0
    assert sorted(e["source"] for e in data["errors"]) == sorted(p.name for p in MALFORMED)
    assert all("not well-formed XML at line" in e["message"] for e in data["errors"])
    assert Card.objects.filter(game="ws").count() == before
    call_command("import_cards", *map(str, MALFORMED), "--game", "ws", "--allow-skips", "--report", str(report))
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["status"] == "imported" and data["skipped"] == 6 and data["created"] == 0


def test_command_reports_warnings_and_disagreements(imported, tmp_path):
    """Re-reading the title-only source after the merge: the full name stays, the report says why."""
    line = next(ln for ln in JSONL[0].read_text(encoding="utf-8").splitlines() if '"ID": "DC-WE08-25"' in ln)
    source = tmp_path / "one.jsonl"
    source.write_text(line + "\n", encoding="utf-8")
    report = tmp_path / "report.json"
    call_command("import_cards", str(source), "--game", "ws", "--report", str(report))
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["merge"] is True and data["status"] == "imported"
    assert (data["read"], data["created"], data["updated"], data["unchanged"]) == (1, 0, 0, 1)
    assert [(d["field"], d["kind"], d["kept"], d["other"]) for d in data["disagreements"] if d["field"] == "name"] == [
        ("name", "name_title_only", "優等生の委員長 沢井麻耶", "優等生の委員長")]
    assert Card.objects.get(game="ws", code="DC/WE08-25").name == "優等生の委員長 沢井麻耶"
    # --no-merge overwrites, as for the project's own formats (dry run: nothing kept)
    call_command("import_cards", str(source), "--game", "ws", "--no-merge", "--dry-run", "--report", str(report))
    data = json.loads(report.read_text(encoding="utf-8"))
    assert (data["merge"], data["updated"]) == (False, 1)
