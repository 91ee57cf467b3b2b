"""The real-data importers read the public card data (../shared/carddata) correctly — no database.

Counts, exact field values of sample cards per source, and the anomalies each source is known to
have. Tests marked ``carddata`` are skipped visibly where the data is absent.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings

from catalog.importers import FORMATS, detect_format, load_all
from catalog.importers import normalize as n
from catalog.importers.merge import merge_card
from rules.cards import validate_card

CARDDATA = Path(settings.SHARED_DIR) / "carddata"
WS = CARDDATA / "weiss_schwarz"
LYCEE = CARDDATA / "lycee"
CHAOS = CARDDATA / "chaos"

load_all()


def read(fmt: str, path: Path) -> list:
    return list(FORMATS[fmt].read(path, None))


def by_code(records) -> dict:
    return {r.card["code"]: r for r in records if r.card}


def messages(record) -> list[str]:
    return [f"{p.field}: {p.message}" for p in record.problems]


# -- pure normalisation (no data needed) ------------------------------------------------------------

def test_ws_code_and_enum_normalisation():
    assert n.ws_code("AB-W11-001") == ("AB/W11-001", True)
    assert n.ws_code("DC3-WPR-P16")[0] == "DC3/WPR-P16"
    assert n.ws_code("RW/W15-001S")[0] == "RW/W15-001S"
    assert n.enum_value("Climax") == n.enum_value("CLIMAX") == "climax"
    assert n.nfkc("ＡＰ＋３・ＤＭＧ１") == "AP+3・DMG1"


def test_ws_triggers_map_upstream_names_and_report_junk():
    icons, problems = n.ws_triggers(["SOUL", "PANTS"])
    assert icons == ["soul", "gate"] and not problems
    icons, problems = n.ws_triggers(["Whirlwind", "Soul"])
    assert icons == ["return", "soul"]
    icons, problems = n.ws_triggers(["スターセイバー！"])
    assert icons == [] and "junk trigger" in problems[0].message
    icons, problems = n.ws_triggers([None])
    assert icons == [] and problems
    assert n.hotc_triggers("1W")[0] == ["soul", "return"]
    assert n.hotc_triggers("2")[0] == ["soul", "soul"]
    assert n.hotc_triggers("S")[0] == ["pool"]


def test_climax_bonus_is_structured():
    effects, modelled = n.ws_climax_bonus(n.nfkc("【永】あなたのキャラすべてに、パワーを＋1000し、ソウルを＋1。（引＠：このカードがトリガーした時、あなたは1枚引いてよい）"))
    assert effects == [{"kind": "climax_bonus", "power": 1000, "soul": 1}] and modelled
    effects, modelled = n.ws_climax_bonus(n.nfkc("【永】あなたのキャラすべてに、ソウルを＋2。"))
    assert effects == [{"kind": "climax_bonus", "power": 0, "soul": 2}] and modelled
    # HOTC's spellings: a space after the marker (196 climaxes), no final 。 (2)
    effects, modelled = n.ws_climax_bonus(n.nfkc("【永】 あなたのキャラすべてに、パワーを＋1000し、ソウルを＋1。"))
    assert effects == [{"kind": "climax_bonus", "power": 1000, "soul": 1}] and modelled
    effects, modelled = n.ws_climax_bonus(n.nfkc("【永】 あなたのキャラすべてに、パワーを＋1000し、ソウルを＋1"))
    assert effects == [{"kind": "climax_bonus", "power": 1000, "soul": 1}] and modelled
    effects, modelled = n.ws_climax_bonus(n.nfkc("【永】 あなたのキャラすべてに、ソウルを＋1。次のあなたのターンの終わりまで…"))
    assert effects == [{"kind": "climax_bonus", "power": 0, "soul": 1}] and not modelled  # more text: not modelled


def test_lycee_basic_abilities_and_slots():
    basics = n.lycee_basic_abilities(["[サポーター:[花花]][ステップ:[0]][ボーナス:[１枚ドローする。]]", "[誘発] ..."])
    assert basics.keywords == [{"name": "supporter", "cost": {"flower": 2}}, "step", "bonus"]
    assert basics.consumed_lines == 1 and not basics.problems
    basics = n.lycee_basic_abilities(["[エンゲージ][ジャンプ:[0]]"])
    assert basics.keywords == ["jump"]
    assert "エンゲージ" in basics.problems[0].message
    basics = n.lycee_basic_abilities(["[サポーター:[D1]]"])
    assert basics.keywords == ["supporter"] and "D1" in basics.problems[0].message
    basics = n.lycee_basic_abilities(["[コンバート:[花花]:→「鴻さゆみ」]"])
    assert basics.conversion_target == "鴻さゆみ"
    assert n.lycee_slots_from_pattern("－－－●●●") == ["DF-L", "DF-C", "DF-R"]
    assert n.lycee_slots_from_pattern("●－●●－●") == ["AF-L", "AF-R", "DF-L", "DF-R"]
    assert n.lycee_slots_from_pattern("") == []
    assert n.lycee_slots_from_pattern("●●") is None
    assert n.lycee_attribute("cosmos") == "space" and n.lycee_attribute("star") == "star"


def test_merge_keeps_full_name_and_reports():
    old = {"game": "ws", "code": "X/W1-001", "name": "優等生の委員長", "power": 3000, "alt_names": []}
    new = {"game": "ws", "code": "X/W1-001", "name": "優等生の委員長 沢井麻耶", "power": 3500, "alt_names": ["Maya"]}
    merged, found = merge_card(old, new)
    assert merged["name"] == "優等生の委員長 沢井麻耶"
    assert merged["power"] == 3000 and merged["alt_names"] == ["Maya"]
    kinds = {(d.field, d.kind) for d in found}
    assert kinds == {("name", "name_title_only"), ("power", "value")}
    merged2, found2 = merge_card(merged, new)
    assert merged2 == merged  # merging again changes nothing
    assert {d.field for d in found2} == {"power"}
    # different card types: different cards, nothing filled in
    climax = {"game": "ws", "code": "X/W1-002", "name": "n", "card_type": "climax", "level": None}
    event = {"game": "ws", "code": "X/W1-002", "name": "n", "card_type": "event", "level": 2, "cost": 1}
    merged3, found3 = merge_card(climax, event)
    assert merged3 == climax and {d.field for d in found3} == {"card_type", "level", "cost"}


def test_hotc_line_language_goes_by_words_not_marker():
    from catalog.importers.ws_hotc import in_language, line_language

    cases = {
        "【C】 All your other 《死》 Characters gain, 『【A】 ENCORE ［Place 1 Character］』.": "en",
        "【永】他のあなたの《死》のキャラすべてに、パワーを＋1000。": "ja",
        "【S】［(1)］ そのターン中、このカードのソウルを＋1。": "ja",  # English marker, Japanese words
        "【起】［①］During this turn, this card gets +1 Soul.": "en",
        "【S】［② このカードをレストする］ Draw 1 card.": "en",  # the cost left untranslated
        "【C】All your other 「“スリーカード”トゥエンティ」 and 「“スリーカード”ラット」 get +1000 Power.": "en",
        "(Wind：When this card is Triggered, you may choose 1 of your opponent's Character, return to Hand)": "en",
        "（風：このカードがトリガーした時、あなたは相手のキャラを1枚選び、手札に戻してよい）": "ja",
        "。": "ja",
    }
    assert {line: line_language(line) for line in cases} == cases
    flavors = {"Just like a villain.": "en", "まるで悪役ね": "ja", "ギリギリでおあずけFunky girl": "ja",
               "Nanaka「So, LET'S GOー！」": "en", "……": "ja", "...": "en"}
    assert {line: line_language(line, flavor=True) for line in flavors} == flavors
    assert in_language("【S】［(1)］ そのターン中", "ja") == ("【起】［(1)］ そのターン中", "【S】")
    assert in_language("【A】 When this card attacks", "en") == ("【A】 When this card attacks", None)


def test_merge_unites_translations_per_language():
    old = {"game": "ws", "code": "X/W1-003", "name": "名前", "card_type": "event",
           "translations": {"en": {"name": "Sending Off", "text": "[C] All your characters get +500 power."}}}
    new = {"game": "ws", "code": "X/W1-003", "name": "名前", "card_type": "event",
           "translations": {"en": {"name": "Sending  Off", "text": "[C] Something else entirely.", "flavor": "Bye."},
                            "zh-hans": {"name": "送别"}}}
    merged, found = merge_card(old, new)
    assert merged["translations"] == {
        "en": {"name": "Sending Off", "text": "[C] All your characters get +500 power.", "flavor": "Bye."},  # part filled
        "zh-hans": {"name": "送别"},  # missing language filled
    }
    # the same part given differently: existing kept, reported by language and part; spacing is no difference
    assert [(d.field, d.kind, d.kept, d.other) for d in found] == [
        ("translations.en.text", "value", "[C] All your characters get +500 power.", "[C] Something else entirely.")]
    assert old["translations"]["en"] == {"name": "Sending Off", "text": "[C] All your characters get +500 power."}
    again, found2 = merge_card(merged, new)
    assert again == merged and [d.field for d in found2] == ["translations.en.text"]
    # a side without translations fills nothing and removes nothing, either way round
    bare = {k: v for k, v in old.items() if k != "translations"}
    assert merge_card(old, {**bare, "translations": {}})[0]["translations"] == old["translations"]
    assert merge_card({**bare, "translations": {}}, old) == ({**bare, "translations": old["translations"]}, [])
    # texts compared ignoring width and spacing, as the printed text
    wide = {**old, "translations": {"en": {"text": "[C]  All your characters get ＋500 power."}}}
    assert merge_card(old, wide)[1] == []


# -- Weiß Schwarz ----------------------------------------------------------------------------------

@pytest.mark.carddata
def test_ws_jsonl_counts_fields_and_anomalies():
    recs = read("ws-jsonl", WS / "alphac2_jp")
    assert len(recs) == 10807 and all(r.card for r in recs)
    types = Counter(r.card["card_type"] for r in recs)
    assert types == {"character": 8886, "climax": 1252, "event": 669}
    cards = by_code(recs)
    c = cards["AB/W11-001"].card
    assert (c["name"], c["colors"], c["level"], c["cost"], c["power"], c["soul"]) == ("皆を見送る役目", ["yellow"], 1, 0, 3500, 1)
    assert c["traits"] == ["死", "生徒会"] and c["triggers"] == [] and c["rarity"] == "RR"
    assert c["set_code"] == "AB/W11" and c["number"] == "001"
    assert cards["AB/W11-001"].printings == [{"code": "AB/W11-001", "rarity": "RR", "image_url": "https://yuyu-tei.jp/card_image/ws/front/ab/10025.jpg"}]
    climax = cards["AB/W11-024"].card
    assert climax["triggers"] == ["soul", "shot"] and climax["level"] is None if "level" in climax else True
    assert climax["effects"] == [{"kind": "climax_bonus", "power": 1000, "soul": 1}]
    assert cards["PI/SE18-01"].card["name"] == "“爆炎弾七連”ルヴィア"
    # anomalies
    assert any("junk trigger" in m for m in messages(cards["VS/W50-062"]))
    assert any("'PURPLE' is not a WS colour" in m for m in messages(cards["PY/S38-120"]))
    assert cards["AB/W11-104"].card["card_type"] == "character"
    assert any("'Character'" in m for m in messages(cards["AB/W11-104"]))
    assert any("(サイン入り)" in m for m in messages(cards["AB/WE14-06"]))
    assert cards["AB/WE14-06"].card["name"] == "青空の下のかなで"
    assert cards["AB/W11-103"].card["soul"] is None
    for r in recs:
        errors = validate_card(r.card)
        assert not errors or r.problems, (r.card["code"], errors)


@pytest.mark.carddata
def test_ws_hotc_groups_rarity_printings_and_splits_names():
    recs = read("ws-hotc", WS / "rcyberw_hotc_en_jp")
    assert sum(len(r.printings) for r in recs) == 7504
    assert len(recs) == 7146 and all(r.card for r in recs)
    cards = by_code(recs)
    r = cards["DC/W01-006"]
    assert [p["rarity"] for p in r.printings] == ["R", "RRR"]
    assert r.card["name"] == "由夢&音姫" and r.card["power"] == 5500 and r.card["traits"] == ["魔法", "生徒会"]
    ab = cards["AB/W11-001"].card
    assert ab["name"] == "皆を見送る役目 かなで" and ab["alt_names"] == ["Sending Everyone Off, Kanade"]
    assert ab["text"].startswith("【永】") and "Encore" not in ab["text"]
    # the English half: name, text lines and flavor lines, in translations["en"]
    assert ab["translations"]["en"]["name"] == "Sending Everyone Off, Kanade"
    assert ab["translations"]["en"]["text"].startswith("【C】 All your other 《死》 Characters gain")
    assert ab["translations"]["en"]["text"].endswith("it gets +1000 Power.")
    assert "【" not in ab["translations"]["en"]["text"].replace("【C】", "").replace("【S】", "").replace("【A】", "")
    assert "flavor" not in ab["translations"]["en"] and ab["flavor"] == "ならもう、思い残すことは無い?"
    kanade = cards["AB/W11-008"].card  # English and Japanese flavor lines
    assert kanade["flavor"] == "まるで悪役ね" and kanade["translations"]["en"]["flavor"] == "Just like a villain."
    assert kanade["translations"]["en"]["name"] == "Student Council President, Kanade"
    climax = cards["IM/S14-025"].card  # the English flavor line after the Japanese one
    assert climax["flavor"] == "私に気づいたら 少しだけ意識してください"
    assert climax["translations"]["en"] == {
        "text": "【C】All your Characters gets +1000 Power, +1 Soul.\n(Wind:When this card is Triggered, you may "
                "choose 1 of your opponent's Character, return to Hand)", "flavor": "It's my first stage"}
    # lines whose marker is in the other language go by their words, with the marker of their language
    dc = cards["DC/W01-010"]
    assert dc.card["text"].split("\n")[0] == "【起】[(1)] そのターン中、このカードのソウルを+1。"
    assert dc.card["translations"]["en"]["text"].split("\n")[1] == "【S】[1]During this turn, this card gets +1 Soul."
    assert {"text: marker 【S】 before a line in Japanese read as 【起】",
            "text: marker 【起】 before a line in English read as 【S】"} <= set(messages(dc))
    p4 = cards["P4/SE12-28"]  # a climax whose Japanese line starts with 【C】
    assert p4.card["text"].startswith("【永】 あなたのキャラすべてに、パワーを+1000し、ソウルを+1。")
    assert "text: marker 【C】 before a line in Japanese read as 【永】" in messages(p4)
    # 6,338 of the 7,146 cards have an English part (a few only their name), 5,956 an English text
    with_en = [r.card for r in recs if r.card["translations"]]
    assert len(with_en) == 6338 and sum(1 for c in with_en if c["translations"]["en"].get("text")) == 5956
    assert all(set(c["translations"]) == {"en"} and c["translations"]["en"] for c in with_en)
    assert cards["RW/W15-001S"].card["triggers"] == ["soul"]
    assert any("truncated" in m for m in messages(cards["DC/W01-01"]))
    assert any("'SP SP'" in m for m in messages(cards["RN/W16-057"]))
    assert any("crossover prefix 'RG'" in m for m in messages(cards["ID/W10-110"]))


@pytest.mark.carddata
def test_ws_malformed_xml_each_give_a_clear_error():
    folder = WS / "alphac2_jp" / "malformed_raw"
    recs = read("ws-xml", folder)
    assert len(recs) == 6 and all(r.card is None for r in recs)
    for rec, file in zip(recs, sorted(folder.glob("*.xml")), strict=True):
        (problem,) = rec.problems
        assert problem.message.startswith(f"{file.name}: not well-formed XML at line ")
    by_file = {r.source: r.problems[0].message for r in recs}
    assert "unescaped '&'" in by_file["GU-W44-P16.xml"]
    assert "<Level><2/Level>" in by_file["SAO-S51-104.xml"]
    assert "<Cost2</Cost>" in by_file["LSS-WE27-A18.xml"]


@pytest.mark.carddata
def test_formats_are_detected_by_content():
    assert detect_format(WS / "alphac2_jp" / "ws_cards_jp.jsonl") == "ws-jsonl"
    assert detect_format(WS / "rcyberw_hotc_en_jp" / "RW-W15.txt") == "ws-hotc"
    assert detect_format(WS / "alphac2_jp" / "malformed_raw" / "RW-W48-011.xml") == "ws-xml"
    assert detect_format(LYCEE / "lycee_overture_cards.jsonl") == "lycee-jsonl"
    assert detect_format(LYCEE / "extra" / "lycee_official_csv_format_sample.csv") == "lycee-csv"
    assert detect_format(LYCEE / "extra" / "lycee_card_digest_LO-6947A_to_LO-6971A.txt") == "lycee-digest"
    assert detect_format(CHAOS / "IMT_puchimas_trial_ko.textproto") == "chaos-textproto"
    assert detect_format(CHAOS / "decks" / "IMT_trial_deck_ko.textproto") is None  # a deck, not cards


# -- Lycee -----------------------------------------------------------------------------------------

@pytest.mark.carddata
def test_lycee_jsonl_fields():
    recs = read("lycee-jsonl", LYCEE / "lycee_overture_cards.jsonl")
    assert len(recs) == 6541 and all(r.card for r in recs)
    assert Counter(r.card["card_type"] for r in recs) == {"character": 5841, "event": 338, "area": 198, "item": 164}
    cards = by_code(recs)
    c = cards["LO-0001"].card
    assert c["name"] == "騎士王 セイバー/アルトリア・ペンドラゴン"
    assert c["alt_names"] == ["セイバー/アルトリア・ペンドラゴン"]
    assert (c["attributes"], c["cost"], c["cost_detail"]) == (["space"], 3, {"space": 3})
    assert (c["ap"], c["dp"], c["sp"], c["dmg"], c["ex"]) == (3, 3, 1, 3, 2)
    assert c["text"] == "[誘発] このキャラで攻撃宣言をしたとき、相手キャラ1体にSP-2する。"  # NFKC digits
    assert cards["LO-0021"].card["keywords"] == [{"name": "orderstep", "cost": {"snow": 1}}]
    assert cards["LO-0029"].card["cost_detail"] == {"moon": 2, "star": 1}
    assert cards["LO-4759"].card["slots"] == ["DF-L", "DF-C", "DF-R"]
    assert cards["LO-4759"].card["keywords"] == [{"name": "supporter", "cost": {"flower": 2}}]
    assert cards["LO-6466"].card["conversion_target"] == "楽々浦寮生のまとめ役 鴻さゆみ"
    assert any("エンゲージ" in m for m in messages(cards["LO-4137"]))
    assert any("banned" in m for m in messages(cards["LO-2113"]))
    assert all(not validate_card(r.card) for r in recs)


@pytest.mark.carddata
def test_lycee_csv_and_digest():
    rows = read("lycee-csv", LYCEE / "extra" / "lycee_official_csv_format_sample.csv")
    assert [r.card["code"] for r in rows] == ["LO-0923", "LO-0576", "LO-0985"]
    first = rows[0]
    assert first.printings == [{"code": "LO-0923-A", "rarity": "P", "image_url": ""}]
    assert first.card["name"] == "秘めた想い 朝霧 麻衣" and first.card["cost_detail"] == {"flower": 2}
    assert rows[1].card["keywords"] == ["orderstep"] and rows[1].card["set_code"] == "Fate/Grand Order 2.0"
    digest = read("lycee-digest", LYCEE / "extra" / "lycee_card_digest_LO-6947A_to_LO-6971A.txt")
    assert sum(len(r.printings) for r in digest) == 37 and len(digest) == 24
    cards = by_code(digest)
    assert [p["code"] for p in cards["LO-6948"].printings] == ["LO-6948", "LO-6948-K"]
    assert cards["LO-6947"].card["copy_limit"] == 1 and cards["LO-6947"].card["keywords"] == ["aggressive"]
    assert cards["LO-6954"].card["cost_detail"] == {"space": 2, "star": 1}
    assert cards["LO-6954"].card.get("ap") is None
    assert all(not validate_card(r.card) for r in digest)


# -- Chaos -----------------------------------------------------------------------------------------

@pytest.mark.carddata
def test_chaos_textproto_cards():
    recs = read("chaos-textproto", CHAOS / "IMT_puchimas_trial_ko.textproto")
    assert len(recs) == 20
    assert Counter(r.card["card_type"] for r in recs) == {"character": 9, "event": 5, "set": 3, "extra": 3}
    cards = by_code(recs)
    c = cards["IM-T01"].card
    assert (c["title"], c["person"], c["attributes"], c["gender"]) == ("항상 척척, 견실한 사람!", "아키츠키 리츠코", ["fire"], "female")
    assert (c["atk"], c["defense"], c["partner_atk"], c["partner_def"]) == (4, 4, 2, 2)
    assert cards["IM-T09"].card["attributes"] == ["light", "dark"]
    assert cards["IM-T18"].card["extra_persons"] == ["하기와라 유키호", "유키포"]
    assert any("키사라키" in m for m in messages(cards["IM-T19"]))  # a typo in the source, reported
    assert all(not validate_card(r.card) for r in recs)


# -- protobuf text format parser (pure) ----------------------------------------------------------------

def test_textproto_parser():
    from rules.textproto import TextprotoError, parse_textproto

    msg = parse_textproto('''# a comment
metadata { pack_name: "IMT" version: 1 }
info {
  serial: "A-1"
  name: "say \\"hi\\" 「한」" 'and more'
  [pkg.Ext.extension] { element: FIRE element: DARK power: -2 ratio: 1.5 }
}
info < serial: "A-2" >
tags: ["x", "y"]
''')
    assert msg.first("metadata") == {"pack_name": ["IMT"], "version": [1]}
    first, second = msg.all("info")
    assert first.first("name") == 'say "hi" 「한」and more'
    ext = first.first("[pkg.Ext.extension]")
    assert ext.all("element") == ["FIRE", "DARK"] and ext.first("power") == -2 and ext.first("ratio") == 1.5
    assert second.first("serial") == "A-2" and msg.all("tags") == ["x", "y"]
    with pytest.raises(TextprotoError) as exc:
        parse_textproto('info {\n  serial: "A-1"\n  name "x"\n}')
    assert exc.value.line == 3 and "line 3" in str(exc.value)
    with pytest.raises(TextprotoError, match="end of file"):
        parse_textproto("info { serial: 1")


@pytest.mark.carddata
def test_ws_xml_reads_a_well_formed_card(tmp_path):
    broken = (WS / "alphac2_jp" / "malformed_raw" / "RW-W48-011.xml").read_text(encoding="utf-8")
    fixed = tmp_path / "RW-W48-011.xml"
    fixed.write_text(broken.replace("<Name“", "<Name>“"), encoding="utf-8")
    (rec,) = read("ws-xml", fixed)
    c = rec.card
    assert (c["code"], c["name"], c["colors"], c["level"], c["cost"], c["power"], c["soul"]) == (
        "RW/W48-011", "“託すメモリー”井上", ["yellow"], 0, 0, 500, 1)
    assert c["traits"] == [] and c["triggers"] == [] and not validate_card(c)
    assert rec.printings[0]["image_url"] == "https://yuyu-tei.jp/card_image/ws/front/rwanime/10011.jpg"


def test_bad_records_are_reported_with_their_number(tmp_path):
    """Unreadable content never raises: each bad record is an error naming its number and field."""
    ws = tmp_path / "ws.jsonl"
    ws.write_text('{"ID": "AB-W11-001", "Type": "CHARACTER", "Name": "x", "Colour": "RED", "Level": 0, "Cost": 0,'
                  ' "Trigger": ["NONE"], "Power": 500, "Soul": 1, "Trait": []}\n{not json\n[1, 2]\n'
                  '{"ID": "AB-W11-002", "Type": "SORCERY", "Name": "y", "Colour": "RED"}\n', encoding="utf-8")
    recs = read("ws-jsonl", ws)
    assert recs[0].card["code"] == "AB/W11-001" and not recs[0].problems
    assert [(r.number, r.card, r.problems[0].field) for r in recs[1:3]] == [(2, None, "json"), (3, None, "json")]
    assert recs[3].card is None and "unknown type 'SORCERY'" in recs[3].problems[-1].message
    assert all(not p.warning for r in recs[1:] for p in r.problems)

    hotc = tmp_path / "x.txt"
    hotc.write_text("name only\n\n==========================\n名前\nAB/W11-001 RR\nType: Character\nLevel: 0\n"
                    "Color: Red\nCost: 0\nTrigger: 9Q\nPower: 500\nSoul: 1\nTraits:: ,\nCard Text/Abilities:\n"
                    "Flavor Text:\n\n==========================\n", encoding="utf-8")
    first, second = read("ws-hotc", hotc)
    assert first.card is None and first.number == 1 and first.problems[0].field == "block"
    assert second.card["triggers"] == ["soul"] * 9 and any("'Q'" in p.message and p.warning for p in second.problems)

    csv = tmp_path / "l.csv"
    csv.write_text("LO-0001,a,b,キャラクター\nLO-0002,t,n,呪文,C,雪,2,雪,1,1,1,1,,,text,p,b,\n", encoding="utf-8")
    short, unknown = read("lycee-csv", csv)
    assert short.card is None and "4 columns" in short.problems[0].message
    assert unknown.card is None and "unknown type '呪文'" in unknown.problems[0].message

    proto = tmp_path / "c.textproto"
    proto.write_text('info {\n  serial: "IM-T01"\n  name: "x\n}\n', encoding="utf-8")
    (bad,) = read("chaos-textproto", proto)
    assert bad.card is None and bad.number == 3 and bad.problems[0].message.startswith("line 3")


def test_hotc_latin_names_written_twice_are_read_once():
    from catalog.importers.ws_hotc import parse_block, split_name

    assert split_name("New LifeNew Life") == ("New Life", "New Life")
    assert split_name("ペンペン") == ("ペンペン", "")  # a Japanese name that repeats itself stays whole
    block = next(b for b in (WS / "rcyberw_hotc_en_jp" / "NA-W12.txt").read_text(encoding="utf-8-sig").split("=" * 20)
                 if "NA/W12-074 " in b)
    card, problems, _ = parse_block(block.strip("=\n"))
    assert card["name"] == "I can be shot" and card["alt_names"] == []
    assert card["translations"]["en"]["name"] == "I can be shot"
