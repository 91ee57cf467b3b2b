"""The syntax tree of one ability, built by a lark Transformer while the LALR parser runs.

Plain frozen dataclasses: :class:`Item` (one word of a noun phrase with its class and value),
:class:`NP`, :class:`Count`, :class:`Arg` (a noun phrase or count and its case particle),
:class:`Pred` (verb / noun + する / ``+N`` / copula, with its form, ``よい`` and ending),
:class:`Clause`, :class:`Sentence` and :class:`AbilitySyntax` (header and pieces). Each keeps its
span in the ability text, so the semantic pass can quote the phrase it could not read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer, v_args

from .lexicon import SURU, VERBS, WORDS


@dataclass(frozen=True, slots=True)
class Item:
    cls: str  # a lexicon class (player, zone, ...), or name / trait / grant / marker / num / of / ...
    value: Any
    text: str


@dataclass(frozen=True, slots=True)
class NP:
    items: tuple[Item, ...]
    start: int
    end: int

    @property
    def text(self) -> str:
        return "".join(i.text for i in self.items)

    def values(self, cls: str) -> list[Any]:
        return [i.value for i in self.items if i.cls == cls]

    def has(self, cls: str, value: Any = None) -> bool:
        return any(i.cls == cls and (value is None or i.value == value) for i in self.items)


@dataclass(frozen=True, slots=True)
class Count:
    n: int | str  # a number, "X" or "any"
    upto: str | None  # まで / ずつ / 以上 / 以下
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Arg:
    case: str | None  # が を に は から で まで につき ... ; None: no particle
    np: NP | None = None
    count: Count | None = None
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Pred:
    kind: str  # verb / suru / change / copula / count
    lemma: str = ""  # verb lemma, or the noun before する
    form: str = ""  # end / cont / te / past / neg / pass_past / ...
    may: bool = False  # てよい: optional
    ending: str | None = None  # 時 / なら / ...
    np: NP | None = None  # suru noun phrase, copula phrase
    count: Count | None = None
    value: str = ""  # "+1000"
    start: int = 0
    end: int = 0
    comma: bool = False  # followed by 、 (a predicate right before a noun, without 、, modifies it)


@dataclass(frozen=True, slots=True)
class Clause:
    args: tuple[Arg, ...]
    pred: Pred | None  # None for a conjunction
    conj: str = ""
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Sentence:
    clauses: tuple[Clause, ...]
    start: int
    end: int
    closed: bool = True  # ended by 。


@dataclass(frozen=True, slots=True)
class Piece:
    kind: str  # sentence / reminder / grant
    sentence: Sentence | None = None
    text: str = ""
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class Keyword:
    name: str  # the printed keyword: アンコール, 絆, 助太刀...
    names: tuple[str, ...] = ()  # 絆/「name」
    numbers: tuple[int, ...] = ()  # 助太刀2500レベル1 -> (2500, 1)


@dataclass(frozen=True, slots=True)
class Cost:
    stock: int | str | None
    clauses: tuple[Clause, ...]
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class AbilitySyntax:
    markers: tuple[str, ...]
    tags: tuple[str, ...]
    keyword: Keyword | None
    cost: Cost | None
    pieces: tuple[Piece, ...] = field(default_factory=tuple)


_OF = Item("of", "of", "の")
_BRACKETED = {"NAME": "name", "TRAIT": "trait", "GRANT": "grant"}


def _span(*parts: Any) -> tuple[int, int]:
    starts: list[int] = []
    ends: list[int] = []
    for p in parts:
        if isinstance(p, Token):
            starts.append(p.start_pos or 0)
            ends.append(p.end_pos or 0)
        elif hasattr(p, "start") and hasattr(p, "end") and not isinstance(p, str):
            starts.append(p.start)
            ends.append(p.end)
    return (min(starts), max(ends)) if starts else (0, 0)


def _int(text: str) -> int | str:
    return int(text) if text.isdigit() else text


@v_args(inline=True)
class ToSyntax(Transformer):
    """Parse tree → syntax objects (run inside the LALR parser: no tree is built)."""

    # -- noun phrases ----------------------------------------------------------------------
    def number(self, tok: Token) -> Token:
        return tok

    def num(self, tok: Token, suffix: Token | None = None) -> Item:
        text = str(tok) + (str(suffix) if suffix else "")
        item = Item("num", (_int(str(tok)), str(suffix) if suffix else ""), text)
        return _Positioned(item, tok.start_pos or 0, (suffix or tok).end_pos or 0)

    def times(self, sign: Token, tok: Token) -> Item:
        return _Positioned(Item("times", _int(str(tok)), "×" + str(tok)), sign.start_pos or 0, tok.end_pos or 0)

    def name_contains(self, *toks: Token) -> Item:
        names = tuple(str(t)[1:-1] for t in toks if t.type == "NAME")
        return _Positioned(Item("name_contains", names, "".join(str(t) for t in toks)),
                           toks[0].start_pos or 0, toks[-1].end_pos or 0)

    def has_ability(self, tok: Token, _: Token) -> Item:
        return _Positioned(Item("has_ability", str(tok)[1:-1], str(tok) + "を持つ"), tok.start_pos or 0, _.end_pos or 0)

    def has_trait(self, tok: Token, _: Token) -> Item:
        return _Positioned(Item("has_trait", str(tok)[1:-1], str(tok) + "を持つ"), tok.start_pos or 0, _.end_pos or 0)

    def np(self, *parts: Token | _Positioned) -> NP:
        items: list[Item] = []
        for p in parts:
            if isinstance(p, _Positioned):
                items.append(p.item)
                continue
            kind = p.type
            text = str(p)
            if kind == "NO":
                items.append(_OF)
            elif kind in _BRACKETED:
                items.append(Item(_BRACKETED[kind], text[1:-1], text))
            elif kind == "MARKER":
                items.append(Item("marker", text, text))
            else:  # WORD, NUMBERED, CMP
                cls, value = WORDS.get(text, ("word", text))
                items.append(Item(cls, value, text))
        first, last = parts[0], parts[-1]
        start = first.start if isinstance(first, _Positioned) else first.start_pos or 0
        end = last.end if isinstance(last, _Positioned) else last.end_pos or 0
        return NP(tuple(items), start, end)

    # -- counts and arguments --------------------------------------------------------------
    def count(self, tok: Token, upto: Token | None = None) -> Count:
        return Count(_int(str(tok)[:-1]), str(upto) if upto else None, tok.start_pos or 0,
                     (upto or tok).end_pos or 0)

    def count_any(self, tok: Token, upto: Token | None = None) -> Count:
        return Count("any", str(upto) if upto else None, tok.start_pos or 0, (upto or tok).end_pos or 0)

    def upto(self, tok: Token) -> Token:
        return tok

    def case(self, tok: Token) -> Token:
        return tok

    def arg_case(self, np: NP, case: Token, comma: Token | None = None) -> Arg:
        return Arg(str(case), np, None, np.start, (comma or case).end_pos or 0)

    def arg_bare(self, np: NP, comma: Token | None = None) -> Arg:
        return Arg(None, np, None, np.start, comma.end_pos if comma else np.end)

    def arg_count(self, count: Count, *rest: Token) -> Arg:
        case = next((t for t in rest if str(t) != "、"), None)
        end = rest[-1].end_pos if rest else count.end
        return Arg(str(case) if case else None, None, count, count.start, end or count.end)

    # -- predicates ------------------------------------------------------------------------
    def ending(self, tok: Token) -> Token:
        return tok

    def may(self, tok: Token) -> Token:
        return tok

    @staticmethod
    def _ending(rest: tuple[Any, ...]) -> tuple[str | None, bool, int]:
        ending, may, end = None, False, 0
        for t in rest:
            if isinstance(t, Token):
                end = max(end, t.end_pos or 0)
                if t in ("よい", "もよい"):
                    may = True
                elif t != "、":
                    ending = str(t)
        return ending, may, end

    @staticmethod
    def _comma(rest: tuple[Any, ...]) -> bool:
        return any(isinstance(t, Token) and t == "、" for t in rest)

    def pred_verb(self, verb: Token, *rest: Token) -> Pred:
        lemma, form = VERBS[str(verb)]
        ending, may, end = self._ending(rest)
        return Pred("verb", lemma, form, may, ending, start=verb.start_pos or 0, end=max(end, verb.end_pos or 0),
                    comma=self._comma(rest))

    pred_may = pred_verb

    def pred_suru(self, *parts: Any) -> Pred:
        np = parts[0] if isinstance(parts[0], NP) else None
        toks = parts[1:] if np is not None else parts
        suru = toks[0]
        ending, may, end = self._ending(tuple(toks[1:]))
        start = np.start if np is not None else suru.start_pos or 0
        return Pred("suru", np.text if np is not None else "", SURU[str(suru)], may, ending, np=np, start=start,
                    end=max(end, suru.end_pos or 0), comma=self._comma(tuple(toks[1:])))

    pred_suru_may = pred_suru

    def pred_change(self, sign: Token, *rest: Token) -> Pred:
        form = SURU.get(str(rest[0]), "") if rest and str(rest[0]) != "、" else ""
        end = max([sign.end_pos or 0] + [t.end_pos or 0 for t in rest])
        return Pred("change", form=form, value=str(sign), start=sign.start_pos or 0, end=end, comma=self._comma(rest))

    def pred_copula(self, np: NP, nara: Token, comma: Token | None = None) -> Pred:
        return Pred("copula", ending="なら", np=np, start=np.start, end=(comma or nara).end_pos or 0)

    def pred_count(self, count: Count, nara: Token, comma: Token | None = None) -> Pred:
        return Pred("count", ending="なら", count=count, start=count.start, end=(comma or nara).end_pos or 0)

    # -- clauses, sentences, ability -------------------------------------------------------
    def clause(self, *parts: Any) -> Clause:
        args = tuple(p for p in parts if isinstance(p, Arg))
        pred = parts[-1]
        start = args[0].start if args else pred.start
        return Clause(args, pred, "", start, pred.end)

    def kw_in_body(self, tok: Token) -> Clause:
        """記憶 opening a sentence of an event's text (このカードを思い出にする。記憶…なら、…)."""
        return Clause((), None, "keyword:" + str(tok), tok.start_pos or 0, tok.end_pos or 0)

    def conj(self, tok: Token, comma: Token | None = None) -> Clause:
        return Clause((), None, str(tok), tok.start_pos or 0, (comma or tok).end_pos or 0)

    def sentence(self, *parts: Any) -> Piece:
        clauses = tuple(p for p in parts if isinstance(p, Clause))
        end = parts[-1].end_pos if isinstance(parts[-1], Token) else clauses[-1].end
        s = Sentence(clauses, clauses[0].start, end or clauses[-1].end)
        return Piece("sentence", s, start=s.start, end=s.end)

    def tail(self, *clauses: Clause) -> Piece:
        s = Sentence(tuple(clauses), clauses[0].start, clauses[-1].end, closed=False)
        return Piece("sentence", s, start=s.start, end=s.end)

    def piece(self, p: Piece | tuple[Piece, ...]) -> Piece | tuple[Piece, ...]:
        return p

    def reminder(self, tok: Token) -> Piece:
        return Piece("reminder", text=str(tok)[1:-1], start=tok.start_pos or 0, end=tok.end_pos or 0)

    def grant_piece(self, *toks: Token) -> tuple[Piece, ...]:
        return tuple(p for t in toks if isinstance(t, Token) and t.type in ("GRANT", "GRANTS") for p in _grants(t))

    def kw_plain(self, tok: Token) -> Keyword:
        return Keyword(str(tok))

    def kw_bond(self, *toks: Token) -> Keyword:
        return Keyword("絆", tuple(str(t)[1:-1] for t in toks if t.type == "NAME"))

    def kw_backup(self, power: Token, level_word: Token, level: Token) -> Keyword:
        return Keyword("助太刀", numbers=(int(power), int(level)))

    def kw_shift(self, level_word: Token, level: Token) -> Keyword:
        return Keyword("シフト", numbers=(int(level),))

    def cost(self, *parts: Any) -> Cost:
        stock = next((p for p in parts if isinstance(p, Token) and p.type == "STOCK"), None)
        clauses = tuple(p for p in parts if isinstance(p, Clause))
        toks = [p for p in parts if isinstance(p, Token)]
        return Cost(_int(str(stock)[1:-1]) if stock else None, clauses, toks[0].start_pos or 0 if toks else 0,
                    toks[-1].end_pos or 0 if toks else 0)

    def header(self, *parts: Any) -> tuple[tuple[str, ...], tuple[str, ...], Keyword | None, Cost | None]:
        markers = tuple(str(p) for p in parts if isinstance(p, Token) and p.type == "MARKER")
        tags = tuple(str(p)[1:-1] for p in parts if isinstance(p, Token) and p.type == "TAG")
        keyword = next((p for p in parts if isinstance(p, Keyword)), None)
        cost = next((p for p in parts if isinstance(p, Cost)), None)
        return markers, tags, keyword, cost

    def start(self, header: tuple[Any, ...], *pieces: Any) -> AbilitySyntax:
        out: list[Piece] = []
        for p in pieces:
            if isinstance(p, tuple):  # 『…』『…』。
                out.extend(p)
            elif isinstance(p, Token) and p.type == "REMINDER":  # reminders after an unclosed sentence
                out.append(self.reminder(p))
            elif isinstance(p, Token):  # granted abilities closing the text
                out.extend(_grants(p))
            else:
                out.append(p)
        return AbilitySyntax(*header, pieces=tuple(out))


def _grants(tok: Token) -> list[Piece]:
    """『A』 or 『A』『B』 → one piece per 『…』 (nesting counted)."""
    text, base = str(tok), tok.start_pos or 0
    out: list[Piece] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "『":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "』":
            depth -= 1
            if depth == 0:
                out.append(Piece("grant", text=text[start + 1:i], start=base + start, end=base + i + 1))
    return out


@dataclass(frozen=True, slots=True)
class _Positioned:
    item: Item
    start: int
    end: int
