"""The lark grammar of Weiß Schwarz printed text (LALR) and its dictionary lexer, built once.

An ability is a header (markers 【自】/【永】/【起】/【カウンター】, tags such as 【CXコンボ】, a
keyword such as アンコール / 絆 / 助太刀 and a cost in ``[...]``) and a body of sentences, with
reminder text in ``(...)`` and granted abilities in ``『...』``. A sentence is a chain of clauses;
a clause is its arguments (noun phrases marked by a case particle, counts) and a predicate (a verb
form, a noun + する, a ``+N`` change, a copula ``…なら``) with its ending (``時``, ``なら``...).
A noun phrase is a run of known words (:mod:`.lexicon`), names 「…」, traits 《…》, granted
abilities 『…』 and numbers; the semantic pass (:mod:`.semantics`) reads it.

Japanese has no spaces, so the lexer is a dictionary one (:class:`WsLexer`): at each point it takes
the longest known word; a word is either one of the grammar's own literals (``"枚"``, ``"なら"``)
or a word of a class (``WORD``, ``VERB``, ``SURU``, ``CASE``...). Names, traits, granted
abilities, reminders, stock costs ``(1)``, numbers and ``+N`` are read by their brackets / signs.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters
from lark.lexer import Lexer

from .lexicon import SURU, VERBS, WORDS

CASES = ("が", "を", "に", "は", "から", "で", "中", "へ", "より", "につき", "として", "には", "では", "にも", "とも",
         "も", "としても", "ごとに", "によって", "による", "に対して", "からも", "でも", "での", "への", "からの", "までに")
ENDINGS = ("時", "時か", "ときか", "なら", "ならば", "場合", "たびに", "とき", "ので", "ても", "こと", "ことができる",
           "ことができない")
CONJUNCTIONS = ("そうしたら", "その後", "そうしないなら", "そうでないなら", "そうした場合", "そうしなかったら",
                "さらに", "または", "かわりに")
KEYWORDS = ("応援", "チェンジ", "集中", "経験", "記憶", "大活躍", "アラーム", "加速", "共鳴", "フォース", "合体",
            "アンコール")
# What a number may carry in a noun phrase: レベル2以上, 1ダメージ, 1回, 2つ, 1番目.
NUMBERED = ("ダメージ", "回", "つ", "番目", "色", "種類", "ターン", "番", "人")
MARKERS = ("【自】", "【永】", "【起】", "【カウンター】", "●", "◆", "■")

GRAMMAR = r"""
%declare GRANTS NO CMP COUNT NUMBERED WORD VERB SURU CASE ENDING CONJ KEYWORD MARKER TAG NAME TRAIT GRANT REMINDER STOCK NUM SIGNED

start: header piece* ((tail | GRANT | GRANTS) REMINDER*)?

header: MARKER* TAG* keyword? cost?

keyword: KEYWORD                                  -> kw_plain
       | "絆" "/" NAME (WORD NAME)*               -> kw_bond
       | "助太刀" NUM WORD NUM                     -> kw_backup
       | "シフト" WORD NUM                         -> kw_shift

cost: "[" STOCK? (clause | "。")* "]"

piece: sentence
     | REMINDER                                   -> reminder
     | (GRANT | GRANTS) "。"                      -> grant_piece
sentence: clause+ "。"
tail: clause+

clause: arg* pred
      | CONJ "、"?                                 -> conj
      | KEYWORD                                   -> kw_in_body

!arg: np case "、"?                                 -> arg_case
   | np "、"?                                      -> arg_bare
   | count case? "、"?                             -> arg_count
!case: CASE | "まで"

!count: COUNT upto?
     | "好きな枚数" upto?                          -> count_any
!upto: "まで" | "ずつ" | CMP

!pred: VERB ending? "、"?                           -> pred_verb
    | VERB may ending? "、"?                      -> pred_may
    | np? SURU ending? "、"?                       -> pred_suru
    | np? SURU may ending? "、"?                  -> pred_suru_may
    | SIGNED SURU? "、"?                           -> pred_change
    | np "なら" "、"?                              -> pred_copula
    | count "なら" "、"?                           -> pred_count

np: _np_item+
_np_item: WORD | NUMBERED | CMP | NO | NAME | TRAIT | GRANT | MARKER | item
!item: number NUMBERED?                            -> num
    | "×" number                                  -> times
    | "カード名に" NAME (WORD NAME)* "を含む"      -> name_contains
    | GRANT "を持つ"                              -> has_ability
    | TRAIT "を持つ"                              -> has_trait
    | NAME "を持つ"                               -> has_ability
!number: NUM | "X"
!ending: ENDING | "なら"
!may: "よい" | "もよい"
"""

# Words the grammar spells out itself (its literals) are taken from the grammar; these are the
# words of each declared class.
CLASS_WORDS: dict[str, tuple[str, ...]] = {  # in order of precedence
    "NUMBERED": NUMBERED,
    "CMP": ("以上", "以下"),
    "WORD": tuple(WORDS),
    "VERB": tuple(VERBS),
    "SURU": tuple(SURU),
    "CASE": CASES,
    "ENDING": ENDINGS,
    "CONJ": CONJUNCTIONS,
    "KEYWORD": KEYWORDS,
    "MARKER": MARKERS,
}


def _closing(text: str, pos: int, open_: str, close: str) -> int:
    """Index after the bracket closing the one at ``pos`` (nesting counted); -1 when unclosed."""
    depth = 0
    for i in range(pos, len(text)):
        c = text[i]
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


class WsLexer(Lexer):
    """Longest known word first; bracketed spans and numbers by their first character."""

    def __init__(self, conf: Any) -> None:
        words: dict[str, str] = {}
        for cls, members in CLASS_WORDS.items():
            for w in members:
                words.setdefault(w, cls)
        for t in conf.terminals:  # the grammar's own literals win over class words
            if t.pattern.type == "str":
                words[t.pattern.value] = t.name
        self.words = words
        lengths: dict[str, set[int]] = {}
        for w in words:
            lengths.setdefault(w[0], set()).add(len(w))
        self.lengths = {c: sorted(ls, reverse=True) for c, ls in lengths.items()}
        self.literal = {t.pattern.value: t.name for t in conf.terminals if t.pattern.type == "str"}

    def lex(self, text: str) -> Iterator[Token]:  # type: ignore[override]  # lark's interface 0: the text
        return self.tokens(text)

    def tokens(self, text: str) -> Iterator[Token]:
        i, n = 0, len(text)
        words, lengths = self.words, self.lengths
        prev = ""
        while i < n:
            c = text[i]
            opener = _OPENERS.get(c)
            if opener is not None:
                end, kind = opener(text, i, prev)
            elif c.isdigit() or (c == "X" and text[i + 1:i + 2] == "枚"):
                end, kind = self._number(text, i, n)
            elif c in "+-" and i + 1 < n and (text[i + 1].isdigit() or text[i + 1] == "X"):
                end, kind = _signed(text, i, n)
            else:
                end, kind = -1, ""
            if not kind or end < 0:
                kind = ""
                for length in lengths.get(c, ()):
                    w = text[i:i + length]
                    if w in words:
                        end, kind = i + length, words[w]
                        break
            if not kind and c == "【":  # a tag: 【CXコンボ】, 【クロック】
                j = text.find("】", i)
                if 0 < j - i <= 13:
                    end, kind = j + 1, "TAG"
            if not kind or end < 0:
                raise UnexpectedCharacters(text, i, i + 1, 0, allowed=None)
            if kind == "WORD" and end - i == 1 and c == "の":
                kind = "NO"  # の (and の、 inside a noun phrase: 他のあなたの、《A》か《B》のキャラ)
                if text[end:end + 1] == "、":
                    end += 1
            value = text[i:end]
            prev = value
            yield Token(kind, value, start_pos=i, end_pos=end)
            i = end

    def _number(self, text: str, i: int, n: int) -> tuple[int, str]:
        """2枚: one COUNT token (a count, not a number in a noun phrase); 1番上, 1ターン: known words;
        else a NUM."""
        end = i + 1
        while end < n and text[end].isdigit():
            end += 1
        if text[end:end + 1] == "枚":
            return end + 1, "COUNT"
        for length in self.lengths.get(text[i], ()):
            if length > end - i and text[i:i + length] in self.words:
                return i + length, self.words[text[i:i + length]]
        return end, "NUM"


def _signed(text: str, i: int, n: int) -> tuple[int, str]:
    """+1000, -1: a change (SIGNED); レベル+1以下, レベル+1に等しい: a number in a noun phrase (NUM)."""
    end = i + 2
    while end < n and text[end].isdigit():
        end += 1
    return end, "NUM" if text.startswith(("以下", "以上", "に等しい"), end) else "SIGNED"


def _grants(text: str, i: int, prev: str) -> tuple[int, str]:
    """『A』 (GRANT); 『A』『B』: options / abilities in a row (GRANTS)."""
    end, kind = _closing(text, i, "『", "』"), "GRANT"
    while end > 0 and text[end:end + 1] == "『":
        end, kind = _closing(text, end, "『", "』"), "GRANTS"
    return end, kind


def _parenthesis(text: str, i: int, prev: str) -> tuple[int, str]:
    """[(1)]: a stock cost (STOCK); otherwise reminder text (REMINDER)."""
    j = text.find(")", i)
    if prev == "[" and j > 0 and (text[i + 1:j].isdigit() or text[i + 1:j] == "X"):
        return j + 1, "STOCK"
    return _closing(text, i, "(", ")"), "REMINDER"


# the tokens an opening bracket starts: (text, position, previous token) → (end, kind)
_OPENERS: dict[str, Any] = {
    "「": lambda text, i, prev: (_closing(text, i, "「", "」"), "NAME"),
    "《": lambda text, i, prev: (_closing(text, i, "《", "》"), "TRAIT"),
    "『": _grants,
    "(": _parenthesis,
}


def grammar_text() -> str:
    return GRAMMAR


def build_parser(transformer: object | None = None) -> Lark:
    return Lark(GRAMMAR, parser="lalr", lexer=WsLexer, transformer=transformer, maybe_placeholders=False)
