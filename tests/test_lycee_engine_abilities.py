"""Lycee Overture printed abilities in the goldfish engine (issue 16): each played kind in an exact
scenario (state before / after), the classification of what is not played, and the Overture basic
abilities the importer cannot map (エンゲージ, チャージ, アシスト, リカバリー...).

Cards are built by hand with real printed texts (full-width, as the data has them); their
abilities are compiled from the text as the engine does for a record without stored abilities.
"""
from __future__ import annotations

import pytest

from rules.abilities import NO_EFFECT, NOT_PLAYED, PLAYED
from rules.cards import CardRecord
from rules.engine.core import Action, EventLog
from rules.lycee import engine as lycee
from rules.lycee.abilities import compile_text
from rules.lycee.engine import abilities as ab
from rules.lycee.engine import pilot
from tests.test_engine_lycee import FILLER, card, ch, drive, fresh

SNOW = ch("CH-9997", "snow filler", attrs=("snow",), cost={"snow": 1}, ap=1, dp=1, ex=1)
NOTHING = card("EV-9999", "event", cost={"sun": 9})  # never played


def ov(code: str, text: str, ap: int = 2, dmg: int = 2, cost: dict | None = None, attrs: tuple = ("flower",),
       **kw) -> CardRecord:
    """An Overture character: prints DMG, its abilities come from ``text``."""
    return ch(code, f"girl {code}", attrs=attrs, cost=cost or {attrs[0]: 1}, ap=ap, dmg=dmg, text=text, **kw)


def status(text: str, card_type: str = "character") -> list[tuple[str, str]]:
    c = CardRecord(game="lycee", code="LO-9000", name="x", card_type=card_type, text=text)
    return [(r.status, r.reason) for r in (ab.analyse(a, c, i) for i, a in enumerate(compile_text(text, card_type)))]


# -- played: exact scenarios ---------------------------------------------------------------------------
def test_an_ability_on_entering_draws():
    drawer = ov("LO-0810", "[誘発] このキャラが登場したとき、１枚ドローする。")
    coin = card("EV-9100", "event")
    state = fresh(hand=[drawer, coin])
    drive(state, [("deploy", "LO-0810", 0), ("end",)])
    # 2 in hand + 2 drawn - the deployed card - the coin paid + 1 drawn by the ability
    assert len(state.hand) == 3 and len(state.deck) == 30 - 2 - 1
    assert state.dust == [coin] and state.field[0].card is drawer


def test_a_declared_dmg_gain_is_used_before_attacking_once_a_turn():
    hitter = ov("LO-0501", "[宣言] [0]:味方ＡＦキャラが１体以下の場合、このキャラにＤＭＧ＋２する。", ap=3, dmg=2)
    log = EventLog()
    state = fresh(field={"AF-L": hitter}, log=log)
    state.deck = [NOTHING] * 30  # nothing to deploy: the condition (one AF character at most) holds
    drive(state)  # the greedy pilot
    assert state.odeck == 40 - (2 + 2), "DMG 2 + 2"
    assert state.counters["abilities"] == 1 and state.counters["damage_by_dmg"] == 1
    assert "uses: [宣言] [0]:味方AFキャラが1体以下の場合、このキャラにDMG+2する。" in log.as_text()
    # used once: not offered again this turn; the DMG gain ends with the turn
    state = fresh(field={"AF-L": hitter})
    state.start(state.scenario(state._my_turn()))
    assert ("use", 0, 0) in state.options_main()
    state.apply(Action("main", ("use", 0, 0)))
    assert state.field[0].dmg == 4 and ("use", 0, 0) not in state.options_main()
    state.apply(Action("main", ("end",)))
    assert state.field[0].dmg == 2


def test_engage_replaces_a_weaker_character_and_runs_its_engage_ability():
    weak = ov("LO-0901", "", ap=1, dmg=1, slots=("AF-L",))
    engager = ov("LO-0124", "[エンゲージ:[１枚ドローする。]]", ap=3, dmg=3, slots=("AF-L",))
    coin = card("EV-9101", "event")
    state = fresh(hand=[engager, coin], field={"AF-L": weak})
    state.start(state.scenario(state._my_turn()))
    assert ("engage", "LO-0124", 0) in state.options_main()
    state.apply(Action("main", ("engage", "LO-0124", 0)))
    assert state.field[0].card is engager and weak in state.dust and coin in state.dust
    assert len(state.hand) == 2 + 2 - 2 + 1, "two drawn, the engager and the coin out, one drawn on engaging"
    assert state.counters["engaged"] == 1


def test_the_overture_bonus_runs_when_the_attack_is_not_defended():
    bonus = ov("LO-4778", "[ボーナス:[相手のデッキを１枚破棄する。]]", ap=3, dmg=2)
    state = fresh(field={"AF-C": bonus})
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.odeck == 40 - 2 - 1 and state.counters["milled"] == 3


def test_recovery_draws_when_my_deck_recovers():
    keeper = ov("LO-0587", "[リカバリー:[１枚ドローする。]]")
    heal = CardRecord(game="lycee", code="LO-0696", name="heal", card_type="event", attributes=("flower",), ex=1,
                      cost=0, text="自分のデッキを２枚回復する。自分のデッキをシャッフルする。")
    state = fresh(hand=[heal], field={"DF-L": keeper})
    state.dust = [SNOW, SNOW, SNOW]
    drive(state, [("event", "LO-0696"), ("end",)])
    assert len(state.dust) == 3 - 2 + 1, "two recovered, the event played"
    assert len(state.deck) == 30 - 2 + 2 - 1, "drawn 2, recovered 2, [リカバリー] drew 1"
    assert len(state.hand) == 2 + 1 and state.counters["recovered"] == 2


def test_a_continuous_dmg_gain_counts_in_the_deck_damage():
    leader = ov("LO-9200", "[常時] 味方ＡＦキャラ全てにＤＭＧ＋１する。", ap=0, dmg=0)
    hitter = ov("LO-9201", "", ap=2, dmg=2)
    state = fresh(field={"AF-C": hitter, "DF-C": leader})
    drive(state, [("attack", 1, 1), ("end",)])
    assert state.odeck == 40 - 3


def test_a_turn_end_ability_mills_my_deck():
    miller = ov("LO-0077", "[誘発] 自ターン終了時、自分のデッキを１枚破棄する。")
    state = fresh(field={"DF-L": miller})
    drive(state, [("end",)])
    assert len(state.deck) == 30 - 2 - 1 and state.dust == [FILLER]


def test_a_search_on_entering_takes_the_card_from_my_deck():
    seeker = ov("LO-1026", "[誘発] このキャラが登場したとき、自分のデッキから＜魔剣＞キャラ１体を探し公開して手札に入れる。")
    blade = ch("CH-9300", "blade", traits=("魔剣",), ap=2)
    coin = card("EV-9102", "event")
    state = fresh(hand=[seeker, coin])
    state.deck = [FILLER] * 10 + [blade] + [FILLER] * 10
    state.rescan()  # zones edited by hand
    drive(state, [("deploy", "LO-1026", 0), ("end",)])
    assert blade in state.hand and blade not in state.deck and len(state.deck) == 21 - 2 - 1


def test_charge_is_taken_for_a_character_that_spends_it():
    charged = ov("LO-4096", "[チャージ:２]\n[誘発] このキャラが登場したとき、このキャラに２枚チャージできる。\n"
                            "[宣言] [C1]:このキャラにＤＭＧ＋１する。", ap=2, dmg=2)
    coin = card("EV-9103", "event")
    state = fresh(hand=[charged, coin])
    state.start(state.scenario(state._my_turn()))
    state.apply(Action("main", ("deploy", "LO-4096", 0)))
    c = state.field[0]
    assert len(c.charge) == 2 and len(state.deck) == 30 - 2 - 2
    assert state.card_zones()["charge"] == c.charge
    # next turn: [C1] pays one charge card into the dust box for DMG+1
    c.entered = 0
    state.apply(Action("main", ("use", 0, 2)))
    assert len(c.charge) == 1 and c.dmg == 3 and len(state.dust) == 2


def test_mana_of_a_cost_ability_pays_a_cost():
    source = ov("LO-1581", "[コスト] [日日]を発生する。この能力は失われる。", ap=0, dmg=0)
    sunny = ov("LO-9400", "", ap=3, dmg=3, cost={"sun": 2}, attrs=("sun",))
    state = fresh(hand=[sunny], field={"DF-L": source})
    state.start(state.scenario(state._my_turn()))
    assert ("deploy", "LO-9400", 0) in state.options_main(), "the flower cards in hand pay no sun"
    state.apply(Action("main", ("deploy", "LO-9400", 0)))
    assert state.field[0].card is sunny and state.dust == [] and len(state.hand) == 2
    assert state.counters["mana_used"] == 1 and state.mana_sources() == [], "この能力は失われる"


def test_the_dummy_puts_a_card_of_its_hand_back_into_its_deck():
    pusher = ov("LO-1265", "[誘発] このキャラが登場したとき、相手は相手の手札を１枚デッキの下に置く。")
    coin = card("EV-9104", "event")
    state = fresh(hand=[pusher, coin])
    state.ohand = 7
    drive(state, [("deploy", "LO-1265", 0), ("end",)])
    assert (state.ohand, state.odeck) == (6, 41)


def test_order_change_is_played_as_touch():
    back = ov("LO-0452", "[オーダーチェンジ:[0]]", ap=4, dmg=4, slots=("DF-C",))
    front = ov("LO-9500", "", ap=1, dmg=1)
    state = fresh(field={"AF-C": front, "DF-C": back})
    drive(state)
    assert state.field[1].card is back and state.field[4].card is front and state.odeck == 40 - 4


# -- what is not played, and why ------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("[エンゲージ]", PLAYED),
    ("[エンゲージ:[自分のデッキを２枚回復する。]]", PLAYED),
    ("[チャージ:２]", PLAYED),
    ("[リカバリー:[１枚ドローする。]]", PLAYED),
    ("[ターンリカバリー:[１枚ドローする。]]", PLAYED),
    ("[オーダーチェンジ:[0]]", PLAYED),
    ("[コンバート:[花花花]:→「孤高の天才エトワール スピカ」]", PLAYED),
    ("[ボーナス:[相手のデッキを１枚破棄する。]]", PLAYED),
    ("[アシスト]", NO_EFFECT),
    ("[サポーター:[花花]]", NO_EFFECT),
    ("[ガッツ:[月月月月月]]", NO_EFFECT),
    ("[サプライズ]", NO_EFFECT),
    ("[ダッシュ]", NO_EFFECT),
    ("[ペナルティ:[１枚ドローする。]]", NO_EFFECT),
    ("[リーダー]", NOT_PLAYED),
    ("[プリンシパル]", NOT_PLAYED),
])
def test_overture_basic_abilities_are_played_or_classified(text, expected):
    (got,) = status(text)
    assert got[0] == expected and (expected == PLAYED or got[1]), got


def test_no_effect_and_not_played_say_why():
    assert status("[誘発] このキャラで攻撃宣言をしたとき、相手キャラ１体にＳＰ－２する。") == [(NO_EFFECT, ab.NO_OPP_CARDS)]
    assert status("[宣言] [0]:このキャラにＡＰ＋１する。") == [(NO_EFFECT, ab.STATS_ONLY)]
    assert status("[誘発] このキャラが相手の効果で場を離れたとき、１枚ドローできる。") == [(NO_EFFECT, ab.DUMMY_PASSIVE)]
    assert status("[誘発] このキャラがダウンしたとき、１枚ドローする。") == [(NO_EFFECT, ab.NEVER_DOWNED)]
    assert status("[ペナルティ:[自分にシールド＋１する。]]") == [(NO_EFFECT, ab.NEVER_DOWNED)]
    assert status("[誘発] 自分の効果で相手キャラが場を離れたとき、自分にシールド＋１する。") == [(NO_EFFECT, ab.SHIELDS)]
    # a support trigger that adds DMG could change the game: the pilot never supports, so not played
    (got,) = status("[誘発] このキャラでサポートをしたとき、対象のキャラにＡＰ＋１・ＤＰ＋１・ＤＭＧ＋１する。")
    assert got[0] == NOT_PLAYED and "supports" in got[1]
    # mana of an item's ability is not used
    (got,) = status("[コスト] [月月]を発生する。このコストはアイテムの装備にのみ支払える。この能力は失われる。", "item")
    assert got == (NOT_PLAYED, "mana produced by an item's or area's ability is not used")


def test_a_card_that_cannot_be_used_is_never_played():
    text = "相手を女体化することができる。\n※このカードは通常のゲームで使用できません。"
    banned = CardRecord(game="lycee", code="LO-5498", name="x", card_type="event", text=text)
    assert lycee.plays_card(banned) == "the card says it cannot be used in a normal game"
    assert lycee.plays_card(ov("LO-9600", "")) is None


def test_an_ability_whose_payoff_depends_on_a_failed_condition_is_not_used():
    # (LO-3128's shape) the character is destroyed only when a named ally is on the field, and the
    # deploy needs that destruction ("破棄したとき"). Without the ally the condition fails, the
    # ability would do nothing: it is worth nothing (it was worth a deploy, and used for nothing).
    text = ("[宣言] [０]:味方「girl LO-9703」が登場している場合、このキャラを破棄する。"
            "破棄したとき、自分の手札の「girl LO-9702」１体を無償で登場する。")
    upgrader = ov("LO-9701", text, ap=2, dmg=2, attrs=("moon",), cost={"moon": 3})
    better = ov("LO-9702", "", ap=5, dmg=5, attrs=("moon",), cost={"sun": 9})  # only enters by the ability
    state = fresh(hand=[better], field={"AF-L": upgrader})
    state.deck = [NOTHING] * 30
    (prog,) = lycee.info_of(upgrader).plan.get("act")
    assert [op.kind for op in prog.ops] == ["destroy_this", "deploy"]
    assert pilot.program_value(state, prog, state.field[0], upgrader) == 0.0
    assert lycee.info_of(upgrader).pilot_acts == {}, "the pilot never looks at it: it can gain nothing"
    drive(state)
    assert state.counters["abilities"] == 0 and state.field[0].card is upgrader
    assert better in state.hand and state.odeck == 40 - 2


def test_an_ability_whose_destruction_has_no_target_is_not_used():
    # (LO-3161's shape) from the dust box: destroy a cost-5 [宙]「girl LO-9711」 of mine, then the
    # giant enters. With no such character on my field nothing is destroyed, so nothing enters:
    # the ability is worth nothing (it was worth a deploy, and its [宙] paid for nothing).
    text = ("[手札宣言] [宙]:自ターン中に使用する。{コストが５点以上の味方[宙]「girl LO-9711」１体}を破棄する。"
            "破棄したとき、ゴミ箱のこのキャラを無償で登場する。")
    giant = ov("LO-9710", text, ap=5, dmg=5, attrs=("space",), cost={"space": 12})
    small = ov("LO-9712", "", ap=1, dmg=1, attrs=("space",), cost={"space": 1})
    coin = ov("LO-9713", "", ap=1, dmg=1, attrs=("space",), cost={"sun": 9})  # pays [宙], never deployed
    state = fresh(hand=[coin], field={"AF-L": small})
    state.deck = [NOTHING] * 30
    state.dust = [giant]
    state.rescan()
    (prog,) = lycee.info_of(giant).plan.get("dust_act")
    assert [op.kind for op in prog.ops] == ["destroy_ally", "deploy_this"]
    assert pilot.program_value(state, prog, None, giant) == 0.0
    drive(state)
    assert state.counters["abilities"] == 0 and state.dust == [giant] and coin in state.hand
    # with the named character on the field the giant comes back for it
    named = ov("LO-9711", "", ap=2, dmg=2, attrs=("space",), cost={"space": 5})
    state = fresh(hand=[coin], field={"AF-L": named})
    state.dust = [giant]
    state.rescan()
    assert pilot.program_value(state, prog, None, giant) == 1.0


def test_a_declared_stand_lets_the_attacker_attack_again():
    # LO-3149: [宣言] [0]: in my turn, not during a battle, when this character's DMG is 4 or less it
    # stands. Useless before the attack (it stands already); after it, a second attack.
    text = "[宣言] [０]:自ターン中に使用する。バトル中に使用できない。このキャラのＤＭＧが４以下の場合、このキャラを未行動にする。"
    fuujin = ov("LO-3149", text, ap=3, dmg=3)
    state = fresh(field={"AF-L": fuujin})
    state.deck = [NOTHING] * 30
    drive(state)
    assert state.counters["attacks"] == 2 and state.counters["abilities"] == 1
    assert state.odeck == 40 - 3 - 3 and not state.field[0].standing
    assert state.field[0].uses == {0: 1}, "once a turn"


def test_an_ability_on_leaving_by_engage_resolves_after_the_engager_entered():
    # LO-4912: when it is destroyed (not by the opponent) it searches「ミカド」and puts it into play.
    # Engaged, it leaves AF-L; its ability must not put the searched character into AF-L before the
    # engager enters there (the searched one was overwritten: a card lost, found by random play)
    kitten = ov("LO-9721", "", ap=1, dmg=1)
    text = "[誘発] このキャラを相手の効果以外で破棄したとき、自分のゴミ箱または自分のデッキから「girl LO-9721」１体を探し登場できる。"
    owner = ov("LO-9720", text, ap=1, dmg=1)
    engager = ov("LO-9722", "[エンゲージ:[１枚ドローする。]]", ap=3, dmg=3)
    coin = card("EV-9105", "event")
    state = fresh(hand=[engager, coin], field={"AF-L": owner})
    state.deck = [kitten] + [NOTHING] * 29
    state.rescan()
    state.start(state.scenario(state._my_turn()))
    cards = len(state.deck) + len(state.hand) + len(state.dust) + 1
    state.apply(Action("main", ("engage", "LO-9722", 0)))
    assert state.field[0].card is engager and owner in state.dust and coin in state.dust
    assert [c.card for c in state.field if c is not None] == [engager, kitten], "the searched one in AF-C"
    assert kitten not in state.deck
    assert len(state.deck) + len(state.hand) + len(state.dust) + 2 == cards, "no card lost"


def test_a_mana_ability_that_discards_never_discards_the_card_being_played():
    # LO-1248: [コスト] discard a hand card: [宙宙], for deploying characters only. Deploying the
    # only other card of the hand with it must not discard the character being deployed (it did:
    # the deploy then failed on a card no longer in hand, found by random play)
    source = ov("LO-1248", "[コスト] 自分の手札を１枚破棄する。破棄したとき、[宙宙]を発生する。このコストはキャラの登場にのみ支払える。",
                ap=0, dmg=0)
    spacey = ov("LO-9730", "", ap=1, dmg=1, cost={"space": 2}, attrs=("space",))  # the least valuable card
    filler = ov("LO-9731", "", ap=9, dmg=9, cost={"sun": 9}, attrs=("sun",))
    state = fresh(hand=[spacey, filler], field={"DF-L": source})
    state.deck = [NOTHING] * 30
    state.rescan()
    state.start(state.scenario(state._my_turn()))
    state.hand = [spacey, filler]  # (the turn's draws set aside)
    state.version += 1
    pay = state.payment_for({"space": 2}, "LO-9730")
    assert pay is not None and all(i < 0 for i in pay), "the [コスト] mana alone pays"
    state.apply(Action("main", ("deploy", "LO-9730", 0)))
    assert state.field[0].card is spacey and state.hand == [] and state.dust == [filler]
    assert state.counters["mana_used"] == 1


def test_an_engage_paid_by_its_targets_own_mana_enters_the_emptied_slot():
    # LO-3737: [コスト] destroy this character: [月月月月], for deploying a [月] character with a hand
    # declaration. Engaging LO-1471 (such a character) onto it, paid by that mana, destroys the
    # character the engage replaces: the engager enters the emptied slot (the engine crashed on it)
    crow = ov("LO-3737", "[コスト] このキャラのバトル中に使用できない。このキャラを破棄する。破棄したとき、[月月月月]を発生する。"
              "このコストは手札宣言能力を持つ[月]キャラの登場にのみ支払える。", ap=0, dmg=0, attrs=("moon",), cost={"moon": 2})
    towa = ov("LO-1471", "[エンゲージ:[１枚ドローする。]][オーダーステップ:[０]]\n[手札宣言] [０]:ゴミ箱のこのキャラを登場する。",
              ap=2, dmg=2, attrs=("moon",), cost={"moon": 3})
    state = fresh(hand=[towa], field={"AF-L": crow})
    state.deck = [NOTHING] * 30
    state.rescan()
    state.start(state.scenario(state._my_turn()))
    state.hand = [towa]
    state.version += 1
    assert ("engage", "LO-1471", 0) in state.options_main()
    state.apply(Action("main", ("engage", "LO-1471", 0)))
    assert state.field[0].card is towa and state.dust == [crow] and state.hand == []
    assert state.counters["mana_used"] == 1 and state.counters.get("engaged", 0) == 0
