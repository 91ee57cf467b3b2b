"""Normalisation shared by the real-data importers (pure functions, no database).

Real card data gets many small things wrong; each helper here fixes one of them and says what it
did, so the importer can report it (nothing is changed silently):

- enum case (``Climax``/``CLIMAX``, ``Yellow``) — :func:`enum_value`;
- WS codes with ``-`` where the official form has ``/`` (``AB-W11-001`` → ``AB/W11-001``) —
  :func:`ws_code`;
- full-width digits, signs and letters in names and texts (``ＡＰ＋３`` → ``AP+3``) — :func:`nfkc`;
- WS trigger icons under their upstream names (``DOOR``, ``GOLDBAG``, ``PANTS``...) and junk or
  blank trigger values — :func:`ws_triggers`;
- Lycee attribute names (``cosmos`` → ``space``; ``star`` stays ``star``, the project's code for
  the colourless 無 attribute, see ``rules.games.LYCEE_ATTRIBUTES``) — :func:`lycee_attribute`;
- Lycee basic abilities and position restrictions written in text — :func:`lycee_basic_abilities`,
  :func:`lycee_slots_from_pattern`.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rules import games as g

from . import ImportProblem, ImportRecord

# ----------------------------------------------------------------------------------------------
# text


def nfkc(value: Any) -> str:
    """NFKC-normalise a string (full-width digits/letters/signs → ASCII), strip, keep newlines."""
    if value is None:
        return ""
    text = unicodedata.normalize("NFKC", str(value))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.strip() for line in text.split("\n")).strip()


def squash(value: str) -> str:
    """A comparison key: NFKC, no whitespace at all, no ``・･`` separators, lower case."""
    text = unicodedata.normalize("NFKC", value or "")
    return re.sub(r"[\s・·]+", "", text).lower()


_TEXT_SPELLINGS = (("全て", "すべて"), ("控室", "控え室"), ("ー", ""))


def text_key(value: str) -> str:
    """A comparison key for card texts from different sources: NFKC, no whitespace, punctuation,
    brackets or symbols (``【レスト】``/``レスト``, ``[(1)]``/``[1]``, ``・・・``/``...``), and a few
    spelling variants unified (全て/すべて)."""
    text = unicodedata.normalize("NFKC", value or "")
    for a, b in _TEXT_SPELLINGS:
        text = text.replace(a, b)
    return "".join(ch for ch in text if not ch.isspace() and unicodedata.category(ch)[0] not in "PSZ").lower()


def enum_value(value: Any) -> str:
    """``'Climax'``, ``'CLIMAX'``, ``' climax '`` → ``'climax'``."""
    return str(value or "").strip().lower()


def as_int(value: Any) -> int | None:
    """A whole number from an int or a numeric string (full-width digits too); None otherwise."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    text = nfkc(value)
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    return None


# ----------------------------------------------------------------------------------------------
# Weiß Schwarz

_WS_DASH_CODE = re.compile(r"^(?P<series>[A-Za-z0-9]+)-(?P<set>[A-Za-z]+[0-9]*)-(?P<number>[A-Za-z0-9]+)$")
_WS_CODE = re.compile(r"^(?P<series>[A-Za-z0-9]+)/(?P<set>[A-Za-z]+[0-9]*)-(?P<number>[A-Za-z0-9]+)$")


def ws_code(raw: str) -> tuple[str, bool]:
    """The official ``SERIES/SET-NUMBER`` form of a WS code and whether it had to be rewritten."""
    code = nfkc(raw).upper()
    if _WS_CODE.match(code):
        return code, code != raw
    m = _WS_DASH_CODE.match(code)
    if m:
        return f"{m['series']}/{m['set']}-{m['number']}", True
    return code, code != raw


def ws_code_parts(code: str) -> tuple[str, str]:
    """``AB/W11-001`` → (``AB/W11``, ``001``); codes of another shape → (``''``, ``''``)."""
    m = _WS_CODE.match(code)
    if not m:
        return "", ""
    return f"{m['series']}/{m['set']}", m["number"]


# Upstream trigger names → the project's icons (GAMES.md §3). The mapping was checked against the
# reminder text the climaxes carry (e.g. the 9 ``GATE`` climaxes all say "return a character from
# your waiting room to hand", which is the comeback icon; ``PANTS`` climaxes say "return a climax",
# which is the gate icon) and against the HOTC source for the 55 sets both sources have.
WS_TRIGGER_NAMES: dict[str, str | None] = {
    "SOUL": "soul",
    "DOOR": "comeback",
    "COMEBACK": "comeback",
    "GATE": "comeback",
    "BOOK": "draw",
    "DRAW": "draw",
    "GOLDBAR": "treasure",
    "TREASURE": "treasure",
    "GOLDBAG": "pool",
    "POOL": "pool",
    "STOCK": "pool",
    "WHIRLWIND": "return",
    "WIND": "return",
    "RETURN": "return",
    "BOUNCE": "return",
    "FIRE": "shot",
    "SHOT": "shot",
    "PANTS": "gate",
    "STANDBY": "standby",
    "CHOICE": "choice",
    "NONE": None,
    "BLANK": None,
    "": None,
}

# Reminder-text markers in climax texts (``（拾＠：...``) → icon, used to cross-check triggers.
WS_REMINDER_MARKS: dict[str, str] = {
    "拾": "comeback", "引": "draw", "宝": "treasure", "集": "pool", "戻": "return", "射": "shot",
    "門": "gate", "扉": "standby", "選": "choice",
}


def ws_triggers(values: Iterable[Any] | None) -> tuple[list[str], list[ImportProblem]]:
    """Map upstream trigger values to icons; junk values are dropped and reported."""
    icons: list[str] = []
    problems: list[ImportProblem] = []
    for raw in values or []:
        key = enum_value(raw).upper()
        if key in WS_TRIGGER_NAMES:
            icon = WS_TRIGGER_NAMES[key]
            if icon:
                icons.append(icon)
            elif raw is None or key != "NONE":
                problems.append(ImportProblem("triggers", f"blank trigger value {raw!r} read as no trigger"))
            continue
        problems.append(ImportProblem("triggers", f"junk trigger value {raw!r} dropped (not a trigger icon)"))
    return icons, problems


# HOTC ``Trigger:`` notation: a soul count plus a letter for the second icon.
HOTC_TRIGGER_LETTERS = {"W": "return", "F": "shot", "B": "draw", "D": "comeback", "G": "treasure", "S": "pool"}


def hotc_triggers(raw: str) -> tuple[list[str], list[ImportProblem]]:
    text = nfkc(raw).upper().replace(" ", "")
    m = re.fullmatch(r"(\d?)([A-Z]*)", text)
    if not m:
        return [], [ImportProblem("triggers", f"unreadable trigger {raw!r} dropped")]
    icons = ["soul"] * int(m.group(1) or 0)
    problems: list[ImportProblem] = []
    for letter in m.group(2):
        if letter in HOTC_TRIGGER_LETTERS:
            icons.append(HOTC_TRIGGER_LETTERS[letter])
        else:
            problems.append(ImportProblem("triggers", f"unknown trigger letter {letter!r} in {raw!r} dropped"))
    return icons, problems


def ws_name(raw: str) -> tuple[str, str]:
    """A WS name, NFKC'd, without a trailing printing marker such as ``(サイン入り)``, ``(ホロ)`` or
    ``(エラッタ前)`` (``rules.ws.identity.PRINTING_MARKER``).

    Returns (name, removed marker or ''), the marker without its brackets: it is a property of the
    printing (a signed, holo or pre-errata version; ``CardPrinting.marker``), not of the card, and
    copy limits count by name.
    """
    from rules.ws.identity import split_marker

    return split_marker(nfkc(raw))


_CLIMAX_BONUS = re.compile(
    # HOTC often writes a space after the marker and sometimes drops the final 。
    # the reminder text may follow the last figure without a 。 (MK/SE29-49: ``ソウルを+1(引@:…``)
    r"^【永】\s*あなたのキャラすべてに、\s*(?:パワーを\+(?P<power>\d+)(?:し、|。|$|(?=\s*\()))?"
    r"(?:ソウルを\+(?P<soul>\d+)(?:。|$|(?=\s*\()))?"
)
_REMINDER = re.compile(r"\((?:[^()@:]{1,2}@)?:[^()]*\)")


def ws_climax_bonus(text: str) -> tuple[list[dict[str, Any]], bool]:
    """The common "all your characters get +N power and +M soul" climax, as structured data.

    Returns (effects, text_modelled): modelled when nothing but that sentence (and the trigger
    reminder) is printed.
    """
    m = _CLIMAX_BONUS.match(text)
    if not m or not (m["power"] or m["soul"]):
        return [], False
    effect: dict[str, Any] = {"kind": "climax_bonus", "power": int(m["power"] or 0), "soul": int(m["soul"] or 0)}
    rest = _REMINDER.sub("", text[m.end():]).strip()
    return [effect], not rest


# The reminder text a climax prints for its trigger icon, ``(宝@:このカードがトリガーした時、…)``, read
# by what it says: the mark before ``@:`` is missing or another one in many records (``(:…``,
# ``(溜@:…``, ``(袋:…``). First match wins (the treasure text also puts a card into stock).
WS_REMINDER_TEXTS: tuple[tuple[str, str], ...] = (
    ("treasure", "このカードを手札に戻す"),
    ("gate", "控え室のクライマックスを1枚選び"),
    ("comeback", "控え室のキャラを1枚選び"),
    ("return", "相手のキャラを1枚選び"),
    ("standby", "舞台の好きな枠に"),
    ("draw", "1枚引いてよい"),
    ("pool", "ストック置場に置いてよい"),
    ("shot", "ダメージを与える"),
)
_REMINDER_BODY = re.compile(r"\((?P<mark>[^()@:]{0,2})@?:\s*(?P<body>このカードがトリガーした時[^()]*)\)")


def ws_reminder_icon(text: str) -> str | None:
    """The trigger icon a climax's reminder text describes (``None`` without a reminder text)."""
    m = _REMINDER_BODY.search(nfkc(text))
    if not m:
        return None
    body = re.sub(r"\s+", "", m["body"])
    for icon, words in WS_REMINDER_TEXTS:
        if words in body:
            return icon
    return WS_REMINDER_MARKS.get(m["mark"].strip())


def ws_reminder_conflict(card_type: str, triggers: list[str], text: str) -> str | None:
    """The icon a climax's reminder text describes when its trigger icons say otherwise, else None.

    A climax with a reminder text has that one icon besides soul icons (HOTC lists none for it or a
    second soul in some records: both disagree)."""
    if card_type != "climax":
        return None
    reminder = ws_reminder_icon(text)
    if reminder is None:
        return None
    return None if [t for t in triggers if t != "soul"] == [reminder] else reminder


def ws_counter(text: str) -> bool:
    """Counter icon: backup (助太刀) and cards printed with 【カウンター】."""
    return "助太刀" in text or "【カウンター】" in text or text.startswith("カウンター")


# ----------------------------------------------------------------------------------------------
# Lycee

LYCEE_ATTRIBUTE_NAMES: dict[str, str] = {
    "snow": "snow", "雪": "snow",
    "moon": "moon", "月": "moon",
    "flower": "flower", "花": "flower",
    "cosmos": "space", "space": "space", "宙": "space", "宇": "space",
    "sun": "sun", "日": "sun",
    # 無: colourless / any attribute. GAMES.md calls the attribute "none"; the project stores it
    # (and the any-attribute cost symbol) as ``star`` (rules.games.LYCEE_ATTRIBUTES).
    "star": "star", "none": "star", "無": "star",
}


def lycee_attribute(raw: str) -> str | None:
    return LYCEE_ATTRIBUTE_NAMES.get(enum_value(raw)) or LYCEE_ATTRIBUTE_NAMES.get(nfkc(raw))


def lycee_attributes(values: Iterable[str], fld: str = "attributes") -> tuple[list[str], list[ImportProblem]]:
    out: list[str] = []
    problems: list[ImportProblem] = []
    for raw in values:
        attr = lycee_attribute(raw)
        if attr is None:
            problems.append(ImportProblem(fld, f"unknown Lycee attribute {raw!r} dropped"))
        elif attr not in out:
            out.append(attr)
    return out, problems


def lycee_cost(symbols: Iterable[str]) -> tuple[dict[str, int], list[ImportProblem]]:
    """Cost symbols (``['cosmos', 'cosmos']`` or ``'宙宙'``) → ``{"space": 2}``."""
    counts: Counter[str] = Counter()
    problems: list[ImportProblem] = []
    for raw in symbols:
        if not str(raw).strip():
            continue
        attr = lycee_attribute(raw)
        if attr is None:
            problems.append(ImportProblem("cost_detail", f"unknown cost symbol {raw!r} dropped"))
        else:
            counts[attr] += 1
    return dict(counts), problems


def lycee_cost_text(text: str) -> tuple[dict[str, int], list[ImportProblem]]:
    text = nfkc(text)
    if text in ("", "-", "0"):
        return {}, []
    return lycee_cost(list(text))


def lycee_slots_from_pattern(pattern: str) -> list[str] | None:
    """``'－－－●●●'`` (AF-L AF-C AF-R DF-L DF-C DF-R; ● = may enter) → slots; None if unreadable."""
    marks = [ch for ch in (pattern or "").strip() if not ch.isspace()]
    if not marks:
        return []
    if len(marks) != 6 or any(ch not in "●○－-ー―" for ch in marks):
        return None
    slots = [slot for slot, ch in zip(g.LYCEE_SLOTS, marks, strict=True) if ch in "●○"]
    return [] if len(slots) == 6 else slots


LYCEE_KEYWORD_NAMES: dict[str, str] = {
    "ダッシュ": "dash", "アグレッシブ": "aggressive", "ステップ": "step", "サイドステップ": "sidestep",
    "オーダーステップ": "orderstep", "ジャンプ": "jump", "エスケープ": "escape",
    "サイドアタック": "sideattack", "タックストラッシュ": "tax_trash", "タックスウェイクアップ": "tax_wakeup",
    "サポーター": "supporter", "タッチ": "touch", "アタッカー": "attacker", "ディフェンダー": "defender",
    "ボーナス": "bonus", "デッキボーナス": "deck_bonus", "ペナルティ": "penalty",
}
# Keywords whose bracket holds an effect, not a cost.
_EFFECT_KEYWORDS = {"bonus", "deck_bonus", "penalty"}


@dataclass
class BasicAbilities:
    keywords: list[Any] = field(default_factory=list)  # "name" or {"name", "cost"}
    conversion_target: str = ""
    problems: list[ImportProblem] = field(default_factory=list)
    consumed_lines: int = 0  # leading text lines that held only basic abilities


_TOKEN = re.compile(r"\[(?P<body>(?:[^\[\]]|\[(?:[^\[\]]|\[[^\[\]]*\])*\])*)\]")


def _split_tokens(line: str) -> list[str] | None:
    """``[A][B:[0]]`` → ['A', 'B:[0]']; None when the line holds anything besides such tokens."""
    tokens: list[str] = []
    pos = 0
    line = line.strip()
    while pos < len(line):
        m = _TOKEN.match(line, pos)
        if not m:
            return None
        tokens.append(m["body"])
        pos = m.end()
    return tokens or None


# Basic abilities Overture prints that the project has no keyword for (kept in text, flagged).
LYCEE_UNMODELLED_BASICS = frozenset({
    "エンゲージ", "チャージ", "アシスト", "リカバリー", "ターンリカバリー", "オーダーチェンジ", "プリンシパル",
    "リーダー", "ガッツ", "サプライズ",
})
LYCEE_BASIC_NAMES = frozenset({*LYCEE_KEYWORD_NAMES, *LYCEE_UNMODELLED_BASICS, "コンバート"})


def _repair_tokens(line: str) -> list[str] | None:
    """``_split_tokens`` for a basic-ability line whose brackets do not balance (20 Overture cards):
    ``[ステップ:[0]`` (a ``]`` missing at the end), ``[ジャンプ:[0]][チャージ:1]]`` (one too many),
    ``[プリンシパル][[オーダーステップ:[0]]`` (a ``[`` doubled), spaces between tokens. Every token must
    name a basic ability (``LYCEE_BASIC_NAMES``), so an effect line that starts with one
    (``[アグレッシブ]を持つ味方キャラ…``) is not read as one. None when the line is not such a line."""
    tokens: list[str] = []
    pos, end = 0, len(line)
    while pos < end:
        while pos < end and (line[pos].isspace() or line[pos] == "]"):  # spaces, a stray ]
            pos += 1
        if pos == end:
            break
        if line[pos] != "[":
            return None
        while pos < end and line[pos] == "[":  # [[
            pos += 1
        m = re.match(r"[^\[\]:]+", line[pos:])
        if not m or m.group(0).strip() not in LYCEE_BASIC_NAMES:
            return None
        name = m.group(0).strip()
        pos += m.end()
        if pos < end and line[pos] == ":":
            depth, start = 0, pos + 1
            pos += 1
            while pos < end:
                ch = line[pos]
                if ch == "[":
                    depth += 1
                elif ch == "]":
                    if depth == 0:
                        break
                    depth -= 1
                pos += 1
            arg = line[start:pos] + "]" * depth  # brackets the line leaves open close at its end
            tokens.append(f"{name}:{arg}")
        else:
            tokens.append(name)
        if pos < end and line[pos] == "]":
            pos += 1
    return tokens or None


def _cost_of(body: str) -> tuple[dict[str, int] | None, str]:
    body = nfkc(body)
    if body in ("0", ""):
        return {}, ""
    costs, problems = lycee_cost_text(body)
    if problems:
        return None, body
    return costs, ""


def lycee_basic_abilities(lines: Iterable[str]) -> BasicAbilities:
    """Read the basic-ability tokens of a Lycee text (the leading lines made only of ``[...]``).

    Known keywords become structured (``{"name": "step", "cost": {}}``); a token this project has no
    keyword for (Overture's エンゲージ, チャージ...) or a cost that is not made of attribute
    symbols stays in the text and is reported, so the card is flagged rather than half-modelled.
    """
    out = BasicAbilities()
    for line in lines:
        tokens = _split_tokens(nfkc(line))
        if tokens is None:
            tokens = _repair_tokens(nfkc(line))
            if tokens is None:
                break
            why = "spaces between its tokens" if line.count("[") == line.count("]") else "unbalanced brackets"
            out.problems.append(ImportProblem(
                "keywords", f"basic-ability line {nfkc(line)[:80]!r} has {why}; read as "
                + "".join(f"[{t}]" for t in tokens)))
        out.consumed_lines += 1
        for body in tokens:
            name, _, arg = body.partition(":")
            name = name.strip()
            arg = arg.strip()
            if name == "コンバート":
                m = re.search(r"→「(?P<target>[^」]+)」", arg)
                if m:
                    out.conversion_target = m["target"].strip()
                    out.problems.append(ImportProblem(
                        "conversion_target", f"conversion cost {arg.split(':')[0]!r} kept in text only"))
                else:
                    out.problems.append(ImportProblem("conversion_target", f"unreadable conversion [{body}]"))
                continue
            keyword = LYCEE_KEYWORD_NAMES.get(name)
            if keyword is None:
                out.problems.append(ImportProblem(
                    "keywords", f"basic ability [{name}] has no structured Lycee keyword here; kept in text"))
                continue
            if keyword in _EFFECT_KEYWORDS or not arg:
                out.keywords.append(keyword)
                continue
            inner = arg[1:-1] if arg.startswith("[") and arg.endswith("]") else arg
            cost, bad = _cost_of(inner)
            if cost is None:
                out.keywords.append(keyword)
                out.problems.append(ImportProblem(
                    "keywords", f"[{name}] cost {bad!r} is not made of attribute symbols; kept in text"))
            else:
                out.keywords.append({"name": keyword, "cost": cost} if cost else keyword)
    return out


_COPY_LIMIT = re.compile(r"このカードと同番号が(\d+)枚以下")
_BANNED = re.compile(r"禁止・制限の対象|全てのデッキに入れることができません")
_TEXT_POSITION = re.compile(r"(?:AF|DF)[^。]*(?:にのみ登場|に登場できない|にしか登場)")


def lycee_text_flags(text: str) -> tuple[int | None, list[ImportProblem]]:
    """Copy-limit override and notes read from a Lycee text; ambiguous restrictions flagged."""
    problems: list[ImportProblem] = []
    limit = None
    m = _COPY_LIMIT.search(text)
    if m:
        limit = int(m.group(1))
    if _BANNED.search(text):
        problems.append(ImportProblem("text", "card is banned or restricted in tournaments (see its text)"))
    if _TEXT_POSITION.search(text):
        problems.append(ImportProblem(
            "slots", "the text restricts where this character may enter play; not structured (ambiguous)"))
    return limit, problems


LYCEE_TYPE_NAMES: dict[str, str] = {
    "キャラクター": "character", "キャラ": "character", "character": "character",
    "イベント": "event", "event": "event",
    "アイテム": "item", "item": "item",
    "エリア": "area", "area": "area",
}


def lycee_base_code(code: str) -> tuple[str, str]:
    """``LO-0923-A`` → (``LO-0923``, ``A``): a variant printing of the base card number."""
    code = nfkc(code).upper()
    m = re.fullmatch(r"(?P<base>[A-Z]+-\d+)(?:-?(?P<variant>[A-Z]+))?", code)
    if not m:
        return code, ""
    return m["base"], m["variant"] or ""


def warnings_on_cards(records: Iterable[ImportRecord]) -> Iterator[ImportRecord]:
    """Mark the problems of every readable record as warnings: the importer fixed or flagged them
    and the card is still imported (the card's own validation can still refuse it)."""
    for rec in records:
        if rec.card is not None:
            for p in rec.problems:
                p.warning = True
        yield rec
