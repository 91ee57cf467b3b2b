"""Weiß Schwarz goldfish engine: printed abilities in play (issue 15), each effect kind the engine
plays shown on a real card — its code, its printed text (AlphaC2 / HOTC, © Bushiroad, test data),
its stats — and the state before and after, with exact values; the goldfish's pressure; the rule
gaps (counter events, the fast path's event checks); the coverage contract.

The cards are written here (code, text, stats as the real data has them), so these scenarios need
no database and no data files; the tests on the real data itself are marked ``carddata``.
"""
from __future__ import annotations

import pytest

from rules.abilities import NO_EFFECT, NOT_PLAYED, PLAYED
from rules.cards import CardRecord
from rules.coverage import card_coverage
from rules.engine.core import Deck, get_engine
from rules.ws import engine as ws
from rules.ws.abilities import compile_text, compile_text_cached
from tests.test_engine_ws import DECK, EVENT, FILLER, char, climax, drive
from tests.test_engine_ws import fresh as base_fresh

YELLOW, RED, BLUE, GREEN = ("yellow",), ("red",), ("blue",), ("green",)
CX = climax("X/W-CX")  # a plain climax (cancels damage)


def real(code: str, text: str, card_type: str = "character", level: int | None = 0, cost: int | None = 0,
         power: int | None = 3000, soul: int | None = 1, colors: tuple = YELLOW, traits: tuple = (),
         triggers: tuple = (), name: str = "") -> CardRecord:
    """A real card as the engine sees it (stats from the real data, the printed text compiled)."""
    if card_type != "character":
        power = soul = None
    if card_type == "climax":
        level = cost = None
    return CardRecord(game="ws", code=code, name=name or code, card_type=card_type, level=level, cost=cost,
                      power=power, soul=soul, colors=colors, traits=traits, triggers=triggers, text=text)


_SCENARIO_DECK: Deck | None = None


def fresh(options: dict | None = None) -> ws.WSState:
    """An empty scenario state whose deck holds every real card of this module (the engine reads
    each card's abilities once per deck): zones empty, ready to be set up."""
    global _SCENARIO_DECK
    if _SCENARIO_DECK is None:
        cards = [v for v in globals().values() if isinstance(v, CardRecord)]
        _SCENARIO_DECK = Deck(game="ws", main=tuple(cards))
    return base_fresh(_SCENARIO_DECK, options=options)


def status(card: CardRecord) -> list[str]:
    return [ws.analyse(a, card, i).status for i, a in enumerate(compile_text(card.text, card.card_type))]


def attack_soul(state: ws.WSState, slot: int = 0, answers: dict | None = None) -> int:
    """Attack once from ``slot`` (no trigger icon, no cancel): the damage dealt."""
    before = state.counters["damage_dealt"]
    state.attacks_left = 1
    drive(state, state._attack(slot), answers)
    return state.counters["damage_dealt"] - before


def blanks(n: int) -> list[CardRecord]:
    return [char(f"F/W-{i:02}") for i in range(n)]


# -- climaxes ---------------------------------------------------------------------------------------
MAIORIRU = real("AB/W11-024", "【永】あなたのキャラすべてに、パワーを+1000し、ソウルを+1。(射@:このターン中、このカードを"
                "トリガーした攻撃キャラが次に与えるダメージがキャンセルされた時、相手に1ダメージを与える)",
                "climax", triggers=("soul", "shot"), name="舞い降りる天使")
SEIZEN = real("AB/W11-074", "【自】このカードが手札からクライマックス置場に置かれた時、あなたは自分の山札の上から1枚を、"
              "ストック置場に置き、自分のキャラすべてに、そのターン中、ソウルを+1。", "climax", colors=RED,
              triggers=("soul", "soul"), name="生前の記憶")
ITSUKA = real("AB/W31-112", "【自】このカードが手札からクライマックス置場に置かれた時、あなたは1枚引き、自分のキャラを1枚"
              "選び、そのターン中、パワーを+2000し、ソウルを+1。", "climax", triggers=("soul", "soul"),
              name="いつかどこかで")
AKAI = real("APO/S53-061", "【自】このカードが手札からクライマックス置場に置かれた時、あなたは自分の控え室の赤のカードを1枚"
            "まで選び、ストック置場に置き、自分のキャラすべてに、そのターン中、ソウルを+1。", "climax", colors=RED,
            triggers=("soul", "soul"), name="紅い雷鳴")
KUUCHU = real("APO/S53-060", "【自】このカードが手札からクライマックス置場に置かれた時、の効果を行う。(:このカードがトリガー"
              "した時、あなたは自分の控え室の自分のレベル+1以下のレベルのキャラを1枚選び、舞台の好きな枠に【レスト】して置いて"
              "よい)", "climax", colors=RED, triggers=("soul", "standby"), name="空中庭園")


def climax_turn(cx: CardRecord, **zones) -> ws.WSState:
    """A state in its climax phase with ``cx`` in hand and a character in front-left."""
    state = fresh()
    state.stage[0] = char("A/W-0", soul=1)
    state.hand = [cx]
    state.clock = [char("C/W-0", colors=cx.colors)]
    for k, v in zones.items():
        setattr(state, k, v)
    return state


def place(state: ws.WSState, cx: CardRecord, answers: dict | None = None) -> None:
    def climax_phase():
        state.climax = state.hand.pop(state.hand.index(cx))
        state.power_bonus, state.soul_bonus = state.bonus_of(cx)
        yield from state.fire("climax", cx)
        yield from state.fire_stage("cx_placed", cx)
    drive(state, climax_phase(), answers)


def test_climax_all_characters_soul_is_played():
    """AB/W11-024: the lasting "+1000 power, +1 soul" climax (power matters only in battles)."""
    assert status(MAIORIRU) == [PLAYED]
    assert ws.climax_bonus(MAIORIRU) == (1000, 1)
    state = climax_turn(MAIORIRU, deck=blanks(10), odeck=blanks(10))
    place(state, MAIORIRU)
    assert state.soul_bonus == 1
    assert attack_soul(state) == 1 + 1 + 1  # soul 1, the climax +1, a direct attack +1


def test_climax_stock_charge_and_turn_soul_to_every_character():
    """AB/W11-074: when placed, the deck's top card to stock, every character of yours +1 soul."""
    top = char("T/W-9")
    state = climax_turn(SEIZEN, deck=[*blanks(5), top], odeck=blanks(10))
    state.stage[3] = char("B/W-0")
    place(state, SEIZEN)
    assert state.stock == [top] and len(state.deck) == 5
    assert state.slot_soul == [1, 0, 0, 1, 0]  # the two characters on the stage, this turn
    assert attack_soul(state) == 1 + 1 + 1  # (the end of the turn clears it: test_soul_ends_with_the_turn)


def test_climax_draw_and_one_character_soul():
    """AB/W31-112: draw 1, one character +2000 power and +1 soul (the one about to attack)."""
    drawn = char("D/W-1")
    state = climax_turn(ITSUKA, deck=[*blanks(5), drawn], odeck=blanks(10))
    state.stage[4] = char("B/W-4")  # back row: does not attack, so it is not the one chosen
    place(state, ITSUKA)
    assert state.hand == [drawn]
    assert state.slot_soul == [1, 0, 0, 0, 0]
    assert attack_soul(state) == 1 + 1 + 1


def test_climax_stock_from_the_waiting_room_of_its_color():
    """APO/S53-061: up to 1 red card from the waiting room to stock (a non-climax), all +1 soul."""
    red = char("R/W-1", colors=RED)
    state = climax_turn(AKAI, waiting=[char("Y/W-1"), climax("R/W-CX", colors=RED), red], deck=blanks(5),
                        odeck=blanks(10))
    place(state, AKAI)
    assert state.stock == [red]
    assert [c.code for c in state.waiting] == ["Y/W-1", "R/W-CX"]
    assert state.slot_soul[0] == 1


def test_climax_performs_its_standby_trigger_effect():
    """APO/S53-060: when placed, the standby icon's effect: a character of level ≤ yours + 1 from
    the waiting room onto the stage, rested."""
    l1 = char("L/W-1", level=1, soul=1)
    state = climax_turn(KUUCHU, waiting=[l1, char("L/W-3", level=3)], deck=blanks(5), odeck=blanks(10))
    place(state, KUUCHU)
    assert state.stage[1] is l1 and state.stage_state[1] == ws.REST
    assert [c.code for c in state.waiting] == ["L/W-3"]


# -- characters: placed, attack, climax combos ---------------------------------------------------
YUZURU = real("AB/W11-002", "【自】このカードが手札から舞台に置かれた時、あなたは自分のクロックの上から1枚を、控え室に置いて"
              "よい。【自】このカードのバトル相手が【リバース】した時、あなたはそのキャラを思い出にしてよい。",
              level=3, cost=2, power=10000, soul=2, traits=("死", "生徒会"), triggers=("soul",),
              name="結弦の心臓 かなで")
OTONASHI = real("AB/W11-056", "【自】[あなたの控え室のキャラを2枚山札に戻す。その山札をシャッフルする]このカードがアタックした"
                "時、あなたはコストを払ってよい。そうしたら、そのターン中、このカードのパワーを+2000。【自】[(1)]このカードが"
                "アタックした時、クライマックス置場に「報われた気持ち」があるなら、あなたはコストを払ってよい。そうしたら、相手に"
                "1ダメージを与える。(ダメージキャンセルは発生する)", level=2, cost=2, power=8000, soul=2, colors=RED,
                traits=("死", "武器"), triggers=("soul",), name="過去を求める音無")
MUKUWARETA = real("AB/W11-025", "【永】あなたのキャラすべてに、ソウルを+1。", "climax", colors=RED, name="報われた気持ち")
STARRIN = real("BD/W47-036", "【自】このカードが手札から舞台に置かれた時、あなたは自分の山札を見て《音楽》のキャラを1枚まで"
               "選んで相手に見せ、手札に加え、その山札をシャッフルする。", level=3, cost=2, power=9500, soul=2, colors=RED,
               traits=("音楽", "星"), triggers=("soul",), name="Starrin’")


def play(state: ws.WSState, card: CardRecord, slot: int = 0, answers: dict | None = None) -> list[str]:
    state.hand.append(card)
    return drive(state, state._play_character(card.code, slot), answers)


def test_placed_clock_heal_optional_taken():
    """AB/W11-002: when played from hand, the clock's top card may go to the waiting room."""
    assert status(YUZURU) == [PLAYED, NO_EFFECT]
    state = fresh()
    state.level = [char("L/W-a"), char("L/W-b"), char("L/W-c")]
    state.stock = blanks(2)
    old, top = char("K/W-1"), char("K/W-2")
    state.clock = [old, top]
    play(state, YUZURU)
    assert state.clock == [old] and top in state.waiting
    assert state.counters["healed"] == 1 and len(state.stock) == 0


def test_attack_burn_with_its_climax_and_paid_cost():
    """AB/W11-056: its climax 「報われた気持ち」 in the climax zone, pay (1): 1 damage to the goldfish
    (cancellable). The power ability changes nothing."""
    assert status(OTONASHI) == [NO_EFFECT, PLAYED]
    state = fresh()
    state.stage[0] = OTONASHI
    state.climax = MUKUWARETA
    state.soul_bonus = 1
    state.stock = blanks(2)
    state.deck = blanks(10)
    state.odeck = blanks(20)
    dealt = attack_soul(state)
    assert state.counters["burn_damage"] == 1 and len(state.stock) == 1 + 1  # paid 1, the trigger card
    assert dealt == 2 + 1 + 1 and len(state.oclock) == 1 + 4
    # without the climax: no damage, no cost
    state2 = fresh()
    state2.stage[0] = OTONASHI
    state2.stock = blanks(2)
    state2.deck = blanks(10)
    state2.odeck = blanks(20)
    attack_soul(state2)
    assert state2.counters["burn_damage"] == 0 and len(state2.stock) == 3


def test_burn_is_cancelled_by_a_climax():
    state = fresh()
    state.stage[0] = OTONASHI
    state.climax = MUKUWARETA
    state.stock = blanks(1)
    state.deck = blanks(10)
    state.odeck = [*blanks(10), CX]  # the burn reveals the climax first
    attack_soul(state)
    assert state.counters["burn_cancels"] == 1 and state.counters["burn_damage"] == 0
    assert CX in state.owaiting


def test_placed_search_by_trait_then_shuffle():
    """BD/W47-036: when played, search the deck for up to 1 《音楽》 character into hand."""
    state = fresh()
    state.level = blanks(3)
    state.stock = blanks(2)
    state.clock = [char("R/W-c", colors=RED)]
    music = real("BD/W47-001", "", level=1, traits=("音楽",), colors=RED)
    state.deck = [*blanks(6), music, *blanks(3)]
    play(state, STARRIN)
    assert state.hand == [music] and len(state.deck) == 9
    assert state.counters["searched"] == 1


# -- activated abilities ------------------------------------------------------------------------
HIMURO = real("FS/S03-089", "【起】集中[(1)]あなたは自分の山札の上から2枚をめくり、控え室に置く。それらのカードのクライマックス"
              "1枚につき、あなたは1枚引く。", power=2000, colors=BLUE, traits=("スポーツ", "メガネ"), name="氷室 鐘")
AOI = real("DC3/W18-071", "【永】応援このカードの前のあなたのキャラすべてに、『【自】アンコール[手札のキャラを1枚控え室に"
           "置く]』を与える。【起】[(2)このカードを【レスト】する]あなたは自分の控え室のカードすべてを、山札に戻す。その山札を"
           "シャッフルする。", level=1, power=2500, colors=BLUE, traits=("新聞", "ウェイトレス"),
           name="フラワーズは大忙し! 葵")


def test_brainstorm_draws_per_climax_flipped():
    """FS/S03-089 集中[(1)]: flip the top 2 into the waiting room, draw 1 per climax among them."""
    state = fresh()
    state.stage[3] = HIMURO
    state.stock = blanks(1)
    drawn = char("D/W-0")
    state.deck = [*blanks(4), drawn, char("N/W-0"), CX]  # the top two: CX, then N/W-0
    assert ("act", 3, 0) in state.options_main()
    drive(state, state._activate(3, 0))
    assert [c.code for c in state.waiting] == ["F/W-00", "X/W-CX", "N/W-0"]  # the paid stock, then the 2 flipped
    assert state.hand == [drawn] and state.stock == []
    assert state.counters["brainstorms"] == 1 and state.counters["activations"] == 1
    assert ("act", 3, 0) not in state.options_main()  # no stock left


def test_activated_rest_and_stock_cost_returns_the_waiting_room():
    """DC3/W18-071 【起】[(2)rest this]: every waiting-room card back into the deck, shuffled."""
    state = fresh()
    state.stage[3] = AOI
    state.stock = blanks(2)
    state.deck = blanks(3)
    state.waiting = blanks(5)
    assert state.options_act() == [("act", 3, 0)]  # its only 【起】 ability (the 応援 is continuous)
    drive(state, state._activate(3, 0))
    assert len(state.deck) == 3 + 5 + 2 and state.waiting == [] and state.stock == []
    assert state.stage_state[3] == ws.REST
    with pytest.raises(ValueError):
        drive(state, state._activate(3, 0))  # rested, no stock: not usable


# -- events --------------------------------------------------------------------------------------
TSUNDERE = real("BM/S15-072", "あなたは自分の控え室のキャラを2枚まで選び、手札に戻す。", "event", level=2, cost=2, colors=RED,
                name="ツンデレ?")
COUNTER_SHOT = real("DC/W01-070", "あなたは相手に5ダメージを与える。", "event", level=3, cost=3, colors=RED,
                    name="見事なカウンター")
MOKKIN = real("DC/W01-095", "あなたは自分のクロックを2枚まで選び、控え室に置く。このカードを思い出にする。", "event", level=2,
              cost=2, colors=BLUE, name="木琴占い")
KETSUI = real("DC/WE08-65", "あなたは自分の《魔法》のキャラを1枚選び、そのターン中、パワーを+2000し、ソウルを+2。ターンの"
              "終わりに、そのキャラを思い出にする。", "event", level=1, colors=YELLOW, name="決意")
SENKOU = real("RN/W16-046", "あなたは自分の《科学》のキャラを2枚まで選び、【スタンド】する。", "event", level=1, colors=GREEN,
              name="閃光の一撃")
HIKKOSHI = real("LB/W06-047", "あなたは自分のクロックを1枚選び、手札に戻す。このカードをクロック置場に置く。", "event", level=2,
                colors=GREEN, name="お引越し")


def event_state(card: CardRecord, level: int, stock: int) -> ws.WSState:
    state = fresh()
    state.level = [char(f"L/W-{i}", colors=card.colors) for i in range(level)]
    state.stock = blanks(stock)
    state.hand = [card]
    state.deck = blanks(10)
    state.odeck = blanks(20)
    return state


def test_event_salvage_two_characters():
    """BM/S15-072: up to 2 characters from the waiting room to hand (the best two)."""
    state = event_state(TSUNDERE, 2, 2)
    big, small = char("B/W-3", level=3, soul=2), char("S/W-0", soul=1, power=500)
    state.waiting = [small, CX, big, char("M/W-1", level=1)]
    drive(state, state._play_event(TSUNDERE.code))
    assert {c.code for c in state.hand} == {"B/W-3", "M/W-1"}
    assert TSUNDERE in state.waiting and state.stock == []
    assert state.counters["events_played"] == 1


def test_event_burn_five():
    """DC/W01-070: 5 damage to the goldfish."""
    state = event_state(COUNTER_SHOT, 3, 3)
    drive(state, state._play_event(COUNTER_SHOT.code))
    assert len(state.oclock) == 5 and state.counters["burn_damage"] == 5


def test_event_heals_two_and_goes_to_memory():
    """DC/W01-095: up to 2 clock cards to the waiting room, then this event into memory."""
    state = event_state(MOKKIN, 2, 2)
    state.clock = [char("K/W-1", colors=BLUE), char("K/W-2"), char("K/W-3")]
    drive(state, state._play_event(MOKKIN.code))
    assert [c.code for c in state.clock] == ["K/W-1"]
    assert state.memory == [MOKKIN] and MOKKIN not in state.waiting
    assert state.counters["healed"] == 2


def test_event_soul_then_memory_at_the_end_of_the_turn():
    """DC/WE08-65: a 《魔法》 character +2 soul this turn; at the end of the turn it goes to memory."""
    state = event_state(KETSUI, 1, 0)
    mage = CardRecord(game="ws", code="M/W-0", name="mage", card_type="character", level=0, cost=0, power=3000,
                      soul=1, colors=YELLOW, traits=("魔法",))
    state.stage[0] = mage
    state.stage[1] = char("O/W-0")
    drive(state, state._play_event(KETSUI.code))
    assert state.slot_soul == [2, 0, 0, 0, 0]
    assert attack_soul(state) == 1 + 2 + 1
    drive(state, state.run_delayed("end:turn"))
    assert state.stage[0] is None and state.memory == [mage]


def test_event_stand_two_of_a_trait():
    """RN/W16-046: up to 2 of your 《科学》 characters stand (they can attack again)."""
    state = event_state(SENKOU, 1, 0)
    sci = CardRecord(game="ws", code="S/W-0", name="sci", card_type="character", level=0, cost=0, power=3000,
                     soul=1, colors=GREEN, traits=("科学",))
    state.stage[0] = sci
    state.stage[1] = char("O/W-0")
    state.stage_state[:] = [ws.REST, ws.REST, ws.STAND, ws.STAND, ws.STAND]
    drive(state, state._play_event(SENKOU.code))
    assert state.stage_state[:2] == [ws.STAND, ws.REST]


def test_event_clock_to_hand_and_itself_to_the_clock():
    """LB/W06-047: a clock card to hand (the best), this event into the clock."""
    state = event_state(HIKKOSHI, 2, 0)
    best = char("B/W-3", level=2, soul=2)
    state.clock = [char("K/W-1"), best]
    drive(state, state._play_event(HIKKOSHI.code))
    assert state.hand == [best] and [c.code for c in state.clock] == ["K/W-1", HIKKOSHI.code]


def test_fast_path_checks_events_like_characters():
    """An event needs its level, stock and color on the fast path too (it raises otherwise)."""
    state = event_state(COUNTER_SHOT, 2, 3)  # level 2 < 3
    with pytest.raises(ValueError, match="cannot be played"):
        drive(state, state._play_event(COUNTER_SHOT.code))
    assert state.hand == [COUNTER_SHOT] and len(state.stock) == 3
    state = event_state(COUNTER_SHOT, 3, 2)  # stock 2 < 3
    with pytest.raises(ValueError):
        drive(state, state._play_event(COUNTER_SHOT.code))
    state = event_state(COUNTER_SHOT, 3, 3)
    state.level = [char(f"L/W-{i}", colors=BLUE) for i in range(3)]  # no red
    with pytest.raises(ValueError):
        drive(state, state._play_event(COUNTER_SHOT.code))


def test_counter_events_are_never_offered_in_the_main_phase():
    counter = CardRecord(game="ws", code="CE/W-1", name="counter", card_type="event", level=0, cost=0,
                         colors=YELLOW, counter=True, text="【カウンター】あなたは自分のキャラを1枚選び、そのターン中、"
                         "パワーを+2500。")
    state = fresh()
    state.hand = [counter]
    assert not state.can_play(counter)
    assert ("event", "CE/W-1") not in state.options_main()
    with pytest.raises(ValueError):
        drive(state, state._play_event("CE/W-1"))
    assert status(counter) == [NO_EFFECT]


# -- conditions, limits, continuous abilities ----------------------------------------------------------
STAR = real("BD/W47-T09", "【自】このカードが手札から舞台に置かれた時、他のあなたの《音楽》のキャラが4枚以上なら、あなたは自分の"
            "山札の上から1枚を、ストック置場に置いてよい。【自】アンコール[手札の《音楽》のキャラを1枚控え室に置く](このカードが"
            "舞台から控え室に置かれた時、あなたはコストを払ってよい。そうしたら、このカードがいた枠に【レスト】して置く)",
            level=2, cost=2, power=8000, soul=2, colors=RED, traits=("音楽", "パン"), triggers=("soul",), name="“STAR")
LITTLE = real("AB/W31-105", "【永】あなたの控え室のクライマックスが6枚以上なら、あなたの手札のこのカードのレベルを-1。【永】他の"
              "あなたの《音楽》のキャラ1枚につき、このカードのパワーを+500。【自】この能力は1ターンにつき1回まで発動する。この"
              "カードが手札から舞台に置かれたターン中、このカードの与えたダメージがキャンセルされた時、あなたは相手に1ダメージを与え"
              "てよい。(ダメージキャンセルは発生する)", level=3, cost=2, power=9500, soul=2, traits=("死", "音楽"),
              triggers=("soul",), name="“Little")
KOKORO = real("BD/W54-015", "【永】前列の中央の枠にこのカードがいるなら、このカードのソウルを+1。", power=2000,
              traits=("音楽",), name="“無敵のヒーロー”弦巻こころ")
ASUMI = real("DC/W01-004", "【永】アラームこのカードがクロックの1番上にあり、あなたのレベルが2以上なら、黄のあなたのキャラすべて"
             "に、ソウルを+1。", level=2, cost=2, power=5000, soul=1, triggers=("soul",), name="霧羽 明日美")
TSHIRT = real("IMC/W41-032", "【永】このカードは、あなたのキャラが3枚以下なら、手札からプレイできない。", level=2, cost=1,
              power=9000, traits=("音楽", "ギャル"), triggers=("soul",), name="お揃いのライブTシャツ")
KOKOI = real("DC/W23-043", "【永】 このカードはダイレクトアタックできない。", power=4000, colors=GREEN,
             traits=("音楽", "和服"), name="浴衣で盆踊り 小恋")


def music(code: str) -> CardRecord:
    return CardRecord(game="ws", code=code, name=code, card_type="character", level=0, cost=0, power=3000, soul=1,
                      colors=RED, traits=("音楽",))


def test_trait_count_condition():
    """BD/W47-T09: with 4 other 《音楽》 characters, the top card may go to stock; with 3, nothing."""
    for others, stock in ((4, 1), (3, 0)):
        state = fresh()
        state.level = blanks(2)
        state.clock = [char("R/W-c", colors=RED)]
        state.stock = blanks(2)
        for s in range(others):
            state.stage[1 + s] = music(f"M/W-{s}")
        state.deck = blanks(5)
        play(state, STAR)
        assert len(state.stock) == stock, others


def test_hand_level_and_once_per_turn_cancel_burn():
    """AB/W31-105: level 2 in hand while the waiting room holds 6 climaxes; the turn it is played, the
    first of its damage cancelled deals 1 damage — once a turn."""
    state = fresh()
    state.level = [char("L/W-a"), char("L/W-b")]
    state.stock = blanks(2)
    state.clock = [char("Y/W-c")]
    assert not state.can_play(LITTLE)
    state.waiting = [climax(f"W/W-{i}") for i in range(6)]
    assert state.play_level(LITTLE) == 2 and state.can_play(LITTLE)
    state.deck = blanks(10)
    play(state, LITTLE)
    assert state.entered[0]
    state.odeck = [*blanks(10), FILLER, CX, CX]  # the attack's damage is cancelled, then the burn's too
    attack_soul(state)
    assert state.counters["cancels"] == 1 and state.counters["burns"] == 1
    state.stage_state[0] = ws.STAND
    state.odeck = [*blanks(10), CX]
    attack_soul(state)
    assert state.counters["burns"] == 1  # once a turn


def test_soul_in_the_centre_slot_only():
    """BD/W54-015: +1 soul only in the front-centre slot."""
    state = fresh()
    state.deck = blanks(10)
    state.odeck = blanks(20)
    state.stage[1] = KOKORO
    assert state.soul_of(1) == 2
    assert attack_soul(state, 1) == 2 + 1
    state.stage[1], state.stage[0] = None, KOKORO
    assert state.soul_of(0) == 1


def test_alarm_from_the_top_of_the_clock_at_level_two():
    """DC/W01-004 アラーム: on the clock's top at level 2+, yellow characters +1 soul."""
    state = fresh()
    state.stage[0] = char("Y/W-0", colors=YELLOW)
    state.stage[1] = char("R/W-0", colors=RED)
    state.clock = [ASUMI]
    state.level = blanks(1)
    assert state.soul_of(0) == 1
    state.level = blanks(2)
    assert state.soul_of(0) == 2 and state.soul_of(1) == 1
    state.clock = [ASUMI, char("K/W-0")]
    assert state.soul_of(0) == 1


def test_play_requirement():
    """IMC/W41-032: not playable from hand with 3 or fewer characters of yours."""
    state = fresh()
    state.level = blanks(2)
    state.stock = blanks(1)
    state.clock = [char("Y/W-c")]
    for s in range(3):
        state.stage[s] = char(f"O/W-{s}")
    assert not state.can_play(TSHIRT)
    state.stage[3] = char("O/W-3")
    assert state.can_play(TSHIRT)


def test_cannot_direct_attack_is_cannot_attack():
    """DC/W23-043: every attack on the goldfish is direct, so this character never attacks."""
    state = fresh()
    state.stage[0] = KOKOI
    state.stage[1] = char("O/W-1")
    assert state._attackers() == [1]
    with pytest.raises(ValueError):
        drive(state, state._attack(0))


def test_soul_ends_with_the_turn():
    state = fresh()
    state.went_first = False
    state.stage[0] = char("A/W-0")
    state.slot_soul[0] = 3
    state.deck = [EVENT] * 20  # nothing to play
    state.odeck = blanks(30)
    drive(state, state._my_turn(), {"clock": ("skip",)})
    assert state.counters["attack_soul"] == 1 + 3 + 1 and state.slot_soul == [0] * 5


# -- keywords: encore, change, shift, markers... ----------------------------------------------------
UIHARU = real("RG/W10-107", "【自】アンコール[(2)](このカードが舞台から控え室に置かれた時、あなたはコストを払ってよい。そうしたら、"
              "このカードがいた枠に【レスト】して置く)", level=1, power=5000, colors=GREEN, traits=("超能力",),
              name="学園都市の初春&佐天")
SARA = real("DC3/W18-082", "【自】チェンジ[(1)手札を1枚控え室に置き、このカードを思い出にする]あなたのアンコールステップの始めに、"
            "このカードが【レスト】しているなら、あなたはコストを払ってよい。そうしたら、あなたは自分の控え室のレベル2以下の"
            "「黄昏時の告白 さら」を1枚選び、このカードがいた枠に置く。", level=1, power=4000, colors=BLUE,
            traits=("新聞", "スポーツ"), name="体操着のさら")
MANA = real("GC/S16-106", "【自】【クロック】シフトレベル1(あなたのメインフェイズの始めに、あなたは自分の手札の黄のカードを1枚と"
            "クロック置場のこのカードを選び、入れ替えてよい)", level=1, power=5000, name="“The Everlasting Guilty Crown”真名")


def test_own_encore_cost():
    """RG/W10-107 アンコール[(2)]: back rested for 2 stock (the default costs 3)."""
    state = fresh()
    state.stage[0] = UIHARU
    state.stock = blanks(2)
    seen = drive(state, state._leave_stage(0, "effect"))
    assert seen == ["encore"] and state.stage[0] is UIHARU and state.stage_state[0] == ws.REST
    assert state.stock == [] and state.counters["encores"] == 1


def test_granted_encore_from_an_assist():
    """DC3/W18-071 応援: the characters in front of it have 『アンコール[discard a character]』."""
    state = fresh()
    hero = char("H/W-0")
    state.stage[0], state.stage[3] = hero, AOI
    fodder = char("F/W-9", power=500)
    state.hand = [CX, fodder]
    drive(state, state._leave_stage(0, "effect"))
    assert state.stage[0] is hero and state.hand == [CX] and fodder in state.waiting


def test_change_at_the_encore_step():
    """DC3/W18-082 チェンジ: rested at your encore step, pay (1), a hand card and this card into memory:
    「黄昏時の告白 さら」 from the waiting room onto the slot it left."""
    state = fresh()
    state.stage[1] = SARA
    state.stage_state[1] = ws.REST
    state.stock = blanks(1)
    state.hand = [CX]
    big = CardRecord(game="ws", code="DC3/W18-075", name="黄昏時の告白 さら", card_type="character", level=2, cost=1,
                     power=8000, soul=2, colors=BLUE)
    state.waiting = [big]
    drive(state, state.fire_stage("start:encore_step"), {"pay": ("yes",)})
    assert state.stage[1] is big and state.memory == [SARA]
    assert state.stock == [] and CX in state.waiting


def test_shift_swaps_a_clock_card_with_a_worse_hand_card():
    state = fresh()
    state.level = blanks(1)
    state.clock = [char("K/W-0"), MANA]
    spare = climax("Y/W-CX")
    state.hand = [spare, spare]
    state.shift()
    assert MANA in state.hand and state.clock[1] is spare and state.counters["shifts"] == 1


# -- the goldfish's pressure -----------------------------------------------------------------------
def test_pressure_attacks_through_your_damage_step():
    """The goldfish's turn: 3 attacks of 2 (default) through your deck; a climax cancels one."""
    state = fresh()
    state.went_first = True
    a, b, c, d = char("A/W-0"), char("B/W-0"), char("C/W-0"), char("D/W-0")
    state.deck = [*blanks(5), d, c, CX, b, a]  # 1st attack: a, b; 2nd: CX (cancelled); 3rd: c, d
    state.odeck = blanks(20)
    drive(state, state._opp_turn(False) or iter(()))
    assert state.clock == [a, b, c, d] and CX in state.waiting
    assert state.counters["opp_attacks"] == 3 and state.counters["damage_taken"] == 4
    assert state.counters["damage_taken_cancels"] == 1


def test_pressure_first_turn_single_attack_and_level_up():
    state = fresh()
    state.clock = blanks(6)
    state.deck = [*blanks(5), char("N/W-1"), char("N/W-0")]
    state.odeck = blanks(20)
    seen = drive(state, state._opp_turn(True) or iter(()))
    assert state.counters["opp_attacks"] == 1 and seen == ["level_up"]
    assert len(state.level) == 1 and len(state.clock) == 1


def test_pressure_off_is_the_pure_goldfish():
    state = base_fresh(DECK, options={"dummy_pressure": "off"})
    state.deck = blanks(10)
    state.odeck = blanks(20)
    assert state._opp_turn(False) is None and state.clock == []
    with pytest.raises(ValueError, match="dummy_pressure"):
        fresh(options={"dummy_pressure": "sometimes"})


def test_pressure_loses_at_level_four():
    state = fresh()
    state.level = blanks(3)
    state.clock = blanks(6)
    state.deck = blanks(10)
    state.odeck = blanks(20)
    drive(state, state._opp_turn(False) or iter(()))
    assert state.outcome == "loss" and "level 4" in state.reason


# -- the coverage contract -----------------------------------------------------------------------
def test_the_engine_registers_the_coverage_contract():
    engine = get_engine("ws")
    assert engine.classify_ability is ws.classify_ability and engine.plays_card is ws.plays_card
    assert engine.default_options["dummy_pressure"] == "on"
    assert engine.default_options["dummy_attacks"] == 3 and engine.default_options["dummy_soul"] == 2
    cov = card_coverage(OTONASHI, engine, compile_text_cached)
    assert cov.modelled and [c.status for _, c in cov.abilities] == [NO_EFFECT, PLAYED]
    assert "power" in cov.abilities[0][1].reason
    vanilla = real("V/W-0", "-")
    assert card_coverage(vanilla, engine, compile_text_cached).modelled
    assert card_coverage(vanilla, engine, compile_text_cached).abilities == ()


@pytest.mark.parametrize("text,reason", [
    ("【自】このカードのバトル相手が【リバース】した時、あなたはそのキャラを思い出にしてよい。", "battle"),
    ("【永】このカードの正面のキャラのソウルを-1。", "opposing character"),
    ("【起】【カウンター】助太刀2000レベル1[(1)手札のこのカードを控え室に置く](あなたは自分のフロントアタックされている"
     "キャラを1枚選び、そのターン中、パワーを+2000)", "counter"),
    ("【永】他のあなたのキャラすべてに、パワーを+500。", "power"),
    ("【自】相手のクライマックスがクライマックス置場に置かれた時、あなたはこのカードをストック置場に置いてよい。", "never plays"),
    ("【永】このカードと同じカード名のカードは、デッキに好きな枚数入れることができる。", "deck-construction"),
])
def test_no_effect_reasons(text, reason):
    card = real("N/W-0", text)
    [a] = compile_text(text)
    cov = ws.classify_ability(a, card)
    assert cov.status == NO_EFFECT and reason in cov.reason, cov


def test_not_played_names_what_is_missing():
    card = real("M/W-0", "【自】このカードが手札から舞台に置かれた時、あなたは自分の控え室の「x」を1枚選び、このカードの下に"
                "マーカーとして裏向きに置いてよい。")
    [a] = compile_text(card.text)
    cov = ws.classify_ability(a, card)
    assert cov.status == NOT_PLAYED and "marker" in cov.reason


# -- more effect kinds on real cards ----------------------------------------------------------------
SANTA = real("GF/W33-134", "【自】このカードがアタックした時、あなたは自分の山札の上から1枚を、控え室に置く。そのカードがクライマ"
             "ックスなら、そのターン中、このカードのソウルを+4。", level=1, cost=1, power=7000, colors=BLUE,
             traits=("ガール", "コスプレ"), name="照れサンタ")
RIKKA = real("DC3/W18-003", "【自】このカードが手札から舞台に置かれた時、あなたは自分の山札の上から1枚を公開する。そのカードが"
             "《魔法》のキャラなら手札に加え、あなたは自分の手札を1枚選び、控え室に置く。(そうでないなら元に戻す)",
             power=2000, traits=("魔法", "生徒会"), name="プカプカデート リッカ")
YURI = real("AB/W31-059", "【自】このカードが手札から舞台に置かれた時、あなたは自分の山札を上から1枚見て、山札の上か控え室に"
            "置く。", power=500, colors=RED, traits=("死", "武器"), name="冬の日のゆり")
RYUKO = real("KLK/S27-103", "【自】あなたのドローフェイズの始めに、あなたは自分の山札の上から1枚を、クロック置場に置く。",
             level=1, power=6500, colors=RED, traits=("服", "武器"), name="ちび“人衣一体”流子")
NAKAMURA = real("AB/W31-113", "【自】このカードが手札から舞台に置かれた時、あなたは2枚まで引き、自分の手札を1枚選び、控え室に"
                "置く。", level=3, cost=2, power=9500, soul=2, colors=RED, traits=("死", "武器"), triggers=("soul",),
                name="仲村")
TACHIBANA = real("AB/W31-106", "【自】[(1)]あなたのクライマックス置場に「いつかどこかで」が置かれた時、前列にこのカードがいるなら、"
                 "あなたはコストを払ってよい。そうしたら、あなたは自分の山札を見て《死》のキャラを1枚まで選び、舞台の好きな枠に置き、"
                 "その山札をシャッフルする。", level=3, cost=2, power=10000, soul=2, traits=("死", "生徒会"),
                 triggers=("soul",), name="立華")
HENRIETTA = real("ZM/W03-086", "【自】あなたのキャラのトリガーチェックでクライマックスがでた時、あなたは自分のクロックを上から1枚"
                 "を、控え室に置いてよい。", level=3, cost=2, power=9000, soul=2, colors=BLUE, traits=("魔法", "王族"),
                 name="アンリエッタ・ド・トリステイン")
DIA = real("LSS/WE27-09", "【自】この能力は1ターンにつき1回まで発動する。あなたが「互いを想う気持ち」をプレイした時、あなたは"
           "自分のキャラを1枚選び、そのターン中、ソウルを+1。", power=1500, traits=("音楽",), name="“親愛なるお姉ちゃん”黒澤")
TAGAI = real("LSS/WE27-20", "あなたは1枚引く。", "event", name="互いを想う気持ち")
ARMIN = real("AOT/S50-007", "【自】相手のターン中、あなたの受けたダメージがキャンセルされなかった時、前列にこのカードがいるなら、"
             "あなたは自分の山札を上から1枚見て、山札の上か控え室に置く。", level=3, cost=2, power=10000, soul=2,
             traits=("兵団", "武器"), triggers=("soul",), name="“命果てるまで”アルミン")
AOI2 = real("DC3/W18-081", "【自】あなたのクライマックスフェイズの始めに、あなたは自分の山札の上から1枚を公開する。そのカードが"
            "クライマックスなら、あなたは他の自分の前列のキャラを1枚選び、控え室に置く。(公開したカードは元に戻す)",
            power=4000, colors=BLUE, traits=("新聞", "ウェイトレス"), name="大切な時間 葵")
TENSHI = real("AB/WE10-04", "【自】このカードが手札から舞台に置かれた時、あなたは自分の山札の上から1枚を公開する。そのカードが"
              "《死》のキャラでないなら、あなたのアンコールステップの始めに、このカードを控え室に置く。(公開したカードは元に戻す)",
              level=1, cost=1, power=7500, traits=("死", "生徒会"), name="“神の使い”天使")
ARISA = real("BD/WE31-021", "【自】このカードが手札から舞台に置かれた時、あなたは自分の山札の上から2枚を、控え室に置く。それらの"
             "カードにクライマックスがあるなら、あなたは相手の山札の上から1枚を、控え室に置いてよい。そうしたら、あなたは相手の控え"
             "室のカードを1枚選び、山札の上に置く。", power=1000, colors=BLUE, traits=("音楽",), name="“カラフルポッピン!”市ヶ谷有咲")
CHIYURI = real("AW/S18-044", "【起】[(1)このカードを控え室に置く]相手は自分の控え室のカードすべてを、山札に戻す。その山札をシャッフル"
               "する。", power=2000, colors=GREEN, traits=("スポーツ", "ネット"), name="訝しげな眼差し チユリ")
NENKOSHI = real("DC3/W18-066", "あなたは自分の控え室の《生徒会》のキャラを1枚選び、手札に戻す。あなたは自分の控え室の「年越しキス」"
                "を1枚選び、思い出にする。このカードを思い出にする。", "event", level=2, cost=1, colors=RED, name="年越しキス")
CAULES = real("APO/S53-082", "【自】あなたがレベルアップした時、そのターン中、このカードは『【自】アンコール[(1)]』を得る。",
              level=2, cost=2, power=6500, soul=2, colors=BLUE, traits=("マスター", "メガネ"), name="カウレス")
KOROKKE = real("KLK/S27-017", "あなたは自分のキャラを1枚選び、そのターン中、パワーを+3000。ターンの終わりに、そのキャラをストック"
               "置場に置く。", "event", level=1, name="怪しいコロッケ")


def test_mill_then_soul_if_a_climax():
    """GF/W33-134: when it attacks, the top card to the waiting room; a climax gives +4 soul."""
    state = fresh()
    state.stage[0] = SANTA
    state.odeck = blanks(20)
    state.deck = [*blanks(5), CX]
    assert attack_soul(state) == 1 + 4 + 1 and state.waiting == [CX]
    state.stage_state[0] = ws.STAND
    state.slot_soul[0] = 0  # (a new turn)
    state.deck = [*blanks(5), char("N/W-0")]
    assert attack_soul(state) == 1 + 1


def test_reveal_then_to_hand_and_discard():
    """DC3/W18-003: reveal the top card; a 《魔法》 character goes to hand, then discard 1."""
    mage = CardRecord(game="ws", code="M/W-1", name="mage", card_type="character", level=1, cost=0, power=5000,
                      soul=1, colors=YELLOW, traits=("魔法",))
    state = fresh()
    state.deck = [*blanks(5), mage]
    state.hand = [CX, CX]
    play(state, RIKKA)
    assert mage in state.hand and state.waiting == [CX] and len(state.deck) == 5
    state2 = fresh()
    state2.deck = [*blanks(5), CX]
    play(state2, RIKKA)
    assert state2.deck[-1] is CX and state2.hand == []  # not a 魔法 character: it stays


def test_look_keeps_a_climax_on_top_else_waiting_room():
    """AB/W31-059: look at the top card, put it on top or into the waiting room (a climax stays)."""
    state = fresh()
    top = char("T/W-0")
    state.deck = [*blanks(5), top]
    play(state, YURI)
    assert state.waiting == [top] and len(state.deck) == 5
    state.deck = [*blanks(5), CX]
    state.stage[0] = None
    play(state, YURI)
    assert state.deck[-1] is CX


def test_draw_phase_clock_damage():
    """KLK/S27-103: at the start of your draw phase, the top card into your clock."""
    state = fresh()
    state.stage[0] = RYUKO
    top = char("T/W-1")
    state.deck = [*blanks(5), top]
    drive(state, state.fire_stage("start:draw_phase"))
    assert state.clock == [top]


def test_draw_up_to_two_then_discard_one():
    """AB/W31-113: draw up to 2, then discard 1 (the least valuable)."""
    state = fresh()
    state.level = blanks(3)
    state.stock = blanks(2)
    state.clock = [char("R/W-c", colors=RED)]
    good = char("G/W-1", level=1, soul=2)
    state.deck = [*blanks(5), CX, good]
    play(state, NAKAMURA)
    assert state.hand == [good] and [c.code for c in state.waiting] == ["F/W-01", "F/W-00", "X/W-CX"]  # paid 2


def test_climax_combo_puts_a_character_from_the_deck_onto_the_stage():
    """AB/W31-106: 「いつかどこかで」 placed with this card in the front row, pay (1): a 《死》
    character from the deck onto the stage (the best; an empty slot), the deck shuffled."""
    shi = CardRecord(game="ws", code="S/W-3", name="shi", card_type="character", level=3, cost=2, power=10000,
                     soul=2, colors=YELLOW, traits=("死",))
    state = climax_turn(ITSUKA, deck=[*blanks(6), shi, *blanks(3)], odeck=blanks(10))
    state.stage[0] = TACHIBANA
    state.stock = blanks(1)
    place(state, ITSUKA)
    assert state.stage[1] is shi and state.stock == [] and shi not in state.deck


def test_trigger_check_climax_heals():
    """ZM/W03-086: your trigger check reveals a climax: the clock's top card may go to the waiting room."""
    state = fresh()
    state.stage[0] = HENRIETTA
    k1, k2 = char("K/W-1"), char("K/W-2")
    state.clock = [k1, k2]
    state.deck = [*blanks(5), CX]
    state.odeck = blanks(20)
    attack_soul(state)
    assert state.clock == [k1] and k2 in state.waiting


def test_playing_a_named_event_gives_soul_once_a_turn():
    """LSS/WE27-09: when you play 「互いを想う気持ち」, a character of yours +1 soul (once a turn)."""
    state = fresh()
    state.stage[0] = DIA
    state.hand = [TAGAI, TAGAI]
    state.deck = blanks(10)
    drive(state, state._play_event(TAGAI.code))
    drive(state, state._play_event(TAGAI.code))
    assert state.slot_soul[0] == 1 and state.counters["events_played"] == 2


def test_goldfish_turn_trigger_on_uncancelled_damage():
    """AOT/S50-007: on the goldfish's turn, damage you take not cancelled: look at your top card,
    keep it (a climax) or send it to the waiting room."""
    state = fresh()
    state.stage[0] = ARMIN
    top = char("T/W-9")
    state.deck = [*blanks(5), top, *blanks(2)]  # the attack takes the top 2; then `top` is looked at
    state.odeck = blanks(20)
    state.dummy_attacks = 1
    drive(state, state._opp_turn(False) or iter(()))
    assert len(state.clock) == 2 and state.waiting == [top]


def test_your_own_character_to_the_waiting_room_if_a_climax():
    """DC3/W18-081: at your climax phase, reveal the top card; a climax: another front-row character of
    yours to the waiting room (the weakest)."""
    state = fresh()
    weak, strong = char("W/W-0", soul=1), char("S/W-0", soul=2)
    state.stage[:3] = [AOI2, weak, strong]
    state.deck = [*blanks(5), CX]
    drive(state, state.fire_stage("start:climax_phase"))
    assert state.stage[1] is None and weak in state.waiting and state.deck[-1] is CX


def test_delayed_to_the_waiting_room_at_the_encore_step():
    """AB/WE10-04: when played, reveal the top card; not a 《死》 character: at your encore step this
    card goes to the waiting room."""
    state = fresh()
    state.level = blanks(1)
    state.stock = blanks(1)
    state.clock = [char("Y/W-c")]
    state.deck = [*blanks(5), char("N/W-0")]
    play(state, TENSHI)
    assert len(state.delayed) == 1
    drive(state, state.run_delayed("start:encore_step"))
    assert state.stage[0] is None and TENSHI in state.waiting


def test_mill_the_goldfish_and_put_a_non_climax_on_its_top():
    """BD/WE31-021: mill 2; a climax among them: the goldfish's top card to its waiting room, then one
    of its waiting-room cards (not a climax) onto its deck."""
    state = fresh()
    state.deck = [*blanks(5), CX, char("N/W-0")]
    state.odeck = [*blanks(10), CX]
    state.owaiting = [CX, char("G/W-0")]
    play(state, ARISA)
    assert state.odeck[-1].code == "G/W-0" and state.owaiting == [CX, CX]


def test_goldfish_waiting_room_back_into_its_deck():
    """AW/S18-044 【起】[(1) this card to the waiting room]: the goldfish's waiting room into its deck."""
    state = fresh()
    state.stage[3] = CHIYURI
    state.stock = blanks(1)
    state.odeck = blanks(10)
    state.owaiting = [CX, CX, char("G/W-0")]
    drive(state, state._activate(3, 0))
    assert len(state.odeck) == 13 and state.owaiting == [] and CHIYURI in state.waiting


def test_event_salvage_and_memory_of_named_cards():
    """DC3/W18-066: a 《生徒会》 character back to hand, another 「年越しキス」 from the waiting room and
    this event into memory."""
    state = event_state(NENKOSHI, 2, 1)
    sc = CardRecord(game="ws", code="SC/W-0", name="sc", card_type="character", level=0, cost=0, power=3000,
                    soul=1, colors=RED, traits=("生徒会",))
    state.waiting = [sc, NENKOSHI, CX]
    state.hand = [NENKOSHI]
    drive(state, state._play_event(NENKOSHI.code))
    assert state.hand == [sc] and state.memory == [NENKOSHI, NENKOSHI]
    assert [c.code for c in state.waiting] == ["X/W-CX", "F/W-00"]  # (the paid stock)


def test_level_up_grants_encore_for_the_turn():
    """APO/S53-082: when you level up, this card gets 『アンコール[(1)]』 this turn."""
    state = fresh()
    state.stage[0] = CAULES
    state.clock = blanks(7)
    state.stock = blanks(1)
    drive(state, state._level_up_me(), {"level_up": ("level", "F/W-00")})
    assert len(state.granted) == 1
    seen = drive(state, state._leave_stage(0, "effect"))
    assert seen == ["encore"] and state.stage[0] is CAULES and state.stock == []


def test_power_choice_then_that_character_to_stock():
    """KLK/S27-017: the +3000 power is nothing, but the chosen character goes to stock at the end of
    the turn (so the greedy pilot never plays it)."""
    assert status(KOROKKE) == [PLAYED]
    state = event_state(KOROKKE, 1, 0)
    hero = char("H/W-0")
    state.stage[0] = hero
    drive(state, state._play_event(KOROKKE.code))
    drive(state, state.run_delayed("end:turn"))
    assert state.stage[0] is None and state.stock == [hero]
    assert ws.GreedyPilot.worth(state, state.progs_of(KOROKKE).get("event")[0]) < 0


def test_the_importer_stores_a_dash_as_no_text():
    """AlphaC2 writes "-" for a vanilla card (901 records): it is stored as no text (issue 15, item 6)."""
    from catalog.importers.ws_jsonl import convert

    card, _, _ = convert({"ID": "AB-W31-036", "Type": "CHARACTER", "Name": "静かな佇まい", "Colour": "YELLOW",
                          "Level": 0, "Cost": 0, "Power": 3000, "Soul": 1, "Trigger": [], "Trait": [],
                          "Ability": "-"}, {})
    assert card is not None and card["text"] == ""


HOME = real("AW/S18-083", "【永】前列にこのカードがいるなら、このカードはあなたのスタンドフェイズに【スタンド】しない。", power=3500,
            colors=BLUE, traits=("ネット",), name="AW/S18-083")
HANA = real("RW/W20-010", "【永】あなたは自分のクライマックスフェイズに、クライマックスを手札からプレイできない。", power=3500,
            traits=("植物", "オカルト"), name="RW/W20-010")
BLACK = real("APO/S53-092", "【自】このカードが手札から舞台に置かれた時、あなたの控え室に「“英霊”黒のセイバー」がないなら、この"
             "カードを【レスト】する。", level=1, power=6500, colors=BLUE, traits=("サーヴァント", "竜"), name="APO/S53-092")
ARCHER = real("FS/S03-052", "【自】このカードが手札から舞台に置かれた時、あなたは自分のカード名に「セイバー」を含むキャラを1枚選び、"
              "クロック置場に置く。", level=2, cost=2, power=10000, soul=2, colors=RED, traits=("サーヴァント", "武器"),
              name="FS/S03-052")
KOTORI = real("DC/W09-026", "【自】このカードが手札から舞台に置かれた時、あなたは自分のクロックを1枚選び、手札に戻してよい。"
              "そうしたら、あなたは自分の手札を1枚選び、クロック置場に置く。", level=2, cost=1, power=6000, colors=GREEN,
              traits=("音楽", "メガネ"), name="DC/W09-026")
SABER = real("FS/S34-012", "【自】このカードがアタックした時、クライマックス置場に「運命の夜」があるなら、あなたは他の自分のキャラを"
             "1枚選び、手札に戻してよい。", level=1, power=4500, traits=("サーヴァント", "武器"), name="FS/S34-012")
UNMEI = real("FS/S34-100", "【永】あなたのキャラすべてに、ソウルを+1。", "climax", name="運命の夜")
REVEALER = real("APO/S53-078", "【自】このカードが手札から舞台に置かれた時、あなたは自分の手札を公開する。", power=2500, colors=BLUE,
                traits=("サーヴァント", "武器"), name="APO/S53-078")


def test_does_not_stand_in_the_front_row():
    """AW/S18-083: in the front row it stays rested at your stand phase (so it attacks once)."""
    state = fresh()
    state.went_first = False
    state.stage[0], state.stage[3] = HOME, char("B/W-0")
    state.stage_state[0] = state.stage_state[3] = ws.REST
    state.deck = [EVENT] * 20
    state.odeck = blanks(30)
    drive(state, state._my_turn(), {"clock": ("skip",)})
    assert state.counters["attacks"] == 0 and state.stage_state[3] == ws.STAND


def test_cannot_place_climaxes():
    """RW/W20-010: while it is on your stage, no climax phase climax."""
    state = fresh()
    state.went_first = False
    state.stage[3] = HANA
    cx = climax("Y/W-CX")
    state.hand = [cx]
    state.clock = [char("Y/W-c")]
    state.deck = [EVENT] * 20
    state.odeck = blanks(30)
    seen = drive(state, state._my_turn(), {"clock": ("skip",)})
    assert "climax" not in seen and cx in state.hand and state.counters["climaxes_placed"] == 0


def test_rests_itself_without_a_named_card_in_the_waiting_room():
    """APO/S53-092: played while 「“英霊”黒のセイバー」 is not in the waiting room: it rests."""
    state = fresh()
    state.level = blanks(1)
    state.clock = [char("B/W-c", colors=BLUE)]
    play(state, BLACK)
    assert state.stage_state[0] == ws.REST
    state2 = fresh()
    state2.level = blanks(1)
    state2.clock = [char("B/W-c", colors=BLUE)]
    state2.waiting = [real("APO/S53-093", "", name="“英霊”黒のセイバー")]
    play(state2, BLACK)
    assert state2.stage_state[0] == ws.STAND


def test_one_of_your_characters_into_the_clock():
    """FS/S03-052: choose a character of yours whose name contains 「セイバー」: into the clock."""
    state = fresh()
    state.level = blanks(2)
    state.stock = blanks(2)
    state.clock = [char("R/W-c", colors=RED)]
    saber = real("FS/S03-001", "", name="“騎士王”セイバー")
    state.stage[1] = saber
    play(state, ARCHER)
    assert state.stage[1] is None and state.clock[-1] is saber


def test_clock_card_to_hand_then_a_hand_card_to_the_clock():
    """DC/W09-026: a clock card may go to hand (taken: the best); then a hand card (the least
    valuable) goes to the clock."""
    state = fresh()
    state.level = blanks(2)
    state.stock = blanks(1)
    good = char("G/W-2", level=2, soul=2, colors=GREEN)
    state.clock = [char("K/W-0", colors=GREEN), good]
    state.hand = [CX]
    play(state, KOTORI)
    assert state.hand == [good] and state.clock[-1] is CX


def test_an_optional_bounce_of_your_own_character_is_declined():
    """FS/S34-012: returning another character of yours to hand only loses a card: the engine
    declines the "may"."""
    state = fresh()
    state.stage[0], state.stage[1] = SABER, char("O/W-1")
    state.climax = UNMEI
    state.deck = blanks(10)
    state.odeck = blanks(20)
    attack_soul(state)
    assert state.stage[1] is not None and state.hand == []


def test_revealing_your_hand_changes_nothing():
    state = fresh()
    state.hand = [CX]
    play(state, REVEALER)
    assert state.hand == [CX] and state.stage[0] is REVEALER


@pytest.mark.parametrize("deck_size,climaxes,soul", [(30, 8, 2), (20, 4, 3)])
def test_pressure_cancel_frequency_matches_the_hypergeometric(deck_size, climaxes, soul):
    """The goldfish's attack through your damage step is cancelled exactly when one of your climaxes
    is among the top ``soul`` cards: P = hypergeometric (20,000 trials, 4 standard errors)."""
    from rules.engine.core import game_rng
    from rules.odds import p_at_least

    base = [CX] * climaxes + blanks(deck_size - climaxes)
    n = 20000
    cancels = 0
    for i in range(n):
        state = fresh()
        deck = list(base)
        game_rng("taken", i).shuffle(deck)
        state.deck = deck
        cancels += state._hit_me(soul)
    p = p_at_least(deck_size, climaxes, soul)
    se = (p * (1 - p) / n) ** 0.5
    assert abs(cancels / n - p) < 4 * se, (cancels / n, p)
