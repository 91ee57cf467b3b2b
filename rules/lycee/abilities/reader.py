"""Parse tree → a neutral reading (plain dicts and tuples) of one sentence.

The reading keeps the sentence's syntax in Japanese-independent terms: a clause is
``{"args": [(role, value), ...], "pred": {"verb": ..., "form": ...}}``, a noun phrase a dict
(``{"type": "card", "side": "ally", "what": "character", "count": 1, ...}``). :mod:`.compiler`
turns readings into effects.
"""
from __future__ import annotations

from typing import Any

from lark import Token, Transformer, v_args

ATTRIBUTE_NAMES = {"雪": "snow", "月": "moon", "花": "flower", "宙": "space", "宇": "space", "日": "sun", "無": "star"}

NOUNS = {
    "キャラ": "character", "キャラクター": "character", "アイテム": "item", "エリア": "area", "カード": "card",
    "イベント": "event", "フィールド": "field", "キャラ・エリア": "character_or_area",
    "キャラ・アイテム": "character_or_item", "キャラ・アイテム・エリア": "character_item_or_area",
    "アイテム・エリア": "item_or_area", "防御キャラ": "defending_character", "攻撃キャラ": "attacking_character",
    "バトル参加キャラ": "battling_character", "プレイヤー": "player", "能力": "ability", "効果": "effect",
    "キャラ名": "character_name", "置き場": "pile", "バトル": "battle", "コスト": "cost", "宣言": "declaration",
    "能力値修正": "stat_modification", "ターン": "turn", "攻撃": "attack",
}
THINGS = {
    "効果": "effect", "能力": "ability", "宣言": "declaration", "手札宣言能力": "hand_ability",
    "アイテムの効果": "item_effect", "エリアの効果": "area_effect", "能力値修正": "stat_modification",
    "ダメージ": "damage", "サポート": "support", "バトル": "battle", "元の能力": "original_abilities",
    "基本能力": "basic_abilities", "宣言型の基本能力": "declared_basic_abilities", "使用代償": "use_cost",
    "切札効果": "trump_effect", "切札": "trump", "エンゲージ登場": "engage_entry", "攻撃宣言": "attack_declaration",
    "ウェイクアップ": "wake_up", "イベント・手札宣言能力": "event_or_hand_ability", "対象": "target",
}
POSITIONS = {"AF": "AF", "DF": "DF", "防御": "defending", "攻撃": "attacking", "バトル参加": "in_battle",
             "未行動": "standing", "行動済み": "rested"}
ZONES = {"ゴミ箱": "trash", "手札": "hand", "デッキ": "deck", "デッキの上": "deck_top", "デッキの下": "deck_bottom",
         "場": "field"}
OWNERS = {"自分の": "self", "相手の": "opponent", "持ち主の": "owner", "お互いの": "both"}
PLAYERS = {"自分": "self", "相手": "opponent", "お互いのプレイヤー": "both", "相手プレイヤー": "opponent", "お互い": "both"}
STATS = {"AP": "ap", "DP": "dp", "SP": "sp", "DMG": "dmg", "EX": "ex", "コスト": "cost", "能力値": "stats",
         "属性": "attributes"}
KEYWORDS = {
    "ダッシュ": "dash", "アグレッシブ": "aggressive", "ステップ": "step", "サイドステップ": "sidestep",
    "オーダーステップ": "orderstep", "ジャンプ": "jump", "エスケープ": "escape", "サイドアタック": "sideattack",
    "サポーター": "supporter", "タッチ": "touch", "アタッカー": "attacker", "ディフェンダー": "defender",
    "ボーナス": "bonus", "デッキボーナス": "deck_bonus", "ペナルティ": "penalty", "エンゲージ": "engage",
    "チャージ": "charge", "アシスト": "assist", "リカバリー": "recovery", "ターンリカバリー": "turn_recovery",
    "オーダーチェンジ": "order_change", "プリンシパル": "principal", "リーダー": "leader", "ガッツ": "guts",
    "サプライズ": "surprise", "コンバート": "convert",
}

# verb surface → (lemma, form). Forms: must, may, cont, past, neg, prog, prog_neg, passive,
# passive_past, passive_prog, passive_prog_neg, cannot, te.
SURU_FORMS = {
    "する": "must", "できる": "may", "し": "cont", "でき": "cont", "され": "cont", "した": "past", "しない": "neg",
    "しなかった": "neg", "している": "prog", "していない": "prog_neg", "された": "passive_past",
    "される": "passive", "されている": "passive_prog", "されていない": "passive_prog_neg", "できない": "cannot",
    "していた": "prog_past", "していなかった": "prog_past_neg", "されていた": "passive_prog_past",
    "して": "te",
}
VS_LEMMAS = {
    "破棄": "destroy", "除外": "exile", "登場": "enter", "配置": "place", "装備": "equip", "移動": "move",
    "回復": "recover", "発生": "generate", "ドロー": "draw", "チャージ": "charge", "シャッフル": "shuffle",
    "処理": "resolve", "使用": "use", "宣言": "declare", "指定": "designate", "中断": "interrupt", "ダウン": "down",
    "防御": "defend", "攻撃": "attack", "サポート": "support", "選択": "choose", "追加": "add", "公開": "reveal",
    "失敗": "fail", "解決": "settle", "適用": "apply", "変更": "change", "無効": "invalidate", "入替": "swap",
    "交換": "swap",
}
GODAN_FORMS: dict[str, tuple[str, str]] = {}


def _godan(lemma: str, **forms: str) -> None:
    for form, surfaces in forms.items():
        for surface in surfaces.split():
            GODAN_FORMS[surface] = (lemma, form)


_godan("put", must="置く", may="置ける", cont="置き", past="置いた", neg="置かない", prog="置いている",
       passive_past="置かれた", passive_prog="置かれている", passive_prog_neg="置かれていない", te="置いて")
_godan("put_in", must="入れる", cont="入れ", past="入れた", neg="入れない", te="入れて")
_godan("swap", must="入れ替える", cont="入れ替え")
_godan("gain", must="得る", cont="得", past="得た", neg="得ない", prog="得ている", te="得て")
_godan("lose", must="失う", cont="失い", past="失った", te="失って")
_godan("be_lost", must="失われる", neg="失われない")
_godan("return", must="戻る", neg="戻らない")
_godan("bring_back", must="戻す", may="戻せる", cont="戻し")
_godan("deal", must="与える", cont="与え", past="与えた")
_godan("leave", must="離れる", cont="離れ", past="離れた", prog="離れている", prog_neg="離れていない")
_godan("have", must="持つ", neg="持たない", prog="持っている")
_godan("contain", must="含む", neg="含まない")
_godan("look", must="見る", cont="見", past="見た", te="見て")
_godan("choose", must="選ぶ", may="選べる", cont="選び", past="選んだ", neg="選ばない", cannot="選べない", te="選んで")
_godan("search", must="探す", cont="探し", te="探して")
_godan("reorder", must="並び替える", cont="並び替え")
_godan("receive", must="受ける", neg="受けない")
_godan("pay", may="払える 支払える", cannot="支払えない")
_godan("treat", must="扱う")
_godan("prevent_damage", cannot="防げない")
_godan("remain", must="残る")
_godan("exceed", must="超える", past="超えた")
_godan("gather", must="揃える", past="揃えた")
_godan("be", prog="いる", prog_neg="いない")
_godan("do", cannot="できない")


def _attrs(text: str) -> list[str]:
    return [ATTRIBUTE_NAMES[ch] for ch in text.strip("[]") if ch in ATTRIBUTE_NAMES]


def attribute_cost(text: str) -> dict[str, int]:
    """``[雪雪無]`` → ``{"snow": 2, "star": 1}``."""
    out: dict[str, int] = {}
    for a in _attrs(text):
        out[a] = out.get(a, 0) + 1
    return out


def _words(children: list[Any]) -> list[str]:
    return [str(c) for c in children if isinstance(c, Token)]


def _card(**kw: Any) -> dict[str, Any]:
    return {"type": "card", **{k: v for k, v in kw.items() if v not in (None, [], {})}}


@v_args(inline=True)
class Reader(Transformer):
    """Builds the neutral reading bottom-up (see the module docstring)."""

    # ---------------------------------------------------------------- sentence structure
    def start(self, sentence: Any) -> Any:
        return sentence

    def noun_phrase(self, np_: Any) -> Any:
        return np_

    def sentence(self, *items: Any) -> dict[str, Any]:
        if len(items) == 1 and isinstance(items[0], dict) and ("limit" in items[0] or "note" in items[0]):
            return items[0]
        return {"leads": list(items[:-1]), "main": items[-1]}

    def lead_when(self, when: Any) -> tuple[str, Any]:
        return ("when", when)

    def lead_if(self, cond: Any) -> tuple[str, Any]:
        return ("if", cond)

    def lead_at(self, tp: Any) -> tuple[str, Any]:
        return ("at", tp)

    def lead_at_after(self, args: Any, pred: Any, tp: Any) -> tuple[str, Any]:
        return ("at", {**tp, "after": {"args": args, "pred": pred}})

    def lead_until(self, until: Any) -> tuple[str, Any]:
        return ("until", until)

    def lead_during(self, period: Any) -> tuple[str, Any]:
        return ("during", period)

    def lead_except(self, ex: Any) -> tuple[str, Any]:
        return ("except", ex)

    def when_one(self, clause: Any) -> list[Any]:
        return [clause]

    def when_at_or(self, tp: Any, clause: Any) -> list[Any]:
        return [{"at": tp}, clause]

    def when_or(self, when: Any, clause: Any) -> list[Any]:
        return [*when, clause]

    def when_or_at(self, when: Any, tp: Any) -> list[Any]:
        return [*when, {"at": tp}]

    def cond_clause(self, clause: Any) -> dict[str, Any]:
        return {"clause": clause}

    def cond_nominal(self, *items: Any) -> dict[str, Any]:
        return {"args": items[0] if len(items) == 2 else [], "nominal": items[-1], "negated": False}

    def cond_nominal_not(self, *items: Any) -> dict[str, Any]:
        return {**self.cond_nominal(*items), "negated": True}

    def cond_and_clause(self, clause: Any, cond: Any) -> dict[str, Any]:
        return {"and": [{"clause": clause}, cond]}

    def cond_and_nominal(self, *items: Any) -> dict[str, Any]:
        first = {"args": items[0] if len(items) == 3 else [], "nominal": items[-2], "negated": False}
        return {"and": [first, items[-1]]}

    def nominal(self, x: Any) -> Any:
        return x

    def main(self, *clauses: Any) -> list[Any]:
        return [c for c in clauses if not isinstance(c, Token)]

    def clause_or(self, clause: Any) -> Any:
        return clause

    def clause_alt(self, left: Any, right: Any) -> dict[str, Any]:
        alts = left["alt"] if "alt" in left else [left]
        return {"alt": [*alts, right]}

    def clause(self, *items: Any) -> dict[str, Any]:
        return {"args": items[0] if len(items) == 2 else [], "pred": items[-1]}

    clause_c = clause

    def clause_args_alt(self, args1: Any, args2: Any, pred: Any) -> dict[str, Any]:
        return {"alt": [{"args": args1, "pred": pred}, {"args": args2, "pred": pred}]}

    def args(self, *items: Any) -> list[Any]:
        if len(items) == 1:
            return [items[0]]
        return [*items[0], items[1]]

    def args_rel(self, args: Any, pred: Any, arg: Any) -> list[Any]:
        return [*args, ("rel", pred), arg]

    # ---------------------------------------------------------------- arguments
    def _role(role: str):  # noqa: N805 - a factory of methods
        stat_role = {"subj": "statsubj", "obj": "statobj", "to": "statto"}.get(role)

        def method(self: Reader, *items: Any) -> tuple[str, Any]:
            value = items[0] if items else None
            if stat_role and isinstance(value, dict) and value.get("type") == "stat":
                return (stat_role, value)
            if role in ("to", "by", "subj") and isinstance(value, dict) and "period" in value:
                return ("during", value)  # このキャラのバトル中に使用する
            return (role, value)
        return method

    a_subj = _role("subj")
    a_obj = _role("obj")
    a_to = _role("to")
    a_by = _role("by")
    a_from = _role("from")
    a_topic = _role("topic")
    a_to_topic = _role("to_topic")
    a_only_to = _role("only_to")
    a_as = _role("as")
    a_times = _role("times")
    a_than = _role("than")
    a_also = _role("also")
    a_among = _role("among")
    a_by_not = _role("by_not")
    a_statsubj = _role("statsubj")
    a_statobj = _role("statobj")
    a_statto = _role("statto")
    a_modsobj = _role("modsobj")
    a_mods = _role("mods")
    a_qty = _role("qty")
    a_qtyobj = _role("qtyobj")
    a_qtycmp = _role("qtycmp")
    a_until = _role("until")
    a_during = _role("during")
    a_except = _role("except")
    a_manner = _role("manner")
    a_te = _role("te")
    a_next = _role("next")
    a_at = _role("at")

    def a_among_that(self) -> tuple[str, Any]:
        return ("among", {"type": "card", "ref": "that"})

    def a_as_charge(self) -> tuple[str, Any]:
        return ("as", {"type": "charge"})

    def a_by_not_effect(self) -> tuple[str, Any]:
        return ("by_not", {"type": "thing", "thing": "effect"})

    def a_by_not_down(self) -> tuple[str, Any]:
        return ("by_not", {"type": "thing", "thing": "down"})

    def manner(self, tok: Token) -> str:
        return {"無償で": "free", "行動済みで": "rested", "未行動で": "standing", "公開して": "reveal",
                "公開し": "reveal", "ランダムに": "random", "好きな順番に": "any_order", "可能なら": "if_possible",
                "追加で": "additional", "再度": "again", "対応して": "in_response", "シャッフルして": "shuffle"}[str(tok)]

    # ---------------------------------------------------------------- predicates
    def p_suru(self, vs: Token, suru: Token) -> dict[str, Any]:
        return {"verb": VS_LEMMAS[str(vs)], "form": SURU_FORMS[str(suru)]}

    def p_state(self, state: Token, suru: Token) -> dict[str, Any]:
        return {"verb": "stand" if str(state) == "未行動" else "rest", "form": SURU_FORMS[str(suru)]}

    def p_set(self, value: Token, suru: Token) -> dict[str, Any]:
        return {"verb": "set", "form": SURU_FORMS[str(suru)], "value": int(value)}

    def p_state_godan(self, state: Token, tok: Token) -> dict[str, Any]:
        lemma, form = GODAN_FORMS[str(tok)]
        return {"verb": lemma, "form": form, "state": "stand" if str(state) == "未行動" else "rest"}

    def choose_listed(self, n: Token, suru: Token) -> dict[str, Any]:
        return {"choose_listed": int(n), "pred": {"verb": "choose", "form": SURU_FORMS.get(str(suru), "must")}}

    def p_bare(self, suru: Token) -> dict[str, Any]:
        return {"verb": "do", "form": SURU_FORMS[str(suru)]}

    def p_godan(self, tok: Token) -> dict[str, Any]:
        lemma, form = GODAN_FORMS[str(tok)]
        return {"verb": lemma, "form": form}

    def p_engage(self, suru: Token) -> dict[str, Any]:
        return {"verb": "enter", "form": SURU_FORMS[str(suru)], "by": "engage"}

    def p_suru_cannot(self, vs: Token) -> dict[str, Any]:
        return {"verb": VS_LEMMAS[str(vs)], "form": "cannot"}

    def p_bare_cannot(self) -> dict[str, Any]:
        return {"verb": "do", "form": "cannot"}

    def p_put_in_may(self) -> dict[str, Any]:
        return {"verb": "put_in", "form": "may"}

    def p_look_may(self) -> dict[str, Any]:
        return {"verb": "look", "form": "may"}

    def p_gain_next_ability(self, godan: Token) -> dict[str, Any]:
        return {"verb": "gain_next", "form": GODAN_FORMS[str(godan)][1], "what": "ability"}

    def p_gain_next_effect(self, godan: Token) -> dict[str, Any]:
        return {"verb": "gain_next", "form": GODAN_FORMS[str(godan)][1], "what": "effect"}

    def te_suru(self, vs: Token) -> dict[str, Any]:
        return {"verb": VS_LEMMAS[str(vs)], "form": "te"}

    def te_godan(self, tok: Token) -> dict[str, Any]:
        lemma, form = GODAN_FORMS[str(tok)]
        return {"verb": lemma, "form": form}

    # ---------------------------------------------------------------- noun phrases
    def np(self, x: Any) -> Any:
        return x

    def np_and(self, *items: Any) -> dict[str, Any]:
        return {"type": "and", "items": [i for i in items if not isinstance(i, Token)]}

    def np_or(self, *items: Any) -> dict[str, Any]:
        return {"type": "or", "items": [i for i in items if not isinstance(i, Token)]}

    def np_core(self, core: dict[str, Any], qty: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**core, **(qty or {})}

    def np_ref(self, ref: dict[str, Any]) -> dict[str, Any]:
        return ref

    def np_stat(self, ref: dict[str, Any]) -> dict[str, Any]:
        return ref

    def np_period(self, period: dict[str, Any]) -> dict[str, Any]:
        return period

    def np_mod(self, mod: dict[str, Any], np1: dict[str, Any]) -> dict[str, Any]:
        if np1.get("type") == "stat" or "period" in np1:  # 元のDMGが3以下の味方キャラ1体のDMG: the card's
            return {**np1, "of": self.np_mod(mod, np1["of"])}
        out = dict(np1)
        if "position" in mod:
            out["position"] = [*out.get("position", []), *mod["position"]]
        else:
            out["filters"] = [mod, *out.get("filters", [])]
        return out

    def np_zone(self, zone: dict[str, Any]) -> dict[str, Any]:
        return zone

    def np_in_zone(self, zone: dict[str, Any], np1: dict[str, Any]) -> dict[str, Any]:
        return {**np1, "zone": zone}

    def np_zone_size(self, zone: dict[str, Any]) -> dict[str, Any]:
        return {"type": "size", "of": zone}

    def np_under(self, holder: dict[str, Any], np1: dict[str, Any]) -> dict[str, Any]:
        return {**np1, "under": holder}

    def np_below(self, holder: dict[str, Any]) -> dict[str, Any]:
        return {"type": "below", "of": holder}

    def np_under_this(self, np1: dict[str, Any]) -> dict[str, Any]:
        return {**np1, "under": {"type": "card", "ref": "this"}}

    def np_below_this(self) -> dict[str, Any]:
        return {"type": "below", "of": None}

    def np_charge(self, holder: dict[str, Any], qty: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"type": "charge", "of": holder, **(qty or {})}

    def np_shield(self, owner: str, qty: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"type": "shield", "owner": owner, **(qty or {})}

    def np_player(self, player: str) -> dict[str, Any]:
        return {"type": "player", "player": player}

    def np_owned(self, owner: str, thing: str) -> dict[str, Any]:
        return {"type": "thing", "thing": thing, "owner": owner}

    def np_owned_decl(self, owner: str) -> dict[str, Any]:
        return {"type": "thing", "thing": "declaration", "owner": owner}

    def np_owned_core(self, owner: str, core: dict[str, Any], qty: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**core, **(qty or {}), "owner": owner}

    def np_owned_mod(self, owner: str, mod: dict[str, Any], np1: dict[str, Any]) -> dict[str, Any]:
        return {**self.np_mod(mod, np1), "owner": owner}

    def np_thing_qty(self, thing: str, qty: dict[str, Any]) -> dict[str, Any]:
        return {"type": "thing", "thing": thing, **qty}

    def np_keyword(self, kw: dict[str, Any], qty: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"type": "keyword", "original": True, **kw, **(qty or {})}

    def np_zone_qty(self, zone: dict[str, Any], qty: dict[str, Any]) -> dict[str, Any]:
        return {**zone, **qty}

    def np_thing(self, thing: str) -> dict[str, Any]:
        return {"type": "thing", "thing": thing}

    def np_empty(self, np1: dict[str, Any]) -> dict[str, Any]:
        return {**np1, "empty": True}

    def np_action(self, np1: dict[str, Any], tok: Token) -> dict[str, Any]:
        action = {"登場": "entry", "使用": "use", "装備": "equip", "配置": "placement"}[str(tok)]
        return {"type": "thing", "thing": action, "of": np1}

    def np_of_thing(self, np1: dict[str, Any], thing: str) -> dict[str, Any]:
        return {"type": "thing", "thing": thing, "of": np1}

    def np_decl_of(self, np1: dict[str, Any]) -> dict[str, Any]:
        return {"type": "thing", "thing": "declaration", "of": np1}

    def np_resolution(self, np1: dict[str, Any]) -> dict[str, Any]:
        return {"type": "thing", "thing": "resolution", "of": np1}

    def np_aside(self) -> dict[str, Any]:
        return {"type": "aside"}

    def np_size(self, np1: dict[str, Any]) -> dict[str, Any]:
        return {"type": "size", "of": np1}

    def np_number(self, np1: dict[str, Any]) -> dict[str, Any]:
        return {"type": "number", "of": np1}

    def np_it(self) -> dict[str, Any]:
        return {"type": "card", "ref": "that"}

    def thing(self, *toks: Token) -> str:
        return THINGS["".join(_words(list(toks)))]

    def core(self, *items: Any) -> dict[str, Any]:
        side = next((v for k, v in items if k == "side"), None)
        pos = [v for k, v in items if k == "pos"]
        out = _card(side=side, position=pos)
        for k, v in items:
            if k == "qual":
                for key, value in v.items():
                    if key == "attributes" and "attributes" in out:
                        out["attributes"] = [*out["attributes"], *value]
                    else:
                        out[key] = value
            elif k == "noun":
                out["what"] = v
            elif k == "names":
                out["names"] = v
                out["what"] = "named"
        return out

    core_named = core

    def core_pos(self, *items: Any) -> dict[str, Any]:
        return {**self.core(*items), "what": "field"}

    def core_qual(self, *items: Any) -> dict[str, Any]:
        return {**self.core(*items), "what": "attribute"}

    def noun(self, *toks: Token) -> tuple[str, str]:
        return ("noun", NOUNS["".join(_words(list(toks)))])

    def names(self, *toks: Token) -> tuple[str, list[str]]:
        return ("names", [str(t).strip("「」") for t in toks if str(t).startswith("「")])

    def q_attr(self, tok: Token) -> tuple[str, dict[str, Any]]:
        return ("qual", {"attributes": _attrs(str(tok))})

    def q_attr_or(self, *toks: Token) -> tuple[str, dict[str, Any]]:
        return ("qual", {"any_attribute": [a for t in toks if str(t).startswith("[") for a in _attrs(str(t))]})

    def q_title(self, tok: Token) -> tuple[str, dict[str, Any]]:
        return ("qual", {"title": str(tok).strip("『』")})

    def q_title_or(self, *toks: Token) -> tuple[str, dict[str, Any]]:
        return ("qual", {"titles": [str(t).strip("『』") for t in toks if str(t).startswith("『")]})

    def q_trait(self, tok: Token) -> tuple[str, dict[str, Any]]:
        return ("qual", {"trait": str(tok).strip("<>")})

    def q_trait_or(self, *toks: Token) -> tuple[str, dict[str, Any]]:
        return ("qual", {"traits": [str(t).strip("<>") for t in toks if str(t).startswith("<")]})

    def q_brand(self, tok: Token) -> tuple[str, dict[str, Any]]:
        return ("qual", {"brand": str(tok).strip("[]")})

    def side(self, tok: Token) -> tuple[str, str]:
        return ("side", "ally" if str(tok) == "味方" else "opponent")

    def pos(self, tok: Token) -> tuple[str, str]:
        return ("pos", POSITIONS[str(tok)])

    def ref(self, *items: Any) -> dict[str, Any]:
        words = _words(list(items))
        nouns = [i for i in items if isinstance(i, str) and not isinstance(i, Token)]
        what = nouns[0] if nouns else None
        head = words[0] if words else ""
        if head == "持ち主":
            return _card(ref="owner", what="player")
        if head == "このアイテムの持ち主":
            return _card(ref="item_owner", what="player")
        if head == "それら":
            return _card(ref="those")
        if head == "破棄キャラ":  # [エンゲージ:[破棄キャラを回復し…]]: the character the engage destroyed
            return _card(ref="destroyed", what="character")
        if head == "このキャラクター":
            return _card(ref="this", what="character")
        ref = {"この": "this", "その": "that", "対象の": "target", "対戦": "battle_opponent", "これら": "those"}[head]
        out = _card(ref=ref, what=what)
        for k, v in (i for i in items if isinstance(i, tuple)):
            if k == "qual":
                out.update(v)
        return out

    def ref_noun(self, *toks: Token) -> str:
        return NOUNS["".join(_words(list(toks)))]

    def player(self, tok: Token) -> str:
        return PLAYERS[str(tok)]

    def zone(self, *items: Any) -> dict[str, Any]:
        owner = next((i for i in items if isinstance(i, str) and i in OWNERS.values() and not isinstance(i, dict)), None)
        word = items[-1]
        return {"type": "zone", "zones": [{**word, **({"owner": owner} if owner else {})}]}

    def zone_or(self, zone: dict[str, Any], *items: Any) -> dict[str, Any]:
        rest = [i for i in items if not (isinstance(i, Token) and str(i) in ("または", "か"))]
        more = self.zone(*rest)
        return {"type": "zone", "zones": [*zone["zones"], *more["zones"]]}

    def zone_word(self, *toks: Token) -> dict[str, Any]:
        first = str(toks[0])
        if first == "その置き場":
            return {"zone": "pile", "pile": "that"}
        if first.startswith("「"):
            return {"zone": "pile", "pile": first.strip("「」")}
        return {"zone": ZONES[first]}

    def owner(self, tok: Token) -> str:
        return OWNERS[str(tok)]

    # ---------------------------------------------------------------- modifiers
    def mod_stat(self, cmp: dict[str, Any]) -> dict[str, Any]:
        return cmp

    def mod_not_attr(self, tok: Token) -> dict[str, Any]:
        return {"not_attributes": _attrs(str(tok))}

    def mod_state(self, tok: Token) -> dict[str, Any]:
        return {"position": ["standing" if str(tok) == "未行動の" else "rested"]}

    def mod_size(self, cmp: dict[str, Any]) -> dict[str, Any]:
        return {"size": {k: v for k, v in cmp.items() if k != "type"}}

    def col_np_mod(self, cmp: dict[str, Any], np1: dict[str, Any]) -> dict[str, Any]:
        return self.np_mod(cmp, np1)

    def mod_same_column(self, ref: dict[str, Any], *_: Any) -> dict[str, Any]:
        return {"same_column_as": ref}

    def mod_adjacent(self, ref: dict[str, Any], *_: Any) -> dict[str, Any]:
        return {"adjacent_to": ref}

    def mod_except(self, ref: dict[str, Any]) -> dict[str, Any]:
        return {"except": ref}

    def mod_owned_by(self, tok: Token) -> dict[str, Any]:
        return {"controller": "self" if str(tok).endswith("自分の") else "opponent"}

    def mod_af(self) -> dict[str, Any]:
        return {"position": ["AF"]}

    def mod_df(self) -> dict[str, Any]:
        return {"position": ["DF"]}

    def mod_aside(self) -> dict[str, Any]:
        return {"aside": True}

    def mod_original(self) -> dict[str, Any]:
        return {"original": True}

    def mod_distinct(self, *_: Any) -> dict[str, Any]:
        return {"distinct_names": True}

    def mod_last(self) -> dict[str, Any]:
        return {"last": True}

    def mod_other(self) -> dict[str, Any]:
        return {"other": True}

    def mod_same_number(self) -> dict[str, Any]:
        return {"same_number": True}

    def mod_number_rel(self, ref: dict[str, Any], tok: Token | None = None) -> dict[str, Any]:
        return {"same_number_as" if tok is None or "同番号" in str(tok) else "other_number_than": ref}

    def mod_multi_attr(self, n: Token) -> dict[str, Any]:
        return {"attribute_count_min": int(n)}

    def mod_subname(self, name: Token) -> dict[str, Any]:
        return {"subname_contains": str(name).strip("「」")}

    def mod_cardname(self, name: Token) -> dict[str, Any]:
        return {"name_contains": str(name).strip("「」")}

    # ---------------------------------------------------------------- comparisons and counts
    def stat_cmp(self, stat: str, cmp: dict[str, Any]) -> dict[str, Any]:
        return {"stat": stat, **cmp}

    def stat_cmp_only(self, stat: str, *items: Any) -> dict[str, Any]:
        attrs = [a for i in items if isinstance(i, Token) and str(i).startswith("[") for a in _attrs(str(i))]
        return {"stat": stat, "only_attributes": attrs, **items[-1]}

    def stat_cmp_sum(self, stat: str, cmp: dict[str, Any]) -> dict[str, Any]:
        return {"stat": stat, "sum": True, **cmp}

    def attr_only(self, tok: Token) -> dict[str, Any]:
        return {"only_attributes": _attrs(str(tok))}

    def stat_cmp_bare(self, *toks: Token) -> dict[str, Any]:
        return {"type": "compare", **self.cmp(*toks)}

    def statref(self, np1: dict[str, Any], stat: str) -> dict[str, Any]:
        return {"type": "stat", "of": np1, "stat": stat}

    def statref_any(self, np1: dict[str, Any], *stats: str) -> dict[str, Any]:
        return {"type": "stat", "of": np1, "any_of": list(stats)}

    def statref_pair(self, np1: dict[str, Any], a: str, b: str) -> dict[str, Any]:
        return {"type": "stat", "of": np1, "stats": [a, b]}

    def stat(self, tok: Token) -> str:
        return STATS[str(tok)]

    def stat_original(self, tok: Token) -> str:
        return "original_" + STATS[str(tok)]

    def cmp(self, *items: Any) -> dict[str, Any]:
        words = [str(i) for i in items if isinstance(i, Token)]
        unit = next((i for i in items if isinstance(i, tuple)), None)
        nums = [int(w) for w in words if w.isdigit()]
        out: dict[str, Any] = {}
        if "~" in words:
            out = {"min": nums[0], "max": nums[1]}
        else:
            out = {"value": nums[0], "op": ">=" if "以上" in words else "<=" if "以下" in words else "=="}
        if unit:
            out["unit"] = unit[1]
        return out

    def counter(self, tok: Token) -> tuple[str, str]:
        return ("unit", {"点": "point", "体": "character", "枚": "card", "つ": "one", "回": "time", "種類": "kind"}[str(tok)])

    def qty_cmp_n(self, *items: Any) -> dict[str, Any]:
        return self.qty_cmp(*items)

    def qty_than(self, *items: Any) -> dict[str, Any]:
        return self.qty_cmp(*items)

    def qty_cmp(self, *items: Any) -> dict[str, Any]:
        words = [str(i) for i in items if isinstance(i, Token)]
        if "より" in words:
            np_ = next(i for i in items if isinstance(i, dict))
            return {"type": "compare", "than": np_, "op": ">" if "多い" in words else "<"}
        n = int(words[0])
        return {"type": "compare", "value": n, "op": ">=" if "以上" in words else "<="}

    def qty(self, *items: Any) -> dict[str, Any]:
        words = [str(i) for i in items if isinstance(i, Token)]
        if words and words[0] in ("全て", "全体"):
            return {"all": True}
        out: dict[str, Any] = {"count": int(words[0])}
        if "まで" in words:
            out["up_to"] = True
        return out

    # ---------------------------------------------------------------- stat changes
    def mods(self, *alts: Any) -> list[list[dict[str, Any]]]:
        return [a for a in alts if isinstance(a, list)]  # OR_STAT tokens dropped

    def mod_alt(self, *items: Any) -> list[dict[str, Any]]:
        return [i for i in items if isinstance(i, dict)]

    def mod_stat_change(self, stat: Token, value: Token) -> dict[str, Any]:
        return {"stat": STATS[str(stat)], "delta": int(value)}

    def mod_shield(self, value: Token) -> dict[str, Any]:
        return {"shield": int(value)}

    def mod_keyword(self, kw: dict[str, Any]) -> dict[str, Any]:
        return kw

    def mod_bare(self, value: Token) -> dict[str, Any]:
        return {"delta": int(value)}

    def kwref(self, name: Token) -> dict[str, Any]:
        return {"keyword": KEYWORDS[str(name)]}

    def kwref_arg(self, name: Token, arg: dict[str, Any]) -> dict[str, Any]:
        return {"keyword": KEYWORDS[str(name)], **arg}

    def kwarg_cost(self, tok: Token) -> dict[str, Any]:
        return {"cost": attribute_cost(str(tok))}

    def kwarg_zero(self, tok: Token) -> dict[str, Any]:
        return {"cost": {}}

    def kwarg_effect(self, sentences: list[Any]) -> dict[str, Any]:
        return {"sentences": sentences}

    def kwarg_int(self, tok: Token) -> dict[str, Any]:
        return {"count": int(tok)}

    def kwarg_own_cost(self) -> dict[str, Any]:
        return {"cost": "own_cost"}

    def ksentences(self, *sentences: Any) -> list[Any]:
        return [s for s in sentences if isinstance(s, dict)]

    # ---------------------------------------------------------------- time
    def _tp(kind: str, **fixed: Any):  # noqa: N805 - a factory of methods
        def method(self: Reader, *items: Any) -> dict[str, Any]:
            turn = next((i for i in items if i in ("own", "opponent")), None)
            of = next((i for i in items if isinstance(i, dict)), None)
            out: dict[str, Any] = {"at": kind, **fixed}
            if turn:
                out["turn"] = turn
            if of:
                out["of"] = of
            return out
        return method

    t_turn_start = _tp("turn_start")
    t_turn_end = _tp("turn_end")
    t_battle_end = _tp("battle_end")
    t_battle_end_of = _tp("battle_end")
    t_next_turn_start = _tp("turn_start", next=True)
    t_next_turn_end = _tp("turn_end", next=True)
    t_next_wakeup = _tp("wake_up", next=True, turn="own")
    t_next_wakeup_opp = _tp("wake_up", next=True, turn="opponent")

    def turn_owner(self, tok: Token) -> str:
        return "own" if str(tok) == "自" else "opponent"

    def until(self, tp: dict[str, Any]) -> dict[str, Any]:
        return tp

    def d_turn(self, owner: str) -> dict[str, Any]:
        return {"period": "own_turn" if owner == "own" else "opponent_turn"}

    def d_own_turn(self) -> dict[str, Any]:
        return {"period": "own_turn"}

    def d_opp_turn(self) -> dict[str, Any]:
        return {"period": "opponent_turn"}

    def d_this_turn(self) -> dict[str, Any]:
        return {"period": "this_turn"}

    def d_game(self) -> dict[str, Any]:
        return {"period": "game"}

    def d_battle(self) -> dict[str, Any]:
        return {"period": "battle"}

    def d_not_battle(self) -> dict[str, Any]:
        return {"period": "battle", "negated": True}

    def d_battle_of(self, np1: dict[str, Any]) -> dict[str, Any]:
        return {"period": "battle", "of": np1}

    def d_attack_of(self, np1: dict[str, Any]) -> dict[str, Any]:
        return {"period": "attack", "of": np1}

    def d_defense_of(self, np1: dict[str, Any]) -> dict[str, Any]:
        return {"period": "defense", "of": np1}

    def d_response(self) -> dict[str, Any]:
        return {"period": "response"}

    def d_that_turn(self) -> dict[str, Any]:
        return {"period": "that_turn"}

    def d_or(self, a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
        return {"period": "any", "any_of": [*a.get("any_of", [a]), *b.get("any_of", [b])]}

    def d_list(self, a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
        return {"periods": [*a.get("periods", [a]), *b.get("periods", [b])]}

    def d_nth_turn(self, n: Token) -> dict[str, Any]:
        return {"period": "nth_turn", "n": int(n)}

    def d_not_nth_turn(self, n: Token) -> dict[str, Any]:
        return {"period": "nth_turn", "n": int(n), "negated": True}

    def d_nth_turn_of(self, owner: str, n: Token) -> dict[str, Any]:
        return {"period": "nth_turn", "n": int(n), "owner": owner}

    def d_not_nth_turn_of(self, owner: str, n: Token) -> dict[str, Any]:
        return {"period": "nth_turn", "n": int(n), "owner": owner, "negated": True}

    def except_(self, period: dict[str, Any]) -> dict[str, Any]:
        return {"except": period.get("periods", [period])}

    # ---------------------------------------------------------------- notes
    def limit_note(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"limit": body}

    def limit(self, *items: Any) -> dict[str, Any]:
        return {"items": [i for i in items if isinstance(i, dict)]}

    def limit_same_choice(self, *items: Any) -> dict[str, Any]:
        n = next(int(i) for i in items if isinstance(i, Token) and str(i).isdigit())
        return {"same_choice_max": n}

    def limit_same_number(self, item: dict[str, Any], verb: Token) -> dict[str, Any]:
        return {"items": [{**item, "same_number": True}]}

    def per_turn(self, turns: Token, times: Token) -> dict[str, Any]:
        return {"per": "turn", "count": int(times)}

    def per_game(self, times: Token) -> dict[str, Any]:
        return {"per": "game", "count": int(times)}

    def per_battle(self, battles: Token, times: Token) -> dict[str, Any]:
        return {"per": "battle", "count": int(times)}

    def per_any(self, times: Token) -> dict[str, Any]:
        return {"per": "ability", "count": int(times)}

    def note_field_limit(self, *items: Any) -> dict[str, Any]:
        nums = [int(i) for i in items if isinstance(i, Token) and str(i).isdigit()]
        name = next((str(i).strip("「」") for i in items if isinstance(i, Token) and str(i).startswith("「")), None)
        return {"note": "field_limit", "count": nums[0] if nums else 1, "name": name}

    def note_vanilla(self) -> dict[str, Any]:
        return {"note": "vanilla"}

    def note_not_playable(self) -> dict[str, Any]:
        return {"note": "not_playable"}

    def note_same_number(self, name: Token) -> dict[str, Any]:
        return {"note": "same_number", "as": str(name).strip("「」")}

    def note_field_limit_self(self, tok: Token) -> dict[str, Any]:
        return {"note": "field_limit", "count": int("".join(ch for ch in str(tok) if ch.isdigit())), "name": None}

    def note_only_by(self, tok: Token) -> dict[str, Any]:
        return {"note": "enter_only_by", "keyword": "convert"}

    def note_exile_on_leave(self, tok: Token) -> dict[str, Any]:
        return {"note": "exile_on_leave"}

    def note_alias(self, tok: Token) -> dict[str, Any]:
        return {"note": "alias", "name": str(tok).split("「")[1].split("」")[0]}

    def owner_field(self, tok: Token) -> str:
        return "self" if str(tok) == "自分の場" else "owner"
