"""The words of Weiß Schwarz printed text the grammar knows, by class, with their meaning.

Every word is a string literal of the grammar: lark's lexer tries literals longest first, so at
each point it takes the longest known word (``カード名`` before ``カード``, ``ストック置場`` before
``ストック``). ``WORDS`` maps each noun-phrase word to ``(class, value)``; the syntax pass reads it
back. ``VERBS`` maps every written form of a verb to ``(lemma, form)``, the form being one of
``cont`` (連用形: the chain goes on, 置き、), ``te`` (て形), ``end`` (終止形), ``past`` (た形, in
triggers), ``neg`` (ない形), ``pass`` / ``pass_past`` / ``pass_neg`` (passive), ``pot`` / ``pot_neg``
(できる / できない), ``vol`` (よう: choice), ``cond`` (conditional), ``prog`` (ている).
``SURU`` are the forms of する that follow a noun (``【レスト】する``, ``アタックした``).
"""
from __future__ import annotations

# -- noun-phrase words: word -> (class, value) ----------------------------------------------
_CLASSES: dict[str, dict[str, str]] = {
    "player": {
        "あなた": "you", "自分": "self", "相手": "opponent", "プレイヤー": "player",
        "ターンプレイヤー": "turn_player", "お互い": "both", "両プレイヤー": "both",
    },
    "ref": {
        "このカード": "this", "この能力": "this_ability", "その": "that", "それら": "those",
        "それぞれ": "each", "残り": "rest", "この": "this_det", "次": "next", "攻撃キャラ": "attacker",
    },
    "kind": {
        "キャラ": "character", "キャラクター": "character", "カード": "card", "クライマックス": "climax",
        "イベント": "event", "マーカー": "marker", "マーカ-": "marker",
    },
    "zone": {
        "手札": "hand", "控え室": "waiting_room", "控室": "waiting_room", "山札": "deck",
        "クロック": "clock", "ストック": "stock", "舞台": "stage", "前列": "front_row", "後列": "back_row",
        "レベル置場": "level", "思い出置場": "memory", "思い出": "memory", "クライマックス置場": "climax_zone",
        "クライマックス置き場": "climax_zone", "ストック置場": "stock", "クロック置場": "clock",
        "クロック置き場": "clock", "枠": "slot", "思い出置き場": "memory", "レベル置き場": "level",
    },
    "position": {
        "上": "top", "下": "bottom", "一番上": "top", "1番上": "top", "1番下": "bottom", "正面": "opposite",
        "前": "front", "後ろ": "behind", "隣": "next_to", "中央": "center", "左": "left", "右": "right",
        "好きな枠": "any_slot", "別々の枠": "separate_slots", "このカードがいた枠": "this_slot", "このカードがいる枠": "this_slot", "そのカードがいた枠": "that_slot",
        "そのキャラがいた枠": "that_slot", "キャラのいない枠": "empty_slot", "キャラのいない他の枠": "other_empty_slot", "いずれか": "any",
        "好きな順番": "any_order",
    },
    "attr": {
        "レベル": "level", "パワー": "power", "ソウル": "soul", "コスト": "cost", "カード名": "name",
        "トリガーアイコン": "trigger_icon", "枚数": "count", "合計": "total", "色": "color", "特徴": "trait",
        "名前": "name",
    },
    "color": {"赤": "red", "青": "blue", "黄": "yellow", "緑": "green"},
    "state": {
        "【レスト】": "rest", "【スタンド】": "stand", "【リバース】": "reverse", "裏向き": "face_down",
        "表向き": "face_up", "【レスト】している": "rested", "【スタンド】している": "standing",
        "【リバース】している": "reversed", "【リバース】していない": "not_reversed",
        "特徴を持たない": "no_traits", "バトルしている": "battling", "バトル中": "battling", "キラキラしている": "sparkling", "フロントアタックされている": "front_attacked",
        "アタックしている": "attacking", "アタック中": "attacking",
    },
    "time": {
        "ターン": "turn", "バトル": "battle", "ドローフェイズ": "draw_phase", "クロックフェイズ": "clock_phase",
        "メインフェイズ": "main_phase", "クライマックスフェイズ": "climax_phase", "アタックフェイズ": "attack_phase",
        "エンドフェイズ": "end_phase", "スタンドフェイズ": "stand_phase", "アンコールステップ": "encore_step",
        "バトルステップ": "battle_step", "カウンターステップ": "counter_step", "ダメージステップ": "damage_step",
        "トリガーステップ": "trigger_step", "始め": "start", "終わり": "end", "初め": "start", "はじめ": "start", "終り": "end",
        "1ターン": "one_turn",
    },
    "noun": {
        "他": "other", "すべて": "all", "全て": "all", "バトル相手": "battle_opponent", "コスト": "cost",
        "能力": "ability", "次の能力": "next_ability", "効果": "effect", "ダメージ": "damage",
        "以上": "at_least", "以下": "at_most", "以外": "except", "同じ": "same", "トリガーチェック": "trigger_check",
        "トリガー": "trigger", "ルール": "rule", "アタック": "attack", "フロントアタック": "front_attack",
        "サイドアタック": "side_attack", "ダイレクトアタック": "direct_attack", "シャッフル": "shuffle",
        "公開": "reveal", "プレイ": "play", "リフレッシュ": "refresh", "デッキ": "deck_list", "同じカード名": "same_name", "同じ名前": "same_name", "発動": "activate", "キャンセル": "cancel", "レベルアップ": "level_up",
        "回": "times", "X": "X", "×": "times_sign", "の": "of", "か": "or", "と": "and", "や": "and",
        "待@": "icon:standby", "行動": "action", "次の行動": "next_action",
        "以下の効果のうちあなたが選んだ1つ": "chosen_mode", "という能力": "ability_named", "防御キャラ": "defender",
        "減少": "decrease", "宣言": "declare", "元の順番": "original_order", "元": "original", "空いている枠": "empty_slot", "つ": "piece",
    },
}

WORDS: dict[str, tuple[str, str]] = {}
for _cls, _words in _CLASSES.items():
    for _w, _v in _words.items():
        WORDS.setdefault(_w, (_cls, _v))

# -- verbs: written form -> (lemma, form) --------------------------------------------------
_GODAN_ENDINGS = {
    # row: (end, cont, te, past, neg-stem, pass-stem, pot-stem)
    "く": ("く", "き", "いて", "いた", "か", "か", "け"),
    "す": ("す", "し", "して", "した", "さ", "さ", "せ"),
    "ぶ": ("ぶ", "び", "んで", "んだ", "ば", "ば", "べ"),
    "む": ("む", "み", "んで", "んだ", "ま", "ま", "め"),
    "う": ("う", "い", "って", "った", "わ", "わ", "え"),
    "る": ("る", "り", "って", "った", "ら", "ら", "れ"),
    "つ": ("つ", "ち", "って", "った", "た", "た", "て"),
}


def _godan(lemma: str) -> dict[str, str]:
    stem, last = lemma[:-1], lemma[-1]
    end, cont, te, past, neg, pas, pot = _GODAN_ENDINGS[last]
    return {
        stem + end: "end", stem + cont: "cont", stem + te: "te", stem + past: "past",
        stem + neg + "ない": "neg", stem + neg + "ず": "neg_cont",
        stem + pas + "れる": "pass", stem + pas + "れた": "pass_past", stem + pas + "れ": "pass_cont",
        stem + pas + "れて": "pass_te", stem + pas + "れない": "pass_neg", stem + pas + "れている": "pass_prog",
        stem + pas + "れていない": "pass_prog_neg", stem + pas + "れなかった": "pass_neg_past",
        stem + pot + "る": "pot", stem + pot + "ない": "pot_neg",
        stem + te[:-1] + ("でいる" if te.endswith("で") else "ている"): "prog",
    }


def _ichidan(lemma: str) -> dict[str, str]:
    stem = lemma[:-1]
    return {
        lemma: "end", stem: "cont", stem + "て": "te", stem + "た": "past", stem + "ない": "neg",
        stem + "ず": "neg_cont", stem + "られる": "pass", stem + "られた": "pass_past",
        stem + "られない": "pass_neg", stem + "られ": "pass_cont", stem + "られる時": "pass",
        stem + "ている": "prog", stem + "られている": "pass_prog",
    }


_GODAN = (
    "置く", "引く", "戻す", "選ぶ", "含む", "払う", "使う", "持つ", "動かす", "扱う", "行う", "めくる",
    "戻る", "残る", "出す", "減らす", "失う", "移す", "並べる", "分ける", "返す", "勝つ", "負ける", "除く",
    "進む", "おく", "残す", "支払う", "下回る", "上回る", "終わる", "付く", "揃う", "異なる", "集める",
)
_ICHIDAN = (
    "加える", "見せる", "与える", "得る", "見る", "入れ替える", "受ける", "並べる", "分ける", "負ける",
    "終える", "決める", "出る", "入れる", "選べる", "入れる", "捨てる", "変える", "答える", "当てる",
)

VERBS: dict[str, tuple[str, str]] = {}
for _lemma in _GODAN:
    if _lemma[-1] in _GODAN_ENDINGS:
        for _form, _kind in _godan(_lemma).items():
            VERBS.setdefault(_form, (_lemma, _kind))
for _lemma in _ICHIDAN:
    for _form, _kind in _ichidan(_lemma).items():
        VERBS.setdefault(_form, (_lemma, _kind))
_IRREGULAR: dict[str, tuple[str, str]] = {
    "ある": ("ある", "end"), "あり": ("ある", "cont"), "ない": ("ある", "neg"), "なく": ("ある", "neg_cont"),
    "あった": ("ある", "past"), "なかった": ("ある", "neg_past"),
    "いる": ("いる", "end"), "いて": ("いる", "te"), "いた": ("いる", "past"), "いない": ("いる", "neg"),
    "おり": ("いる", "cont"), "いなかった": ("いる", "neg_past"),
    "等しい": ("等しい", "end"), "高い": ("高い", "end"), "低い": ("低い", "end"), "多い": ("多い", "end"),
    "少ない": ("少ない", "end"), "よい": ("よい", "end"), "良い": ("よい", "end"),
    "得": ("得る", "cont"), "でた": ("出る", "past"),
    "でない": ("だ", "neg"), "である": ("だ", "end"), "ではない": ("だ", "neg"), "でなく": ("だ", "neg_cont"),
}
VERBS.update(_IRREGULAR)
for _form in [f for f in VERBS if f in WORDS]:
    del VERBS[_form]  # 残り, 終わり: the noun

SURU: dict[str, str] = {
    "する": "end", "し": "cont", "して": "te", "した": "past", "しない": "neg", "している": "prog",
    "していない": "prog_neg", "された": "pass_past", "される": "pass", "されて": "pass_te",
    "されない": "pass_neg", "されている": "pass_prog", "させる": "caus", "できない": "pot_neg",
    "できる": "pot", "でき": "pot_cont", "しなかった": "neg_past", "せず": "neg_cont", "しても": "te_even",
    "されなかった": "pass_neg_past", "されず": "pass_neg_cont", "できず": "pot_neg_cont",
}
