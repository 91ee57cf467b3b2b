"""Reading a noun phrase of Weiß Schwarz text into a target description (a JSON-able dict).

``describe(np)`` walks the words of a noun phrase (:class:`.syntax.NP`) and fills a dict:

``who`` (``you`` / ``opponent`` / ``both``), ``ref`` (``this`` = このカード, ``that`` = the card
chosen or named before, ``those``, ``rest``, ``battle_opponent``, ``each``), ``relative`` (a slot
relative to ``ref``: ``opposite``, ``front``, ``behind``, ``next_to``), ``other`` (他の), ``zone``
(hand, deck, waiting_room, clock, stock, stage, front_row, back_row, level, memory, climax_zone),
``position`` (top / bottom / center...), ``kind`` (character, card, climax, event, marker),
``all`` (すべて), ``traits`` / ``names`` / ``name_contains`` / ``colors`` (lists; ``か`` makes them
alternatives), ``level`` / ``cost`` / ``power`` (``[cmp, n]``), ``state`` (rested, standing,
reversed, battling...), ``has_ability`` (『…』を持つ), ``except`` (…以外), ``attr`` (the phrase
names an attribute of the target: このカードのパワー → attr power). A word the reader cannot place
raises :class:`Unplaced` with the word's span, so the clause counts as not understood.

``duration(np)``, ``phase(np)``: the time phrases (そのターン中, 次の相手のターンの終わりまで,
あなたのアタックフェイズの始め).
"""
from __future__ import annotations

from typing import Any

from .syntax import NP, Item


class Unplaced(Exception):
    """A word of a noun phrase the reader does not understand in its place."""

    def __init__(self, item: Item | None, np: NP, why: str = "") -> None:
        super().__init__(why or (item.text if item else np.text))
        self.item = item
        self.np = np


_CMP = {"以上": ">=", "以下": "<="}
_FILTERS = {"trait": "traits", "has_trait": "traits", "name": "names", "name_contains": "name_contains",
            "color": "colors", "has_ability": "has_ability"}
_RELATIVE = {"opposite": "opposite", "front": "front", "behind": "behind", "next_to": "next_to"}
_STATE_WORDS = {"rest": "rested", "stand": "standing", "reverse": "reversed"}


def _add(t: dict[str, Any], key: str, value: Any) -> None:
    values = t.setdefault(key, [])
    if value not in values:
        values.append(value)


def describe(np: NP) -> dict[str, Any]:
    """The target a noun phrase names (see the module docstring)."""
    t: dict[str, Any] = {}
    items = np.items
    n = len(items)
    i = 0
    last_attr: str | None = None
    # 《勇者》かカード名に「主人公」を含むキャラ: か between filters of different kinds → any of them
    filters = [it.cls if it.cls != "noun" else it.value for it in items
               if it.cls in _FILTERS or it.cls == "noun" and it.value in ("or", "and")]
    for a, b, c in zip(filters, filters[1:], filters[2:], strict=False):
        if b == "or" and a in _FILTERS and c in _FILTERS and _FILTERS[a] != _FILTERS[c]:
            t["match"] = "any"
        elif b == "and" and a in _FILTERS and c in _FILTERS:
            t["match"] = "all"  # 思い出置場に「A」と「B」があるなら: every one of them
    while i < n:
        it = items[i]
        cls, v = it.cls, it.value
        nxt = items[i + 1] if i + 1 < n else None
        if cls == "of":
            i += 1
            continue
        if cls == "player":
            if v in ("you", "opponent", "both", "self"):
                if "who" in t and t["who"] != v and items[i - 1].value == "or":
                    t["who"] = "both"
                elif "who" in t and t["who"] != v and t.get("ref") in ("this", "that"):
                    t["owner"] = v  # このカードの…相手の: the owner of the zone named next
                else:
                    t["who"] = v
            else:
                t["player"] = v
        elif cls == "ref":
            if v == "this":
                if t.get("ref") == "that":
                    t["of_that"] = True
                t["ref"] = "this"
            elif v == "that":
                t["ref"] = "that"
            elif v in ("those", "each", "rest", "attacker"):
                t["ref"] = v
            elif v == "this_ability":
                t["ref"] = "this_ability"
            elif v == "next":
                t["next"] = True
            elif v == "this_det":
                t["this_det"] = True
            else:
                raise Unplaced(it, np)
        elif cls == "kind":
            if "kind" in t and t["kind"] != v and items[i - 1].value in ("or", "and"):
                _add(t, "kinds", t["kind"])
                _add(t, "kinds", v)
            t["kind"] = v
            last_attr = None
        elif cls == "zone":
            if v == "slot":
                t["slot"] = True
            elif "zone" in t and t["zone"] != v and items[i - 1].value in ("or", "and"):
                _add(t, "zones", t["zone"])
                _add(t, "zones", v)
                t["zone"] = v
            elif "zone" in t and t["zone"] in ("stage",) and v in ("front_row", "back_row"):
                t["zone"] = v
            else:
                t["zone"] = v
        elif cls == "position":
            if v in _RELATIVE and "ref" in t and "relative" not in t:
                t["relative"] = _RELATIVE[v]
            elif v == "center":
                t["position"] = "center"
            elif v in ("top", "bottom") and "position" in t and items[i - 1].value == "or":
                t["position"] = "top_or_bottom"
            else:
                t["position"] = v
        elif cls == "attr":
            last_attr = v
            cmp_ = _cmp_after(items, i)
            if cmp_ is not None and isinstance(cmp_[0][1], str) and cmp_[0][1][:1] in "+-" and "who" in t:
                # 自分のレベル+1以下の(レベルの)キャラ: the player's level + 1
                t["level"] = [cmp_[0][0], f"level_of:{t.pop('who')}{cmp_[0][1]}"]
                i = cmp_[1]
                if i + 2 < n and items[i].cls == "of" and items[i + 1].cls == "attr" and items[i + 1].value == "level":
                    i += 2
                last_attr = None
                continue
            if cmp_ is not None:
                t[v] = cmp_[0]
                i = cmp_[1]
                last_attr = None
                continue
            if v == "name" and nxt is not None and nxt.cls == "name":
                pass  # カード名「…」
            elif nxt is None or nxt.cls == "of" and i + 2 < n and items[i + 2].cls in ("attr", "noun", "num"):
                t.setdefault("attrs", []).append(v)
                t["attr"] = v
            elif nxt.cls == "noun" and nxt.value in ("at_least", "at_most") and i + 2 == n:
                t.setdefault("attrs", []).append(v)  # このカードのレベル以下 (what is compared with it)
                t["attr"] = v
                t["cmp"] = _CMP[nxt.text]
                i += 2
                continue
            elif v == "level" and nxt.cls == "noun" and nxt.value in ("at_least", "at_most"):
                # 自分のレベル以下の(レベルの)キャラ: compared with the player's level
                t["level"] = [_CMP[nxt.text], f"level_of:{t.get('who', 'you')}"]
                t.pop("who", None)
                i += 2
                if i + 2 < n and items[i].cls == "of" and items[i + 1].cls == "attr" and items[i + 1].value == "level":
                    i += 2
                continue
            else:
                t.setdefault("attrs", []).append(v)
                t["attr"] = v
        elif cls == "color":
            _add(t, "colors", v)
        elif cls == "state":
            t["state"] = _STATE_WORDS.get(v, v)
        elif cls == "name":
            _add(t, "names", v)
        elif cls == "trait":
            _add(t, "traits", v)
        elif cls == "name_contains":
            for name in v:
                _add(t, "name_contains", name)
        elif cls == "has_ability":
            _add(t, "has_ability", v)
        elif cls == "has_trait":
            _add(t, "traits", v)
        elif cls == "grant":
            _add(t, "abilities", v)
        elif cls == "noun":
            if v == "other":
                t["other"] = True
            elif v == "all":
                t["all"] = True
            elif v == "battle_opponent":  # このカードの / そのバトル相手: the battle opponent
                t["ref"] = "battle_opponent" if t.get("ref") in (None, "this", "that") \
                    else f"battle_opponent_of_{t['ref']}"
            elif v in ("or", "and"):
                pass
            elif v == "except":
                prev = items[i - 1] if i else None
                if prev is None:
                    raise Unplaced(it, np)
                t["except"] = prev.value if prev.cls != "name" else {"name": prev.value}
                for key in ("kind", "names", "traits"):
                    if key == "kind" and t.get("kind") == prev.value:
                        del t["kind"]
                    elif key != "kind" and prev.value in t.get(key, ()):
                        t[key].remove(prev.value)
                        if not t[key]:
                            del t[key]
            elif v == "same":
                t["same"] = True
            elif v in ("at_least", "at_most") and i == n - 1 and last_attr is not None:
                t["cmp"] = _CMP[it.text]  # このカードのレベル以下: compared with this attribute
            elif v in ("at_least", "at_most"):
                raise Unplaced(it, np)
            elif v == "X":
                t["x"] = True
            else:
                t.setdefault("nouns", []).append(v)
        elif cls == "num":
            num, suffix = v
            cmp_next = items[i + 1] if i + 1 < n else None
            if suffix == "" and cmp_next is not None and cmp_next.cls == "noun" and cmp_next.value in ("at_least", "at_most"):
                key = last_attr or "number"
                t[key] = [_CMP[cmp_next.text], num]
                i += 2
                continue
            t.setdefault("numbers", []).append([num, suffix])
        elif cls == "time":
            t.setdefault("time", []).append(v)
        elif cls == "marker":
            t["marker"] = v
        elif cls == "times":
            t["times"] = v
        elif cls == "filter":  # from a relative clause before the noun (semantics._with_filter)
            t.update(v)
        else:
            raise Unplaced(it, np)
        i += 1
    return t


def _cmp_after(items: tuple[Item, ...], i: int) -> tuple[list[Any], int] | None:
    """``レベル2以下``, ``コストX以上``, ``パワー5000以上``: ([cmp, n], index after)."""
    if i + 1 < len(items) and items[i + 1].cls == "num" and items[i + 1].value[1] == "":
        num = items[i + 1].value[0]
        if i + 2 < len(items) and items[i + 2].cls == "noun" and items[i + 2].value in ("at_least", "at_most"):
            return [_CMP[items[i + 2].text], num], i + 3
        return ["==", num], i + 2
    if i + 1 < len(items) and items[i + 1].cls == "noun" and items[i + 1].value == "X":
        if i + 2 < len(items) and items[i + 2].cls == "noun" and items[i + 2].value in ("at_least", "at_most"):
            return [_CMP[items[i + 2].text], "X"], i + 3
    return None


# -- time phrases ---------------------------------------------------------------------------
_PHASES = {
    "draw_phase", "clock_phase", "main_phase", "climax_phase", "attack_phase", "end_phase", "stand_phase",
    "encore_step", "battle_step", "counter_step", "damage_step", "trigger_step", "turn", "battle",
}


def is_time(np: NP) -> bool:
    return np.has("time")


def duration(np: NP, case: str | None) -> str | None:
    """そのターン中 → ``turn``; 次の相手のターンの終わりまで → ``until_end_of_opponents_next_turn``;
    そのバトル中 → ``battle``; None when the phrase is not a duration."""
    times = np.values("time")
    words = [i.value for i in np.items if i.cls != "of"]
    if words == ["that", "turn"] and case == "中":
        return "turn"
    if words == ["that", "battle"] and case == "中":
        return "battle"
    if words == ["this", "battle"] and case == "中" or words == ["this", "battling"] and case is None:
        return "this_battle"  # このカードのバトル中
    if case == "まで" and times[-1:] == ["end"] and "turn" in times:
        who = np.values("player")
        nxt = np.has("ref", "next")
        if nxt and who == ["opponent"]:
            return "until_end_of_opponents_next_turn"
        if nxt and who == ["you"]:
            return "until_end_of_your_next_turn"
        if words == ["that", "turn", "end"] or words == ["turn", "end"]:
            return "turn"
    if case == "まで" and words == ["that", "turn", "next", "turn", "end"]:
        return "until_end_of_next_turn"  # そのターンの次のターンの終わりまで
    return None


def turn_condition(np: NP, case: str | None) -> str | None:
    """あなたのターン中 → ``you``; 相手のターン中 → ``opponent``."""
    words = [i.value for i in np.items if i.cls != "of"]
    if case == "中" and len(words) == 2 and words[1] == "turn" and words[0] in ("you", "opponent"):
        return words[0]
    return None


def phase(np: NP) -> dict[str, Any] | None:
    """あなたのアタックフェイズの始め → {phase: attack_phase, when: start, turn: you}."""
    words = [i for i in np.items if i.cls != "of"]
    if not words or words[-1].cls != "time":
        return None
    if words[-1].value in ("start", "end"):
        out: dict[str, Any] = {"when": words[-1].value}
        words = words[:-1]
    elif words[-1].value in _PHASES - {"turn", "battle"}:
        out = {}  # 次の相手のスタンドフェイズ: the whole phase
    else:
        return None
    for w in words:
        if w.cls == "player" and w.value in ("you", "opponent", "self"):
            out["turn"] = w.value
        elif w.cls == "time" and w.value in _PHASES:
            out["phase"] = w.value
        elif w.cls == "ref" and w.value == "next":
            out["next"] = True
        elif w.cls == "ref" and w.value == "that":
            out["that"] = True
        else:
            return None
    out.setdefault("phase", "turn")
    return out
