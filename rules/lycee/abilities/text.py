"""Lycee printed text → segments: normalisation and the bracket-aware line splitter.

A Lycee Overture text is a list of lines (``\\n``):

- basic-ability lines made only of ``[...]`` tokens (``[ジャンプ:[0]][チャージ:2]``);
- special abilities, each a line opening with its tags (``[誘発]``, ``[宣言]``, ``[常時]``,
  ``[手札宣言]``, ``[コスト]``, ``[宣言][切札]``...), then for declared abilities the cost tokens and
  ``:`` (``[宣言] [T][雪]:...``); option lines ``・...`` continue the ability above them;
- an event's text (no tag), notes (``※...``), the equip restriction of an item (``装備制限:...``);
- the construction restriction (``構築制限:...`` and its ``【禁止:...】`` continuation), which is
  not an ability (:mod:`rules.lycee.restrictions`), and provenance lines (``初出 : ...``), dropped.

The splitter repairs the real data's unbalanced brackets (``[ステップ:[0]``, ``[[誘発] ...``,
``[チャージ:1]]``...) instead of losing the abilities of the line; every repair is reported in
:attr:`SplitText.repairs`.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

# Basic abilities (基本能力) of Lycee and Lycee Overture: Japanese name → English keyword.
BASIC_ABILITIES: dict[str, str] = {
    "ダッシュ": "dash", "アグレッシブ": "aggressive", "ステップ": "step", "サイドステップ": "sidestep",
    "オーダーステップ": "orderstep", "ジャンプ": "jump", "エスケープ": "escape",
    "サイドアタック": "sideattack", "タックストラッシュ": "tax_trash", "タックスウェイクアップ": "tax_wakeup",
    "サポーター": "supporter", "タッチ": "touch", "アタッカー": "attacker", "ディフェンダー": "defender",
    "ボーナス": "bonus", "デッキボーナス": "deck_bonus", "ペナルティ": "penalty",
    "エンゲージ": "engage", "チャージ": "charge", "アシスト": "assist", "リカバリー": "recovery",
    "ターンリカバリー": "turn_recovery", "オーダーチェンジ": "order_change", "プリンシパル": "principal",
    "リーダー": "leader", "ガッツ": "guts", "サプライズ": "surprise", "コンバート": "convert",
}

# Special-ability tags → Ability.kind.
ABILITY_TAGS: dict[str, str] = {
    "誘発": "auto",
    "宣言": "activated",
    "常時": "continuous",
    "手札宣言": "hand_activated",
    "コスト": "cost_source",
    "切札": "trump",
    "ゴミ箱宣言": "trash_activated",
}

_BASIC_NAMES = "|".join(sorted(map(re.escape, BASIC_ABILITIES), key=len, reverse=True))
_TAG_NAMES = "|".join(sorted(map(re.escape, ABILITY_TAGS), key=len, reverse=True))
_TAG_LINE = re.compile(rf"^\[+(?:{_TAG_NAMES})\]")
_TAG = re.compile(rf"\[({_TAG_NAMES})\]\s*")
# A basic-ability token starts at the line start or right after another token's bracket.
_BASIC_START = re.compile(rf"(?:^|(?<=[\]\[ ]))\[(?:{_BASIC_NAMES})(?=[:\]]|$)")
_LONG_VOWEL_MINUS = re.compile(r"(AP|DP|SP|DMG)ー(?=\d)")  # APー1: a long-vowel mark typed for minus
_TOKEN_DEF = re.compile(r"^※?「[^」]*」\s*AP:")
_OPEN = "[{(「『<"
_CLOSE = "]})」』>"


def normalize(text: str | None) -> str:
    """NFKC (full-width digits, signs and Latin letters become ASCII), one line ending, the data's
    typographic variants folded: ``〜`` → ``~``, ``シールドー2`` / ``APー2`` (a long-vowel mark typed
    for minus) → ``シールド-2`` / ``AP-2``."""
    if not text:
        return ""
    out = unicodedata.normalize("NFKC", text).replace("\r\n", "\n").replace("\r", "\n")
    out = out.replace("〜", "~").replace("シールドー", "シールド-")
    out = _LONG_VOWEL_MINUS.sub(r"\1-", out)
    return "\n".join(line.strip() for line in out.split("\n"))


@dataclass(frozen=True, slots=True)
class BasicToken:
    """One basic ability ``[name:arg]``; ``arg`` keeps its brackets (``[0]``, ``[1枚ドローする。]``)."""

    name: str
    arg: str
    text: str


@dataclass(slots=True)
class Segment:
    """One ability-sized piece of a text.

    ``kind``: ``basic`` (one basic-ability token), an :data:`ABILITY_TAGS` kind, ``event`` (an
    event's untagged text), ``note`` (``※...``), ``equip_restriction``, ``token`` (a token
    character's definition line) or ``text`` (untagged text on a non-event). ``cost`` holds the
    raw cost tokens of a declared ability, ``body`` the text after the cost (options ``・...`` are
    kept as separate lines).
    """

    kind: str
    text: str
    tags: tuple[str, ...] = ()
    cost: tuple[str, ...] = ()
    body: str = ""
    basic: BasicToken | None = None


@dataclass(slots=True)
class SplitText:
    segments: list[Segment] = field(default_factory=list)
    restriction: str = ""  # 構築制限 text (joined lines), for rules.lycee.restrictions
    repairs: list[str] = field(default_factory=list)  # unbalanced brackets repaired


def bracket_tokens(text: str, pos: int = 0) -> tuple[list[str], int]:
    """Balanced ``[...]`` tokens at ``pos`` (spaces between them skipped): (bodies, end)."""
    bodies: list[str] = []
    n = len(text)
    while True:
        while pos < n and text[pos] == " ":
            pos += 1
        if pos >= n or text[pos] != "[":
            return bodies, pos
        depth, start = 0, pos
        while pos < n:
            ch = text[pos]
            if ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    break
            pos += 1
        if depth != 0:
            return bodies, start
        bodies.append(text[start + 1:pos])
        pos += 1


def _close_token(rest: str) -> tuple[str, str, str]:
    """``rest`` follows a token's name: (arg, leftover after the token's closing ``]``, problem).

    The argument nests brackets; the token closes at the first unmatched ``]``. A token that never
    closes gets its missing brackets added (problem reported)."""
    arg = rest[1:] if rest.startswith(":") else ""
    if not rest.startswith(":"):
        return "", rest[1:] if rest.startswith("]") else rest, "" if rest.startswith("]") else "missing ']'"
    depth = 0
    for i, ch in enumerate(arg):
        if ch == "[":
            depth += 1
        elif ch == "]":
            if depth == 0:
                return arg[:i].strip(), arg[i + 1:], ""
            depth -= 1
    return arg.strip() + "]" * depth, "", "missing ']'"


def split_basic_line(line: str) -> tuple[list[BasicToken], list[str]]:
    """``[A][B:[0]]`` → tokens, repairing unbalanced brackets (each repair reported)."""
    matches = list(_BASIC_START.finditer(line))
    if not matches or line[: matches[0].start()].strip("[") != "":
        return [], []
    repairs: list[str] = []
    if matches[0].start() > 0:
        repairs.append(f"stray '[' in {line!r}")
    tokens: list[BasicToken] = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(line)
        chunk = line[m.start():end]
        name = m.group(0)[1:]
        arg, leftover, problem = _close_token(line[m.end():end])
        if problem:
            repairs.append(f"{problem} in {chunk!r}")
        leftover = leftover.strip()
        if leftover.strip("[]"):
            return [], [f"text after {chunk!r}: not a basic-ability line"]
        if leftover:
            repairs.append(f"stray {leftover!r} after {chunk.rstrip('[]')!r}")
        text = f"[{name}:{arg}]" if arg or line[m.end():m.end() + 1] == ":" else f"[{name}]"
        tokens.append(BasicToken(name=name, arg=arg, text=text))
    return tokens, repairs


def _split_tag_line(line: str, repairs: list[str]) -> Segment:
    if line.startswith("[["):
        repairs.append(f"stray '[' before a tag: {line[:12]!r}")
        line = line.lstrip("[")
        line = "[" + line
    tags: list[str] = []
    pos = 0
    while True:
        m = _TAG.match(line, pos)
        if not m:
            break
        tags.append(m.group(1))
        pos = m.end()
    rest = line[pos:].strip()
    cost: tuple[str, ...] = ()
    bodies, end = bracket_tokens(rest)
    if bodies and rest[end:end + 1] == ":":
        cost = tuple(bodies)
        rest = rest[end + 1:].strip()
    kinds = [ABILITY_TAGS[t] for t in tags]
    # [宣言][切札] is a trump declaration; otherwise the first tag names the ability.
    kind = "trump" if "trump" in kinds else kinds[0]
    return Segment(kind=kind, text=line, tags=tuple(tags), cost=cost, body=rest)


def split_text(text: str, card_type: str = "character") -> SplitText:
    """Split a (raw or normalised) Lycee text into segments; see the module docstring."""
    out = SplitText()
    restriction: list[str] = []
    in_restriction = False
    for line in normalize(text).split("\n"):
        if not line or line in ("-", "－"):
            continue
        if line.startswith("初出"):
            continue
        if line.startswith("構築制限"):
            restriction.append(line.partition(":")[2] if ":" in line else line[4:])
            in_restriction = True
            continue
        if in_restriction and line.startswith("【"):
            restriction.append(line)
            continue
        in_restriction = False
        if line.startswith("・") and out.segments:
            seg = out.segments[-1]
            seg.text += "\n" + line
            seg.body += "\n" + line
            continue
        if _TOKEN_DEF.match(line):
            out.segments.append(Segment(kind="token", text=line, body=line.lstrip("※")))
            continue
        if line.startswith("※"):
            out.segments.append(Segment(kind="note", text=line, body=line[1:].strip()))
            continue
        if line.startswith(("装備制限:", "[装備制限]")):
            body = line.split(":", 1)[1] if line.startswith("装備制限:") else line[len("[装備制限]"):]
            out.segments.append(Segment(kind="equip_restriction", text=line, body=body.strip()))
            continue
        if _TAG_LINE.match(line):
            out.segments.append(_split_tag_line(line, out.repairs))
            continue
        if line.startswith("["):
            tokens, repairs = split_basic_line(line)
            if tokens:
                out.repairs.extend(repairs)
                for tok in tokens:
                    out.segments.append(Segment(kind="basic", text=tok.text, basic=tok))
                continue
        kind = "event" if card_type == "event" else "text"
        out.segments.append(Segment(kind=kind, text=line, body=line))
    out.restriction = "".join(restriction)
    return out


def split_sentences(body: str) -> list[str]:
    """Sentences of one line at bracket depth 0, each ending with ``。`` (the last may not)."""
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(body):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif ch == "。" and depth == 0:
            piece = body[start:i + 1].strip()
            if piece:
                out.append(piece)
            start = i + 1
    tail = body[start:].strip()
    if tail:
        out.append(tail)
    return out
