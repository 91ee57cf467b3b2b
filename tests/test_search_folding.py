"""Search folds what users don't type exactly (catalog.textnorm.fold on both sides).

A table of query → expected hits on hand-made cards (full width, kana, case, the separators names
carry), localized field aliases, the stored folded columns on every write path, and (marked
``carddata``) the same rules on a slice of the real Japanese Weiß Schwarz and Lycee data imported
through the real importers and ``catalog.services.card_import``.
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from django.conf import settings

from catalog.models import Card
from catalog.selectors import card_search
from catalog.textnorm import fold, fold_names
from tests.search_testdata import make_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def cjk(db):
    mk = make_card
    mk(game="lycee", code="FT-001", name="AP+3 Charm", card_type="item", cost=1, text="Your character gets AP+3.")
    mk(game="ws", code="FT/W01-001", name="クリムゾン・フィナーレ", card_type="character", level=3, cost=2,
       power=10000, soul=2, colors=["red"], text="【自】このカードが『控え室』から舞台に置かれた時、パワーを＋1000。")
    mk(game="ws", code="FT/W01-002", name="「約束」の場所", card_type="event", level=1, cost=1, colors=["blue"],
       text="あなたは1枚引く。")
    mk(game="ws", code="FT/W01-003", name="〔夏祭り〕 花火", card_type="climax", colors=["yellow"], triggers=["soul"],
       text="【永】あなたのキャラすべてに、パワーを＋1000し、ソウルを＋1。")
    mk(game="ws", code="FT/W01-004", name="Night／Drive", card_type="character", level=1, cost=0, power=4500, soul=1,
       colors=["green"], alt_names=["ナイトドライブ"])
    mk(game="ws", code="FT/W01-005", name="夜空", card_type="character", level=0, cost=0, power=2000, soul=1,
       colors=["green"], alt_names=["よぞら", "ヨゾラ"])
    mk(game="ws", code="FT/W01-006", name="魔法少女リリカ", card_type="character", level=2, cost=1, power=9000, soul=1,
       colors=["red"])
    mk(game="chaos", code="FT-C01", name="Stage Debut 「Mina Aozora」", card_type="character", atk=3, defense=2,
       person="Mina Aozora")
    mk(game="pc", code="FT-P01", name="ＡＢＣ　Ｂｏｏｓｔ", card_type="event", colors=["red"], cost=1)


def codes(q: str, game: str | None = None) -> set[str]:
    return set(card_search(q=q, game=game).values_list("code", flat=True))


FOLDING_TABLE = [
    # full width / NFKC
    ("ＡＰ＋３", {"FT-001"}),
    ("o:ＡＰ＋３", {"FT-001"}),
    ("ap+3", {"FT-001"}),
    ("abc boost", {"FT-P01"}),  # full-width name, ASCII query (two words, both must match)
    ('"ABC Boost"', {"FT-P01"}),
    # hiragana ⇄ katakana, half-width katakana
    ("くりむぞん", {"FT/W01-001"}),
    ("クリムゾン", {"FT/W01-001"}),
    ("ｸﾘﾑｿﾞﾝ", {"FT/W01-001"}),
    ("まほうしょうじょ", set()),  # kana do not match kanji
    ("りりか", {"FT/W01-006"}),
    ("少女", {"FT/W01-006"}),
    # separators the names carry need not be typed
    ("クリムゾンフィナーレ", {"FT/W01-001"}),
    ("クリムゾン・フィナーレ", {"FT/W01-001"}),
    ("クリムゾン　フィナーレ", {"FT/W01-001"}),  # the ideographic space an IME types separates two terms
    ("約束の場所", {"FT/W01-002"}),
    ("「約束」", {"FT/W01-002"}),
    ("夏祭り花火", {"FT/W01-003"}),
    ("〔夏祭り〕", {"FT/W01-003"}),
    ("nightdrive", {"FT/W01-004"}),
    ("night/drive", {"FT/W01-004"}),
    ('"Night Drive"', {"FT/W01-004"}),
    ("NIGHT／DRIVE", {"FT/W01-004"}),
    ("stagedebut「minaaozora」", {"FT-C01"}),
    ("n:aozora", {"FT-C01"}),
    # alternate names and readings
    ("ないとどらいぶ", {"FT/W01-004"}),
    ("ヨゾラ", {"FT/W01-005"}),
    # text: brackets dropped, full width = ASCII
    ("o:控え室", {"FT/W01-001"}),
    ("o:『控え室』から", {"FT/W01-001"}),
    ("o:パワーを+1000", {"FT/W01-001", "FT/W01-003"}),
    ("o:そうるを", {"FT/W01-003"}),
    # case
    ("CHARM", {"FT-001"}),
    ("charm", {"FT-001"}),
]


@pytest.mark.parametrize("query, expected", FOLDING_TABLE)
def test_folding_table(cjk, query, expected):
    assert codes(query) == expected, query


def test_a_match_never_spans_two_names(cjk):
    # name "夜空" + alternate "よぞら": the end of one and the start of the next are not one string
    assert codes("空よ") == set()
    assert codes("夜空") == {"FT/W01-005"}


@pytest.mark.parametrize("localized, english", [
    ("パワー>=9000", "power>=9000"), ("力量>=9000", "power>=9000"), ("战斗力>=9000", "power>=9000"),
    ("ＰＯＷＥＲ>=9000", "power>=9000"), ("パワー＞＝9000", "power>=9000"), ("レベル：３", "level:3"),
    ("色：green　レベル＜＝１", "color:green level<=1"), ("レベル:3", "level:3"), ("等级:3", "level:3"), ("ソウル:2", "soul:2"),
    ("魂:2", "soul:2"), ("灵魂值:2", "soul:2"), ("コスト<=0", "cost<=0"), ("费用<=0", "cost<=0"),
    ("トリガー:soul", "trigger:soul"), ("触发:soul", "trigger:soul"), ("色:green", "color:green"),
    ("颜色:green", "color:green"), ("テキスト:控え室", "o:控え室"), ("カード名:りりか", "n:りりか"),
])
def test_localized_field_aliases(cjk, localized, english):
    hits = codes(localized, game="ws")
    assert hits == codes(english, game="ws") and hits, localized


def test_folded_columns_on_every_write_path(cjk):
    card = Card.objects.get(code="FT/W01-001")
    assert card.name_folded == "くりむぞんふぃなーれ"
    assert "ぱわーを+1000" in card.text_folded
    # save() with update_fields
    card.name = "ブルー・ムーン"
    card.save(update_fields=["name"])
    assert Card.objects.get(pk=card.pk).name_folded == "ぶるーむーん"
    # bulk_update / bulk_create
    card.alt_names = ["ブルームーン", "Blue Moon"]
    Card.objects.bulk_update([card], ["alt_names"])
    assert Card.objects.get(pk=card.pk).name_folded == "ぶるーむーん\nbluemoon"
    Card.objects.bulk_create([Card(game="ws", code="FT/W01-099", name="ＮＥＷ・カード", card_type="event",
                                   level=0, cost=0, colors=["red"])])
    assert Card.objects.get(code="FT/W01-099").name_folded == "newかーど"


def test_import_service_folds_created_and_updated_cards(db):
    from catalog.importers import ImportRecord
    from catalog.services import card_import

    base = {"game": "ws", "code": "FI/W01-001", "name": "テスト・カード", "card_type": "event", "level": 0, "cost": 0,
            "colors": ["red"], "text": "ＡＢＣ"}
    summary = card_import(records=[ImportRecord(1, dict(base))], game="ws")
    assert summary.created == 1
    assert codes("てすとかーど") == {"FI/W01-001"} and codes("o:abc") == {"FI/W01-001"}
    summary = card_import(records=[ImportRecord(1, {**base, "name": "別の・名前", "text": "ＸＹＺ"})], game="ws")
    assert summary.updated == 1
    assert codes("別の名前") == {"FI/W01-001"} and codes("o:xyz") == {"FI/W01-001"} and codes("てすと") == set()


def test_fold_function_rules():
    assert fold("ＡＰ＋３") == "ap+3"
    assert fold("クリムゾン・フィナーレ") == fold("くりむぞんふぃなーれ") == fold("ｸﾘﾑｿﾞﾝ･ﾌｨﾅｰﾚ")
    assert fold("「約束」〔の〕場所／ＸＹ") == "约束の场所xy"  # kanji in their Simplified form (OpenCC)
    assert fold_names("A・B", ["a b", "Ｃ"]) == "ab\nc"


@pytest.mark.postgres
def test_postgres_uses_the_folded_trigram_indexes(cjk):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        for q, index in [("くりむぞん", "card_name_folded_trgm_idx"), ("o:控え室から", "card_text_folded_trgm_idx")]:
            sql, params = card_search(q=q).order_by().values("id").query.sql_with_params()
            assert "UPPER" not in sql.split("WHERE", 1)[1] or "name_folded" in sql  # no function per row on the folded column
            cursor.execute("EXPLAIN " + sql, params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            assert index in plan, (q, plan)


# -- the real Japanese data ------------------------------------------------------------------------
CARDDATA = Path(settings.SHARED_DIR) / "carddata"
WS_JSONL = CARDDATA / "weiss_schwarz" / "alphac2_jp" / "ws_cards_jp.jsonl"
LYCEE_JSONL = CARDDATA / "lycee" / "lycee_overture_cards.jsonl"
WS_NAMES = ["ジル・ド・レェ", "ロード・エルメロイII世", "“人類救済”シロウ・コトミネ", "打・投・極"]


def _slice(path: Path, fmt: str, game: str, keep) -> list:
    """Records of ``path`` read by the real importer, keeping source lines ``keep(raw)`` accepts."""
    from catalog.importers import FORMATS, load_all

    load_all()
    wanted = {i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if keep(json.loads(line))}
    return [r for r in FORMATS[fmt].read(path, game) if r.number in wanted]


@pytest.mark.carddata
def test_real_ws_names_fold(db):
    from catalog.services import card_import

    raws = [json.loads(line) for line in WS_JSONL.read_text(encoding="utf-8").splitlines()]
    first = {r["ID"] for r in raws[:300]}
    records = _slice(WS_JSONL, "ws-jsonl", "ws", lambda r: r["ID"] in first or r["Name"] in WS_NAMES)
    summary = card_import(records=records, game="ws", allow_skips=True)
    assert summary.created > 300
    # expected hits: the stored cards carrying exactly that name (codes as the importer stores them)
    by_name = {n: set(Card.objects.filter(game="ws", name=n).values_list("code", flat=True)) for n in WS_NAMES}
    stored = set(Card.objects.filter(game="ws").values_list("code", flat=True))
    table = [
        ("じるどれぇ", by_name["ジル・ド・レェ"]),
        ("ジルドレェ", by_name["ジル・ド・レェ"]),
        ("ｼﾞﾙ･ﾄﾞ･ﾚｪ", by_name["ジル・ド・レェ"]),
        ("ろーどえるめろいⅡ世", by_name["ロード・エルメロイII世"]),  # Roman numeral Ⅱ = II under NFKC
        ("ロード・エルメロイii世", by_name["ロード・エルメロイII世"]),
        ("人類救済しろう", by_name["“人類救済”シロウ・コトミネ"]),
        ("打投極", by_name["打・投・極"]),
    ]
    for query, expected in table:
        expected = expected & stored
        assert expected, query
        assert codes(query, game="ws") == expected, query
    # text: full-width ＋ in the card text, ASCII + in the query (and the other way round)
    plus = set(Card.objects.filter(game="ws", text__contains="パワーを＋1000").values_list("code", flat=True)) | set(
        Card.objects.filter(game="ws", text__contains="パワーを+1000").values_list("code", flat=True))
    assert plus and codes("o:パワーを+1000", game="ws") == plus
    assert codes("o:ぱわーを＋1000", game="ws") == plus
    # localized aliases give the same answers as the English field names
    assert codes("パワー>=9000 レベル:3", game="ws") == codes("power>=9000 level:3", game="ws") != set()
    assert codes("力量>=9000 等级:3", game="ws") == codes("power>=9000 level:3", game="ws")


@pytest.mark.carddata
def test_real_lycee_names_fold(db):
    from catalog.services import card_import

    raws = [json.loads(line) for line in LYCEE_JSONL.read_text(encoding="utf-8").splitlines()][:400]
    records = _slice(LYCEE_JSONL, "lycee-jsonl", "lycee", lambda r: r in raws)
    summary = card_import(records=records, game="lycee", allow_skips=True)
    assert summary.created > 100
    cards = list(Card.objects.filter(game="lycee"))
    katakana = [c for c in cards if any("\u30a1" <= ch <= "\u30f6" for ch in c.name)]
    assert katakana
    for card in itertools.islice(katakana, 25):
        # the same name typed in hiragana, without its separators, finds the card
        hira = "".join(chr(ord(ch) - 0x60) if "\u30a1" <= ch <= "\u30f6" else ch for ch in card.name)
        query = '"' + "".join(ch for ch in hira if ch not in "・／「」〔〕 　") .replace('"', "") + '"'
        assert card.code in codes(query, game="lycee"), (card.name, query)
