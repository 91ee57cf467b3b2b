"""Normalising Weiß Schwarz printed text and splitting it into abilities (before parsing).

:func:`normalise`: NFKC (full-width digits, signs and brackets become ASCII: ``＋１０００`` →
``+1000``, ``［`` → ``[``), circled cost digits ``①`` → ``(1)``, every minus-like sign → ``-``,
``≪≫`` → ``《》``, ``【レスト】``/``【スタンド】`` written without brackets get them, a granted
ability written in 「」 gets 『』, no whitespace outside 「card names」 (Japanese needs none; HOTC
lines carry stray spaces), and the sources' quirks in one spelling (``置き場``, ``[1]`` for
``[(1)]``, ``一枚``, ``2体``, a sentence ended by ``.``, an English marker before a Japanese line,
a lost ``【`` or ``『``). Normalising twice changes nothing.

:func:`split_abilities`: the text cut before each ability marker ``【自】 【永】 【起】 【カウンター】``
that starts an ability (at the top level, not inside 「」『』(); not a marker used as a noun, as in
``【起】を使った時`` or ``【自】の効果``; ``【起】【カウンター】`` stays one ability) and at line
breaks, except that a line not starting with a marker (reminder text, ``Xは…``, ``●…``) goes on
with the ability before it.
"""
from __future__ import annotations

import re
import unicodedata

MARKERS: tuple[str, ...] = ("【自】", "【永】", "【起】", "【カウンター】")
_MARKER = re.compile(r"【(?:自|永|起|カウンター)】")
_CIRCLED = {chr(0x2460 + i): f"({i + 1})" for i in range(20)}
_CIRCLED_RE = re.compile("[" + "".join(_CIRCLED) + "]")
_MINUS = re.compile(r"(?:[\u2212\u2010\u2011\u2012\u2013\u2014\u2015]|(?<![\u30a1-\u30fa])[\u30fc\uff70])(?=\d|X)")
_BROKEN_MINUS = re.compile(r"(?<=を)\?(?=\d)")  # AlphaC2: ``レベルを?1`` (a lost minus sign)
_NAME = re.compile(r"「[^」\n]*」")
_SPACE = re.compile(r"[ \t\u3000]+")
_BARE_STATE = re.compile(r"(?<!【)(レスト|スタンド|リバース)(?!】)(?=する|して|した|され|させ|しない|していない|している|し|状態|で置|で)")
_GRANT_IN_NAME = re.compile(r"「(?=\s*【(?:自|永|起|カウンター)】)([^「」]*)」")
# Source quirks, each with a needle: the pattern runs only on a text that contains it.
_FIXES: tuple[tuple[str, re.Pattern[str], object], ...] = (
    (".", re.compile(r"(?<=\d)\.(?=\d)"), "\x00"),  # keep decimal points
    (".", re.compile(r"(?<!\.)\.(?!\.)"), "。"),  # a sentence ended by "." (not "...")
    ("。。", re.compile(r"。{2,}"), "。"),
    ("\x00", re.compile("\x00"), "."),
    ("カウンター@", re.compile(r"(?<!【)カウンター@"), "【カウンター】"),  # a lost icon: 【起】カウンター@助太刀
    ("[[", re.compile(r"\[\[(\d+)\]"), r"[(\1)"),  # [[1]手札…]: a stock cost in brackets
    ("[", re.compile(r"\[(\d+)\]"), r"[(\1)]"),  # [1]: a stock cost without its parentheses
    ("))]", re.compile(r"\[\((\d+)\)\)\]"), r"[(\1)]"),  # [①)]: a stray parenthesis
    ("置き場", re.compile(r"置き場"), "置場"),  # one spelling of the zones
    ("【C】", re.compile(r"^【C】|(?<=\n)【C】"), "【永】"),  # an English marker before a Japanese line (HOTC)
    ("【A】", re.compile(r"^【A】|(?<=\n)【A】"), "【自】"),
    ("【S】", re.compile(r"^【S】|(?<=\n)【S】"), "【起】"),
    ("枚", re.compile(r"[一二三四五](?=枚)"), lambda m: str("一二三四五".index(m.group()) + 1)),  # 一枚 → 1枚
    ("にに", re.compile(r"にに(?=、)"), "に"),  # a doubled particle
    ("体", re.compile(r"(?<=\d)体(?=まで|選|を|、)"), "枚"),  # 2体まで: characters counted as 体
    ("次の能力を", re.compile(r"(次の能力を(?:得る|与える)。)(?=【(?:自|永|起|カウンター)】[^『』]*』)"), r"\1『"),  # a lost 『
    # …次の能力を与える。『【永】…』あなたは…: a granted ability ends its sentence
    ("『【", re.compile(r"(『【(?:自|永|起|カウンター)】[^『』]*(?:『[^『』]*』[^『』]*)*』)(?=[^をにがとのでもやか、。)\]』」\n(])"),
     r"\1。"),
    ("している、", re.compile(r"(?<=している)、(?=[《「]|カード名)"), ""),  # 【スタンド】している、《A》か《B》のキャラ
    ("!", re.compile(r"(?<=[^」!])!+$|(?<=[^」!])!+(?=\n)"), ""),  # !!!!! after the text
)
_LOST_BRACKET = re.compile(r"^(自|永|起)】")
_OPEN = "「『("
_CLOSE = "」』)"
# A marker right after one of these is used as a noun (``あなたが【起】を使った時``).
_NOUN_BEFORE = "がのに、をはと「"
_NOUN_AFTER = "をのがはでにと、"


def _strip_spaces(text: str) -> str:
    out: list[str] = []
    pos = 0
    for m in _NAME.finditer(text):
        out.append(_SPACE.sub("", text[pos:m.start()]))
        out.append("「" + m.group()[1:-1].strip() + "」")
        pos = m.end()
    out.append(_SPACE.sub("", text[pos:]))
    return "".join(out)


def normalise(text: str) -> str:
    """The printed text in the one spelling the grammar reads (see the module docstring)."""
    text = _CIRCLED_RE.sub(lambda m: _CIRCLED[m.group()], text)
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("≪", "《").replace("≫", "》")
    text = _MINUS.sub("-", text)
    text = _BROKEN_MINUS.sub("-", text)
    text = _GRANT_IN_NAME.sub(r"『\1』", text)  # a granted ability in 「」: before spaces go
    text = "\n".join(_strip_spaces(line) for line in text.split("\n"))
    text = _BARE_STATE.sub(r"【\1】", text)
    for needle, pattern, repl in _FIXES:
        if needle in text:
            text = pattern.sub(repl, text)  # type: ignore[arg-type]
    return _LOST_BRACKET.sub(r"【\1】", text.strip())


def _starts_ability(text: str, pos: int, end: int) -> bool:
    before = text[:pos].rstrip()
    if before and before[-1] in _NOUN_BEFORE:
        return False
    if _MARKER.search(before[-7:]) and before.endswith("】") and _MARKER.fullmatch(before[before.rfind("【"):]):
        return False  # 【起】【カウンター】: one ability
    return end >= len(text) or text[end] not in _NOUN_AFTER


def _balance(line: str) -> str:
    """A line with a lost ``(`` or ``)`` (HOTC reminders split over lines) gets it back."""
    opened = line.count("(") - line.count(")")
    if opened > 0:
        return line + ")" * opened
    if opened < 0 and not _MARKER.match(line):
        return "(" * -opened + line
    return line


def split_abilities(text: str) -> list[str]:
    """The abilities of a normalised text, each with its reminder text."""
    pieces: list[str] = []
    for line in text.split("\n"):
        line = _balance(line.strip())
        if not line:
            continue
        if pieces and not _MARKER.match(line):
            pieces[-1] += line  # a reminder, Xは…, ●… on a line of its own (HOTC): the ability goes on
            continue
        depth = 0
        start = 0
        i = 0
        while i < len(line):
            c = line[i]
            if c in _OPEN:
                depth += 1
            elif c in _CLOSE:
                depth = max(0, depth - 1)
            elif c == "【" and depth == 0 and i > start:
                m = _MARKER.match(line, i)
                if m and _starts_ability(line, i, m.end()):
                    if line[start:i].strip():
                        pieces.append(line[start:i].strip())
                    start = i
                    i = m.end()
                    continue
            i += 1
        if line[start:].strip():
            pieces.append(line[start:].strip())
    return pieces
