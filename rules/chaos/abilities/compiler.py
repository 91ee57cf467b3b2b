"""Chaos card text → :class:`~rules.abilities.Ability` (see :mod:`.grammar` for the text's shape)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer, Tree
from lark.exceptions import UnexpectedInput

from rules.abilities import Ability, Effect

from .grammar import parser

# Tag (as printed, English or Japanese) → segment kind.
TAGS: dict[str, str] = {
    "always": "always", "常時": "always", "ally": "ally", "味方": "ally", "partner": "partner",
    "パートナー": "partner", "嫁": "partner", "main": "main", "battle": "battle", "use": "use", "使用": "use",
    "登場": "summon_condition", "summon": "summon_condition", "levelup": "levelup_condition",
    "level up": "levelup_condition", "レベルアップ": "levelup_condition",
}
_TAG = re.compile(r"[\[【]\s*(" + "|".join(sorted(map(re.escape, TAGS), key=len, reverse=True)) + r")\s*[\]】]",
                  re.IGNORECASE)
_SENTENCE = re.compile(r"[^.。]+[.。]?")
KEYWORDS = {"penetrate": "penetrate", "first strike": "first_strike", "first defense": "first_defense",
            "maintain": "maintain", "貫通": "penetrate", "先制攻撃": "first_strike", "先制防御": "first_defense",
            "維持": "maintain"}


class NotUnderstood(Exception):
    def __init__(self, phrase: str) -> None:
        super().__init__(phrase)
        self.phrase = phrase


@dataclass
class _Sentence:
    """One compiled sentence: its trigger, conditions and effects (or a keyword / a condition)."""

    trigger: Effect | None = None
    once_per_turn: bool = False
    effects: list[Effect] = field(default_factory=list)
    keyword: Effect | None = None
    condition: Effect | None = None


class _Reader(Transformer):
    """Parse tree → effects; ``original`` is the sentence before lower-casing (names, traits)."""

    def __init__(self, original: str, state: dict[str, Any]) -> None:
        super().__init__()
        self.original = original
        self.state = state  # shared by the sentences of one ability: the character chosen ("it")

    @property
    def chosen(self) -> dict[str, Any] | None:
        return self.state.get("chosen")

    @chosen.setter
    def chosen(self, value: dict[str, Any]) -> None:
        self.state["chosen"] = value

    def _orig(self, tok: Token) -> str:
        return self.original[tok.start_pos:tok.end_pos]

    # sentences
    def effect_sentence(self, items: list[Any]) -> _Sentence:
        out = _Sentence()
        for item in items[:-1]:
            if item == "once_per_turn":
                out.once_per_turn = True
            elif isinstance(item, Effect):
                out.trigger = item
        out.effects = items[-1]
        return out

    def condition_sentence(self, items: list[Any]) -> _Sentence:
        return _Sentence(condition=items[0])

    def keyword_sentence(self, items: list[Any]) -> _Sentence:
        name = KEYWORDS[str(items[0])]
        params: dict[str, Any] = {"name": name}
        if len(items) > 1:
            params["cost"] = items[1]
        return _Sentence(keyword=Effect("keyword", params))

    def maintain_cost(self, items: list[Any]) -> dict[str, Any]:
        return {"discard": int(items[0])}

    # openers
    def once_per_turn(self, _: list[Any]) -> str:
        return "once_per_turn"

    def then(self, _: list[Any]) -> str:
        return "then"

    def when(self, items: list[Any]) -> Effect:
        who, (kind, extra) = items
        return Effect(kind, {"who": who, **extra})

    def at_start(self, items: list[Any]) -> Effect:
        return Effect(items[0])

    def p_turn(self, _: list[Any]) -> str:
        return "turn_start"

    def p_battle_phase(self, _: list[Any]) -> str:
        return "battle_phase_start"

    def s_this(self, _: list[Any]) -> str:
        return "this"

    def s_equipped(self, _: list[Any]) -> str:
        return "equipped"

    def s_opponent_character(self, _: list[Any]) -> str:
        return "opponent_character"

    def s_partner(self, _: list[Any]) -> str:
        return "partner"

    def s_it(self, _: list[Any]) -> str:
        return "it"

    def e_attacks(self, _: list[Any]) -> tuple[str, dict[str, Any]]:
        return ("attacks", {})

    def e_summoned(self, _: list[Any]) -> tuple[str, dict[str, Any]]:
        return ("summoned", {})

    def e_levels_up(self, _: list[Any]) -> tuple[str, dict[str, Any]]:
        return ("levels_up", {})

    def e_stuns(self, _: list[Any]) -> tuple[str, dict[str, Any]]:
        return ("stuns", {})

    def e_stunned(self, _: list[Any]) -> tuple[str, dict[str, Any]]:
        return ("stunned", {})

    def e_would_be_stunned(self, _: list[Any]) -> tuple[str, dict[str, Any]]:
        return ("stunned", {"would_be": True})

    # clauses
    def clauses(self, items: list[Any]) -> list[Effect]:
        out: list[Effect] = []
        for item in items:
            if isinstance(item, list):
                out.extend(item)
        return out

    def clause(self, items: list[Any]) -> list[Effect]:
        return items[0]

    def may(self, items: list[Any]) -> list[Effect]:
        return [Effect(e.kind, {**e.params, "optional": True}) for e in items[0]]

    def if_done(self, items: list[Any]) -> list[Effect]:
        return [Effect(e.kind, {**e.params, "if": [{"kind": "if_done"}]}) for e in items[0]]

    def either(self, items: list[Any]) -> list[Effect]:
        left, right = items
        return [Effect("choose", {"options": [[e.to_dict() for e in left], [e.to_dict() for e in right]]})]

    # actions
    def draw(self, items: list[Any]) -> list[Effect]:
        return [Effect("draw", {"count": int(items[0]), "player": "self"})]

    def each_draw(self, items: list[Any]) -> list[Effect]:
        return [Effect("draw", {"count": int(items[0]), "player": "each"})]

    def discard(self, items: list[Any]) -> list[Effect]:
        return [Effect("discard", {"count": int(items[0])})]

    def look(self, items: list[Any]) -> list[Effect]:
        count = int(items[0]) if isinstance(items[0], Token) and items[0].type == "INT" else 1
        return [Effect("look", {"count": count})]

    def choose_character(self, items: list[Any]) -> list[Effect]:
        self.chosen = {"choose": int(items[0]), "side": items[1]}
        if len(items) > 2:
            self.chosen["in_battle"] = True
        return []

    def choose_waiting_room(self, items: list[Any]) -> list[Effect]:
        self.chosen = {"choose": int(items[0]), "what": "character", "zone": "waiting_room"}
        return []

    def side_own(self, _: list[Any]) -> str:
        return "own"

    def side_opponent(self, _: list[Any]) -> str:
        return "opponent"

    def put_n_hand(self, items: list[Any]) -> list[Effect]:
        return [Effect("to_hand", {"source": "looked", "count": int(items[0])})]

    def put_it_hand(self, _: list[Any]) -> list[Effect]:
        chosen = self.chosen or {}
        return [Effect("to_hand", {"source": chosen.get("zone", "chosen"), "count": chosen.get("choose", 1),
                                   **({"what": chosen["what"]} if "what" in chosen else {})})]

    def rest_waiting_room(self, _: list[Any]) -> list[Effect]:
        return [Effect("to_waiting_room", {"target": "rest_looked"})]

    def this_waiting_room(self, items: list[Any]) -> list[Effect]:
        if items:  # "... instead": the replacement of a stun
            return [Effect("replace_stun", {"target": "equipped", "instead": "to_waiting_room"})]
        return [Effect("to_waiting_room", {"target": "this"})]

    def _target(self, who: str) -> Any:
        if who == "it":
            if self.chosen is None:
                return {"ref": "this"}
            return dict(self.chosen)
        return {"ref": who}

    def gets(self, items: list[Any]) -> list[Effect]:
        params: dict[str, Any] = {"target": self._target(items[0]), **items[1]}
        if len(items) > 2:
            params["until"] = "end_of_turn"
        return [Effect("stat_mod", params)]

    def mods(self, items: list[Any]) -> dict[str, int]:
        out: dict[str, int] = {}
        for tok in items:
            m = re.fullmatch(r"(atk|def)([+\-]\d+)", str(tok))
            assert m is not None
            out[m.group(1)] = out.get(m.group(1), 0) + int(m.group(2))
        return out

    def gains(self, items: list[Any]) -> list[Effect]:
        return [Effect("grant", {"target": self._target(items[0]), "keyword": KEYWORDS[str(items[1])]})]

    def cannot_attack(self, items: list[Any]) -> list[Effect]:
        return [Effect("cannot_attack", {"target": self._target(items[0])})]

    def equip(self, items: list[Any]) -> list[Effect]:
        return [Effect("equip", {"target": items[0]})]

    def eq_own_character(self, _: list[Any]) -> dict[str, Any]:
        return {"choose": 1, "side": "own"}

    def eq_partner(self, _: list[Any]) -> dict[str, Any]:
        return {"ref": "partner"}

    # conditions
    def condition(self, items: list[Any]) -> Any:
        return items[0]

    def partner_trait(self, items: list[Any]) -> Effect:
        return Effect("partner_is", {"trait": self._orig(items[0]).strip("[]")})

    def partner_name(self, items: list[Any]) -> Effect:
        return Effect("partner_is", {"name": self._orig(items[0]).strip("「」")})

    def field_trait_one(self, items: list[Any]) -> Effect:
        return Effect("field_has", {"trait": self._orig(items[-1]).strip("[]"), "min": 1})

    def field_trait_many(self, items: list[Any]) -> Effect:
        return Effect("field_has", {"trait": self._orig(items[1]).strip("[]"), "min": int(items[0])})

    def field_name(self, items: list[Any]) -> Effect:
        return Effect("field_has", {"name": self._orig(items[0]).strip("「」"), "min": 1})


def _sentence(text: str, state: dict[str, Any] | None = None) -> _Sentence:
    original = " ".join(text.split())
    lowered = original.lower()
    try:
        tree: Tree = parser().parse(lowered)
    except UnexpectedInput:
        raise NotUnderstood(text) from None
    reader = _Reader(original, state if state is not None else {})
    return reader.transform(tree).children[0]


def _segments(text: str) -> list[tuple[str, str]]:
    """``[Tag] text`` pieces of a card text; untagged text has the tag ``""``."""
    out: list[tuple[str, str]] = []
    for line in text.replace("\r", "").split("\n"):
        line = line.strip()
        if not line:
            continue
        pos = 0
        tag = ""
        for m in _TAG.finditer(line):
            chunk = line[pos:m.start()].strip()
            if chunk:
                out.append((tag, chunk))
            tag = TAGS[m.group(1).lower()]
            pos = m.end()
        chunk = line[pos:].strip()
        if chunk or tag:
            out.append((tag, chunk))
    return out


def _sentences(chunk: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(chunk) if s.strip(" .。")]


def compile_chaos_text(text: str | None, card_type: str = "character") -> tuple[Ability, ...]:
    """Compile a Chaos card's text; see :func:`rules.chaos.abilities.compile_text`."""
    if not text or not text.strip() or text.strip() in ("-", "－"):
        return ()
    abilities: list[Ability] = []
    use_conditions: list[Effect] = []
    for tag, chunk in _segments(text):
        if tag in ("use", "summon_condition", "levelup_condition"):
            conds, bad = _chunk_conditions(chunk)
            if tag != "use":
                abilities.append(Ability(kind=tag, text=chunk, conditions=tuple(conds), unrecognised=bad))
                continue
            if bad:
                abilities.append(Ability(kind="event", text=f"【Use】{chunk}", unrecognised=bad))
            use_conditions.extend(conds)
            continue
        kind = {"always": "always", "ally": "ally", "partner": "partner", "main": "event", "battle": "event",
                "": "set" if card_type == "set" else "event" if card_type == "event" else "always"}[tag]
        base_conditions: list[Effect] = []
        if tag in ("main", "battle"):  # an event's timing, and the 【Use】 conditions read before it
            base_conditions.append(Effect("timing", {"timing": tag.upper()}))
            base_conditions.extend(use_conditions)
            use_conditions = []
        abilities.extend(_compile_chunk(kind, chunk, base_conditions))
    return tuple(abilities)


def _chunk_conditions(chunk: str) -> tuple[list[Effect], str | None]:
    """A 【Use】 / 【登場】 / 【LEVELUP】 chunk's sentences → its conditions and the first phrase that
    is not one (None when all are)."""
    conds: list[Effect] = []
    bad: str | None = None
    for sentence in _sentences(chunk):
        try:
            compiled = _sentence(sentence)
        except NotUnderstood as exc:
            bad = bad or exc.phrase
            continue
        if compiled.condition is None:
            bad = bad or sentence
        else:
            conds.append(compiled.condition)
    return conds, bad


def _compile_chunk(kind: str, chunk: str, conditions: list[Effect]) -> list[Ability]:
    """One tagged chunk → abilities: a keyword sentence is its own ability, and so is each sentence
    that opens with a trigger (``When …``, ``At the start of …``)."""
    out: list[Ability] = []
    current: dict[str, Any] | None = None
    state: dict[str, Any] = {}

    def flush() -> None:
        nonlocal current
        if current is not None:
            out.append(Ability(kind=kind, text=" ".join(current["text"]), trigger=current["trigger"],
                               conditions=tuple(conditions + current["conditions"]),
                               effects=tuple(current["effects"]), once_per_turn=current["once"],
                               unrecognised=current["bad"]))
        current = None

    for sentence in _sentences(chunk):
        try:
            compiled = _sentence(sentence, state)
        except NotUnderstood as exc:
            if current is None:
                current = {"text": [], "trigger": None, "conditions": [], "effects": [], "once": False, "bad": None}
            current["text"].append(sentence)
            current["bad"] = current["bad"] or exc.phrase
            continue
        if compiled.keyword is not None:
            flush()
            name = compiled.keyword.params["name"]
            out.append(Ability(kind="keyword", text=sentence, keywords=(name,), effects=(compiled.keyword,)))
            continue
        if compiled.condition is not None:
            flush()
            out.append(Ability(kind=kind, text=sentence, unrecognised=sentence))
            continue
        if compiled.trigger is not None or current is None:
            flush()
            current = {"text": [], "trigger": compiled.trigger, "conditions": [], "effects": [], "once": False,
                       "bad": None}
        current["text"].append(sentence)
        current["effects"].extend(compiled.effects)
        if compiled.once_per_turn:
            current["once"] = True
            current["conditions"].append(Effect("once_per_turn"))
    flush()
    if not out and kind == "event":
        out.append(Ability(kind=kind, text=chunk, conditions=tuple(conditions), unrecognised=chunk or "(empty)"))
    return out
