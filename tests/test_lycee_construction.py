"""Lycee construction restrictions (構築制限, issue 16 missing rules): validated with the stable code
``construction_restriction``. Each scenario is a 60-card deck of hand-built cards whose texts are
restriction lines as the real cards print them."""
from __future__ import annotations

from rules.cards import CardRecord
from rules.construction import validate_deck


def lycee(code: str, name: str, text: str = "", attrs: tuple[str, ...] = ("moon",), ctype: str = "character",
          cost: dict[str, int] | None = None, alt_names: tuple[str, ...] = ()) -> CardRecord:
    cost = {attrs[0]: 2} if cost is None else cost
    return CardRecord(game="lycee", code=code, name=name, card_type=ctype, attributes=attrs, text=text,
                      cost=sum(cost.values()), cost_detail=cost, ap=2, dp=2, sp=1, dmg=2, ex=2, alt_names=alt_names)


def moon_fillers(n: int) -> list[CardRecord]:
    return [lycee(f"LO-9{i:03}", f"moon girl {i}") for i in range(n)]


def check(cards: list[tuple[CardRecord, int]]) -> dict:
    zones = {"main": {c.code: n for c, n in cards}}
    assert sum(zones["main"].values()) == 60
    return validate_deck("lycee", zones, {c.code: c for c, _ in cards})


def restriction_errors(report: dict) -> list[dict]:
    return [e for e in report["errors"] if e["code"] == "construction_restriction"]


def test_every_card_of_the_attribute():
    leader = lycee("LO-0100", "月の姫", "[宣言] [0]:このキャラにAP+1する。\n構築制限:【[AMC]】【[月]】")
    snow = lycee("LO-0101", "雪の子", attrs=("snow",))
    deck = [(leader, 4), (snow, 4), *((c, 4) for c in moon_fillers(13))]
    errors = restriction_errors(check(deck))
    assert errors == [{
        "code": "construction_restriction",
        "message": "月の姫 (LO-0100) prints 構築制限 【[AMC]】【[月]】: every card must have the moon attribute: 4× 雪の子 (LO-0101)",
        "cards": ["LO-0100", "LO-0101"], "restriction": "【[AMC]】【[月]】"}]
    # the brand [AMC] is not in the data: a card without a restriction of its own is never reported for it
    assert check([(leader, 4), *((c, 4) for c in moon_fillers(14))])["valid"]


def test_one_of_two_attributes():
    leader = lycee("LO-0110", "leader", "構築制限:【[SP]】【[雪]または[日]】", attrs=("snow",))
    sun = lycee("LO-0111", "sun", attrs=("sun",))
    moon = lycee("LO-0112", "moon")
    ok = [(leader, 4), (sun, 4), *((lycee(f"LO-92{i:02}", f"snow {i}", attrs=("snow",)), 4) for i in range(13))]
    assert check(ok)["valid"]
    errors = restriction_errors(check([*ok[:-1], (moon, 4)]))
    assert len(errors) == 1 and errors[0]["cards"] == ["LO-0110", "LO-0112"]
    assert errors[0]["message"].endswith("every card must have the snow or sun attribute: 4× moon (LO-0112)")


def test_requires_and_at_most_named_cards():
    needs = lycee("LO-0120", "たんぽぽ", "[アグレッシブ]\n構築制限:【「ラブピカルポッピー!」が1枚以上】")
    poppy = lycee("LO-0121", "ラブピカルポッピー!", ctype="area", cost={"sun": 1}, attrs=("sun",))
    errors = restriction_errors(check([(needs, 4), *((c, 4) for c in moon_fillers(14))]))
    assert [e["message"] for e in errors] == [
        "たんぽぽ (LO-0120) prints 構築制限 【「ラブピカルポッピー!」が1枚以上】: the deck needs at least 1 × "
        "「ラブピカルポッピー!」 (it has 0)"]
    assert check([(needs, 4), (poppy, 1), *((c, 4) for c in moon_fillers(13)), (moon_fillers(14)[13], 3)])["valid"]
    # at most 4 cards of one name (a name printed without its space still names the card)
    cap = lycee("LO-0130", "cap", "構築制限:【「花之宮瑞穂」が4枚以下】")
    mizuho = [lycee(f"LO-013{i}", f"version {i} 花之宮 瑞穂", alt_names=("花之宮 瑞穂",)) for i in (1, 2)]
    errors = restriction_errors(check([(cap, 4), (mizuho[0], 4), (mizuho[1], 2), *((c, 4) for c in moon_fillers(12)),
                                       (moon_fillers(13)[12], 2)]))
    assert len(errors) == 1 and errors[0]["cards"] == ["LO-0130", "LO-0131", "LO-0132"]
    assert "at most 4 × 「花之宮瑞穂」 (it has 6)" in errors[0]["message"]


def test_character_costs_and_forbidden_cards():
    rule = lycee("LO-0140", "rule", "構築制限:【[NEX]】【[日]】【キャラはコストが3点以上】\n【禁止:コストが3点以下のエリア】",
                 attrs=("sun",), cost={"sun": 3})
    cheap = lycee("LO-0141", "cheap", attrs=("sun",), cost={"sun": 2})
    area = lycee("LO-0142", "small area", attrs=("sun",), ctype="area", cost={"sun": 3})
    big_area = lycee("LO-0143", "big area", attrs=("sun",), ctype="area", cost={"sun": 4})
    event = lycee("LO-0144", "cheap event", attrs=("sun",), ctype="event", cost={"sun": 1})
    fill = [(lycee(f"LO-93{i:02}", f"sun {i}", attrs=("sun",), cost={"sun": 3}), 4) for i in range(10)]
    errors = restriction_errors(check([(rule, 4), (cheap, 4), (area, 4), (big_area, 4), (event, 4), *fill]))
    assert [(e["cards"], e["message"].split(": ", 1)[1]) for e in errors] == [
        (["LO-0140", "LO-0141"], "every character must cost 3 or more: 4× cheap (LO-0141)"),
        (["LO-0140", "LO-0142"], "forbidden cards: 4× small area (LO-0142)"),
    ], "an event costing 1 is no character; a 4-point area is allowed"


def test_cards_confined_to_another_brand_or_work():
    nex = lycee("LO-0150", "nex", "構築制限:[NEX]")
    aqp = lycee("LO-0151", "aqp", "構築制限:アクアプラス([AQP])")
    work = lycee("LO-0152", "work", "構築制限:『アマカノ3』")
    other = lycee("LO-0153", "other work", "構築制限:【『とある科学の超電磁砲』】【[月]】")
    errors = restriction_errors(check([(nex, 4), (aqp, 4), (work, 4), (other, 4), *((c, 4) for c in moon_fillers(11))]))
    # each of a pair reports the other; the moon entry of LO-0153 holds
    assert sorted(e["cards"] for e in errors) == [["LO-0150", "LO-0151"]] * 2 + [["LO-0152", "LO-0153"]] * 2
    assert [e["message"] for e in errors if e["cards"][0] == "LO-0152"][0] == (
        "work (LO-0152) prints 構築制限 『アマカノ3』: every card must be of the work アマカノ3 (these are confined "
        "to another work): 4× other work (LO-0153)")
    # cards of the same work together are legal
    same = lycee("LO-0154", "same work", "構築制限:『アマカノ3』")
    assert check([(work, 4), (same, 4), *((c, 4) for c in moon_fillers(13))])["valid"]
