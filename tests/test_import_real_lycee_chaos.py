"""Importing the real Lycee Overture data (JSON lines, digest, official CSV) and the Chaos trial cards."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from catalog.importers import FORMATS, load_all
from catalog.models import Card, CardPrinting
from catalog.services import card_import

LYCEE = Path(settings.SHARED_DIR) / "carddata" / "lycee"
CHAOS = Path(settings.SHARED_DIR) / "carddata" / "chaos"
JSONL = LYCEE / "lycee_overture_cards.jsonl"
DIGEST = LYCEE / "extra" / "lycee_card_digest_LO-6947A_to_LO-6971A.txt"
CSV = LYCEE / "extra" / "lycee_official_csv_format_sample.csv"

pytestmark = [pytest.mark.carddata, pytest.mark.django_db]


def read(fmt: str, path: Path) -> list:
    load_all()
    return list(FORMATS[fmt].read(path, None))


@pytest.fixture(scope="module")
def lycee(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        Card.objects.filter(game="lycee").delete()
        summaries = {
            "jsonl": card_import(records=read("lycee-jsonl", JSONL), game="lycee", merge=True),
            "digest": card_import(records=read("lycee-digest", DIGEST), game="lycee", merge=True),
        }
        try:
            yield summaries
        finally:
            Card.objects.filter(game="lycee").delete()


def test_lycee_jsonl_import(lycee):
    s = lycee["jsonl"]
    assert (s.read, s.created, s.skipped) == (6541, 6541, 0) and not s.errors
    assert Card.objects.filter(game="lycee", card_type="character", code__lt="LO-6947").count() == 5841
    c = Card.objects.get(game="lycee", code="LO-0001")
    assert (c.name, c.attributes, c.cost, c.cost_detail) == ("騎士王 セイバー/アルトリア・ペンドラゴン", ["space"], 3, {"space": 3})
    assert (c.ap, c.dp, c.sp, c.dmg, c.ex) == (3, 3, 1, 3, 2)
    assert c.to_record().dmg == 3  # stored, the original-Lycee engine ignores it
    step = Card.objects.get(game="lycee", code="LO-4759")
    assert step.slots == ["DF-L", "DF-C", "DF-R"] and step.keywords == [{"name": "supporter", "cost": {"flower": 2}}]
    assert set(step.facets.filter(facet="slots").values_list("value", flat=True)) == {"df-l", "df-c", "df-r"}
    assert Card.objects.get(game="lycee", code="LO-0029").cost_detail == {"moon": 2, "star": 1}
    # flagged, not silently dropped
    flagged = {w.code for w in s.warnings if "エンゲージ" in w.message}
    assert "LO-4137" in flagged and len(flagged) > 300
    assert any(w.code == "LO-2113" and "banned" in w.message for w in s.warnings)


def test_lycee_digest_printings(lycee):
    s = lycee["digest"]
    assert (s.read, s.created) == (24, 24)
    card = Card.objects.get(game="lycee", code="LO-6948")
    assert sorted(card.printings.values_list("code", flat=True)) == ["LO-6948", "LO-6948-K"]
    assert Card.objects.get(game="lycee", code="LO-6947").copy_limit == 1
    assert CardPrinting.objects.filter(game="lycee", card__code__gte="LO-6947").count() == 37


def test_lycee_reimport_and_csv_cross_check(lycee, tmp_path):
    again = card_import(records=read("lycee-jsonl", JSONL), game="lycee", merge=True)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 6541)
    report = tmp_path / "csv.json"
    call_command("import_cards", str(CSV), "--game", "lycee", "--report", str(report))
    data = json.loads(report.read_text(encoding="utf-8"))
    assert (data["read"], data["created"]) == (3, 0)
    # The CSV's variant LO-0923-A is a printing of LO-0923, added to the card.
    assert set(Card.objects.get(game="lycee", code="LO-0923").printings.values_list("code", flat=True)) == {"LO-0923", "LO-0923-A"}
    # Cross-source consistency: every disagreement names the card and field (the CSV carries a brand as
    # work and a product as set, which the JSON lines lack: filled, not disagreements).
    assert all(d["code"] in {"LO-0923", "LO-0576", "LO-0985"} for d in data["disagreements"])
    assert Card.objects.get(game="lycee", code="LO-0576").set_code == "Fate/Grand Order 2.0"


def test_lycee_search_by_japanese_name(lycee):
    from catalog.selectors import card_search

    codes = set(card_search(q="アルトリア", game="lycee").values_list("code", flat=True))
    assert {"LO-0001", "LO-0002"} <= codes


def test_chaos_cards_import():
    s = card_import(records=read("chaos-textproto", CHAOS / "IMT_puchimas_trial_ko.textproto"), game="chaos")
    assert (s.read, s.created) == (20, 20) and not s.errors
    c = Card.objects.get(game="chaos", code="IM-T01")
    assert (c.title, c.person, c.atk, c.defense, c.partner_atk, c.partner_def) == ("항상 척척, 견실한 사람!", "아키츠키 리츠코", 4, 4, 2, 2)
    assert c.printings.get().image_url.startswith("http://user.chol.com/")
    extra = Card.objects.get(game="chaos", code="IM-T18")
    assert extra.card_type == "extra" and extra.extra_persons == ["하기와라 유키호", "유키포"]
    again = card_import(records=read("chaos-textproto", CHAOS / "IMT_puchimas_trial_ko.textproto"), game="chaos")
    assert again.unchanged == 20
    # Korean name search (substring of the person's name)
    from catalog.selectors import card_search

    assert set(card_search(q="리츠코", game="chaos").values_list("code", flat=True)) == {"IM-T01"}
    assert {"IM-T03", "IM-T18"} <= set(card_search(q="유키호", game="chaos").values_list("code", flat=True))
