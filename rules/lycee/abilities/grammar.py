"""The Lycee Overture text grammar (lark, LALR, contextual lexer), compiled once.

Japanese printed text is read as *clauses*: a run of arguments, each a noun phrase with its
particle (``{相手キャラ1体}に``, ``自分のデッキを``, ``このキャラが``), stat changes
(``AP+2・DP+2``), counts (``1枚``), durations (``ターン終了時まで``), then a predicate (a verb in
one of its forms: ``破棄する``, ``ドローできる``, ``登場した``, ``置き``...). Clauses join into a
sentence through connectives: ``…とき、`` (a trigger or "when you do"), ``…場合、`` (a condition),
the continuative form (``…し、``) and ``または``. A relative clause (``アイテムを持つ味方キャラ``)
is read flat: its verb stands among the arguments and the compiler attaches it to the next noun.

The grammar is syntactic; :mod:`.compiler` gives a parse its meaning (which verb with which
arguments is which effect). Text is NFKC-normalised first (:func:`.text.normalize`). Braces
``{...}`` (targets chosen on declaration) are read through.
"""
from __future__ import annotations

from functools import cache

from lark import Lark, Transformer

GRAMMAR = r"""
start: sentence "。"?
noun_phrase: np

sentence: lead* main
        | limit_note
        | note

// ------------------------------------------------------------------ leads
lead: when_clause "、"?                      -> lead_when
    | cond_clause "、"?                      -> lead_if
    | timepoint "、"                         -> lead_at
    | args pred timepoint "、"               -> lead_at_after
    | until "、"                             -> lead_until
    | period "、"                            -> lead_during
    | np_period "、"                         -> lead_during
    | except_ "、"                           -> lead_except

when_clause: clause_or "とき"                            -> when_one
           | timepoint "または" clause_or "とき"           -> when_at_or
           | when_clause ("、または" | "または") clause_or "とき"   -> when_or
           | when_clause ("、または" | "または") timepoint         -> when_or_at

cond_clause: clause_or "場合"                -> cond_clause
           | args? nominal "の場合"           -> cond_nominal
           | args? nominal "でない場合"        -> cond_nominal_not
           | args? qty_than "場合"             -> cond_nominal
           | clause_or "かつ" cond_clause      -> cond_and_clause
           | args? nominal "で" "、"? cond_clause -> cond_and_nominal

nominal: qty_cmp | period | np | stat_cmp_bare | qty | stat_cmp

// ------------------------------------------------------------------ clauses
main: (clause_c "、"?)* clause_or

clause_or: clause
         | clause_or "または" clause          -> clause_alt

clause: args? pred
      | args "または" args pred              -> clause_args_alt
      | "以下から" INT "つを選び処理" SURU     -> choose_listed
      | "以下から" INT "つを選び処理" SURU_C   -> choose_listed
clause_c: args? pred_c

// arguments; "args pred arg" is a relative clause in front of the next argument's noun
args: arg
    | args arg
    | args pred arg                          -> args_rel

arg: np "が"              -> a_subj
   | np "を"              -> a_obj
   | np "に"              -> a_to
   | np "へ"              -> a_to
   | np "で"              -> a_by
   | np "から"            -> a_from
   | np "は" "、"?        -> a_topic
   | np "には"            -> a_to_topic
   | np "にのみ"          -> a_only_to
   | np "として"          -> a_as
   | np "だけ"            -> a_times
   | np "より"            -> a_than
   | np "によって"        -> a_by
   | np "も"              -> a_also
   | np "の"  "うち"      -> a_among
   | "そのうち"           -> a_among_that
   | "チャージとして"      -> a_as_charge
   | np "以外" "で"       -> a_by_not
   | "効果以外で"         -> a_by_not_effect
   | "ダウン以外で"       -> a_by_not_down
   | mods "を"            -> a_modsobj
   | mods                 -> a_mods
   | qty                  -> a_qty
   | qty "を"             -> a_qtyobj
   | qty_cmp              -> a_qtycmp
   | until                -> a_until
   | period "に"          -> a_during
   | period "で"          -> a_during
   | period               -> a_during
   | except_              -> a_except
   | manner               -> a_manner
   | verb_te              -> a_te
   | "次の" np "で"        -> a_next
   | timepoint "で"        -> a_at
   | timepoint "に"        -> a_at

!manner: "無償で" | "行動済みで" | "未行動で" | "公開して" | "ランダムに" | "好きな順番に" | "可能なら"
       | "追加で" | "再度" | "対応して" | "シャッフルして" | "公開し"

// ------------------------------------------------------------------ predicates
pred: VS SURU                          -> p_suru
    | STATE "に" SURU                   -> p_state
    | INT "に" SURU                     -> p_set
    | STATE "に" GODAN                  -> p_state_godan
    | SURU                             -> p_bare
    | GODAN                            -> p_godan
    | VS "できない"                     -> p_suru_cannot
    | "エンゲージ登場" SURU              -> p_engage
    | "できない"                        -> p_bare_cannot
    | "入れることができる"               -> p_put_in_may
    | "見ることができる"                 -> p_look_may
    | "次の" "能力" "を" GODAN           -> p_gain_next_ability
    | "次の" "効果" "を" GODAN           -> p_gain_next_effect
pred_c: VS SURU_C                      -> p_suru
      | VS "して" "、"                  -> te_suru
      | GODAN_TE "、"                  -> te_godan
      | STATE "に" SURU_C               -> p_state
      | INT "に" SURU_C                 -> p_set
      | SURU_C                         -> p_bare
      | GODAN_C                        -> p_godan

verb_te: VS "して"                     -> te_suru
       | GODAN_TE                      -> te_godan

ATTACK_DECL.3: "攻撃宣言"
DESTROYED_CHARA.3: "破棄キャラ"
ACTION: "登場" | "使用" | "装備" | "配置"
STATE: "未行動" | "行動済み"
STATE_OF.2: "未行動の" | "行動済みの"
OWNED_BY.2: "持ち主が自分の" | "持ち主が相手の"
OR_STAT.2: /または(?=(AP|DP|SP|DMG)[+\-])/
OR_KW.2: /または(?=\[[^\]雪月花宙日無])/
VS: /(破棄|除外|登場|配置|装備|移動|回復|発生|ドロー|チャージ|シャッフル|処理|使用|宣言|指定|中断|ダウン|防御|攻撃|サポート|選択|追加|公開|失敗|解決|適用|変更|無効|入替|交換)/
SURU: /(していない|していなかった|していた|している|しなかった|しない|した|する|できる|されていない|されていた|されている|された|される)/
SURU_C: /(し(?![たなてよま])|でき(?![るなま])|され(?![るたてな]))/
GODAN: /(置かれていない|置かれている|置かれた|置いている|置いた|置かない|置ける|置く|入れ替える|入れた|入れない|入れる|得ている|得ない|得た|得る|失われない|失われる|失った|失う|戻らない|戻る|戻す|戻せる|与えた|与える|離れている|離れていない|離れた|離れる|持たない|持っている|持つ|含まない|含む|見た|見る|選ばない|選べない|選べる|選んだ|選ぶ|探す|並び替える|受けない|受ける|払える|支払える|支払えない|扱う|防げない|残る|超える|超えた|揃えた|揃える|いない|いる|できない)/
GODAN_C: /(置き(?!場)|入れ替え(?![るた])|入れ(?![るたなて替])|失い|戻し|与え(?![るた])|離れ(?![るたて])|選び|探し(?![てた])|並び替え(?![るた])|得(?![るたなて])|見(?![るたてせ]))/
GODAN_TE: /(見て|探して|選んで|置いて|入れて|得て|失って)/

// ------------------------------------------------------------------ noun phrases
np: np1
  | np1 ("と" np1)+                -> np_and
  | np1 ("または" np1)+            -> np_or
  | np1 ("・" np1)+                -> np_or
  | np1 "か" np1                   -> np_or

np1: core qty?                    -> np_core
   | ref                           -> np_ref
   | mod np1                       -> np_mod
   | zone                          -> np_zone
   | zone qty                      -> np_zone_qty
   | zone "の" np1                 -> np_in_zone
   | zone "の" "枚数"              -> np_zone_size
   | np1 "の" "下" "の" np1         -> np_under
   | np1 "の" "下"                  -> np_below
   | np1 "の" "チャージ" qty?       -> np_charge
   | owner "シールド" qty?          -> np_shield
   | player                        -> np_player
   | owner thing                   -> np_owned
   | owner core qty?               -> np_owned_core
   | owner mod np1                 -> np_owned_mod
   | owner "宣言"                   -> np_owned_decl
   | thing                         -> np_thing
   | thing qty                     -> np_thing_qty
   | "元の" kwref qty?              -> np_keyword
   | "空き" np1                     -> np_empty
   | np1 "の" "宣言"                -> np_decl_of
   | np1 "の" ACTION                -> np_action
   | np1 "の" thing                 -> np_of_thing
   | np1 "の" "解決"                -> np_resolution
   | "横"                           -> np_aside
   | np1 "の" "枚数"                 -> np_size
   | np1 "の" "数"                   -> np_number
   | statref                        -> np_stat
   | np_period                      -> np_period
   | "それ"                          -> np_it
   | "下"                           -> np_below_this
   | "下" "の" np1                  -> np_under_this

!thing: "効果" | "能力" | "手札宣言能力" | "アイテムの効果" | "エリアの効果"
      | "能力値修正" | "ダメージ" | "サポート" | "バトル" | "元の能力" | "基本能力" | "宣言型の基本能力"
      | "使用代償" | "切札効果" | "切札" | "エンゲージ登場" | ATTACK_DECL
      | "ウェイクアップ" | "イベント・手札宣言能力" | "対象"

core: side? pos* qual* noun        -> core
    | side? pos* qual* names       -> core_named
    | side pos+                    -> core_pos
    | pos+                         -> core_pos
    | side? pos* qual+             -> core_qual

!noun: "キャラ" | "アイテム" | "エリア" | "カード" | "イベント" | "フィールド" | "キャラ・エリア"
     | "キャラ・アイテム" | "キャラ・アイテム・エリア" | "防御キャラ" | "攻撃キャラ" | "バトル参加キャラ"
     | "プレイヤー" | "キャラクター" | "アイテム・エリア"
names: NAME ("または" NAME)*
qual: ATTRS                              -> q_attr
    | ATTRS ("または" ATTRS)+            -> q_attr_or
    | TITLE                              -> q_title
    | TITLE ("または" TITLE)+            -> q_title_or
    | TRAIT                              -> q_trait
    | TRAIT ("または" TRAIT)+            -> q_trait_or
    | BRAND                              -> q_brand
!side: "味方" | "相手"
!pos: "AF" | "DF" | "防御" | "攻撃" | "バトル参加"

!ref: "この" ref_noun | "この" qual+ ref_noun | "その" ref_noun | "対象の" ref_noun | "対戦" ref_noun | "これら" "の" ref_noun
    | "持ち主" | "このアイテムの持ち主" | "それら" | "このキャラクター" | DESTROYED_CHARA
!ref_noun: "キャラ" | "アイテム" | "エリア" | "カード" | "イベント" | "フィールド" | "能力" | "効果"
         | "キャラ名" | "置き場" | "バトル" | "コスト" | "プレイヤー" | "宣言" | "能力値修正" | "ターン"
         | "攻撃"

!player: "自分" | "相手" | "お互いのプレイヤー" | "相手プレイヤー" | "お互い"

zone: owner? zone_word                      -> zone
    | zone ("または" | "か") owner? zone_word  -> zone_or
!zone_word: "ゴミ箱" | "手札" | "デッキ" | "デッキの上" | "デッキの下" | "場" | NAME "置き場" | "その置き場"
!owner: "自分の" | "相手の" | "持ち主の" | "お互いの"

// adjectives in front of a noun
mod: stat_cmp "の"                          -> mod_stat
   | stat_cmp "で"                          -> mod_stat
   | qty_cmp_n "の"                         -> mod_size
   | ATTRS "でない"                         -> mod_not_attr
   | STATE_OF                               -> mod_state
   | col_np "と同列の"                       -> mod_same_column
   | col_np "と同じフィールドの"               -> mod_same_column
   | ref ("に隣接する" | "に隣接した" | "に隣接している") -> mod_adjacent
   | OWNED_BY                               -> mod_owned_by
   | ref "を除く"                            -> mod_except
   | "AFの"                                 -> mod_af
   | "DFの"                                 -> mod_df
   | "横の"                                  -> mod_aside
   | "元の"                                 -> mod_original
   | "互いに" "異なる" ref_noun "を" GODAN     -> mod_distinct
   | "最後の"                                -> mod_last
   | "それ以外の"                            -> mod_other
   | "同番号の"                              -> mod_same_number
   | ref ("と同番号の" | "と別番号の")          -> mod_number_rel
   | INT "つ以上の属性を持つ"                 -> mod_multi_attr
   | "サブネームに" NAME "を含む"              -> mod_subname
   | "カード名に" NAME "を含む"                -> mod_cardname
   | "キャラ名に" NAME "を含む"                -> mod_cardname

?col_np: ref | core

stat_cmp: stat "が" cmp                                     -> stat_cmp
        | stat "が" ATTRS ("または" ATTRS)* "のみで" cmp       -> stat_cmp_only
        | stat "の" "合計" "が" cmp                          -> stat_cmp_sum
        | stat "が" ATTRS "のみ"                              -> attr_only
!stat_cmp_bare: INT ("以上" | "以下")?
statref: np1 "の" stat                      -> statref
       | np1 "の" stat "と" stat            -> statref_pair
       | np1 "の" stat ("または" stat)+     -> statref_any
stat: STAT                                 -> stat
    | "元の" STAT                          -> stat_original
STAT: "AP" | "DP" | "SP" | "DMG" | "EX" | "コスト" | "能力値" | "属性"

!cmp: INT counter? ("以上" | "以下")?
    | INT "~" INT counter?
!counter: "点" | "体" | "枚" | "つ" | "回" | "種類"

?qty_cmp: qty_cmp_n
        | qty_than
!qty_cmp_n: INT counter ("以上" | "以下")
          | INT counter "以上" "または" INT counter "以下"
!qty_than: np1 "より" ("多い" | "少ない")
!qty: INT counter
    | "全て"
    | INT counter "まで"
    | "全体"

// ------------------------------------------------------------------ stat changes and granted keywords
mods: mod_alt ((OR_STAT | OR_KW) mod_alt)*
mod_alt: mod_item ("・" mod_item)*
mod_item: STAT SIGNED             -> mod_stat_change
        | "シールド" SIGNED        -> mod_shield
        | kwref                   -> mod_keyword
        | SIGNED                  -> mod_bare

kwref: "[" KWNAME "]"                     -> kwref
     | "[" KWNAME ":" kwarg "]"           -> kwref_arg
kwarg: ATTRS                               -> kwarg_cost
     | "[" INT "]"                         -> kwarg_zero
     | "[" ksentences "]"                  -> kwarg_effect
     | INT                                 -> kwarg_int
     | "[" "このキャラの使用代償" "]"         -> kwarg_own_cost
ksentences: (sentence "。")+
KWNAME: /(アグレッシブ|ステップ|サイドステップ|オーダーステップ|ジャンプ|エスケープ|サイドアタック|サポーター|タッチ|アタッカー|ディフェンダー|ボーナス|デッキボーナス|ペナルティ|エンゲージ|チャージ|アシスト|リカバリー|ターンリカバリー|オーダーチェンジ|プリンシパル|リーダー|ガッツ|サプライズ|コンバート|ダッシュ)/

// ------------------------------------------------------------------ time
timepoint: turn_owner? "ターン開始時"               -> t_turn_start
         | turn_owner? "ターン終了時"               -> t_turn_end
         | ("バトル終了時" | "このバトル終了時")    -> t_battle_end
         | np1 "の" "バトル終了時"                  -> t_battle_end_of
         | "次の" turn_owner? "ターン開始時"         -> t_next_turn_start
         | "次の" turn_owner? "ターン終了時"         -> t_next_turn_end
         | "次の" turn_owner "ターンのターン終了時"   -> t_next_turn_end
         | "このターン終了時"                       -> t_turn_end
         | "次の" "自分のウェイクアップ"             -> t_next_wakeup
         | "次の" "相手のウェイクアップ"             -> t_next_wakeup_opp
!turn_owner: "自" | "相手"
until: timepoint "まで"
period: turn_owner "ターン" "中"           -> d_turn
      | "自ターン中"                       -> d_own_turn
      | "相手ターン中"                     -> d_opp_turn
      | "このターン中"                     -> d_this_turn
      | "ゲーム中"                         -> d_game
      | "バトル中"                         -> d_battle
      | "バトル中でない"                   -> d_not_battle
      | "対応"                             -> d_response
      | "ターン中"                          -> d_that_turn
      | period "・" period                 -> d_list
      | period "、または" period            -> d_or
      | "先攻後攻" INT "ターン目"           -> d_nth_turn
      | "先攻後攻" INT "ターン目でない"      -> d_not_nth_turn
      | owner INT "ターン目"                -> d_nth_turn_of
      | owner INT "ターン目でない"          -> d_not_nth_turn_of
except_: period "を除く"
np_period: np1 "の" "バトル中"                -> d_battle_of
         | np1 "の" "攻撃中"                  -> d_attack_of
         | np1 "の" "防御中"                  -> d_defense_of
         | np_period "、または" period        -> d_or

// ------------------------------------------------------------------ notes
limit_note: "(" limit_body ")"
limit_body: limit_item ("、" limit_item)* "まで"? LIMIT_VERB       -> limit
          | "ゲーム中"? "同じ効果は" INT "回選べない" "。"?           -> limit_same_choice
          | "同番号の能力は" limit_item "まで" LIMIT_VERB             -> limit_same_number
limit_item: INT "ターンに" INT "回"          -> per_turn
          | "ゲーム中" INT "回"              -> per_game
          | INT "バトルに" INT "回"          -> per_battle
          | INT "回"                        -> per_any
LIMIT_VERB: "使用可能" | "処理可能" | "選択可能" | "発動可能"

note: NAME "は" owner_field "に" "のみ"? (INT counter "まで")? "配置可能"    -> note_field_limit
    | NOTE_FIELD_LIMIT                                                    -> note_field_limit_self
    | "このカードは能力を持たないキャラとしてゲームで使用できます"              -> note_vanilla
    | "このカードは通常のゲームで使用できません"                              -> note_not_playable
    | "デッキ構築時" "、" "このカードは" NAME "と同番号として扱う"              -> note_same_number
    | NOTE_ONLY_CONVERT                                                   -> note_only_by
    | NOTE_EXILE                                                          -> note_exile_on_leave
    | NOTE_ALIAS                                                          -> note_alias
NOTE_FIELD_LIMIT: /このキャラは自分の場に\d+体まで登場可能/
NOTE_ONLY_CONVERT: /このキャラは\[コンバート\]以外で登場できない/
NOTE_EXILE: /このキャラは場から離れる場合除外する/
NOTE_ALIAS: /このキャラのキャラ名は「[^」]+」としても扱う/
!owner_field: "自分の場" | "持ち主の場"

%import common.INT
SIGNED: /[+\-]\d+/
NAME: /「[^」]*」」?/
TITLE: /『[^』]*』/
TRAIT: /<[^<>]*>/
ATTRS: /\[[雪月花宙日無]+\]/
BRAND: /\[[A-Z][A-Z0-9]{1,5}\]/

%ignore " "
%ignore "　"
%ignore "{"
%ignore "}"
"""


@cache
def parser() -> Lark:
    """The LALR parser producing parse trees (built on first use, then shared)."""
    return Lark(GRAMMAR, parser="lalr", lexer="contextual", maybe_placeholders=False,
                start=["start", "noun_phrase"])


def build(transformer: Transformer) -> Lark:
    """A parser that applies ``transformer`` while parsing (no tree is built: faster)."""
    return Lark(GRAMMAR, parser="lalr", lexer="contextual", maybe_placeholders=False,
                start=["start", "noun_phrase"], transformer=transformer)
