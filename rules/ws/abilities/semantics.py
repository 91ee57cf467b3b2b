"""The semantic pass: an ability's syntax (:mod:`.syntax`) → :class:`rules.abilities.Ability`.

The header gives the kind (【自】 auto, 【永】 continuous, 【起】 activated, 【カウンター】 counter;
no marker: the card's type, event or climax), keywords (アンコール, 絆, 助太刀, 【CXコンボ】...) and
the cost (``[...]``: stock and cost clauses). The body is read clause by clause, in order:

1. ``この能力は1ターンにつき1回まで発動する`` → ``once_per_turn`` (N times: a ``times_per_turn``
   condition);
2. the trigger of an 【自】 ability: a clause ending in ``時`` (``このカードがアタックした時``) or a
   phase phrase (``あなたのアタックフェイズの始めに``); ``…時か…時`` are alternatives;
3. conditions: clauses ending in ``なら`` and ``あなたのターン中``-style phrases before the first
   effect (after an effect, a ``…なら`` conditions only the effects after it: ``params.if``);
4. ``あなたはコストを払ってよい。そうしたら、`` (the cost is optional: nothing to compile);
5. effects, each from one clause: the verb decides (引く draw, 置く/戻す/加える move cards, ``+N``
   power/soul/level, ``与える`` damage or abilities...), its arguments say what, from where, to
   where, for how long (``そのターン中``), for each what (``…1枚につき``); a clause without an
   object acts on the cards chosen before (``…を1枚選び、手札に戻す``).

``Xは…に等しい`` fills ``params.x`` of the effects that use X. Reminder text ``(…)`` is read for
the trigger icon it explains and for ``ダメージキャンセルは発生する``; otherwise it only repeats
rules. Granted abilities ``『…』`` are compiled too (``grant_ability``'s ``params.abilities``).

Any clause the pass cannot place raises :class:`Unrecognised` with its span: the ability is kept
with ``unrecognised`` = that phrase.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.abilities import Ability, Effect

from .syntax import NP, AbilitySyntax, Arg, Clause, Count, Item, Keyword, Piece, Pred, Sentence
from .targets import Unplaced, describe, duration, phase, turn_condition


class Unrecognised(Exception):
    """A phrase the semantic pass cannot read: its span in the ability text (or, for a granted
    ability, the phrase of that ability)."""

    def __init__(self, start: int, end: int, why: str = "", phrase: str | None = None) -> None:
        super().__init__(why)
        self.start = start
        self.end = end
        self.phrase = phrase


KIND_BY_MARKER = {"【自】": "auto", "【永】": "continuous", "【起】": "activated", "【カウンター】": "counter",
                  "●": "counter", "◆": "auto", "■": "continuous"}
KEYWORDS = {
    "アンコール": "encore", "絆": "bond", "応援": "assist", "助太刀": "backup",
    "チェンジ": "change", "集中": "brainstorm", "経験": "experience", "記憶": "memory", "大活躍": "great_performance",
    "アラーム": "alarm", "加速": "accelerate", "共鳴": "resonance", "フォース": "force", "合体": "combine",
    "シフト": "shift",
}
TAGS = {"CXコンボ": "cx_combo", "クロック": "from_clock"}
# Trigger icons named in climax reminders: (拾@:…) / (扉:…); the icon's glyph is often lost.
ICONS = {"火": "shot", "拾": "comeback", "扉": "comeback", "門": "gate", "引": "draw", "本": "draw", "戻": "return", "風": "return",
         "宝": "treasure", "射": "shot", "炎": "shot", "溜": "pool", "袋": "pool", "待": "standby", "選": "choice"}
_CMP_NEG = {">=": "<", "<=": ">", "==": "!="}
# Trigger-icon reminders are compiled as the text of this pseudo card type, with this trigger kind,
# only to find which icon they explain (``icon:<name>`` keyword); neither ever reaches the output.
REMINDER_CARD = "reminder"
REMINDER_TRIGGER = "triggered"


def _fail(obj: Any, why: str = "") -> Unrecognised:
    return Unrecognised(getattr(obj, "start", 0), getattr(obj, "end", 0), why)


def _amount(value: str) -> int | str:
    sign, body = value[0], value[1:]
    if body.isdigit():
        return int(body) if sign == "+" else -int(body)
    return body if sign == "+" else "-" + body


def _count(c: Count | None) -> dict[str, Any]:
    if c is None:
        return {}
    out: dict[str, Any] = {"count": c.n}
    if c.upto == "まで":
        out["upto"] = True
    elif c.upto == "ずつ":
        out["each"] = True
    elif c.upto in ("以上", "以下"):
        out["cmp"] = ">=" if c.upto == "以上" else "<="
    return out


def _target(np: NP) -> dict[str, Any]:
    try:
        return describe(np)
    except Unplaced as exc:
        item = exc.item
        raise Unrecognised(np.start, np.end, f"word {item.text if item else np.text!r}") from None


@dataclass
class _Used(dict):  # type: ignore[type-arg]
    """A dict that remembers which keys were read (get / [] / pop)."""

    def __init__(self) -> None:
        super().__init__()
        self.read: set[str] = set()

    def get(self, key: Any, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def pop(self, key: Any, *default: Any) -> Any:
        self.read.add(key)
        return super().pop(key, *default)

    def __delitem__(self, key: Any) -> None:
        self.read.add(key)
        super().__delitem__(key)


@dataclass
class Args:
    """A clause's arguments by case particle, counts and bare phrases. A handler must read every
    argument it is given: :meth:`unread` lists the ones it left (the clause then fails)."""

    by_case: _Used = field(default_factory=_Used)
    bare: list[Arg] = field(default_factory=list)
    counts: list[Arg] = field(default_factory=list)
    extra: list[Arg] = field(default_factory=list)  # a second argument with the same particle
    counts_read: bool = False
    bare_ok: bool = False

    @classmethod
    def of(cls, args: tuple[Arg, ...]) -> Args:
        out = cls()
        for i, a in enumerate(args):
            if a.count is not None and a.case == "を" and i and args[i - 1].case is None and args[i - 1].np is not None \
                    and "を" not in out.by_case and args[i - 1] in out.bare:
                out.bare.remove(args[i - 1])  # 自分のキャラ1枚を選び: the phrase before the count is the object
                dict.__setitem__(out.by_case, "を", args[i - 1])
            if a.count is not None and a.case in (None, "を", "まで"):
                out.counts.append(a)
            elif a.case is None:
                out.bare.append(a)
            elif a.case in out.by_case:
                out.extra.append(a)
            else:
                dict.__setitem__(out.by_case, a.case, a)
        return out

    def np(self, case: str) -> NP | None:
        a = self.by_case.get(case)
        return a.np if a is not None else None

    def count(self) -> Count | None:
        self.counts_read = True
        return self.counts[0].count if self.counts else None

    def consume_all(self) -> None:
        self.by_case.read.update(self.by_case)
        self.extra.clear()
        self.bare_ok = self.counts_read = True

    def unread(self) -> list[Arg]:
        left = [a for k, a in self.by_case.items() if k not in self.by_case.read]
        left += self.extra
        if not self.bare_ok:
            left += self.bare
        if not self.counts_read:
            left += self.counts
        elif len(self.counts) > 1:
            left += self.counts[1:]
        return left


@dataclass
class Ctx:
    """What the clauses read so far established for the next ones."""

    kind: str
    card_type: str
    actor: str = "you"
    selection: dict[str, Any] | None = None
    source: dict[str, Any] | None = None  # 山札を見て (search) / 山札を上からN枚見て (look) / 公開 / めくり
    stat_target: dict[str, Any] | None = None
    duration: str | None = None
    per: dict[str, Any] | None = None
    cond: dict[str, Any] | None = None
    then: str | None = None
    modifiers: dict[str, Any] = field(default_factory=dict)  # 【レスト】して置く...
    carry: tuple[Arg, ...] = ()  # arguments of a て-form clause, for the verb after it
    sticky_cond: bool = False  # そうでないなら: the condition holds past the sentence
    actor_here: bool = False  # the clause names its actor (あなたは / 相手は)
    pending_choice: bool = False  # cards were chosen (選び) and no effect has used them yet
    prev_actor: str = "you"
    trigger_ref: dict[str, Any] | None = None  # the card the trigger names (battle opponent...)
    last_cond: dict[str, Any] | None = None  # the mid-effect condition of the sentence before
    keywords: list[str] = field(default_factory=list)  # keywords met inside the body
    rel: tuple[dict[str, Any], tuple[Arg, ...]] | None = None  # a relative clause for the next clause
    effects: list[Effect] = field(default_factory=list)
    conditions: list[Effect] = field(default_factory=list)
    started: bool = False  # an effect was produced: a later なら conditions the effects after it

    def emit(self, kind: str, params: dict[str, Any], optional: bool = False) -> None:
        p = {k: v for k, v in params.items() if v is not None}
        if optional:
            p["optional"] = True
        if self.duration and kind in _TIMED:
            p.setdefault("duration", self.duration)
        if self.per is not None and kind not in ("choose",):
            p.setdefault("per", self.per)
        if self.cond is not None:
            p.setdefault("if", self.cond)
        if self.then:
            p.setdefault("then", self.then)
        if self.modifiers.get("at"):
            p.setdefault("at", self.modifiers["at"])
        if self.actor != "you" and kind not in ("burn",):
            p.setdefault("player", self.actor)
        self.effects.append(Effect(kind, resolve_self(p, self.actor)))
        self.started = True
        if kind != "choose":
            self.pending_choice = False


def resolve_self(obj: Any, actor: str) -> Any:
    """自分 means the player doing the effect: ``self`` becomes ``you`` / ``opponent`` / ``both``."""
    if isinstance(obj, dict):
        return {k: resolve_self(v, actor) for k, v in obj.items()}
    if isinstance(obj, list):
        return [resolve_self(v, actor) for v in obj]
    if obj == "self":
        return actor
    if isinstance(obj, str) and obj.startswith("level_of:self"):
        return "level_of:" + actor + obj[len("level_of:self"):]
    return obj


def _resolved(e: Effect | None) -> Effect | None:
    return None if e is None else Effect(e.kind, resolve_self(dict(e.params), "you"))


_TIMED = {"power", "soul", "level", "grant_ability", "grant_trait", "restriction", "name_alias", "lose_abilities",
          "rule_change", "cost_change"}


# ---------------------------------------------------------------------------------------------
# the ability
# ---------------------------------------------------------------------------------------------
def interpret(syn: AbilitySyntax, card_type: str, text: str,
              compile_nested: Callable[[str, str], tuple[Ability, ...]]) -> Ability:
    kind = _ability_kind(syn, card_type)
    keywords: list[str] = [TAGS.get(t, t) for t in syn.tags]
    unknown_tags = [t for t in syn.tags if t not in TAGS]
    if unknown_tags:
        raise Unrecognised(0, len(text), f"tag 【{unknown_tags[0]}】")
    ctx = Ctx(kind=kind, card_type=card_type)
    kw = syn.keyword
    if kw is not None:
        keywords.append(KEYWORDS[kw.name])
    cost: list[Effect] = _costs(syn.cost) if syn.cost is not None else []
    clauses, reminders, grants = _pieces(syn)
    if kw is not None and not clauses:  # keyword abilities whose meaning is the keyword itself
        return _keyword_only(kw, kind, keywords, cost, text, reminders, syn)
    clauses, once = _take_limit(clauses, ctx)
    trigger, clauses = _read_trigger(syn, kind, clauses, ctx)
    _body(clauses, ctx, compile_nested, grants)
    for r in reminders:
        _reminder(r, ctx, keywords, compile_nested)
    _check_effects(ctx, kind, keywords, cost, trigger, clauses, kw, text)
    if ctx.pending_choice and ctx.selection is not None:
        ctx.emit("choose", {"target": ctx.selection})  # chosen, and nothing after it (a cut text)
    keywords += ctx.keywords
    return Ability(kind=kind, text=text, trigger=_resolved(trigger),
                   conditions=tuple(_resolved(c) for c in ctx.conditions),  # type: ignore[misc]
                   cost=tuple(_resolved(c) for c in cost), effects=tuple(ctx.effects),  # type: ignore[misc]
                   keywords=tuple(dict.fromkeys(keywords)), once_per_turn=once)


def _pieces(syn: AbilitySyntax) -> tuple[list[tuple[Clause, Sentence]], list[Piece], list[Piece]]:
    """The body's clauses (each with its sentence), the reminders and the granted abilities."""
    sentences = [p.sentence for p in syn.pieces if p.kind == "sentence" and p.sentence is not None]
    reminders = [p for p in syn.pieces if p.kind == "reminder"]
    grants = [p for p in syn.pieces if p.kind == "grant"]
    return [(c, s) for s in sentences for c in s.clauses], reminders, grants


def _read_trigger(syn: AbilitySyntax, kind: str, clauses: list[tuple[Clause, Sentence]], ctx: Ctx
                  ) -> tuple[Effect | None, list[tuple[Clause, Sentence]]]:
    """The trigger of an 【自】 ability (a climax's, a counter's 【自】) and the clauses after it; a
    climax's 【永】 has none (while it is in the climax zone)."""
    if not (kind in ("auto", "climax") or (kind == "counter" and "【自】" in syn.markers)):
        return None, clauses
    trigger, clauses = _take_trigger(clauses, ctx)
    _trigger_ref(trigger, ctx)
    if trigger is None and kind == "auto":
        first = clauses[0][0] if clauses else None
        raise _fail(first or syn, "no trigger")
    return trigger, clauses


def _ability_kind(syn: AbilitySyntax, card_type: str) -> str:
    """The marker's kind (【カウンター】 wins), a climax's text ``climax``; without a marker the card
    type's: ``event``, ``climax``, else ``continuous``."""
    climax = card_type in ("climax", REMINDER_CARD)
    if not syn.markers:
        return "event" if card_type == "event" else "climax" if climax else "continuous"
    if climax:
        return "climax"
    kinds = [KIND_BY_MARKER[m] for m in syn.markers]
    return "counter" if "counter" in kinds else kinds[0]


def _take_limit(clauses: list[tuple[Clause, Sentence]], ctx: Ctx) -> tuple[list[tuple[Clause, Sentence]], bool]:
    """この能力は1ターンにつき1回まで発動する: once per turn (N times: a ``times_per_turn``
    condition); the clauses after it and whether the ability is once per turn."""
    if not clauses or not _is_limit(clauses[0][0]):
        return clauses, False
    n = _limit_times(clauses[0][0])
    if n != 1:
        ctx.conditions.append(Effect("times_per_turn", {"times": n}))
    return clauses[1:], n == 1


def _trigger_ref(trigger: Effect | None, ctx: Ctx) -> None:
    """The card the trigger names, which そのキャラ in the effects refers to (and the selection)."""
    if trigger is not None and trigger.kind in ("battle_opponent_reversed", "reversed"):
        # このカードのバトル相手が【リバース】した時、…そのキャラを…: the battle opponent
        ctx.trigger_ref = {"ref": "battle_opponent", "who": "opponent", "kind": "character", "zone": "stage"}
    if trigger is not None and trigger.kind in ("placed", "attacks", "attacked", "reversed", "state_changed") \
            and isinstance(trigger.params.get("target"), dict) and trigger.params["target"].get("kind"):
        # 他のあなたのキャラがアタックした時、そのキャラの…: the character the trigger names
        ctx.trigger_ref = {"ref": "that", "kind": trigger.params["target"]["kind"], "zone": "stage"}
    if trigger is not None and trigger.kind == "leaves_stage" and "target" in trigger.params:
        # 他のあなたのキャラが舞台から控え室に置かれた時、…そのキャラを…: it is now there
        ctx.trigger_ref = {"ref": "that", "kind": "character", "zone": trigger.params.get("to") or "waiting_room"}
    ctx.selection = ctx.trigger_ref


def _check_effects(ctx: Ctx, kind: str, keywords: list[str], cost: list[Effect], trigger: Effect | None,
                   clauses: list[tuple[Clause, Sentence]], kw: Keyword | None, text: str) -> None:
    """An ability that compiled to nothing was not understood (a climax with only its trigger
    icon's reminder, the rest missing from the source, and keyword abilities excepted)."""
    if not clauses and kind == "climax" and any(k.startswith("icon:") for k in keywords):
        pass  # only the trigger icon's reminder (the rest of the text is missing from the source)
    elif not ctx.effects and not ctx.conditions and kind not in ("keyword",) and not cost and trigger is None:
        raise Unrecognised(0, len(text), "no effect")
    if not ctx.effects and kind != "keyword" and not (kind == "continuous" and ctx.conditions) and clauses:
        if not _only_keyword(kw):
            raise Unrecognised(0, len(text), "no effect")


def _only_keyword(kw: Keyword | None) -> bool:
    return kw is not None and kw.name in ("大活躍", "アンコール", "絆", "助太刀", "シフト")


def _keyword_only(kw: Keyword, kind: str, keywords: list[str], cost: list[Effect], text: str,
                  reminders: list[Piece], syn: AbilitySyntax) -> Ability:
    name = KEYWORDS[kw.name]
    trigger: Effect | None = None
    effects: list[Effect] = []
    conditions: list[Effect] = []
    if name == "encore":
        trigger = Effect("leaves_stage", {"ref": "this", "to": "waiting_room"})
        effects.append(Effect("encore", {}))
    elif name == "bond":
        trigger = Effect("placed", {"ref": "this", "by": "play"})
        effects.append(Effect("salvage", {"count": 1, "target": {"names": list(kw.names), "zone": "waiting_room"}}))
    elif name == "backup":
        power, level = kw.numbers
        kind = "counter"
        conditions.append(Effect("level", {"who": "you", "cmp": ">=", "n": level}))
        effects.append(Effect("backup", {"amount": power, "duration": "turn",
                                         "target": {"who": "you", "kind": "character", "state": "front_attacked",
                                                    "count": 1}}))
    elif name == "great_performance":
        effects.append(Effect("great_performance", {}))
    elif name == "shift":
        color = _shift_color(reminders)
        effects.append(Effect("shift", {"level": kw.numbers[0], **({"color": color} if color else {})}))
    else:
        raise Unrecognised(0, len(text), f"keyword {kw.name} without text")
    return Ability(kind="keyword" if kind not in ("counter",) else kind, text=text, trigger=trigger,
                   conditions=tuple(conditions), cost=tuple(cost), effects=tuple(effects),
                   keywords=tuple(dict.fromkeys(keywords)))


def _shift_color(reminders: list[Piece]) -> str | None:
    for r in reminders:
        for jp, en in (("赤", "red"), ("青", "blue"), ("黄", "yellow"), ("緑", "green")):
            if f"{jp}のカード" in r.text:
                return en
    return None


def _is_limit(c: Clause) -> bool:
    if c.pred is None or c.pred.kind != "suru" or c.pred.lemma not in ("発動",):
        return False
    subj = Args.of(c.args).np("は")
    return subj is not None and subj.has("ref", "this_ability")


def _limit_times(c: Clause) -> int:
    for a in c.args:
        if a.np is not None:
            for it in a.np.items:
                if it.cls == "num" and it.value[1] == "回" and isinstance(it.value[0], int):
                    return it.value[0]
    raise _fail(c, "limit")


# ---------------------------------------------------------------------------------------------
# costs
# ---------------------------------------------------------------------------------------------
def _costs(cost: Any) -> list[Effect]:
    out: list[Effect] = []
    if cost.stock is not None:
        out.append(Effect("stock", {"n": cost.stock}))
    ctx = Ctx(kind="cost", card_type="")
    for c in cost.clauses:
        if c.pred is None:
            raise _fail(c, "cost")
        _effect_clause(c, ctx, lambda t, k: (), [])
    for e in ctx.effects:
        out.append(_as_cost(e))
    return out


def _as_cost(e: Effect) -> Effect:
    p = dict(e.params)
    t = p.get("target") or {}
    k = e.kind
    if k in _THIS_COSTS and t.get("ref") == "this":
        return Effect(_THIS_COSTS[k], {})
    if k in _COSTS_AS:
        return Effect(_COSTS_AS[k], p)
    if k in ("to_waiting_room",):
        return Effect("move", {**p, "to": "waiting_room"})
    if k in _MOVE_COSTS:
        return Effect("move", {**p, "as": k})
    raise Unrecognised(0, 0, f"cost {k}")


# costs paid with this card; effects that are the same cost; moves paid as a cost (``as``: the move)
_THIS_COSTS = {"discard": "discard_this", "to_waiting_room": "this_to_waiting_room", "bounce": "return_this"}
_COSTS_AS = {"discard": "discard", "rest": "rest", "memory": "memory", "to_memory": "memory",
             "clock_damage": "clock_damage", "to_clock": "to_clock", "reveal_hand": "reveal", "draw": "draw"}
_MOVE_COSTS = frozenset(("move", "to_deck", "stock_discard", "stock_charge", "clock_heal", "to_stock", "salvage",
                         "shuffle", "to_hand", "put_on_stage", "mill", "level", "to_deck_from_stage"))


# ---------------------------------------------------------------------------------------------
# the trigger
# ---------------------------------------------------------------------------------------------
def _take_trigger(clauses: list[tuple[Clause, Sentence]], ctx: Ctx) -> tuple[Effect | None, list[tuple[Clause, Sentence]]]:
    if not clauses:
        return None, clauses
    triggers: list[Effect] = []
    rest = list(clauses)
    relatives: list[Clause] = []
    while rest:
        c, s = rest[0]
        if not triggers and not relatives and _is_alarm(c, s, rest):
            ctx.conditions.append(_condition(c))  # アラーム: a condition before the trigger
            rest = rest[1:]
            continue
        if c.pred is not None and c.pred.ending in _TRIGGER_ENDINGS:
            triggers.append(_trigger(c, relatives, ctx.card_type == REMINDER_CARD))
            relatives = []
            rest = rest[1:]
            if c.pred.ending not in ("時か", "ときか"):
                break
            continue
        lead = None if relatives else _leading_phase(c)
        if lead is not None:
            triggers.append(lead[0])
            rest[0] = (lead[1], s)
            break
        if not _modifies_trigger(c, s, rest):
            break
        relatives.append(c)
        rest = rest[1:]
    if not triggers or relatives:
        return None, clauses
    if len(triggers) == 1:
        return triggers[0], rest
    return Effect(triggers[0].kind, {**triggers[0].params, "or": [t.to_dict() for t in triggers[1:]]}), rest


_TRIGGER_ENDINGS = ("時", "時か", "とき", "ときか", "たびに", "場合")


def _is_alarm(c: Clause, s: Sentence, rest: list[tuple[Clause, Sentence]]) -> bool:
    """A …なら condition before the trigger (アラーム): a 時 clause or a phase phrase follows it."""
    if c.pred is None or not (c.pred.ending in ("なら", "ならば") or _is_condition_chain(c, s)):
        return False
    return any(x.pred is not None and x.pred.ending in ("時", "時か", "とき") or x.args and x.args[0].case == "に"
               and x.args[0].np is not None and phase(x.args[0].np) is not None for x, _ in rest[1:3])


def _leading_phase(c: Clause) -> tuple[Effect, Clause] | None:
    """A phase phrase leading the clause (あなたのアタックフェイズの始めに、…): the ``phase`` trigger
    and the clause without it."""
    if not c.args or c.args[0].np is None or c.args[0].case != "に":
        return None
    ph = phase(c.args[0].np)
    if ph is None or "when" not in ph:
        return None
    start = c.args[1].start if len(c.args) > 1 else c.pred.start if c.pred else c.end
    return Effect("phase", ph), Clause(c.args[1:], c.pred, c.conj, start, c.end)


def _modifies_trigger(c: Clause, s: Sentence, rest: list[tuple[Clause, Sentence]]) -> bool:
    """このカードの与えたダメージが… (a clause modifying the next noun) / このカードがプレイされて
    舞台に置かれた時: a clause the trigger after it reads."""
    if _is_relative(c) and len(rest) > 1 and rest[1][1] is s:
        return True
    return c.pred is not None and c.pred.kind == "suru" and c.pred.lemma == "プレイ" and c.pred.form == "pass_te"


_ATTACKS = {"attack": None, "front_attack": "front", "side_attack": "side", "direct_attack": "direct"}


def _is_relative(c: Clause) -> bool:
    """A predicate in a plain form, not followed by 、 nor an ending, modifies the noun after it."""
    p = c.pred
    return p is not None and not p.comma and p.ending is None and p.form in ("past", "end", "prog", "pass_past") \
        and p.kind in ("verb", "suru")


def _damage_trigger(c: Clause, subj: dict[str, Any], relatives: list[Clause]) -> Effect:
    """このカードの与えたダメージ / あなたの受けたダメージ / このカードをトリガーした攻撃キャラが次に与える
    ダメージ + がキャンセルされた(なかった)時."""
    p = c.pred
    assert p is not None
    params: dict[str, Any] = {}
    for r in relatives:
        _damage_relative(r, params)
        for arg in r.args:
            if arg.case == "中" and arg.np is not None and duration(arg.np, "中") is None \
                    and not (arg.np.has("ref", "this_det") and arg.np.has("time", "turn")):
                whose = turn_condition(arg.np, "中")
                if whose is None:
                    raise _fail(arg, "trigger")
                params["turn"] = whose
    if p.kind == "suru" and p.lemma == "キャンセル" and p.form in ("pass_past", "pass_neg_past"):
        params["cancelled"] = p.form == "pass_past"
        return Effect("damage_cancelled", params)
    raise _fail(c, "trigger")


def _damage_relative(r: Clause, params: dict[str, Any]) -> None:
    """…の与えた / …の受けた / …をトリガーした ダメージ: who deals it, who takes it, what triggered it."""
    ra = Args.of(r.args)
    rp = r.pred
    assert rp is not None
    agent_np = ra.np("が") or (ra.bare[-1].np if ra.bare else None)
    agent = _target(agent_np) if agent_np is not None else {}
    if rp.kind == "verb" and rp.lemma == "与える":
        params["by"] = agent.get("ref") or agent.get("who") or "?"
        if ra.np("に") is not None and _target(ra.np("に")).get("next"):  # type: ignore[arg-type]
            params["next"] = True
    elif rp.kind == "verb" and rp.lemma == "受ける":
        params["to"] = agent.get("who", "you")
        if set(agent) - {"who"}:
            raise _fail(r, "trigger")
    elif rp.kind == "suru" and rp.lemma == "トリガー":
        params["triggered_by"] = "this"
    else:
        raise _fail(r, "trigger")


def _trigger(c: Clause, relatives: list[Clause] | None = None, in_reminder: bool = False) -> Effect:
    """The trigger a clause ending in 時 names; every argument of the clause must be read."""
    read: list[Args] = []
    out = _trigger_of(c, relatives, in_reminder, read)
    left = read[-1].unread() if read else []
    if left:
        raise _fail(left[0], "trigger argument not read")
    return out


def _trigger_of(c: Clause, relatives: list[Clause] | None, in_reminder: bool, read: list[Args]) -> Effect:
    p = c.pred
    assert p is not None
    a = Args.of(c.args)
    read.append(a)
    subj = _subject(a)
    params: dict[str, Any] = {}
    during = a.by_case.pop("中", None)
    relatives, during = _turn_placed(relatives, during, params)
    if relatives:
        if subj.get("nouns") == ["damage"]:
            out = _damage_trigger(c, subj, relatives)
            a.consume_all()
            return Effect(out.kind, {**params, **out.params})
        c, a, subj = _played_and_placed(c, relatives, params)
        read.append(a)
    params.update(_who(subj))
    if during is not None and during.np is not None:
        t = turn_condition(during.np, "中")
        if not t:
            raise _fail(during, "trigger phrase")
        params["turn"] = t
    for arg in a.bare:
        raise _fail(arg, "trigger phrase")
    for test, build in _TRIGGER_PREDICATES:
        if test(p):
            return build(c, p, a, subj, params, in_reminder)
    raise _fail(c, "trigger")


def _subject(a: Args) -> dict[str, Any]:
    subj_np = a.np("が") or a.np("は")
    return _target(subj_np) if subj_np is not None else {}


def _turn_placed(relatives: list[Clause] | None, during: Arg | None, params: dict[str, Any]
                 ) -> tuple[list[Clause] | None, Arg | None]:
    """このカードが手札から舞台に置かれたターン中、…時: the ターン中 opens the next clause (or is the
    clause's own 中 argument): ``during`` = ``turn_placed``; the relatives and 中 argument left."""
    placed = relatives[0].pred if relatives else None
    if placed is None or placed.lemma != "置く" or placed.form != "pass_past":
        return relatives, during
    assert relatives is not None
    nxt = relatives[1] if len(relatives) > 1 else None
    if nxt is not None and nxt.args and nxt.args[0].case == "中" and nxt.args[0].np is not None \
            and nxt.args[0].np.text == "ターン":
        params["during"] = "turn_placed"
        return [Clause(nxt.args[1:], nxt.pred, nxt.conj, nxt.start, nxt.end), *relatives[2:]], during
    if during is not None and during.np is not None and during.np.text == "ターン":
        params["during"] = "turn_placed"
        return relatives[1:], None
    return relatives, during


def _played_and_placed(c: Clause, relatives: list[Clause], params: dict[str, Any]
                       ) -> tuple[Clause, Args, dict[str, Any]]:
    """このカードがプレイされて舞台に置かれた時: the subject is in the て-clause; the clause, its
    arguments and its subject with the て-clause's arguments joined."""
    first = relatives[0].pred
    assert first is not None
    if len(relatives) != 1 or first.kind != "suru" or first.lemma != "プレイ":
        raise _fail(relatives[0], "trigger")
    params["by"] = "play"
    c = Clause(relatives[0].args + c.args, c.pred, c.conj, relatives[0].start, c.end)
    a = Args.of(c.args)
    return c, a, _subject(a)


def _trig_placed(c: Clause, p: Pred, a: Args, subj: dict[str, Any], params: dict[str, Any], _: bool) -> Effect:
    """…に置かれた時: placed on the stage / the climax zone, leaving the stage, or moved."""
    to = a.np("に")
    frm = a.np("から")
    to_t = _target(to) if to is not None else {}
    frm_t = _target(frm) if frm is not None else {}
    by = a.np("で") or a.np("によって")
    if by is not None:
        params["by"] = _by(by)
    if a.by_case.get("として") is not None:
        params["as"] = _target(a.np("として") or by).get("nouns", ["?"])[0]  # type: ignore[arg-type]
    zone = to_t.get("zone")
    if zone == "climax_zone":
        if to_t.get("who"):
            params["who"] = to_t["who"]
        if frm_t.get("zone"):
            params["from"] = frm_t["zone"]
        return Effect("climax_placed", params)
    if zone in ("stage", "front_row", "back_row") or to_t.get("slot"):
        if frm_t:
            params["from"] = frm_t.get("zone")
        if zone != "stage":
            params["to"] = zone
        return Effect("placed", params)
    if frm_t.get("zone") in ("stage", "front_row", "back_row") or (zone and not frm_t and subj.get("ref") == "this"):
        kind = "leaves_stage"
    elif zone:
        kind = "card_moved"
    else:
        raise _fail(c, "trigger")
    params["to"] = zone
    if frm_t:
        params["from"] = frm_t.get("zone")
    return Effect(kind, params)


def _trig_returned(c: Clause, p: Pred, a: Args, subj: dict[str, Any], params: dict[str, Any], _: bool) -> Effect:
    to = a.np("に")
    params["to"] = _target(to).get("zone") if to is not None else None
    return Effect("card_moved", params)


def _trig_suru(c: Clause, p: Pred, a: Args, subj: dict[str, Any], params: dict[str, Any], in_reminder: bool) -> Effect:
    """アタックした / リバースした / レベルアップした / リフレッシュした… 時."""
    assert p.np is not None
    noun = _target(p.np)
    nouns = noun.get("nouns", [])
    state = noun.get("state")
    form = p.form
    if len(nouns) == 1 and nouns[0] in _ATTACKS and form in ("past", "pass_past", "pass"):
        if _ATTACKS[nouns[0]]:
            params["type"] = _ATTACKS[nouns[0]]
        return Effect("attacks" if form == "past" else "attacked", params)
    out = _reversed_trigger(a, subj, state, form, params)
    if out is not None:
        return out
    if nouns == ["level_up"] and form == "past":
        return Effect("level_up", params)
    if state in ("rested", "standing") and form in ("past", "pass_past"):
        return Effect("state_changed", {**params, "state": state})
    for word, build in _SURU_TRIGGERS:
        if nouns == [word]:
            out = build(c, form, a, params, in_reminder)
            if out is not None:
                return out
            break
    raise _fail(c, "trigger")


def _reversed_trigger(a: Args, subj: dict[str, Any], state: str | None, form: str, params: dict[str, Any]
                      ) -> Effect | None:
    """リバースした時: this card, or its battle opponent, was reversed."""
    among = a.np("で")
    if among is not None and _target(among).get("ref") == "battle_opponent" and state == "reversed":
        flt = {k: v for k, v in subj.items() if k not in ("ref",)}
        return Effect("battle_opponent_reversed", {**({"filter": flt} if flt else {})})
    if state != "reversed" or form not in ("past", "pass_past"):
        return None
    if subj.get("ref") == "battle_opponent" or subj.get("relative") == "battle":
        params.pop("ref", None)
        return Effect("battle_opponent_reversed", params)
    if subj.get("state") == "battling" and subj.get("ref") is None and subj.get("and_this"):
        return Effect("battle_opponent_reversed", params)
    return Effect("reversed", params)


def _trig_refresh(c: Clause, form: str, a: Args, params: dict[str, Any], _: bool) -> Effect | None:
    if form != "past":
        return None
    deck = a.np("を")  # あなたが山札をリフレッシュした時
    if deck is not None and _target(deck).get("zone") != "deck":
        raise _fail(c, "trigger")
    return Effect("refresh", params)


def _trig_triggered(c: Clause, form: str, a: Args, params: dict[str, Any], in_reminder: bool) -> Effect | None:
    if form == "past" and in_reminder:
        return Effect(REMINDER_TRIGGER, params)  # (…:このカードがトリガーした時、…): read for the icon only
    return None


def _trig_cancel(c: Clause, form: str, a: Args, params: dict[str, Any], _: bool) -> Effect | None:
    if form not in ("pass_past", "pass_neg_past"):
        return None
    params["cancelled"] = form == "pass_past"
    return Effect("damage_cancelled", params)


def _trig_play(c: Clause, form: str, a: Args, params: dict[str, Any], _: bool) -> Effect | None:
    if form not in ("past", "pass_past"):
        return None
    what = a.np("を")  # あなたがイベントをプレイした時
    return Effect("card_moved", {**params, "played": _target(what) if what is not None else True})


def _trig_activate(c: Clause, form: str, a: Args, params: dict[str, Any], _: bool) -> Effect | None:
    return Effect("ability_used", params) if form == "past" else None


_SURU_TRIGGERS: tuple[tuple[str, Callable[..., Effect | None]], ...] = (
    ("refresh", _trig_refresh), ("trigger", _trig_triggered), ("cancel", _trig_cancel), ("play", _trig_play),
    ("activate", _trig_activate),
)


def _trig_used(c: Clause, p: Pred, a: Args, subj: dict[str, Any], params: dict[str, Any], _: bool) -> Effect:
    obj = a.np("を")
    what = _target(obj) if obj is not None else {}
    params["what"] = what.get("marker") or (what.get("abilities") or [None])[0] or what.get("kind")
    if what.get("ref") == "this":
        params["of"] = "this"
    return Effect("ability_used", params)


def _trig_check(c: Clause, p: Pred, a: Args, subj: dict[str, Any], params: dict[str, Any], _: bool) -> Effect:
    where = a.np("で")
    if where is not None and _target(where).get("nouns", [None])[-1] == "trigger_check":
        return Effect("trigger_check", params)
    raise _fail(c, "trigger")


# (what the predicate of a 時 clause is, how the trigger is read), tried in order
_TRIGGER_PREDICATES: tuple[tuple[Callable[[Pred], bool], Callable[..., Effect]], ...] = (
    (lambda p: p.kind == "verb" and p.lemma == "置く" and p.form in ("pass_past", "pass"), _trig_placed),
    (lambda p: p.kind == "verb" and p.lemma in ("戻す", "加える") and p.form == "pass_past", _trig_returned),
    (lambda p: p.kind == "suru" and p.np is not None, _trig_suru),
    (lambda p: p.kind == "verb" and p.lemma == "使う" and p.form == "past", _trig_used),
    (lambda p: p.kind == "verb" and p.lemma in ("出る", "でる") and p.form == "past", _trig_check),
)


def _who(t: dict[str, Any]) -> dict[str, Any]:
    """The trigger's subject: this card (default) or other cards (a filter)."""
    if not t:
        return {}
    out: dict[str, Any] = {}
    if t.get("ref") == "this" and "relative" not in t:
        out["ref"] = "this"
        if t.get("state"):
            out["state"] = t["state"]
        if t.get("zone"):
            out["zone"] = t["zone"]
        return out
    if t.get("ref") in ("battle_opponent",):
        return {"ref": "battle_opponent"}
    return {"target": t}


def _by(np: NP) -> str:
    t = _target(np)
    if t.get("abilities"):
        return str(t["abilities"][0])
    if t.get("nouns"):
        return str(t["nouns"][-1])
    return np.text


# ---------------------------------------------------------------------------------------------
# conditions
# ---------------------------------------------------------------------------------------------
def _condition(c: Clause) -> Effect:
    """The condition a clause ending in なら states; every argument of the clause must be read."""
    read: list[Args] = []
    out = _condition_of(c, read)
    left = read[-1].unread() if read else []
    if left:
        raise _fail(left[0], "condition argument not read")
    return out


def _condition_of(c: Clause, read: list[Args]) -> Effect:
    p = c.pred
    assert p is not None
    a = Args.of(c.args)
    read.append(a)
    subj_np = a.np("が")
    subj = _target(subj_np) if subj_np is not None else None
    for test, build in _CONDITION_PREDICATES:
        if test(p, a, subj):
            out = build(c, p, a, subj)
            if out is not None:
                return out
    raise _fail(c, "condition")


def _cond_exists(c: Clause, p: Pred, a: Args, subj: dict[str, Any] | None) -> Effect:
    """…がある / いる / ない なら: a climax in the climax zone, this card's place, or a count."""
    present = p.form in ("end", "cont", "te")
    if p.form not in ("end", "neg", "cont", "te"):
        raise _fail(c, "condition")
    where_np = a.np("に")
    where = _target(where_np) if where_np is not None else {}
    if subj is None:
        raise _fail(c, "condition")
    cnt = _count(a.count())
    if where.get("zone") == "climax_zone":
        return _climax_in_zone(c, subj, where, present)
    if subj.get("ref") == "this" and not subj.get("relative"):
        return _this_position(c, subj, where, present)
    target = dict(subj)
    for key in ("zone", "position", "ref", "who", "slot"):
        if key in where and key not in target:
            target[key] = where[key]
    if where.get("ref") in ("those", "that") and "ref" not in subj:
        target["among"] = where["ref"]
    n, cmp_ = (cnt["count"], cnt.get("cmp", ">=")) if cnt else (1, ">=")
    if not present:
        cmp_, n = ("==", 0) if (cmp_, n) == (">=", 1) else (_CMP_NEG[cmp_], n)
    return Effect("count", {"target": target, "cmp": cmp_, "n": n})


def _climax_in_zone(c: Clause, subj: dict[str, Any], where: dict[str, Any], present: bool) -> Effect:
    out = {"who": where.get("who", "you")}
    if subj.get("names"):
        out["names"] = subj["names"]
    elif subj.get("kind") not in ("climax", "card", None):
        raise _fail(c, "condition")
    for key in ("traits", "colors"):
        if subj.get(key):
            out[key] = subj[key]
    if not present:
        out["none"] = True
    return Effect("climax_in_zone", out)


def _this_position(c: Clause, subj: dict[str, Any], where: dict[str, Any], present: bool) -> Effect:
    """このカードが前列にいる / 思い出にあるなら."""
    out = {key: where[key] for key in ("zone", "position", "slot") if key in where}
    if where.get("relative"):
        out["relative"] = where["relative"]
    if subj.get("zone") and not where:
        out["zone"] = subj["zone"]
    in_zone = where.get("zone") in ("clock", "memory", "hand", "level", "waiting_room", "stock")
    if not in_zone and not out:
        raise _fail(c, "condition")
    if not present:
        out["not"] = True
    return Effect("in_zone" if in_zone else "position", out)


def _cond_count(c: Clause, p: Pred, a: Args, subj: dict[str, Any] | None) -> Effect:
    """相手のクロックが2枚以上なら / 0枚なら."""
    if subj is None:
        raise _fail(c, "condition")
    cnt = _count(p.count)
    if "cmp" not in cnt and not cnt.get("upto"):
        cnt["cmp"] = "=="  # 相手のクロックが0枚なら
    if "cmp" not in cnt:
        raise _fail(c, "condition")
    return Effect("count", {"target": subj, "cmp": cnt["cmp"], "n": cnt["count"]})


def _cond_copula(c: Clause, p: Pred, a: Args, subj: dict[str, Any] | None) -> Effect:
    """…のレベルが2以上なら / そのカードが《音楽》のキャラなら / …のレベルが…のレベル以下なら."""
    assert p.np is not None
    value = _target(p.np)
    if subj is None:
        subj_np2 = a.np("は")
        if subj_np2 is None:
            raise _fail(c, "condition")
        subj = _target(subj_np2)
    attr = subj.get("attr")
    if attr and "number" in value and len(value) == 1:
        return _compare_number(subj, attr, *value["number"])
    if subj.get("ref") in ("that", "those", "this", "rest") or subj.get("all"):
        filt = dict(value)
        if not filt:
            raise _fail(c, "condition")
        if subj.get("ref") == "this" and set(filt) <= {"state"}:
            return Effect("state", {"ref": "this", "state": filt["state"]})
        return Effect("card_is", {"target": subj, "is": filt})
    if attr and value.get("cmp") and value.get("attr") == attr:
        # このカードのバトル相手のレベルがこのカードのレベル以下なら
        target = {k: v for k, v in subj.items() if k not in ("attr", "attrs")}
        than = {k: v for k, v in value.items() if k not in ("attr", "attrs", "cmp")}
        return Effect("compare", {"target": target, "attr": attr, "cmp": value["cmp"], "than": than})
    raise _fail(c, "condition")


def _compare_number(subj: dict[str, Any], attr: str, cmp_: str, n: Any) -> Effect:
    if attr == "level" and subj.get("who") in ("you", "opponent") and not subj.get("ref") and not subj.get("kind"):
        return Effect("level", {"who": subj["who"], "cmp": cmp_, "n": n})
    if attr == "total" and "level" in subj.get("attrs", []):
        return Effect("level_total", {"who": subj.get("who", "you"), "cmp": cmp_, "n": n})
    target = {k: v for k, v in subj.items() if k not in ("attr", "attrs")}
    return Effect("compare", {"target": target, "attr": attr, "cmp": cmp_, "n": n})


def _cond_is(c: Clause, p: Pred, a: Args, subj: dict[str, Any] | None) -> Effect:
    value = _target(a.bare[-1].np)  # type: ignore[arg-type]  # そのカードが《音楽》のキャラでないなら
    a.bare.pop()
    return Effect("card_is", {"target": subj, "is": value, **({"not": True} if p.form == "neg" else {})})


def _cond_comparative(c: Clause, p: Pred, a: Args, subj: dict[str, Any] | None) -> Effect:
    than = a.np("より")
    if subj is None or than is None:
        raise _fail(c, "condition")
    other = _target(than)
    cmp_ = ">" if p.lemma in ("高い", "多い") else "<"
    return Effect("compare", {"target": subj, "attr": subj.get("attr", "count"), "cmp": cmp_, "than": other})


def _cond_contains(c: Clause, p: Pred, a: Args, subj: dict[str, Any] | None) -> Effect:
    if subj is None:
        raise _fail(c, "condition")
    return Effect("card_is", {"target": subj, "is": _target(a.np("を")) if a.np("を") else {}})


def _cond_state(c: Clause, p: Pred, a: Args, subj: dict[str, Any] | None) -> Effect | None:
    state = _target(p.np).get("state")  # type: ignore[arg-type]
    if subj is not None and state:
        return Effect("state", {**_who(subj), "state": state, **({"not": True} if p.form == "prog_neg" else {})})
    return None


def _cond_done(c: Clause, p: Pred, a: Args, subj: dict[str, Any] | None) -> Effect:
    """その効果でクライマックスが控え室に置かれた(なかった)なら: what the effect before did."""
    what = p.lemma if p.kind == "verb" else _target(p.np).get("state") or p.lemma  # type: ignore[arg-type]
    out: dict[str, Any] = {"what": what}
    if "neg" in p.form:
        out["not"] = True  # その効果でクライマックスが控え室に置かれなかったなら
    cnt = _count(a.count())
    if cnt:
        out.update({"count": cnt["count"], "cmp": cnt.get("cmp", ">=")})
    if subj is not None:  # その効果でクライマックスが控え室に置かれたなら
        out["target"] = subj
    for case, key in (("に", "to"), ("を", "object"), ("で", "by")):
        np = a.np(case)
        if np is not None:
            out[key] = _target(np)
    return Effect("done", out)


_DONE_VERBS = ("置く", "戻す", "加える", "引く", "選ぶ", "払う")
_ConditionTest = Callable[[Pred, Args, dict[str, Any] | None], bool]
# (what the predicate of a なら clause is, how the condition is read), tried in order; a reader
# returning None passes the clause on to the next
_CONDITION_PREDICATES: tuple[tuple[_ConditionTest, Callable[..., Effect | None]], ...] = (
    (lambda p, a, s: p.kind == "verb" and p.lemma in ("ある", "いる"), _cond_exists),
    (lambda p, a, s: p.kind == "count", _cond_count),
    (lambda p, a, s: p.kind == "copula" and p.np is not None, _cond_copula),
    (lambda p, a, s: p.kind == "verb" and p.lemma == "だ" and bool(a.bare) and a.bare[-1].np is not None
     and s is not None, _cond_is),
    (lambda p, a, s: p.kind == "verb" and p.lemma in ("高い", "低い", "多い", "少ない") and p.form == "end",
     _cond_comparative),
    (lambda p, a, s: p.kind == "verb" and p.lemma == "含む", _cond_contains),
    (lambda p, a, s: p.kind == "suru" and p.np is not None and p.form in ("prog", "prog_neg"), _cond_state),
    (lambda p, a, s: p.form in ("past", "pass_past", "pass_neg_past", "neg_past") and (
        p.kind == "verb" and p.lemma in _DONE_VERBS or p.kind == "suru" and p.np is not None), _cond_done),
)


# ---------------------------------------------------------------------------------------------
# the body
# ---------------------------------------------------------------------------------------------
def _body(clauses: list[tuple[Clause, Sentence]], ctx: Ctx,
          compile_nested: Callable[[str, str], tuple[Ability, ...]], grants: list[Piece]) -> None:
    pending_grants = list(grants)
    current: Sentence | None = None
    skip: set[int] = set()
    for c, s in clauses:
        if id(c) in skip:
            continue
        if s is not current:
            current = s
            _new_sentence(ctx)
        if c.pred is None:
            _conjunction(c, ctx)
        elif not _body_condition(c, s, ctx, skip):
            _body_effect(c, s, ctx, compile_nested, pending_grants)
    if pending_grants:
        raise Unrecognised(pending_grants[0].start, pending_grants[0].end, "granted ability")


def _new_sentence(ctx: Ctx) -> None:
    """Each sentence names its actor again; the duration, for-each and modifiers end with the
    sentence, the condition too unless it is sticky (そうでないなら)."""
    ctx.prev_actor, ctx.actor = ctx.actor, "you"
    ctx.last_cond = ctx.cond
    if not ctx.sticky_cond:
        ctx.cond = None
    ctx.sticky_cond = False
    ctx.per = None
    ctx.duration = None
    ctx.modifiers = {}


def _body_condition(c: Clause, s: Sentence, ctx: Ctx, skip: set[int]) -> bool:
    """A clause that limits or conditions the ability (or defines X): read it; False when the
    clause is an effect."""
    assert c.pred is not None
    if _is_limit(c):
        ctx.conditions.append(Effect("times_per_turn", {"times": _limit_times(c)}))
    elif _is_x_definition(c):
        _define_x(c, ctx)
    elif c.pred.ending in ("なら", "ならば") and _next_is_play_ban(c, s):
        # このカードは、…なら、手札からプレイできない: a condition on playing the card, not on its effect
        c = Clause(tuple(x for x in c.args if x.case != "は"), c.pred, c.conj, c.start, c.end)
        cond = _condition(_strip_leading(c, ctx))
        ctx.conditions.append(Effect("play_requirement", {"cannot_if": cond.to_dict()}))
        skip.add(id(s.clauses[[x.start for x in s.clauses].index(c.start) + 1]))
    elif c.pred.ending in ("なら", "ならば") or c.pred.kind in ("copula", "count") or _is_condition_chain(c, s):
        cond = _condition(_strip_leading(c, ctx))
        if ctx.started:
            ctx.cond = cond.to_dict()
        else:
            ctx.conditions.append(cond)
    else:
        return _is_pay_cost(c)
    return True


def _body_effect(c: Clause, s: Sentence, ctx: Ctx, compile_nested: Callable[[str, str], tuple[Ability, ...]],
                 pending_grants: list[Piece]) -> None:
    """An effect clause, or a comparative relative clause that filters the next clause's noun."""
    rel = _comparative_relative(c, s)
    if rel is not None:
        ctx.rel = rel  # 相手の、レベルが相手のレベルより高いキャラを…: a filter on the next clause's noun
        return
    if ctx.rel is not None:
        c = _with_filter(c, *ctx.rel)
        ctx.rel = None
    _effect_clause(c, ctx, compile_nested, pending_grants)


_COMPARATIVES = {"高い": ">", "低い": "<", "多い": ">", "少ない": "<"}


def _comparative_relative(c: Clause, s: Sentence) -> tuple[dict[str, Any], tuple[Arg, ...]] | None:
    """``(相手の、)レベルが相手のレベルより高い`` right before a noun: (filter, arguments to carry on)."""
    p = c.pred
    if p is None or p.kind != "verb" or p.lemma not in _COMPARATIVES or p.form != "end" or p.comma or p.ending:
        return None
    if not [x for x in s.clauses if x.start > c.start]:
        return None
    a = Args.of(c.args)
    subj, than = a.np("が"), a.np("より")
    if subj is None or than is None:
        return None
    st, tt = _target(subj), _target(than)
    attr = st.get("attr")
    if attr is None or tt.get("attr") != attr:
        return None
    flt: dict[str, Any] = {"compare": {"attr": attr, "cmp": _COMPARATIVES[p.lemma],
                                       "than": {k: v for k, v in tt.items() if k not in ("attr", "attrs")}}}
    if st.get("who"):
        flt["who"] = st["who"]  # 相手の、レベルが…: whose characters
    left = [k for k in st if k not in ("attr", "attrs", "who")]
    if left:
        return None
    carried = tuple(x for x in c.args if x.case not in ("が", "より"))
    return flt, carried


def _with_filter(c: Clause, flt: dict[str, Any], carried: tuple[Arg, ...]) -> Clause:
    """The clause after a relative clause: its first noun phrase gets the filter; the relative
    clause's other arguments (あなたは) come first."""
    args = list(c.args)
    for i, arg in enumerate(args):
        if arg.np is not None:
            np = NP(arg.np.items + (Item("filter", flt, ""),), arg.np.start, arg.np.end)
            args[i] = Arg(arg.case, np, arg.count, arg.start, arg.end)
            break
    else:
        raise _fail(c, "relative clause")
    new_args = tuple(carried) + tuple(args)
    return Clause(new_args, c.pred, c.conj, min([c.start] + [x.start for x in carried]), c.end)


def _next_is_play_ban(c: Clause, s: Sentence) -> bool:
    starts = [x.start for x in s.clauses]
    if c.start not in starts or starts.index(c.start) + 1 >= len(starts):
        return False
    nxt = s.clauses[starts.index(c.start) + 1]
    p = nxt.pred
    subj = Args.of(c.args).np("は")
    return p is not None and p.kind == "suru" and p.lemma == "プレイ" and p.form == "pot_neg" \
        and subj is not None and subj.text == "このカード"


def _is_condition_chain(c: Clause, s: Sentence) -> bool:
    """前列にこのカードがいて、…なら / クロックの1番上にあり、…なら: a condition going on to another."""
    p = c.pred
    if p is None or p.kind != "verb" or p.lemma not in ("ある", "いる") or p.form not in ("cont", "te"):
        return False
    later = [x for x in s.clauses if x.start > c.start]
    return any(x.pred is not None and (x.pred.ending in ("なら", "ならば") or x.pred.kind in ("copula", "count"))
               for x in later)


def _strip_leading(c: Clause, ctx: Ctx) -> Clause:
    """Leading phrases of a clause that set the scene: durations, turn conditions, per-each."""
    args = list(c.args)
    if ctx.started and args and args[0].case == "に" and args[0].np is not None and phase(args[0].np):
        ctx.modifiers["at"] = phase(args[0].np)  # アンコールステップの始めに、そのキャラが舞台にいるなら、…
        args.pop(0)
    while args and args[0].case in ("中", None) and args[0].np is not None:
        np = args[0].np
        d = duration(np, args[0].case)
        t = turn_condition(np, "中") if args[0].case == "中" else None
        if d == "this_battle" and ctx.kind in ("continuous", "climax"):
            ctx.conditions.append(Effect("state", {"ref": "this", "state": "battling"}))  # このカードのバトル中、
        elif d:
            ctx.duration = d
        elif t:
            ctx.conditions.append(Effect("turn", {"whose": t}))
        else:
            break
        args.pop(0)
    return Clause(tuple(args), c.pred, c.conj, c.start, c.end)


def _conjunction(c: Clause, ctx: Ctx) -> None:
    if c.conj.startswith("keyword:"):
        ctx.keywords.append(KEYWORDS[c.conj[len("keyword:"):]])
        return
    if c.conj in ("そうしたら", "そうした場合"):
        ctx.then = "done"
    elif c.conj in ("そうしないなら", "そうしなかったら"):
        ctx.then = "not_done"
    elif c.conj in ("その後", "さらに"):
        pass
    elif c.conj == "そうでないなら":
        if ctx.cond is None and ctx.last_cond is not None:
            ctx.cond = ctx.last_cond  # …なら、A。そうでないなら、B: the condition of the sentence before
        if ctx.cond is None and ctx.conditions and ctx.effects:
            # …なら、A。そうでないなら、B: A and B both happen under opposite conditions
            cond = ctx.conditions.pop().to_dict()
            ctx.effects[:] = [e if "if" in e.params else Effect(e.kind, {**e.params, "if": cond})
                              for e in ctx.effects]
            ctx.cond = cond
        if ctx.cond is not None:
            ctx.cond = {"not": ctx.cond}
        else:
            raise _fail(c, "conjunction")
        ctx.sticky_cond = True
    else:
        raise _fail(c, "conjunction")


def _is_pay_cost(c: Clause) -> bool:
    p = c.pred
    if p is None or p.kind != "verb" or p.lemma not in ("払う", "支払う"):
        return False
    obj = Args.of(c.args).np("を")
    return obj is not None and obj.text == "コスト"


def _is_x_definition(c: Clause) -> bool:
    p = c.pred
    if p is None or p.kind != "verb" or p.lemma != "等しい":
        return False
    subj = Args.of(c.args).np("は")
    return subj is not None and subj.text == "X"


def _define_x(c: Clause, ctx: Ctx) -> None:
    a = Args.of(c.args)
    np = a.np("に")
    if np is None:
        raise _fail(c, "X")
    x = _target(np)
    if not x:
        raise _fail(c, "X")
    found = False
    effects = []
    for e in ctx.effects:
        if _uses_x(e.params):
            effects.append(Effect(e.kind, {**e.params, "x": x}))
            found = True
        else:
            effects.append(e)
    ctx.effects[:] = effects
    if not found:
        if any(_uses_x(cd.params) for cd in ctx.conditions):
            ctx.conditions[:] = [Effect(cd.kind, {**cd.params, "x": x}) if _uses_x(cd.params) else cd
                                 for cd in ctx.conditions]
            return
        raise _fail(c, "X")


def _uses_x(params: Any) -> bool:
    if isinstance(params, dict):
        return any(_uses_x(v) for k, v in params.items() if k != "x")
    if isinstance(params, list):
        return any(_uses_x(v) for v in params)
    return params in ("X", "-X")


# ---------------------------------------------------------------------------------------------
# effects
# ---------------------------------------------------------------------------------------------
def _effect_clause(c: Clause, ctx: Ctx, compile_nested: Callable[[str, str], tuple[Ability, ...]],
                   grants: list[Piece]) -> None:
    p = c.pred
    assert p is not None
    c = _delayed(_carried(c, ctx), ctx)
    a = Args.of(c.args)
    _scene(c, a, ctx)
    _actor(a, ctx)
    handler = _HANDLERS.get(_handler_key(p))
    if handler is None:
        raise _fail(c, "effect")
    handler(c, a, ctx, compile_nested, grants)
    left = a.unread()
    if left:
        raise _fail(left[0], "argument not read")


def _carried(c: Clause, ctx: Ctx) -> Clause:
    """The clause with the arguments of the て-form clause before it (for this verb)."""
    if not ctx.carry:
        return c
    c = Clause(ctx.carry + c.args, c.pred, c.conj, min(ctx.carry[0].start, c.start), c.end)
    ctx.carry = ()
    return c


def _delayed(c: Clause, ctx: Ctx) -> Clause:
    """ターンの終わりに、このカードを思い出にする: after an effect, a phase phrase delays the effect
    (``modifiers.at``); the clause without it."""
    if not ctx.started:
        return c
    for arg in c.args:
        if arg.case == "に" and arg.np is not None and phase(arg.np) is not None:
            ctx.modifiers["at"] = phase(arg.np)
            return Clause(tuple(x for x in c.args if x is not arg), c.pred, c.conj, c.start, c.end)
    return c


def _scene(c: Clause, a: Args, ctx: Ctx) -> None:
    """Scene-setting phrases: このカードのバトル中、/ そのターン中 / あなたのターン中 / …まで (a duration
    or a turn condition), …につき (for each)."""
    for arg in list(a.bare):
        if arg.np is not None and duration(arg.np, None):
            ctx.duration = duration(arg.np, None)  # このカードのバトル中、
            a.bare.remove(arg)
    for arg in c.args:
        if arg.case == "中" and arg.np is not None:
            _during(arg, ctx)
            a.by_case.pop("中", None)
    until = a.by_case.get("まで")
    if until is not None and until.np is not None and duration(until.np, "まで"):
        ctx.duration = duration(until.np, "まで")
        del a.by_case["まで"]
    per = a.by_case.get("につき")
    if per is not None:
        ctx.per = _per_count(per, a) if per.count is not None else _per(per)
        del a.by_case["につき"]


def _during(arg: Arg, ctx: Ctx) -> None:
    """…中: a duration, or a turn condition (on the ability before any effect, else on the
    effects after it)."""
    assert arg.np is not None
    d = duration(arg.np, "中")
    t = turn_condition(arg.np, "中")
    if d:
        ctx.duration = d
    elif t and not ctx.started:
        ctx.conditions.append(Effect("turn", {"whose": t}))
    elif t:
        ctx.cond = {"kind": "turn", "params": {"whose": t}}
    else:
        raise _fail(arg, "during")


def _actor(a: Args, ctx: Ctx) -> None:
    """あなたは / 相手は / お互いのプレイヤーは: who does the effect (the は argument is then read)."""
    actor = a.np("は")
    ctx.actor_here = False
    if actor is None:
        return
    at = _target(actor)
    if at.get("who") in ("you", "opponent", "both") and set(at) <= {"who", "all", "player"}:
        ctx.actor = at["who"] if not at.get("all") else "both"
    elif at.get("player") and set(at) <= {"player", "all"}:
        ctx.actor = "both"
    else:
        return
    ctx.actor_here = True
    del a.by_case["は"]


def _handler_key(p: Pred) -> str:
    if p.kind == "verb":
        return p.lemma
    if p.kind == "change":
        return "+N"
    if p.kind == "suru":
        if p.np is None:
            return "する"
        words = [i for i in p.np.items]
        if len(words) == 1:
            return words[0].text
        return p.np.text
    return p.kind


def _per(arg: Arg) -> dict[str, Any]:
    if arg.np is None:
        raise _fail(arg, "per")
    return _target(arg.np)


def _per_count(arg: Arg, a: Args) -> dict[str, Any]:
    """``《音楽》のキャラ1枚につき``: the phrase before the count is what is counted."""
    prev = [x for x in a.bare if x.end <= arg.start and x.np is not None]
    if prev and prev[-1].np is not None:
        a.bare.remove(prev[-1])
        out = _target(prev[-1].np)
        if arg.count is not None and arg.count.n != 1:
            out["per_count"] = arg.count.n
        return out
    raise _fail(arg, "per")


def _optional(p: Pred) -> bool:
    return p.may


def _object(a: Args, ctx: Ctx) -> dict[str, Any] | None:
    """The を-object of a clause (with its count), or the cards chosen before."""
    obj = a.np("を")
    cnt = a.count()
    if obj is not None and obj.text == "同じ枚数":  # 自分の山札の上から同じ枚数を: a count
        t = _target(a.np("から")) if a.np("から") is not None else {}  # type: ignore[arg-type]
        t["count"] = "same"
        return t
    if obj is not None:
        t = _target(obj)
        if t.get("ref") == "that" and set(t) <= {"ref", "kind"}:
            # そのキャラ / そのカード: the cards chosen or moved before; そのキャラ must be a character
            # (else the trigger's: the battle opponent, the character that left the stage)
            sel = ctx.selection
            if sel is not None and (t.get("kind") in (None, "card") or sel.get("kind") == t.get("kind")):
                return dict(sel)
            if ctx.trigger_ref is not None and t.get("kind") in (None, "character"):
                return dict(ctx.trigger_ref)
        if cnt is not None:
            t.update(_count(cnt))
        return t
    if cnt is not None:
        t = {}
        frm = a.np("から")
        if frm is not None:
            t.update(_target(frm))
        t.update(_count(cnt))
        return t
    if ctx.selection is not None:
        return dict(ctx.selection)
    return None


def _dest(np: NP | None) -> dict[str, Any]:
    return _target(np) if np is not None else {}


def _zone_of(t: dict[str, Any], ctx: Ctx) -> str | None:
    if t.get("zone"):
        return str(t["zone"])
    if t.get("ref") in ("that", "those", "rest") and ctx.source is not None:
        return str(ctx.source.get("zone", "deck"))
    if t.get("ref") == "this":
        return "stage" if ctx.kind not in ("event", "counter", "climax") else "resolving"
    if t.get("ref") in ("battle_opponent",) or t.get("relative"):
        return "stage"
    if t.get("kind") == "climax" and not t.get("ref"):
        return "climax_zone"  # 自分のクライマックスを1枚選び: the one in the climax zone
    if t.get("kind") == "character" and not t.get("zone"):
        return "stage"
    return None


def _move(c: Clause, a: Args, ctx: Ctx, dest: dict[str, Any], optional: bool) -> None:
    """A card move: what (object / selection), from where, to where → the named kind."""
    obj = _object(a, ctx)
    if obj is None:
        raise _fail(c, "what")
    src = _move_source(obj, a.np("から"), ctx)
    to = dest.get("zone")
    pos = obj.get("position")
    params: dict[str, Any] = {"target": obj}
    for k in ("count", "upto", "each"):
        if k in obj:
            params[k] = obj.pop(k)
    if ctx.modifiers.get("state"):
        params["state"] = ctx.modifiers.pop("state")
    if dest.get("zones"):  # 山札の上か控え室に置く: the player chooses where
        _move_to_either(ctx, params, src, dest, optional)
        return
    kind = _move_kind(src, to, pos, obj.get("who", "you"), obj, dest, ctx)
    if kind == "mill" and ctx.source is not None and ctx.source.get("mode") == "brainstorm" \
            and obj.get("ref") == "those":
        return  # 集中: めくり、控え室に置く is the brainstorm itself
    if kind is None:
        raise _fail(c, f"move {src}->{to}")
    _move_ends(kind, params, src, to, pos, dest)
    if ctx.source is not None and src == ctx.source.get("zone") and (
            obj.get("ref") in ("that", "those", "rest") or ctx.source.get("mode") in ("search", "look")
            and obj.get("ref") is None and not obj.get("position")):
        params.setdefault("among", ctx.source.get("mode"))
    if kind == "look" and ctx.effects and ctx.effects[-1].kind == "look":
        last = ctx.effects.pop()
        ctx.emit("look", {**last.params, "to": params["to"]}, optional)
        return
    ctx.emit(kind, params, optional)
    if obj.get("ref") not in ("this",):
        ctx.selection = {**obj, "ref": "that"} if obj.get("ref") != "those" else obj


def _move_source(obj: dict[str, Any], frm_np: NP | None, ctx: Ctx) -> str | None:
    """Where the moved cards are: the object's zone, else the から phrase's (whose player and
    position then complete the object)."""
    src = _zone_of(obj, ctx)
    if frm_np is not None and not obj.get("zone"):
        ft = _target(frm_np)
        src = ft.get("zone", src)
        for k in ("who", "position"):
            if k in ft and k not in obj:
                obj[k] = ft[k]
    return src


def _move_to_either(ctx: Ctx, params: dict[str, Any], src: str | None, dest: dict[str, Any], optional: bool) -> None:
    """山札の上か控え室に置く: the player chooses where (after 山札を見て: where the looked-at cards go)."""
    where = "_or_".join(("top" if z == "deck" and dest.get("position") == "top" else z) for z in dest["zones"])
    if ctx.source is not None and ctx.source.get("mode") == "look" and src == "deck" \
            and ctx.effects and ctx.effects[-1].kind == "look":
        last = ctx.effects.pop()
        ctx.emit("look", {**last.params, "to": where}, optional)
        return
    ctx.emit("move", {**params, "from": src, "to": where}, optional)


def _move_ends(kind: str, params: dict[str, Any], src: str | None, to: str | None, pos: str | None,
               dest: dict[str, Any]) -> None:
    """The ``from`` / ``to`` params each move kind carries."""
    if kind == "move":
        params.update({"from": src, "to": to or dest})
    elif kind in ("put_on_stage", "move_slot"):
        params["to"] = {k: v for k, v in dest.items()} or "stage"
        params["from"] = src
    elif kind in ("to_deck", "to_deck_from_stage", "look"):
        params["to"] = dest.get("position", to)
        if kind == "to_deck":
            params["from"] = src
    elif kind == "stock_charge":
        params["from"] = "deck_top" if src == "deck" and pos in ("top", None) else src
    elif kind in ("to_hand",):
        params["from"] = src


_STAGE = ("stage", "front_row", "back_row")
_SLOT_POSITIONS = ("this_slot", "that_slot", "any_slot", "empty_slot", "separate_slots")


def _move_kind(src: str | None, to: str | None, pos: str | None, owner: str, obj: dict[str, Any],
               dest: dict[str, Any], ctx: Ctx) -> str | None:
    by_dest = _MOVES_TO.get(to)  # type: ignore[arg-type]
    if by_dest is not None:
        return by_dest(src, owner in ("you",), obj, ctx)
    if to in _STAGE or dest.get("slot") or dest.get("position") in _SLOT_POSITIONS:
        return "move_slot" if src in _STAGE else "put_on_stage"
    if to in ("level", "climax_zone"):
        return "move"
    if dest.get("ref") in ("this", "that") and dest.get("position") == "bottom":
        return "move"  # このカードの下にマーカーとして置く
    return None


def _to_stock(src: str | None, mine: bool, obj: dict[str, Any], ctx: Ctx) -> str | None:
    if src in _STAGE and obj.get("ref") != "this" and (not mine or obj.get("ref") == "that"):
        return "to_stock"
    return "stock_charge"


_TO_WAITING_ROOM = {"clock": "clock_heal", "hand": "discard", "deck": "mill", "stock": "stock_discard",
                    **dict.fromkeys((*_STAGE, "resolving"), "to_waiting_room"),
                    **dict.fromkeys(("memory", "level", "climax_zone", "marker"), "move")}


def _to_waiting_room(src: str | None, mine: bool, obj: dict[str, Any], ctx: Ctx) -> str | None:
    kind = _TO_WAITING_ROOM.get(src)  # type: ignore[arg-type]
    if kind is not None:
        return kind
    if obj.get("kind") == "marker":
        return "move"
    if obj.get("ref") in ("rest",) and ctx.source is not None:
        return "mill"
    return "move" if src else None


def _to_hand(src: str | None, mine: bool, obj: dict[str, Any], ctx: Ctx) -> str | None:
    if src == "waiting_room":
        return "salvage"
    if src == "deck":
        return "search" if ctx.source is not None and ctx.source.get("mode") in ("search", "look") else "to_hand"
    if src in _STAGE:
        return "bounce"
    if src in ("clock", "stock", "level", "memory", "climax_zone", "resolving") or obj.get("kind") == "marker":
        return "to_hand"
    return None


def _to_clock(src: str | None, mine: bool, obj: dict[str, Any], ctx: Ctx) -> str | None:
    if src == "deck":
        return "clock_damage"
    if src in _STAGE or src == "resolving":
        return "to_clock"
    return "move" if src else None


def _to_memory(src: str | None, mine: bool, obj: dict[str, Any], ctx: Ctx) -> str | None:
    return "to_memory" if src in _STAGE and not mine else "memory"


def _to_deck(src: str | None, mine: bool, obj: dict[str, Any], ctx: Ctx) -> str | None:
    if src in _STAGE:
        return "to_deck_from_stage"
    if src == "deck" and ctx.source is not None and ctx.source.get("mode") == "look":
        return "look"
    return "to_deck"


# the move kind by destination zone: (source zone, the mover's own cards?, object, ctx) → kind
_MOVES_TO: dict[str, Callable[[str | None, bool, dict[str, Any], Ctx], str | None]] = {
    "stock": _to_stock, "waiting_room": _to_waiting_room, "hand": _to_hand, "clock": _to_clock,
    "memory": _to_memory, "deck": _to_deck,
}


# -- handlers ----------------------------------------------------------------------------------
Handler = Callable[[Clause, Args, Ctx, Callable[[str, str], tuple[Ability, ...]], list[Piece]], None]


def _h_draw(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    cnt = a.count()
    if cnt is None or a.by_case or a.bare:
        raise _fail(c, "draw")
    ctx.emit("draw", _count(cnt), _optional(c.pred))  # type: ignore[arg-type]


def _h_put(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    dest_np = a.np("に") or a.np("へ")
    if dest_np is None:
        raise _fail(c, "where")
    dest = _dest(dest_np)
    for arg in a.bare:
        t = _target(arg.np) if arg.np is not None else {}
        if t.get("nouns") == ["as_marker"]:
            dest["as_marker"] = True
        elif _is_face(t):
            dest["face"] = t["state"]
        else:
            raise _fail(arg, "put")
    a.bare_ok = True
    for arg in list(a.extra):  # このカードの下にマーカーとして裏向きに置く
        t = _target(arg.np) if arg.np is not None else {}
        if arg.case == "に" and _is_face(t):
            dest["face"] = t["state"]
            a.extra.remove(arg)
    _put_order(c, a.np("で"), dest)
    _put_as(c, a.np("として"), dest)
    _move(c, a, ctx, dest, _optional(c.pred))  # type: ignore[arg-type]


def _is_face(t: dict[str, Any]) -> bool:
    """裏向きに / 表向きに: only a face-down / face-up state."""
    return t.get("state") in ("face_down", "face_up") and set(t) == {"state"}


def _put_order(c: Clause, order: NP | None, dest: dict[str, Any]) -> None:
    """好きな順番で / 元の順番で / 裏向きで."""
    if order is None:
        return
    ot = _target(order)
    if ot.get("position") == "any_order" or ot.get("nouns") == ["original_order"]:
        dest["order"] = "any" if ot.get("position") == "any_order" else "original"
    elif _is_face(ot):
        dest["face"] = ot["state"]
    else:
        raise _fail(c, "put")


def _put_as(c: Clause, as_: NP | None, dest: dict[str, Any]) -> None:
    """防御キャラとして置く / マーカーとして置く."""
    if as_ is None:
        return
    at = _target(as_)
    if at.get("nouns") == ["defender"]:
        dest["as"] = "defender"
    elif at == {"kind": "marker"}:
        dest["as_marker"] = True
    else:
        raise _fail(c, "put")


def _h_return(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    dest_np = a.np("に")
    if dest_np is None:
        raise _fail(c, "where")
    dest = _dest(dest_np)
    if dest.get("nouns") == ["original"]:
        ctx.emit("rule_change", {"what": "return_revealed"})
        return
    _move(c, a, ctx, dest, _optional(c.pred))  # type: ignore[arg-type]


def _h_add(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    dest_np = a.np("に")
    if dest_np is None or _dest(dest_np).get("zone") != "hand":
        raise _fail(c, "add")
    _move(c, a, ctx, {"zone": "hand"}, _optional(c.pred))  # type: ignore[arg-type]


def _h_choose(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    if c.pred is not None and c.pred.form in ("pass_neg", "pot_neg"):
        # このカードは相手の効果に選ばれない
        subj = a.np("は") or a.np("が")
        by = a.np("に")
        ctx.emit("restriction", {"what": "be_chosen", "target": _target(subj) if subj else {"ref": "this"},
                                 **({"by": _target(by)} if by is not None else {})})
        return
    obj = a.np("を")
    cnt = a.count()
    if obj is None:
        raise _fail(c, "choose")
    t = _target(obj)
    frm = a.np("から")
    if frm is not None:  # 自分のクロックを上から1枚選び
        ft = _target(frm)
        if set(ft) - {"position"}:
            raise _fail(c, "choose")
        t.update(ft)
    if cnt is not None:
        t.update(_count(cnt))
    if ctx.source is not None and ctx.source.get("mode") in ("search", "look") and not t.get("zone") \
            and t.get("ref") is None:
        t["zone"] = ctx.source.get("zone", "deck")
    for arg in a.bare:
        raise _fail(arg, "choose")
    ctx.selection = t
    if c.pred is not None and c.pred.form in ("end",):
        ctx.emit("choose", {"target": t})
    else:
        ctx.pending_choice = True


def _h_look(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    obj = a.np("を")
    t = _target(obj) if obj is not None else {}
    if t.get("zone") in ("hand", "stock") and set(t) <= {"zone", "who"}:
        # あなたは相手の手札を見る / 自分のストックを上から1枚見る
        frm = a.np("から")
        cnt = a.count()
        params = {"zone": t["zone"], "who": t.get("who", "self")}
        if frm is not None:
            params["position"] = _target(frm).get("position")
        if cnt is not None:
            params.update(_count(cnt))
        ctx.source = {"zone": t["zone"], "mode": "look"}
        ctx.selection = {"ref": "those", "zone": t["zone"]}
        ctx.emit("look", params, _optional(c.pred))  # type: ignore[arg-type]
        return
    if t.get("zone") != "deck":
        if t.get("ref") in ("that", "those"):
            return  # そのカードを見て: looking at a revealed card
        raise _fail(c, "look")
    frm = a.np("から")
    cnt = a.count()
    if frm is None and cnt is None:
        ctx.source = {"zone": "deck", "mode": "search", "who": t.get("who", "you")}
        return
    params: dict[str, Any] = {"count": cnt.n if cnt else 1}
    if cnt is not None and cnt.upto == "まで":
        params["upto"] = True
    if t.get("who") == "opponent":
        params["deck_of"] = "opponent"
    ctx.source = {"zone": "deck", "mode": "look", **params}
    ctx.selection = {"ref": "those", "zone": "deck"}
    ctx.emit("look", params, _optional(c.pred))  # type: ignore[arg-type]


def _h_show(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    to = a.np("に")
    if to is None or _target(to).get("who") != "opponent":
        raise _fail(c, "show")
    if ctx.selection is not None:
        ctx.selection = {**ctx.selection, "show": True}


def _h_give(c: Clause, a: Args, ctx: Ctx, compile_nested: Callable[[str, str], tuple[Ability, ...]],
            grants: list[Piece]) -> None:
    obj = a.np("を")
    to = a.np("に")
    if c.pred is not None and c.pred.ending == "ことができない" and obj is not None and obj.text == "ダメージ":
        subj = a.np("は")  # このカードはプレイヤーにダメージを与えることができない
        ctx.emit("restriction", {"what": "deal_damage", "target": _target(subj) if subj is not None else {"ref": "this"},
                                 **({"to": _target(to)} if to is not None else {})})
        return
    if obj is not None and _is_damage(obj):
        _burn(c, obj, to, ctx)
        return
    if obj is None:
        raise _fail(c, "give")
    target = _target(to) if to is not None else (ctx.stat_target or ctx.selection or {"ref": "that"})
    _grant(c, obj, target, ctx, compile_nested, grants)


def _is_damage(obj: NP) -> bool:
    return obj.has("noun", "damage") or any(i.cls == "num" and i.value[1] == "ダメージ" for i in obj.items)


def _burn(c: Clause, obj: NP, to: NP | None, ctx: Ctx) -> None:
    """相手に1ダメージを与える."""
    amount = next((i.value[0] for i in obj.items if i.cls == "num" and i.value[1] == "ダメージ"), None)
    if amount is None or to is None:
        raise _fail(c, "damage")
    who = _target(to)
    ctx.emit("burn", {"amount": amount, "target": who.get("who", "opponent")}, _optional(c.pred))  # type: ignore[arg-type]


def _h_gain(c: Clause, a: Args, ctx: Ctx, compile_nested: Callable[[str, str], tuple[Ability, ...]],
            grants: list[Piece]) -> None:
    obj = a.np("を")
    subj = a.np("は") or a.np("が")
    if obj is None:
        raise _fail(c, "gain")
    target = _target(subj) if subj is not None else (ctx.stat_target or ctx.selection or {"ref": "this"})
    _grant(c, obj, target, ctx, compile_nested, grants)


def _grant(c: Clause, obj: NP, target: dict[str, Any], ctx: Ctx,
           compile_nested: Callable[[str, str], tuple[Ability, ...]], grants: list[Piece]) -> None:
    what = _target(obj)
    if what.get("traits") and set(what) <= {"traits", "match"}:  # 《怠惰》と《勤勉》を得る: every one
        ctx.emit("grant_trait", {"traits": what["traits"], "target": target})
        return
    if what.get("nouns") == ["ability_named"] and what.get("abilities"):
        del what["nouns"]  # 『…』という能力を与える
    texts: list[str] = list(what.get("abilities", []))
    if what.get("nouns") == ["next_ability"] or what.get("nouns") == ["ability"] and what.get("next"):
        if not grants:
            raise _fail(c, "granted ability")
        texts = [grants.pop(0).text]
        while grants and grants[0].start == 0:
            texts.append(grants.pop(0).text)
    if not texts:
        raise _fail(c, "give")
    abilities: list[dict[str, Any]] = []
    for t in texts:
        compiled = compile_nested(t, "character")
        for ab in compiled:
            if ab.unrecognised is not None:
                raise Unrecognised(c.start, c.end, "granted ability", phrase=ab.unrecognised)
            abilities.append(ab.to_dict())
    ctx.emit("grant_ability", {"abilities": abilities, "target": target})


def _h_change(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    p = c.pred
    assert p is not None
    obj = a.np("を")
    if obj is None and a.bare and a.bare[-1].np is not None:
        obj = a.bare.pop().np  # パワー+1000: the particle left out
    if obj is None:
        raise _fail(c, "what")
    t = _target(obj)
    attr = t.pop("attr", None)
    t.pop("attrs", None)
    if attr not in ("power", "soul", "level", "cost"):
        raise _fail(c, "attribute")
    to = a.np("に")
    if to is not None:
        target = _target(to)
    elif t:
        target = t
    elif ctx.stat_target is not None:
        target = ctx.stat_target
    elif ctx.selection is not None:
        target = ctx.selection
    else:
        target = {"ref": "this"} if ctx.kind not in ("event", "counter") else {}
        if not target:
            raise _fail(c, "whose")
    for arg in a.bare:
        raise _fail(arg, "change")
    ctx.stat_target = target
    kind = "level" if attr == "level" else attr
    if attr == "cost":
        ctx.emit("cost_change", {"amount": _amount(p.value), "target": target})
        return
    ctx.emit(kind, {"amount": _amount(p.value), "target": target})


def _h_shuffle(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    obj = a.np("を")
    if obj is None:
        raise _fail(c, "shuffle")
    t = _target(obj)
    if t.get("zone") != "deck":
        raise _fail(c, "shuffle")
    who = t.get("who") or (ctx.prev_actor if t.get("ref") == "those" else "self")
    ctx.emit("shuffle", {"who": who})
    ctx.source = None


def _h_state(state: str) -> Handler:
    def handler(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
        p = c.pred
        assert p is not None
        obj = _object(a, ctx)
        if obj is None and p.form in ("neg", "pass_neg", "pot_neg"):
            obj = {"ref": "this"}
        if obj is None:
            raise _fail(c, state)
        if p.form == "te" and not p.may:
            # 【レスト】して置く: the state the next verb puts the card in; its arguments carry over
            ctx.modifiers["state"] = {"rest": "rested", "stand": "standing", "reverse": "reversed"}[state]
            ctx.carry = tuple(c.args)
            a.consume_all()  # read by the verb after it
            return
        if p.form in ("neg", "pass_neg", "pot_neg"):
            # このカードはあなたのスタンドフェイズに【スタンド】しない / …の効果によって【リバース】されない
            subj = a.np("は") or a.np("が")
            params = {"what": state if p.form == "neg" else f"be_{state}d" if p.form == "pass_neg" else state,
                      "target": _target(subj) if subj is not None else obj}
            when = a.np("に")
            if when is not None:
                params["when"] = phase(when) or _target(when)
            by = a.np("によって") or a.np("で")
            if by is not None:
                params["by"] = _target(by)
            ctx.emit("restriction", params)
            return
        params = {"target": obj}
        for k in ("count", "upto"):
            if k in obj:
                params[k] = obj.pop(k)
        ctx.emit(state, params, _optional(p))
        if obj.get("ref") != "this":
            ctx.selection = {**obj, "ref": "that"}
    return handler


def _h_suru_bare(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    """``…にする``: 思い出にする (memory), 裏向きにする / 表向きにする."""
    to = a.np("に")
    if to is None:
        raise _fail(c, "する")
    dest = _target(to)
    if dest.get("zone") == "memory":
        _move(c, a, ctx, {"zone": "memory"}, _optional(c.pred))  # type: ignore[arg-type]
        return
    if dest.get("state") in ("face_down", "face_up"):
        obj = _object(a, ctx)
        ctx.emit("move", {"target": obj, "to": dest["state"]})
        return
    raise _fail(c, "する")


def _h_reveal(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    obj = a.np("を")
    cnt = a.count()
    frm = a.np("から")
    t = _target(obj) if obj is not None else {}
    if frm is not None:
        t.update(_target(frm))
    if cnt is not None:
        t.update(_count(cnt))
    zone = t.get("zone")
    if zone == "deck":
        ctx.source = {"zone": "deck", "mode": "reveal", "count": t.get("count", 1)}
        ctx.emit("reveal", {"count": t.get("count", 1), **({"upto": True} if t.get("upto") else {})},
                 _optional(c.pred))  # type: ignore[arg-type]
        ctx.selection = {"ref": "those", "zone": "deck"}
        return
    if zone == "hand":
        ctx.emit("reveal_hand", {"target": t}, _optional(c.pred))  # type: ignore[arg-type]
        return
    if t.get("ref") in ("that", "those"):
        ctx.emit("reveal", {"target": t})
        return
    raise _fail(c, "reveal")


def _h_flip(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    """めくる: 集中 (山札の上からN枚をめくり、控え室に置く)."""
    obj = a.np("を")
    cnt = a.count()
    frm = a.np("から")
    t = _target(frm) if frm is not None else (_target(obj) if obj is not None else {})
    if t.get("zone") != "deck" or cnt is None:
        raise _fail(c, "flip")
    ctx.source = {"zone": "deck", "mode": "brainstorm", "count": cnt.n}
    ctx.selection = {"ref": "those", "zone": "deck", "count": cnt.n}
    ctx.emit("brainstorm", {"count": cnt.n})


def _h_pay(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    raise _fail(c, "pay")


def _h_swap(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    obj = _object(a, ctx)
    ctx.emit("move_slot", {"target": obj or {}, "swap": True}, _optional(c.pred))  # type: ignore[arg-type]


def _h_move_slot(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    obj = _object(a, ctx)
    to = a.np("に")
    if obj is None or to is None:
        raise _fail(c, "move")
    ctx.emit("move_slot", {"target": obj, "to": _target(to)}, _optional(c.pred))  # type: ignore[arg-type]


def _h_restriction(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    p = c.pred
    assert p is not None
    subj_np = a.np("は") or a.np("が")
    if p.np is None:
        raise _fail(c, "restriction")
    what = _target(p.np).get("nouns", [])
    if p.form == "te_even" and what:  # サイドアタックしても…: the clause after says what does not happen
        ctx.modifiers["even_if"] = {"what": what[-1],
                                    "target": _target(subj_np) if subj_np is not None else {"ref": "this"}}
        return
    if p.form not in ("pot_neg", "neg", "pass_neg"):
        raise _fail(c, "restriction")
    if not what:
        raise _fail(c, "restriction")
    params: dict[str, Any] = {"what": what[-1] if p.form != "pass_neg" else f"be_{what[-1]}ed"}
    if subj_np is not None:
        params["target"] = _target(subj_np)
    elif not ctx.actor_here:
        params["target"] = {"ref": "this"}
    else:
        params["player"] = ctx.actor  # あなたは / 相手は…できない: the player is restricted
    obj = a.np("を")
    if obj is not None:  # 相手はイベントを手札からプレイできない
        params["cards"] = _target(obj)
    when = a.np("に")
    if when is not None:  # 自分のクライマックスフェイズに
        ph = phase(when)
        if ph is None:
            raise _fail(c, "restriction")
        params["when"] = ph
    frm = a.np("から")
    if frm is not None:
        params["from"] = _target(frm).get("zone")
    ctx.emit("restriction", params)


def _h_treat(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    subj = a.np("は")
    as_ = a.by_case.get("としても") or a.by_case.get("として")
    if subj is None or as_ is None or as_.np is None:
        raise _fail(c, "treat")
    st = _target(subj)
    names = _target(as_.np).get("names")
    if st.get("attr") == "name" and names:
        ctx.emit("name_alias", {"names": names, "target": {k: v for k, v in st.items() if k not in ("attr", "attrs")}})
        return
    raise _fail(c, "treat")


def _h_perform(c: Clause, a: Args, ctx: Ctx, compile_nested: Callable[[str, str], tuple[Ability, ...]],
               grants: list[Piece]) -> None:
    obj = a.np("を")
    if obj is None:
        raise _fail(c, "perform")
    t = _target(obj)
    if t.get("nouns") in (["next_action"],) and grants:
        _perform_next(c, ctx, compile_nested, grants.pop(0).text)
        return
    if t.get("nouns") == ["chosen_mode"] and len(grants) >= 2:
        _perform_modal(c, ctx, compile_nested, grants)
        return
    if t.get("nouns") == ["effect"] and (t.get("ref") == "that"):
        return  # その効果を行う (after a choice of modes)
    icons = [n for n in t.get("nouns", []) if str(n).startswith("icon:")]
    if t.get("nouns", [])[-1:] == ["effect"] and set(t) == {"nouns"} and len(t["nouns"]) <= 2:
        # (待@)の効果を行う: the icon's glyph is often lost; the reminder after it names it
        ctx.emit("trigger_effect", {"icon": icons[0][5:] if icons else "?"})
        return
    raise _fail(c, "perform")


def _perform_next(c: Clause, ctx: Ctx, compile_nested: Callable[[str, str], tuple[Ability, ...]], text: str) -> None:
    """次の行動を行う。『…』: the action's effects compiled as an event's text."""
    for ab in compile_nested(text, "event"):
        if ab.unrecognised is not None:
            raise Unrecognised(c.start, c.end, f"action: {ab.unrecognised}")
        for e in ab.effects:
            ctx.emit(e.kind, dict(e.params))


def _perform_modal(c: Clause, ctx: Ctx, compile_nested: Callable[[str, str], tuple[Ability, ...]],
                   grants: list[Piece]) -> None:
    """以下の効果のうちあなたが選んだ1つを行う。『A』『B』: each option compiled as an event's text."""
    options: list[list[dict[str, Any]]] = []
    while grants:
        option: list[dict[str, Any]] = []
        for ab in compile_nested(grants.pop(0).text, "event"):
            if ab.unrecognised is not None:
                raise Unrecognised(c.start, c.end, "option", phrase=ab.unrecognised)
            option.extend(e.to_dict() for e in ab.effects)
        options.append(option)
    ctx.emit("modal", {"choose": 1, "options": options}, _optional(c.pred))  # type: ignore[arg-type]


def _h_put_in(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    """このカードと同じカード名のカードは、デッキに好きな枚数(8枚まで)入れることができる."""
    to = a.np("に")
    subj = a.np("は")
    cnt = a.count()
    if to is None or "deck_list" not in _target(to).get("nouns", []) or cnt is None:
        raise _fail(c, "put in")
    ctx.emit("rule_change", {"what": "deck_limit", "count": cnt.n,
                             "target": _target(subj) if subj is not None else {"ref": "this"}})


def _h_use(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    """相手は『【自】アンコール』を使えない."""
    p = c.pred
    obj = a.np("を")
    if p is None or p.form != "pot_neg" or obj is None:
        raise _fail(c, "use")
    what = _target(obj)
    ctx.emit("restriction", {"what": "use", "ability": (what.get("abilities") or [what.get("marker")])[0],
                             "player": ctx.actor})


def _h_move_slot_or_restrict(c: Clause, a: Args, ctx: Ctx, *rest: Any) -> None:
    p = c.pred
    if p is not None and p.form in ("pot_neg", "neg", "pass_neg"):
        subj = a.np("は") or a.np("が")
        to = a.np("に")
        ctx.emit("restriction", {"what": "move", "target": _target(subj) if subj is not None else {"ref": "this"},
                                 **({"to": _target(to)} if to is not None else {})})
        return
    _h_move_slot(c, a, ctx, *rest)


def _h_decrease(c: Clause, a: Args, ctx: Ctx, *_: Any) -> None:
    """(このカードはサイドアタックしても)ソウルが減少しない."""
    p = c.pred
    even = ctx.modifiers.pop("even_if", None)
    subj = a.np("が")
    if p is None or p.form != "neg" or even is None or subj is None or _target(subj) != {"attr": "soul", "attrs": ["soul"]}:
        raise _fail(c, "decrease")
    ctx.emit("rule_change", {"what": f"no_soul_penalty_on_{even['what']}", "target": even["target"]})


_HANDLERS: dict[str, Handler] = {
    "減少": _h_decrease,
    "入れる": _h_put_in,
    "使う": _h_use,
    "引く": _h_draw,
    "置く": _h_put,
    "おく": _h_put,
    "戻す": _h_return,
    "加える": _h_add,
    "選ぶ": _h_choose,
    "見る": _h_look,
    "見せる": _h_show,
    "与える": _h_give,
    "得る": _h_gain,
    "+N": _h_change,
    "シャッフル": _h_shuffle,
    "【レスト】": _h_state("rest"),
    "【スタンド】": _h_state("stand"),
    "【リバース】": _h_state("reverse"),
    "する": _h_suru_bare,
    "公開": _h_reveal,
    "めくる": _h_flip,
    "払う": _h_pay,
    "入れ替える": _h_swap,
    "動かす": _h_move_slot_or_restrict,
    "扱う": _h_treat,
    "行う": _h_perform,
    "サイドアタック": _h_restriction,
    "フロントアタック": _h_restriction,
    "アタック": _h_restriction,
    "ダイレクトアタック": _h_restriction,
    "プレイ": _h_restriction,
}


# ---------------------------------------------------------------------------------------------
# reminders
# ---------------------------------------------------------------------------------------------
def _reminder(r: Piece, ctx: Ctx, keywords: list[str],
              compile_nested: Callable[[str, str], tuple[Ability, ...]]) -> None:
    text = r.text
    head, sep, body = text.partition(":")
    if not sep or len(head) > 3:
        head, body = "", text
        if text[:1] in ICONS and text[1:].startswith("このカード"):  # (宝このカードが…: the colon lost
            head, body = text[0], text[1:]
    if "トリガーした" in body[:20]:
        icon = next((ICONS[ch] for ch in head if ch in ICONS), None)
        if icon is None:
            icon = _icon_of(compile_nested("【自】" + body, REMINDER_CARD))
        if icon is None:
            raise Unrecognised(r.start, r.end, "trigger icon reminder")
        keywords.append(f"icon:{icon}")
        ctx.effects[:] = [Effect(e.kind, {**e.params, "icon": icon}) if e.kind == "trigger_effect" else e
                          for e in ctx.effects]
        return
    if text.startswith("ダメージキャンセルは発生"):
        ctx.effects[:] = [Effect(e.kind, {**e.params, "cancellable": True}) if e.kind == "burn" else e
                          for e in ctx.effects]
        return
    # other reminders restate rules (アンコール, 絆, 助太刀, 大活躍, 公開したカードは元に戻す...)


def _icon_of(abilities: tuple[Ability, ...]) -> str | None:
    """The trigger icon a reminder explains, from what its compiled text does."""
    if len(abilities) != 1 or not abilities[0].compiled:
        return None
    ab = abilities[0]
    kinds = [e.kind for e in ab.effects]
    if ab.trigger is not None and ab.trigger.kind == "damage_cancelled" or "burn" in kinds and ab.trigger is None:
        return "shot"
    if kinds == ["salvage"]:
        target = ab.effects[0].params.get("target") or {}
        return "gate" if target.get("kind") == "climax" else "comeback"
    icon = _ICON_BY_EFFECTS.get(tuple(kinds))
    if icon is not None:
        return icon
    if kinds[:1] == ["to_hand"] and "stock_charge" in kinds:
        return "treasure"
    return "shot" if "burn" in kinds else None


# a reminder's effect kinds → the trigger icon it explains
_ICON_BY_EFFECTS = {("bounce",): "return", ("draw",): "draw", ("stock_charge",): "pool", ("put_on_stage",): "standby"}
