"""Compiled abilities in the catalog and reports that say what they cover (issues 15 and 16).

``Card.abilities`` / ``effect_kinds`` / ``modelled`` (catalog.abilities, migration 0012) filled at
import and by ``manage.py compile_abilities``; the search's ``effect:`` and ``modelled:``; the
coverage block (rules.coverage) at the top of the goldfish CLI report, the playtest job's stored
summary, the API and the report page; the card page's per-ability statuses. The engine's own
classification is the WS/Lycee/Chaos engines' business (their tests): where a test needs a fixed
classification it installs a small fake engine (``fake_engine``).
"""
from __future__ import annotations

import importlib
import json
import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from catalog.abilities import catalog_compile, compile_cached, effect_vocabulary
from catalog.importers import ImportRecord
from catalog.models import Card, CardFacet
from catalog.search import QueryError
from catalog.selectors import card_search
from catalog.services import card_import
from rules.abilities import NO_EFFECT, NOT_PLAYED, PLAYED, Ability, Coverage
from rules.cards import CARD_FIELDS, CardRecord
from rules.registry import get_spec

pytestmark = pytest.mark.django_db

DRAW = "【自】このカードがアタックした時、あなたは1枚引く。"
BURN = "【自】このカードがアタックした時、相手に1ダメージを与える。(ダメージキャンセルは発生する)"
POWER = "【永】他のあなたのキャラすべてに、パワーを+500。"
UNREADABLE = "【自】このカードがアタックした時、ほにゃららする。"


def ws_card(code: str, text: str = "", card_type: str = "character", **extra: Any) -> dict[str, Any]:
    card = {"game": "ws", "code": code, "name": f"Card {code}", "card_type": card_type, "colors": ["red"],
            "text": text, **extra}
    if card_type == "character":
        card.update(level=0, cost=0, power=3000, soul=1)
    elif card_type == "event":
        card.update(level=0, cost=0)
    return card


CARDS = [
    ws_card("AB/T01-001", DRAW), ws_card("AB/T01-002", BURN), ws_card("AB/T01-003", POWER),
    ws_card("AB/T01-004", UNREADABLE), ws_card("AB/T01-005", "-"), ws_card("AB/T01-006", DRAW + POWER),
    ws_card("AB/T01-007", "あなたは1枚引く。", card_type="event"),
]
CLIMAXES = [ws_card("AB/T01-008", card_type="climax", triggers=["soul"]),
            ws_card("AB/T01-009", card_type="climax", triggers=["draw"])]
VANILLA = [ws_card(f"AB/T08-{i:03d}") for i in range(1, 7)]
# A legal 50-card deck: 13 cards, 11 fully modelled (the unreadable one and the event are not): 44 of 50 copies
DECK = {"AB/T01-001": 4, "AB/T01-002": 4, "AB/T01-003": 4, "AB/T01-004": 2, "AB/T01-007": 4,
        "AB/T01-008": 4, "AB/T01-009": 4, **{c["code"]: 4 for c in VANILLA}}


def import_cards(cards: list[dict[str, Any]]):
    summary = card_import(records=[ImportRecord(i, dict(c)) for i, c in enumerate(cards, 1)], game="ws")
    assert summary.ok, summary.errors
    return summary


class FakeEngine:
    """A fixed classification: draw and burn are played, power has no effect, events never played."""

    @staticmethod
    def classify_ability(ability: Ability, card: CardRecord) -> Coverage:
        kinds = {e.kind for e in ability.effects}
        if kinds & {"draw", "burn"}:
            return Coverage(PLAYED)
        if kinds == {"power"}:
            return Coverage(NO_EFFECT, "power matters only in battles")
        return Coverage(NOT_PLAYED, "this effect is not executed")

    @staticmethod
    def plays_card(card: CardRecord) -> str | None:
        return "events are never played" if card.card_type == "event" else None


@pytest.fixture
def fake_engine(monkeypatch):
    """Every coverage lookup (catalog, reports) classifies with ``FakeEngine``."""
    import catalog.abilities
    import rules.coverage

    monkeypatch.setattr(rules.coverage, "coverage_engine", lambda game: FakeEngine)
    monkeypatch.setattr(catalog.abilities, "_engine", lambda game: FakeEngine)
    return FakeEngine


# -- the record and the model ------------------------------------------------------------------------
def test_record_carries_abilities_through_json():
    abilities = get_spec("ws").compile_text(DRAW + POWER, "character")
    rec = CardRecord.from_dict({**ws_card("X/T-1", DRAW + POWER), "abilities": [a.to_dict() for a in abilities]})
    assert rec.abilities == tuple(abilities) and len(rec.abilities) == 2
    data = rec.to_dict()
    assert data["abilities"] == [a.to_dict() for a in abilities] and set(data) - {"abilities"} == CARD_FIELDS
    assert CardRecord.from_dict(json.loads(json.dumps(data, ensure_ascii=False))).abilities == rec.abilities
    assert "abilities" not in CardRecord.from_dict(ws_card("X/T-2")).to_dict()  # the card JSON format stays as it was
    assert "abilities" not in CARD_FIELDS  # derived: not imported, not exported


def test_game_specs_name_their_compiler():
    assert {g for g in ("pc", "phantasma", "ws", "chaos", "lycee") if get_spec(g).compile_text} == {"ws", "lycee", "chaos"}
    (ability,) = get_spec("ws").compile_text(DRAW, "character")
    assert ability.compiled and [e.kind for e in ability.effects] == ["draw"]


def test_save_compiles_and_to_record_carries_the_abilities(fake_engine):
    card = Card(**_full(ws_card("AB/T02-001", DRAW + POWER)))
    card.save()
    card.refresh_from_db()
    assert [a["kind"] for a in card.abilities] == ["auto", "continuous"]
    assert {"draw", "power", "attacks"} <= set(card.effect_kinds) and card.modelled
    rec = card.to_record()
    assert [a.to_dict() for a in rec.abilities] == card.abilities
    card.text = UNREADABLE
    card.save(update_fields=["text"])  # the derived columns follow, even with update_fields
    card.refresh_from_db()
    assert card.abilities[0]["unrecognised"] == "ほにゃららする。" and not card.modelled and "draw" not in card.effect_kinds


def _full(card: dict[str, Any]) -> dict[str, Any]:
    from catalog.cardfields import card_normalize

    normal, problems = card_normalize(card)
    assert not problems
    return normal


def test_migration_matches_the_model_and_starts_from_the_old_rule():
    out = StringIO()
    call_command("makemigrations", "catalog", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
    migration = importlib.import_module("catalog.migrations.0012_card_abilities")
    import_cards([ws_card("AB/T03-001", DRAW, text_modelled=True), ws_card("AB/T03-002", "-"),
                  ws_card("AB/T03-003", UNREADABLE)])
    Card.objects.update(modelled=False)
    from django.apps import apps

    migration.old_rule(apps, None)
    assert dict(Card.objects.values_list("code", "modelled")) == {
        "AB/T03-001": True, "AB/T03-002": True, "AB/T03-003": False}


# -- import ----------------------------------------------------------------------------------------------
def test_import_stores_abilities_effect_kinds_and_coverage(fake_engine):
    summary = import_cards(CARDS)
    assert summary.created == len(CARDS)
    cards = {c.code: c for c in Card.objects.filter(game="ws")}
    assert [e["kind"] for e in cards["AB/T01-001"].abilities[0]["effects"]] == ["draw"]
    assert "burn" in cards["AB/T01-002"].effect_kinds and "attacks" in cards["AB/T01-002"].effect_kinds
    assert cards["AB/T01-004"].abilities[0]["unrecognised"] == "ほにゃららする。"
    assert cards["AB/T01-005"].abilities == [] and cards["AB/T01-005"].modelled  # vanilla
    modelled = {code for code, c in cards.items() if c.modelled}
    assert modelled == {"AB/T01-001", "AB/T01-002", "AB/T01-003", "AB/T01-005", "AB/T01-006"}  # the event: never played
    facets = set(CardFacet.objects.filter(facet="effect_kinds", card__code="AB/T01-006").values_list("value", flat=True))
    assert facets == set(cards["AB/T01-006"].effect_kinds) >= {"draw", "power", "attacks"}


def test_reimport_recompiles_only_what_changed(fake_engine):
    import_cards(CARDS)
    again = import_cards(CARDS)
    assert again.unchanged == len(CARDS) and again.updated == 0
    # a changed text is recompiled with the card
    changed = [dict(c, text=BURN) if c["code"] == "AB/T01-004" else c for c in CARDS]
    summary = import_cards(changed)
    assert summary.updated == 1
    card = Card.objects.get(code="AB/T01-004")
    assert card.modelled and "burn" in card.effect_kinds and card.abilities[0].get("unrecognised") is None
    assert CardFacet.objects.filter(card=card, facet="effect_kinds", value="burn").exists()
    # derived columns left stale (a catalog from before them): an import with unchanged data refreshes them
    Card.objects.filter(code="AB/T01-001").update(abilities=[], effect_kinds=[], modelled=False)
    summary = import_cards(changed)
    assert summary.unchanged == len(CARDS)
    card = Card.objects.get(code="AB/T01-001")
    assert card.abilities and card.modelled and "draw" in card.effect_kinds


def test_each_distinct_text_compiles_once(fake_engine, monkeypatch):
    import dataclasses

    import catalog.abilities

    calls: list[str] = []
    spec = get_spec("ws")

    def counting(text: str, card_type: str = "character"):
        calls.append(text)
        return spec.compile_text(text, card_type)

    counted = dataclasses.replace(spec, compile_text=counting)
    monkeypatch.setattr(catalog.abilities, "get_spec", lambda game: counted if game == "ws" else get_spec(game))
    compile_cached.cache_clear()
    try:
        import_cards([ws_card(f"AB/T04-{i:03d}", DRAW) for i in range(30)] + [ws_card("AB/T04-100", BURN)])
    finally:
        compile_cached.cache_clear()
    assert sorted(calls) == sorted([DRAW, BURN])


# -- compile_abilities -------------------------------------------------------------------------------------
def test_compile_abilities_is_idempotent_and_prints_coverage(fake_engine, tmp_path):
    import_cards(CARDS)
    Card.objects.filter(game="ws").update(abilities=[], effect_kinds=[], modelled=False)
    CardFacet.objects.filter(facet="effect_kinds").delete()
    report_file = tmp_path / "ws.json"
    out = StringIO()
    call_command("compile_abilities", "--game", "ws", "--report", str(report_file), stdout=out)
    text = out.getvalue()
    assert f"Weiß Schwarz: {len(CARDS)} cards in" in text and f"{len(CARDS)} changed" in text
    assert "ability instances compiled: 6 of 7 (85.7%)" in text
    assert "cards fully compiled: 5 of 6 cards with text (83.3%)" in text
    assert "cards fully modelled by the goldfish engine: 5 of 7" in text
    assert "top unrecognised phrases" in text and "ほにゃららする。" in text
    report = json.loads(report_file.read_text(encoding="utf-8"))
    assert report["changed"] == len(CARDS) and report["instances"] == 7 and report["compiled"] == 6
    assert report["unrecognised"] == [{"phrase": "ほにゃららする。", "instances": 1}]
    assert report["statuses"] == {"played": 4, "no_effect": 2, "not_understood": 1, "not_played": 0}
    assert report["never_played"] == 1 and {"reason": "events are never played", "count": 1} in report["not_modelled_reasons"]
    assert CardFacet.objects.filter(facet="effect_kinds", value="burn").count() == 1
    # a second run writes nothing
    out = StringIO()
    call_command("compile_abilities", "--game", "ws", stdout=out)
    assert f"{len(CARDS)} cards in" in out.getvalue() and ", 0 changed" in out.getvalue()
    assert catalog_compile(game="ws").changed == 0


def test_compile_abilities_for_a_game_without_a_compiler():
    call_command("load_sample_data", verbosity=0)
    out = StringIO()
    call_command("compile_abilities", "--game", "phantasma", stdout=out)
    assert "no ability compiler for this game" in out.getvalue()
    # Phantasmagoria's structured effects are its effect kinds
    healing = Card.objects.filter(game="phantasma", effects__icontains="heal").first()
    if healing is not None:
        assert "heal" in healing.effect_kinds


# -- search -------------------------------------------------------------------------------------------------
def codes(q: str) -> set[str]:
    return set(card_search(q=q).values_list("code", flat=True))


def test_search_by_effect_kind_and_coverage(fake_engine):
    import_cards(CARDS)
    assert codes("effect:draw") == {"AB/T01-001", "AB/T01-006", "AB/T01-007"}
    assert codes("game:ws effect:burn") == {"AB/T01-002"}
    assert codes("effect:attacks -effect:draw") == {"AB/T01-002"}  # a trigger is a kind too (004: not understood)
    assert codes("eff:stock-charge") == set()  # - and spaces read as _, a known kind with no card
    assert codes("game:ws modelled:no") == {"AB/T01-004", "AB/T01-007"}
    assert codes("game:ws modelled:yes effect:power") == {"AB/T01-003", "AB/T01-006"}
    assert codes("game:ws modeled!=yes") == {"AB/T01-004", "AB/T01-007"}
    sql = str(card_search(q="effect:burn").query)
    assert "catalog_cardfacet" in sql and "effect_kinds" in sql  # an indexed (facet, value) lookup


def test_search_effect_errors():
    with pytest.raises(QueryError) as err:
        card_search(q="effect:teleport")
    assert err.value.code == "bad_value" and "unknown effect 'teleport'" in str(err.value.english)
    with pytest.raises(QueryError) as err:
        card_search(q="game:pc effect:draw")
    assert err.value.code == "wrong_game"
    assert "burn" in effect_vocabulary("ws") and "climax_bonus" in effect_vocabulary("ws")
    assert "draw" in effect_vocabulary("lycee") and effect_vocabulary("pc") == ()


def test_search_help_lists_the_effect_kinds(client):
    page = client.get("/cards/help/").content.decode()
    assert 'id="effects"' in page and "effect:burn" in page
    assert page.count("q=game:ws+effect:") == len(effect_vocabulary("ws"))


@pytest.mark.postgres
def test_effect_and_modelled_search_on_postgresql(fake_engine):
    """The same answers on PostgreSQL (its own facet-key and page paths around the CardFacet lookup)."""
    import_cards(CARDS)
    assert codes("effect:draw") == {"AB/T01-001", "AB/T01-006", "AB/T01-007"}
    assert codes("game:ws modelled:no") == {"AB/T01-004", "AB/T01-007"}
    assert codes("c:red effect:burn or effect:power") == {"AB/T01-002", "AB/T01-003", "AB/T01-006"}
    assert codes("game:ws effect:attacks modelled:yes") == {"AB/T01-001", "AB/T01-002", "AB/T01-006"}


# -- the card page ---------------------------------------------------------------------------------------------
def test_card_page_says_per_ability_how_the_engine_treats_it(client, fake_engine):
    import_cards(CARDS)
    page = client.get("/cards/ws/AB/T01-006/").content.decode()
    assert "Abilities in the goldfish engine" in page and "Fully modelled" in page
    statuses = re.findall(r'<li data-status="(\w+)"><strong class="ability-status">([^<]+)</strong>', page)
    assert statuses == [("played", "played"), ("no_effect", "no effect in goldfish")]
    assert "power matters only in battles" in page and "effect:draw" in page
    page = client.get("/cards/ws/AB/T01-004/").content.decode()
    assert "Not fully modelled by the goldfish engine" in page
    assert re.search(r'data-status="not_understood"><strong class="ability-status">not understood</strong>', page)
    assert "<q>ほにゃららする。</q>" in page
    page = client.get("/cards/ws/AB/T01-007/").content.decode()
    assert "Not fully modelled by the goldfish engine: events are never played" in page
    vanilla = client.get("/cards/ws/AB/T01-005/").content.decode()
    assert "Fully modelled" in vanilla and "Abilities in the goldfish engine" not in vanilla


@pytest.mark.parametrize(("lang", "words"), [("ja", ("一人回しエンジンでの能力", "読み取れない")),
                                               ("zh-hans", ("单人试玩引擎中的能力", "无法解读"))])
def test_card_page_statuses_translated(client, fake_engine, lang, words):
    import_cards(CARDS)
    page = client.get("/cards/ws/AB/T01-004/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert all(w in page for w in words)


# -- reports ---------------------------------------------------------------------------------------------------
def deck_file(tmp_path, counts: dict[str, int]):
    path = tmp_path / "deck.txt"
    path.write_text("".join(f"{n} {code}\n" for code, n in counts.items()), encoding="utf-8")
    return path


def goldfish(tmp_path, counts: dict[str, int], *args: str) -> str:
    out = StringIO()
    call_command("goldfish", "--game", "ws", "--deck", str(deck_file(tmp_path, counts)), "--games", "10", *args,
                 stdout=out, stderr=StringIO())
    return out.getvalue()


def test_cli_report_puts_coverage_next_to_the_turn_of_win(tmp_path, fake_engine):
    import_cards(CARDS + CLIMAXES + VANILLA)
    text = goldfish(tmp_path, DECK)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("modelled: "))
    assert lines[at - 1].startswith(("turn of win:", "wins "))  # right after the turn-of-win figures
    assert lines[at] == "modelled: 11 of 13 cards fully modelled (88.0% of copies); not modelled (copies, card, why):"
    block = "\n".join(lines[at:at + 8])
    assert "   4  AB/T01-007" in block and "never played: events are never played" in block
    assert "   2  AB/T01-004" in block and "not understood: ほにゃららする。" in block
    assert "every card's text in this deck is modelled" not in text and "unmodelled effects" not in text
    cov = json.loads(goldfish(tmp_path, DECK, "--json"))["coverage"]  # JSON: the same block
    assert (cov["cards"], cov["cards_modelled"], cov["copies"], cov["copies_modelled"], cov["copies_share"]) == (
        13, 11, 50, 44, 0.88)
    assert [(c["code"], c["copies"], c["never_played"]) for c in cov["not_modelled"]] == [
        ("AB/T01-007", 4, "events are never played"), ("AB/T01-004", 2, None)]


def test_a_deck_whose_events_are_never_played_never_claims_full_coverage(tmp_path, fake_engine):
    """Issue 16, wrong result 3: events with no text, never played, are not modelled."""
    import_cards(CLIMAXES + VANILLA + [ws_card("AB/T05-001", card_type="event")])
    fillers = {c["code"]: 4 for c in VANILLA}
    text = goldfish(tmp_path, {**fillers, "AB/T01-008": 4, "AB/T01-009": 4, "AB/T05-001": 4})
    assert "every card's text in this deck is modelled" not in text
    assert "modelled: 8 of 9 cards fully modelled (88.9% of copies)" in text
    assert "never played: events are never played" in text
    text = goldfish(tmp_path, {**fillers, "AB/T01-008": 4, "AB/T01-009": 4})  # a fully modelled deck says so
    assert "modelled: 8 of 8 cards fully modelled (100.0% of copies): every card's text in this deck is modelled" in text


ALL_MODELLED = re.compile(r"every card(?:&#x27;|')s text in this deck is modelled")


def job_for(client, settings, django_capture_on_commit_callbacks, deck: dict[str, int]):
    from playtest.models import PlaytestJob

    settings.PLAYTEST_EXECUTOR = "inline"
    text = "".join(f"{n} {code}\n" for code, n in deck.items())
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/api/v1/playtests/", json.dumps({"game": "ws", "text": text, "games": 10, "seed": 3}),
                        content_type="application/json")
    assert r.status_code == 202, r.content
    return PlaytestJob.objects.get(pk=r.json()["id"])


def test_job_stores_the_coverage_block_and_the_api_and_page_show_it(client, settings, fake_engine,
                                                                   django_capture_on_commit_callbacks, monkeypatch):
    import_cards(CARDS + CLIMAXES + VANILLA)
    job = job_for(client, settings, django_capture_on_commit_callbacks, DECK)
    assert job.status == "done"
    stored = job.summary["coverage"]
    assert (stored["cards"], stored["cards_modelled"], stored["copies_share"]) == (13, 11, 0.88)
    assert job.snapshot["cards"]["AB/T01-001"]["abilities"][0]["effects"] == [{"kind": "draw", "params": {"count": 1}}]
    body = client.get(f"/api/v1/playtests/{job.share_slug}/").json()
    assert body["coverage"] == stored and "unmodelled" not in body
    assert list(body).index("coverage") < list(body).index("statistics")
    # the stored block is what the job's games were played with: a later engine change does not alter it
    import rules.coverage

    monkeypatch.setattr(rules.coverage, "coverage_engine", lambda game: None)
    assert client.get(f"/api/v1/playtests/{job.share_slug}/").json()["coverage"] == stored
    page = client.get(job.get_absolute_url()).content.decode()
    assert page.count("data-coverage") == 1
    assert page.index('id="summary-heading"') < page.index("data-coverage") < page.index('id="hist-heading"')
    assert "11 of 13 cards fully modelled (88.0% of copies)" in page
    assert "<q>ほにゃららする。</q>" in page and "events are never played" in page
    assert not ALL_MODELLED.search(page) and "Effects the engine did not play" not in page


def test_a_job_finished_before_coverage_was_stored_computes_it(client, settings, fake_engine,
                                                               django_capture_on_commit_callbacks):
    more = [ws_card(f"AB/T09-{i:03d}") for i in range(1, 6)]
    import_cards(CLIMAXES + VANILLA + more)
    deck = {c["code"]: 4 for c in VANILLA + more} | {"AB/T09-005": 2, "AB/T01-008": 4, "AB/T01-009": 4}
    assert sum(deck.values()) == 50
    job = job_for(client, settings, django_capture_on_commit_callbacks, deck)
    job.summary = {k: v for k, v in job.summary.items() if k != "coverage"}
    job.save(update_fields=["summary"])
    body = client.get(f"/api/v1/playtests/{job.share_slug}/").json()
    assert body["coverage"]["cards_modelled"] == body["coverage"]["cards"] == len(deck)
    page = client.get(job.get_absolute_url()).content.decode()
    assert f"{len(deck)} of {len(deck)} cards fully modelled (100.0% of copies)" in page
    assert ALL_MODELLED.search(page)


@pytest.mark.parametrize(("lang", "words"), [
    ("ja", ("エンジンが再現するもの", "13 種中 11 種のカードをすべて再現", "読み取れない")),
    ("zh-hans", ("引擎模拟的内容", "13 种卡中 11 种完全模拟", "无法解读"))])
def test_report_coverage_block_translated(client, settings, fake_engine, django_capture_on_commit_callbacks,
                                          lang, words):
    import_cards(CARDS + CLIMAXES + VANILLA)
    job = job_for(client, settings, django_capture_on_commit_callbacks, DECK)
    page = client.get(job.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert all(w in page for w in words), lang


def test_the_real_engines_classify_through_the_same_contract():
    """Without the fake: the report's block is rules.coverage's with the game's own engine and compiler."""
    from rules.coverage import coverage_engine, game_deck_coverage
    from rules.engine.core import get_engine

    engine = coverage_engine("ws")
    assert engine is not None and engine in (get_engine("ws"), importlib.import_module("rules.ws.engine"))
    recs = [CardRecord.from_dict(ws_card("AB/T06-001", UNREADABLE))] * 3 + [CardRecord.from_dict(ws_card("AB/T06-002"))]
    cov = game_deck_coverage("ws", recs)
    assert cov["copies"] == 4 and cov["not_modelled"][0]["code"] == "AB/T06-001"
    assert cov["not_modelled"][0]["abilities"][0] == {
        "text": UNREADABLE, "kind": "auto", "status": "not_understood", "reason": "ほにゃららする。",
        "phrase": "ほにゃららする。"}
