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
    reader = _Reader(np)
    _match(reader.t, np.items)
    i = 0
    while i < reader.n:
        it = np.items[i]
        handler = _HANDLERS.get(it.cls)
        if handler is None:
            raise Unplaced(it, np)
        i = handler(reader, i, it)
    return reader.t


def _match(t: dict[str, Any], items: tuple[Item, ...]) -> None:
    """《勇者》かカード名に「主人公」を含むキャラ: か between filters of different kinds → any of them;
    思い出置場に「A」と「B」があるなら: と between filters → every one of them."""
    filters = [it.cls if it.cls != "noun" else it.value for it in items
               if it.cls in _FILTERS or it.cls == "noun" and it.value in ("or", "and")]
    for a, b, c in zip(filters, filters[1:], filters[2:], strict=False):
        if b == "or" and a in _FILTERS and c in _FILTERS and _FILTERS[a] != _FILTERS[c]:
            t["match"] = "any"
        elif b == "and" and a in _FILTERS and c in _FILTERS:
            t["match"] = "all"


class _Reader:
    """The state of :func:`describe` walking a noun phrase: the target so far and the last
    attribute named (what a following 以上/以下 compares). Each ``_on_<cls>`` handler reads the
    word at ``i`` and returns the index of the next word to read."""

    __slots__ = ("np", "items", "n", "t", "last_attr")

    def __init__(self, np: NP) -> None:
        self.np = np
        self.items = np.items
        self.n = len(np.items)
        self.t: dict[str, Any] = {}
        self.last_attr: str | None = None

    def _on_of(self, i: int, it: Item) -> int:
        return i + 1

    def _on_player(self, i: int, it: Item) -> int:
        t, v = self.t, it.value
        if v not in ("you", "opponent", "both", "self"):
            t["player"] = v
        elif "who" in t and t["who"] != v and self.items[i - 1].value == "or":
            t["who"] = "both"
        elif "who" in t and t["who"] != v and t.get("ref") in ("this", "that"):
            t["owner"] = v  # このカードの…相手の: the owner of the zone named next
        else:
            t["who"] = v
        return i + 1

    def _on_ref(self, i: int, it: Item) -> int:
        t, v = self.t, it.value
        if v == "this" and t.get("ref") == "that":
            t["of_that"] = True
        if v in _REFS:
            t["ref"] = v
        elif v in ("next", "this_det"):
            t[v] = True
        else:
            raise Unplaced(it, self.np)
        return i + 1

    def _on_kind(self, i: int, it: Item) -> int:
        t, v = self.t, it.value
        if "kind" in t and t["kind"] != v and self.items[i - 1].value in ("or", "and"):
            _add(t, "kinds", t["kind"])
            _add(t, "kinds", v)
        t["kind"] = v
        self.last_attr = None
        return i + 1

    def _on_zone(self, i: int, it: Item) -> int:
        t, v = self.t, it.value
        if v == "slot":
            t["slot"] = True
            return i + 1
        if "zone" in t and t["zone"] != v and self.items[i - 1].value in ("or", "and"):
            _add(t, "zones", t["zone"])
            _add(t, "zones", v)
        t["zone"] = v
        return i + 1

    def _on_position(self, i: int, it: Item) -> int:
        t, v = self.t, it.value
        if v in _RELATIVE and "ref" in t and "relative" not in t:
            t["relative"] = _RELATIVE[v]
        elif v in ("top", "bottom") and "position" in t and self.items[i - 1].value == "or":
            t["position"] = "top_or_bottom"
        else:
            t["position"] = v
        return i + 1

    def _on_attr(self, i: int, it: Item) -> int:
        v = it.value
        self.last_attr = v
        cmp_ = _cmp_after(self.items, i)
        if cmp_ is not None:
            return self._attr_compared(v, cmp_)
        nxt = self.items[i + 1] if i + 1 < self.n else None
        if v == "name" and nxt is not None and nxt.cls == "name":
            return i + 1  # カード名「…」
        if nxt is None or nxt.cls == "of" and i + 2 < self.n and self.items[i + 2].cls in ("attr", "noun", "num"):
            self._attr_named(v)
            return i + 1
        if nxt.cls == "noun" and nxt.value in ("at_least", "at_most"):
            if i + 2 == self.n:  # このカードのレベル以下 (what is compared with it)
                self._attr_named(v)
                self.t["cmp"] = _CMP[nxt.text]
                return i + 2
            if v == "level":  # 自分のレベル以下の(レベルの)キャラ: compared with the player's level
                self.t["level"] = [_CMP[nxt.text], f"level_of:{self.t.get('who', 'you')}"]
                self.t.pop("who", None)
                return self._skip_of_level(i + 2)
        self._attr_named(v)
        return i + 1

    def _attr_named(self, v: str) -> None:
        self.t.setdefault("attrs", []).append(v)
        self.t["attr"] = v

    def _attr_compared(self, v: str, cmp_: tuple[list[Any], int]) -> int:
        """``レベル2以下``; 自分のレベル+1以下の(レベルの)キャラ: the player's level + 1."""
        t = self.t
        self.last_attr = None
        if isinstance(cmp_[0][1], str) and cmp_[0][1][:1] in "+-" and "who" in t:
            t["level"] = [cmp_[0][0], f"level_of:{t.pop('who')}{cmp_[0][1]}"]
            return self._skip_of_level(cmp_[1])
        t[v] = cmp_[0]
        return cmp_[1]

    def _skip_of_level(self, i: int) -> int:
        """…の(レベルの): the repeated attribute after a comparison with the player's level."""
        items = self.items
        if i + 2 < self.n and items[i].cls == "of" and items[i + 1].cls == "attr" and items[i + 1].value == "level":
            return i + 2
        return i

    def _on_listed(self, i: int, it: Item) -> int:
        _add(self.t, _LISTED[it.cls], it.value)
        return i + 1

    def _on_state(self, i: int, it: Item) -> int:
        self.t["state"] = _STATE_WORDS.get(it.value, it.value)
        return i + 1

    def _on_name_contains(self, i: int, it: Item) -> int:
        for name in it.value:
            _add(self.t, "name_contains", name)
        return i + 1

    def _on_noun(self, i: int, it: Item) -> int:
        t, v = self.t, it.value
        if v in _NOUN_FLAGS:
            t[_NOUN_FLAGS[v]] = True
        elif v == "battle_opponent":  # このカードの / そのバトル相手: the battle opponent
            t["ref"] = "battle_opponent" if t.get("ref") in (None, "this", "that") \
                else f"battle_opponent_of_{t['ref']}"
        elif v in ("or", "and"):
            pass
        elif v == "except":
            self._except(i, it)
        elif v in ("at_least", "at_most"):
            if i != self.n - 1 or self.last_attr is None:
                raise Unplaced(it, self.np)
            t["cmp"] = _CMP[it.text]  # このカードのレベル以下: compared with this attribute
        else:
            t.setdefault("nouns", []).append(v)
        return i + 1

    def _except(self, i: int, it: Item) -> None:
        """…以外: what the word before names is excluded (and no longer required)."""
        t = self.t
        prev = self.items[i - 1] if i else None
        if prev is None:
            raise Unplaced(it, self.np)
        t["except"] = prev.value if prev.cls != "name" else {"name": prev.value}
        if t.get("kind") == prev.value:
            del t["kind"]
        for key in ("names", "traits"):
            if prev.value in t.get(key, ()):
                t[key].remove(prev.value)
                if not t[key]:
                    del t[key]

    def _on_num(self, i: int, it: Item) -> int:
        num, suffix = it.value
        cmp_next = self.items[i + 1] if i + 1 < self.n else None
        if suffix == "" and cmp_next is not None and cmp_next.cls == "noun" and cmp_next.value in ("at_least", "at_most"):
            self.t[self.last_attr or "number"] = [_CMP[cmp_next.text], num]
            return i + 2
        self.t.setdefault("numbers", []).append([num, suffix])
        return i + 1

    def _on_time(self, i: int, it: Item) -> int:
        self.t.setdefault("time", []).append(it.value)
        return i + 1

    def _on_set(self, i: int, it: Item) -> int:
        self.t[it.cls] = it.value  # marker, times
        return i + 1

    def _on_filter(self, i: int, it: Item) -> int:
        self.t.update(it.value)  # from a relative clause before the noun (semantics._with_filter)
        return i + 1


_REFS = frozenset(("this", "that", "those", "each", "rest", "attacker", "this_ability"))
_NOUN_FLAGS = {"other": "other", "all": "all", "same": "same", "X": "x"}
_LISTED = {"color": "colors", "name": "names", "trait": "traits", "has_ability": "has_ability",
           "has_trait": "traits", "grant": "abilities"}
_HANDLERS = {
    "of": _Reader._on_of, "player": _Reader._on_player, "ref": _Reader._on_ref, "kind": _Reader._on_kind,
    "zone": _Reader._on_zone, "position": _Reader._on_position, "attr": _Reader._on_attr,
    "state": _Reader._on_state, "name_contains": _Reader._on_name_contains, "noun": _Reader._on_noun,
    "num": _Reader._on_num, "time": _Reader._on_time, "marker": _Reader._on_set, "times": _Reader._on_set,
    "filter": _Reader._on_filter, **{cls: _Reader._on_listed for cls in _LISTED},
}


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
    words = [i.value for i in np.items if i.cls != "of"]
    if case == "中" or case is None:
        return next((d for w, cs, d in _DURING if words == w and case == cs), None)
    if case != "まで":
        return None
    times = np.values("time")
    if times[-1:] == ["end"] and "turn" in times:
        nxt = np.has("ref", "next")
        who = np.values("player")
        if nxt and who == ["opponent"]:
            return "until_end_of_opponents_next_turn"
        if nxt and who == ["you"]:
            return "until_end_of_your_next_turn"
        if words == ["that", "turn", "end"] or words == ["turn", "end"]:
            return "turn"
    if words == ["that", "turn", "next", "turn", "end"]:
        return "until_end_of_next_turn"  # そのターンの次のターンの終わりまで
    return None


# (the words, the case, the duration) of a …中 phrase (or one without a particle)
_DURING: tuple[tuple[list[str], str | None, str], ...] = (
    (["that", "turn"], "中", "turn"), (["that", "battle"], "中", "battle"),
    (["this", "battle"], "中", "this_battle"),  # このカードのバトル中
    (["this", "battling"], None, "this_battle"),
)


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
