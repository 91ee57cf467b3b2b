"""Search as players write it (issue 17): 《trait》 and 「name」, the interface's words in every
language (field names and values), bare card codes, Simplified/Traditional/Japanese kanji folded.

The accepted words are read from the same catalogs and label tables the pages show
(catalog/search/localized.py); the tables below are what a player types.
"""
from __future__ import annotations

import pytest
from django.utils import translation

from catalog.models import Card
from catalog.search import QueryError, compile_query, lookup_field
from catalog.search.localized import (
    FIELD_LABELS,
    VALUE_LABELS,
    ambiguous_field_words,
    field_for_word,
    value_words,
    values_for_word,
)
from catalog.selectors import card_search
from catalog.textnorm import fold, fold_code
from tests.search_testdata import load_fixture_cards, make_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards(db):
    load_fixture_cards()
    mk = make_card
    mk(game="ws", code="AB/W11-002", name="結弦の心臓 かなで", card_type="character", level=0, cost=0, power=2500,
       soul=1, colors=["yellow"], traits=["音楽", "死後の世界"], text="【永】 応援 このカードの前のあなたのキャラすべてに、パワーを＋500。")
    mk(game="ws", code="AB/W31-012", name="結弦の心臓", card_type="character", level=0, cost=0, power=2500, soul=1,
       colors=["yellow"], traits=["音楽"], text="【自】 このカードがアタックした時、あなたは1枚引く。")
    mk(game="ws", code="AB/W11-002SP", name="Aあ結弦の心臓 かなで", card_type="character", level=0, cost=0,
       power=2500, soul=1, colors=["yellow"], traits=["音楽"])
    mk(game="ws", code="AB/W11-101", name="沢渡の音樂", card_type="event", level=1, cost=1, colors=["red"],
       text="あなたは1枚引く。")
    return Card.objects


def codes(q: str, game: str | None = None) -> set[str]:
    return set(card_search(q=q, game=game).values_list("code", flat=True))


def first(q: str) -> str:
    return card_search(q=q).values_list("code", flat=True)[0]


def error(q: str) -> QueryError:
    with pytest.raises(QueryError) as exc:
        list(card_search(q=q)[:1])
    return exc.value


# -- 1. 《trait》 and 「name」 ---------------------------------------------------------------------
@pytest.mark.parametrize("bracketed, plain", [
    ("《Music》", "trait:Music"),
    ("≪Music≫", "trait:Music"),
    ("《music》 c:yellow", "trait:music c:yellow"),
    ("-《Music》 game:ws", "-trait:Music game:ws"),
    ("《Music》《Strings》", "trait:Music trait:Strings"),
    ("《Wind Instrument》", 'trait:"Wind Instrument"'),
    ("trait:《Music》", "trait:Music"),
    ("《音楽》", "trait:音楽"),
    ("「Reika」", "name:Reika"),
    ("「Mina Aozora」", 'name:"Mina Aozora"'),
    ("「結弦の心臓」", "name:結弦の心臓"),
    ("《Music》 or 「Cobalt」", "trait:Music or name:Cobalt"),
])
def test_brackets_as_printed(cards, bracketed, plain):
    assert codes(bracketed) == codes(plain) != set(), bracketed


def test_trait_brackets_are_not_a_name_search(cards):
    # before: 《音楽》 was the name word 音楽 (the brackets folded away) and missed every 音楽 card
    assert codes("《音楽》") == {"AB/W11-002", "AB/W31-012", "AB/W11-002SP"}
    assert "AB/W11-101" not in codes("《音楽》")  # 音樂 in the name, no such trait


def test_brackets_inside_a_word_stay_a_name_word(cards):
    assert compile_query("「約束」の場所").q == compile_query("約束の場所").q
    assert codes("stagedebut「minaaozora」") == {"SR-002"}


def test_unclosed_or_empty_brackets_are_400s_naming_the_position(cards, client):
    err = error("game:ws 《Music")
    assert (err.code, err.position) == ("unterminated_string", 8)
    err = error("「Reika")
    assert (err.code, err.position) == ("unterminated_string", 0)
    assert error("《》").code == "bad_value"
    r = client.get("/api/v1/cards/", {"q": "c:red 《Music"})
    assert r.status_code == 400
    assert r.json()["error"]["params"]["position"] == 6


# -- 2. the interface's words -------------------------------------------------------------------
@pytest.mark.parametrize("localized, english", [
    ("トリガー:扉", "trigger:comeback"),
    ("トリガー:カムバック", "trigger:comeback"),
    ("トリガー:ソウル", "trigger:soul"),
    ("トリガー:本", "trigger:draw"),
    ("トリガー:宝", "trigger:treasure"),
    ("トリガー:門 or トリガー:ゲート", "trigger:gate"),
    ("trigger:door", "trigger:comeback"),
    ("色:黄", "color:yellow"),
    ("色:黃", "color:yellow"),  # Traditional
    ("色：赤", "color:red"),
    ("t:クライマックス", "t:climax"),
    ("t:くらいまっくす", "t:climax"),
    ("種類:イベント", "t:event"),
    ("t:キャラクター 色:緑", "t:character c:green"),
    ("属性:雪", "attr:snow"),
    ("gender:女性", "gender:female"),
    # Chinese (zh-hans)
    ("触发:灵魂", "trigger:soul"),
    ("触发:门", "trigger:gate"),
    ("颜色:黄", "color:yellow"),
    ("颜色:红", "color:red"),
    ("t:高潮卡", "t:climax"),
    ("种类:事件卡", "t:event"),
    ("种类:角色卡", "t:character"),
    ("属性:雪", "attr:snow"),
    # field names as the card pages show them
    ("特徴:Music", "trait:Music"),
    ("レアリティ:RR", "rarity:RR"),
    ("パワー>=9000", "power>=9000"),
    ("等級:3", "level:3"),  # Traditional form of 等级
])
def test_interface_words_are_accepted(cards, localized, english):
    assert codes(localized) == codes(english) != set(), localized


def test_a_word_for_two_values_matches_either(cards):
    # zh-hans 无 names both the "none" attribute and Lycee's star
    with translation.override("zh-hans"):
        none, star = str(VALUE_LABELS["attribute"][0]["none"]), str(VALUE_LABELS["attribute"][0]["star"])
    if none == star:
        assert values_for_word("attribute", none) == {"none", "star"}
        assert codes(f"属性:{none}") == codes("attr:none or attr:star")


@pytest.mark.parametrize("language", ["en", "ja", "zh-hans"])
def test_every_shown_value_word_is_accepted(language):
    """The search and the pages never disagree: each value label the pages show, in each language."""
    for field, tables in VALUE_LABELS.items():
        spec = lookup_field(field)
        assert spec is not None, field
        for table in tables:
            for value, label in table.items():
                if value not in {v.lower() for v in spec.values}:
                    continue  # e.g. attribute labels of another game's field
                with translation.override(language):
                    word = str(label)
                assert value in values_for_word(field, word), (language, field, value, word)
                compile_query(f"{field}:\"{word}\"")  # no error


@pytest.mark.parametrize("language", ["en", "ja", "zh-hans"])
def test_every_shown_field_name_is_accepted(language):
    from django.utils.translation import gettext

    for field, labels in FIELD_LABELS.items():
        for label in labels:
            with translation.override(language):
                word = gettext(label) if isinstance(label, str) else str(label)
            word = word.rstrip(":：").strip()
            assert field_for_word(word) == field or lookup_field(word).name == field, (language, field, word)


def test_no_shown_field_name_is_ambiguous():
    assert ambiguous_field_words() == frozenset()


def test_unknown_localized_value_is_a_400_at_the_value(cards):
    err = error("トリガー:扉扉")
    assert (err.code, err.position) == ("bad_value", 5)


def test_help_page_lists_the_words_in_the_readers_language(client, cards):
    r = client.get("/cards/help/", HTTP_ACCEPT_LANGUAGE="ja")
    page = r.content.decode()
    assert r.status_code == 200
    assert "カムバック" in page and "扉" in page and "クライマックス" in page
    assert value_words("trigger", "comeback", "ja") == ["カムバック", "扉"]
    r = client.get("/cards/help/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "高潮卡" in r.content.decode()


# -- 3. bare card codes -------------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["AB/W11-002", "ab/w11-002", "ab-w11-002", "AB-W11-002", "abw11-002",
                                   "ABW11002", "ＡＢ／Ｗ１１－００２"])
def test_a_bare_code_finds_that_card_first(cards, typed):
    assert first(typed) == "AB/W11-002", typed
    assert "AB/W11-002SP" in codes(typed)  # its parallel printing's code starts the same


@pytest.mark.parametrize("typed, expected", [
    ("SKY/W90", "code:SKY/W90*"), ("sky-w90-00", "code:SKY/W90-00*"), ("SKY/W90-02*", "code:SKY/W90-02*"),
    ("NOC/", "set:NOC/S90"), ("ab/w11", "code:AB/W11*"),
])
def test_code_prefixes_without_code(cards, typed, expected):
    found = codes(typed)
    assert found == codes(expected) and len(found) > 2
    assert all(fold_code(c).startswith(fold_code(typed.rstrip("*"))) for c in found)


def test_code_field_reads_codes_the_same_way(cards):
    assert codes("code:ab-w11-002") == {"AB/W11-002"}
    assert codes("code:abw11*") == {"AB/W11-002", "AB/W11-002SP", "AB/W11-101"}
    assert codes("code:NOC") == set()  # exact unless it ends with *


def test_code_words_and_names_and_negation(cards):
    assert codes("-SKY/W90 game:ws") == codes("game:ws") - codes("set:SKY/W90")
    assert codes("AB/W11 《音楽》") == {"AB/W11-002", "AB/W11-002SP"}
    assert codes("lantern") == codes("name:lantern")  # words without digits stay name words
    assert compile_query("night").code_words == ()
    # an explicit order wins over "that card first"
    assert card_search(q="ab/w11 order:name").values_list("code", flat=True)[0] == "AB/W11-002SP"


def test_bare_code_in_the_api_and_page(cards, client):
    r = client.get("/api/v1/cards/", {"q": "ab-w11-002"})
    assert r.status_code == 200 and r.json()["results"][0]["code"] == "AB/W11-002"
    r = client.get("/cards/", {"q": "sky/w90-001"})
    assert r.status_code == 200 and "Piccolo Prodigy Fuuka" in r.content.decode()


# -- 4. Simplified, Traditional and Japanese kanji --------------------------------------------------
@pytest.mark.parametrize("query, expected", [
    ("结弦", {"AB/W11-002", "AB/W31-012", "AB/W11-002SP"}),  # Simplified for 結弦
    ("結弦の心脏", {"AB/W11-002", "AB/W31-012", "AB/W11-002SP"}),  # 臓 / 臟 / 脏
    ("泽渡", {"AB/W11-101"}),  # 沢 (ja) / 澤 (trad) / 泽 (simp)
    ("澤渡の音楽", {"AB/W11-101"}),  # 音樂 stored, 音楽 typed
    ("o:应援", {"AB/W11-002"}),  # 応援 in the text
    ("o:あなたは1枚引く", {"AB/W31-012", "AB/W11-101"}),
])
def test_kanji_forms_fold_together(cards, query, expected):
    assert codes(query) == expected, query


def test_fold_uses_opencc_not_a_table_of_ours():
    import opencc

    assert fold("結弦") == fold("结弦") == "结弦"
    assert fold("沢") == fold("澤") == fold("泽")
    assert fold("音楽") == fold("音樂") == fold("音乐")
    # kana, width, case and separators as before
    assert fold("クリムゾン・フィナーレ") == "くりむぞんふぃなーれ" and fold("ＡＰ＋３") == "ap+3"
    # the table is OpenCC's: every kanji it folds is what OpenCC's own converters give
    t2s, jp2t = opencc.OpenCC("t2s.json"), opencc.OpenCC("jp2t.json")
    for ch in "國氣發髮圧亜黒緑臓體":
        assert fold(ch) == t2s.convert(jp2t.convert(ch)), ch


def test_refold_command_updates_stale_rows(cards):
    from io import StringIO

    from django.core.management import call_command

    Card.objects.filter(code="AB/W31-012").update(name_folded="stale", code_folded="")
    out = StringIO()
    call_command("refold_cards", stdout=out)
    card = Card.objects.get(code="AB/W31-012")
    assert card.name_folded == "结弦の心脏" and card.code_folded == "ABW31012"
    assert "refolded 1 of" in out.getvalue()


def test_migration_refold_function(cards):
    """The data migration's refold gives what every write path gives (catalog.textnorm.fold_card)."""
    import importlib

    from django.apps import apps as global_apps
    from django.db import connection

    migration = importlib.import_module("catalog.migrations.0009_card_code_folded")
    Card.objects.filter(game="ws").update(name_folded="", text_folded="", code_folded="")

    editor = type("Editor", (), {"connection": connection})()
    migration.refold(global_apps, editor)
    card = Card.objects.get(code="AB/W11-002")
    assert (card.name_folded, card.code_folded) == ("结弦の心脏かなで", "ABW11002")
    assert "应援" in card.text_folded


# -- PostgreSQL: the plans -------------------------------------------------------------------------
@pytest.mark.postgres
def test_postgres_bare_code_uses_the_code_index(cards):
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        sql, params = card_search(q="ab-w11-002").order_by().values("id").query.sql_with_params()
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "card_code_folded_idx" in plan, plan


def test_codes_typed_any_way_resolve_for_the_deck_tools(cards):
    """catalog.selectors.card_codes_resolve (deck builder's add-by-code, deck files): any case, with or
    without the set's slash — but only when one card has that form; a typo stays unknown."""
    from catalog.selectors import card_codes_resolve

    typed = ["ab-w11-002", "abw11-002", "AB/W11-002", "sky/w90-001", "Sky-W90-001", "SKY/W90-999", "AB/W11"]
    assert card_codes_resolve(game="ws", codes=typed) == {
        "ab-w11-002": "AB/W11-002", "abw11-002": "AB/W11-002", "AB/W11-002": "AB/W11-002",
        "sky/w90-001": "SKY/W90-001", "Sky-W90-001": "SKY/W90-001"}
    make_card(game="ws", code="XX/W01-001", name="One", card_type="event", level=0, cost=0, colors=["red"])
    make_card(game="ws", code="XXW01-001", name="Two", card_type="event", level=0, cost=0, colors=["red"])
    assert card_codes_resolve(game="ws", codes=["xxw01001"]) == {}  # two cards fold alike: not a guess
    assert card_codes_resolve(game="pc", codes=["ab-w11-002"]) == {}  # another game's code


@pytest.mark.postgres
def test_postgres_two_character_words_use_the_bigram_index(cards):
    from django.db import connection, transaction

    for q, index in [("结弦", "card_name_folded_bigram_idx"), ("o:应援", "card_text_folded_bigram_idx")]:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            sql, params = card_search(q=q).order_by().values("id").query.sql_with_params()
            cursor.execute("EXPLAIN " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert index in plan, (q, plan)
    # exactly the substring match
    for q, column, value in [("结弦", "name_folded", "结弦"), ("o:应援", "text_folded", "应援"), ("o:a1", "text_folded", "a1")]:
        assert codes(q) == set(Card.objects.filter(**{f"{column}__contains": value}).values_list("code", flat=True))


@pytest.mark.postgres
def test_postgres_api_page_and_count_in_one_statement(cards, client):
    """One round trip per search (count, page and the statement timeout), and the page is the one
    the query's order gives — also when the few matches all sort after thousands of other names
    (the page is sorted from the matches instead of walking the name index)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from catalog.api.serializers import CARD_API_FIELDS
    from catalog.selectors import card_rows_counted

    Card.objects.bulk_create([Card(game="pc", code=f"ZZ-{i:04d}", name=f"Aardvark {i:04d}", card_type="event",
                                   colors=["red"], cost=1) for i in range(1500)])
    for q in ["《音楽》", "结弦", "c:red", "", "o:あなた", "ab/w11", "game:pc order:cost dir:desc", "o:/dr.w/"]:
        qs = card_search(q=q)
        for offset in (0, 10, 1000):
            n, rows = card_rows_counted(qs, CARD_API_FIELDS, offset=offset, limit=11, cap=1001, timeout=5)
            assert [r["code"] for r in rows] == list(qs.values_list("code", flat=True)[offset:offset + 11]), (q, offset)
            assert n == qs.order_by()[:1001].count(), q
    with CaptureQueriesContext(connection) as ctx:
        r = client.get("/api/v1/cards/", {"q": "game:pc", "page_size": 5})
    assert r.status_code == 200 and r.json()["count"] == 1000 and r.json()["count_exact"] is False
    # one search statement, beside it only the statement timeout (set, and inside the test's
    # transaction saved and put back, around a savepoint): one round trip, as one simple-protocol
    # query or one pipeline (catalog.selectors.card_rows_from_statement)
    statements = [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len([s for s in statements if "catalog_card" in s]) == 1, [s[:80] for s in statements]
    assert all("catalog_card" in s or s.startswith("SELECT set_config(") for s in statements), statements
    # the rows come as JSON texts with their URLs made by PostgreSQL; a code a URL must escape too
    make_card(game="pc", code="ZZ 1+Ä", name="Odd Code", card_type="event", colors=["red"], cost=1)
    body = client.get("/api/v1/cards/", {"q": "game:pc odd"}).json()
    assert body["results"][0]["url"] == "/cards/pc/ZZ%201%2B%C3%84/"
    assert body["results"][0]["api_url"] == "/api/v1/cards/pc/ZZ%201%2B%C3%84/"
    listed = client.get("/api/v1/cards/", {"q": "AB/W11-002"}).json()["results"][0]
    assert (listed["url"], listed["api_url"]) == ("/cards/ws/AB/W11-002/", "/api/v1/cards/ws/AB/W11-002/")
    assert list(listed)[:5] == ["game", "code", "name", "alt_names", "card_type"] and list(listed)[-2:] == ["url", "api_url"]


@pytest.mark.postgres
def test_postgres_facet_terms_use_the_facet_keys_column(cards):
    """PostgreSQL matches list values through Card.facet_keys (a generated column, GIN index,
    migration 0013): the same cards as the portable EXISTS on CardFacet, as index conditions."""
    from django.db import connection, transaction

    from catalog.selectors import _has_facet_keys

    if not _has_facet_keys():
        pytest.skip("catalog_card.facet_keys (catalog migration 0013) is not in this database")

    queries = ["c:red", "trigger:draw or trigger:treasure", "t:event c:blue", "《Music》 -c:red", "slot:AF-C",
               "-slot:AF-L game:lycee", "kw:dash", "attr:none", "extra:cobalt", "トリガー:扉", "t:クライマックス",
               "gender:female t:character", "《音楽》 or 《Music》"]
    for q in queries:
        postgres = set(Card.objects.filter(compile_query(q, vendor="postgresql").q).values_list("code", flat=True))
        portable = set(Card.objects.filter(compile_query(q, vendor="sqlite").q).values_list("code", flat=True))
        assert postgres == portable, q
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        sql, params = card_search(q="trigger:draw or trigger:treasure").order_by().values("id").query.sql_with_params()
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "card_facet_keys_idx" in plan and "catalog_cardfacet" not in plan, plan
    # every write path: the column is computed by PostgreSQL from the row itself
    card = Card.objects.get(code="AB/W31-012")
    card.traits = ["Ｍｕｓｉｃ", "音楽"]
    card.save()
    with connection.cursor() as cursor:
        cursor.execute("SELECT facet_keys FROM catalog_card WHERE id = %s", [card.pk])
        keys = cursor.fetchone()[0]
    assert {"traits:ｍｕｓｉｃ", "traits:音楽", "type:character", "colors:yellow"} <= set(keys)


def test_builder_add_by_code_reads_codes_as_the_search_does(cards, django_user_model):
    """The deck builder's add-by-code: any case, with or without the set's slash (through
    card_codes_resolve); a typo is never stored — the builder says so and offers close codes."""
    from django.test import Client

    from decks.models import DeckDraft
    from decks.services import deck_create

    alice = django_user_model.objects.create_user("alice", password="pw-alice-123")
    deck = deck_create(owner=alice, game="ws", name="Angel Beats", zones={})
    c = Client()
    c.force_login(alice)
    url = f"/decks/{deck.pk}/build/"
    for typed in ("ab-w11-002", "abw11-002", "Ab/W11-002"):
        c.post(url, {"op": "add", "code": typed, "count": 1, "zone": "main"})
    assert DeckDraft.objects.get(deck=deck).zones == {"main": {"AB/W11-002": 3}}
    r = c.post(url, {"op": "add", "code": "ab-w11-020", "count": 1, "zone": "main"}, follow=True)
    assert "nothing was added" in r.content.decode()
    assert DeckDraft.objects.get(deck=deck).zones == {"main": {"AB/W11-002": 3}}
