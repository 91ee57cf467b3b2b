"""The query language's grammar (lark, LALR) and the parser producing a small AST.

    query      := [or_expr]
    or_expr    := and_expr ("or" and_expr)*
    and_expr   := unary (["and"] unary)*          -- juxtaposition means AND
    unary      := "-" unary | "(" or_expr ")" | term
    term       := FIELD OP value | value | 《trait》 | 「name」
    value      := WORD | "quoted string" | 'quoted string' | /regex/

``FIELD OP`` is one token (``power>=``, ``t:``), so a bare word such as ``power`` is a name search
and ``slot:AF-C`` keeps its hyphen. AND binds tighter than OR, as on Scryfall.

Japanese brackets as the cards print them: ``《音楽》`` (or ``≪音楽≫``) is ``trait:"音楽"``, ``「結弦」``
is ``name:"結弦"`` — when the bracket starts a term and its closing one ends it (``「約束」の場所`` stays
one name word).
"""
from __future__ import annotations

from dataclasses import dataclass

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import QueryError

MAX_QUERY_LENGTH = 1000
MAX_DEPTH = 16  # parentheses / negations nested
MAX_TERMS = 60

GRAMMAR = r"""
?start: or_expr?

?or_expr: and_expr (_OR and_expr)*
?and_expr: unary (_AND? unary)*
?unary: NEG unary        -> neg
      | LPAR or_expr RPAR -> group
      | term

term: FIELDOP value      -> cmp
    | value              -> bare
    | TRAIT              -> trait
    | NAMEQ              -> quoted_name

?value: WORD | STRING | REGEX

FIELDOP.3: /[^\W\d][\w\-]*(?:!=|>=|<=|:|=|>|<)/
_OR.2: /(?i:or|\|\|)(?=[\s()]|$)/
_AND.2: /(?i:and|&&)(?=[\s()]|$)/
NEG: "-" | "!"
LPAR: "("
RPAR: ")"
STRING: /"(?:[^"\\]|\\.)*"/ | /'(?:[^'\\]|\\.)*'/
REGEX.2: /\/(?:[^\/\\]|\\.)+\//
TRAIT.3: /《[^》]*》(?=[\s()《≪「]|$)/ | /≪[^≫]*≫(?=[\s()《≪「]|$)/
NAMEQ.3: /「[^」]*」(?=[\s()《≪「]|$)/
WORD: /[^\s()"'\-!][^\s()"]*/

%import common.WS
%ignore WS
"""

_parser = Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=False, maybe_placeholders=False)


# -- AST -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Value:
    text: str
    kind: str  # "word", "string", "regex"
    pos: int


@dataclass(frozen=True)
class Term:
    field: str | None  # None = bare word (name search)
    op: str
    value: Value
    pos: int  # position of the field (or of the value for bare words)


@dataclass(frozen=True)
class Not:
    child: Node
    pos: int


@dataclass(frozen=True)
class And:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    children: tuple[Node, ...]


Node = Term | Not | And | Or


def _unquote(tok: Token) -> Value:
    raw = str(tok)
    if tok.type == "STRING":
        body = raw[1:-1]
        out, i = [], 0
        while i < len(body):
            if body[i] == "\\" and i + 1 < len(body):
                out.append(body[i + 1])
                i += 2
            else:
                out.append(body[i])
                i += 1
        return Value("".join(out), "string", tok.start_pos)
    if tok.type == "REGEX":
        return Value(raw[1:-1], "regex", tok.start_pos)
    return Value(raw, "word", tok.start_pos)


class _ToAst(Transformer):
    @v_args(inline=True)
    def cmp(self, fieldop: Token, value: Token) -> Term:
        raw = str(fieldop)
        for op in ("!=", ">=", "<=", ":", "=", ">", "<"):
            if raw.endswith(op):
                return Term(raw[: -len(op)], op, _unquote(value), fieldop.start_pos)
        raise AssertionError(raw)  # pragma: no cover - the token regex guarantees an operator

    @v_args(inline=True)
    def bare(self, value: Token) -> Term:
        v = _unquote(value)
        return Term(None, ":", v, v.pos)

    @v_args(inline=True)
    def trait(self, tok: Token) -> Term:
        return Term("trait", ":", Value(str(tok)[1:-1], "string", tok.start_pos + 1), tok.start_pos)

    @v_args(inline=True)
    def quoted_name(self, tok: Token) -> Term:
        return Term("name", ":", Value(str(tok)[1:-1], "string", tok.start_pos + 1), tok.start_pos)

    @v_args(inline=True)
    def neg(self, tok: Token, child: Node) -> Not:
        return Not(child, tok.start_pos)

    @v_args(inline=True)
    def group(self, _l: Token, child: Node, _r: Token) -> Node:
        return child

    def and_expr(self, children: list[Node]) -> And:
        return And(tuple(children))

    def or_expr(self, children: list[Node]) -> Or:
        return Or(tuple(children))

    def start(self, children: list[Node]) -> Node | None:
        return children[0] if children else None


_BRACKETS = {"《": "》", "≪": "≫", "「": "」"}  # opening -> closing (TRAIT and NAMEQ above)


def _prescan(q: str) -> None:
    """Check quotes and parentheses first, for precise messages (lark's are generic)."""
    stack: list[int] = []
    depth_neg = 0
    i, n = 0, len(q)
    prev_boundary = True
    while i < n:
        ch = q[i]
        if ch in "\"'" and (prev_boundary or (i > 0 and q[i - 1] in ":=<>")):
            j = i + 1
            while j < n and q[j] != ch:
                j += 2 if q[j] == "\\" else 1
            if j >= n:
                raise QueryError("unterminated_string", f"the quote {ch} at position {i} is never closed", i, q)
            i = j + 1
            prev_boundary = False
            continue
        if ch in _BRACKETS and prev_boundary:  # 《trait》 / 「name」: skip their content, as the lexer does
            j = q.find(_BRACKETS[ch], i + 1)
            if j < 0:
                raise QueryError("unterminated_string", f"the {ch} at position {i} is never closed", i, q)
            if j + 1 == n or q[j + 1].isspace() or q[j + 1] in "()" or q[j + 1] in _BRACKETS:
                i = j + 1
                prev_boundary = False
                continue
        if ch == "(":
            stack.append(i)
            if len(stack) > MAX_DEPTH:
                raise QueryError("too_deep", f"parentheses nested deeper than {MAX_DEPTH} levels", i, q)
        elif ch == ")":
            if not stack:
                raise QueryError(
                    "unbalanced_parenthesis", f"the ')' at position {i} has no matching '('", i, q
                )
            stack.pop()
        elif ch in "-!" and prev_boundary:
            depth_neg += 1
            if depth_neg > MAX_DEPTH:
                raise QueryError("too_deep", f"more than {MAX_DEPTH} negations", i, q)
        prev_boundary = ch.isspace() or ch in "()-!"
        i += 1
    if stack:
        raise QueryError(
            "unbalanced_parenthesis", f"the '(' at position {stack[-1]} is never closed", stack[-1], q
        )


_EXPECTED_NAMES = {
    "WORD": "a word", "STRING": "a quoted value", "REGEX": "a /regex/", "LPAR": "'('", "RPAR": "')'",
    "FIELDOP": "a field", "NEG": "'-'", "_OR": "'or'", "_AND": "'and'", "$END": "the end of the query",
    "TRAIT": "a 《trait》", "NAMEQ": "a 「name」",
}


def _syntax_error(q: str, exc: UnexpectedInput) -> QueryError:
    if isinstance(exc, UnexpectedEOF):
        return QueryError("syntax", "the query ends too early: a value is missing", len(q), q)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        pos = len(q) if tok.type == "$END" else tok.start_pos
        if tok.type == "$END":
            prev = q.rstrip()
            if prev and prev[-1] in ":=<>":
                return QueryError("syntax", f"a value is missing after '{prev.split()[-1]}'", pos, q)
            return QueryError("syntax", "the query ends too early: a value is missing", pos, q)
        if tok.type == "RPAR":
            return QueryError("syntax", "empty parentheses or a missing value before ')'", pos, q)
        expected = sorted({_EXPECTED_NAMES.get(e, e) for e in exc.expected if not e.startswith("__")})
        what = f"'{tok}'"
        return QueryError(
            "syntax", f"unexpected {what} at position {pos}; expected {' or '.join(expected) or 'a value'}", pos, q
        )
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        ch = q[pos] if pos < len(q) else ""
        prev = q[:pos].rstrip()
        if prev and prev[-1] in ":=<>" or ch in "-!":
            return QueryError("syntax", f"unexpected '{ch}' at position {pos}: a value was expected", pos, q)
        return QueryError("syntax", f"unexpected '{ch}' at position {pos}", pos, q)
    return QueryError("syntax", str(exc).splitlines()[0], getattr(exc, "pos_in_stream", 0) or 0, q)


# What a Japanese/Chinese input method types for the query syntax: the ideographic space between
# terms and full-width operators (パワー＞＝9000, レベル：3). Mapped one character to one, so error
# positions still point into the query as typed. (Values are folded anyway, see catalog.textnorm.)
_IME_SYNTAX = str.maketrans({"\u3000": " ", "\u00a0": " ", "＞": ">", "＜": "<", "＝": "=", "！": "!", "：": ":"})


def parse(q: str) -> Node | None:
    """Parse ``q`` into an AST (None for an empty query); raise ``QueryError`` with a position."""
    if len(q) > MAX_QUERY_LENGTH:
        raise QueryError(
            "too_long", f"the query is {len(q)} characters long; at most {MAX_QUERY_LENGTH} are allowed",
            MAX_QUERY_LENGTH, q,
        )
    if "\x00" in q:
        raise QueryError("syntax", "the query contains a NUL character", q.index("\x00"), q)
    q = q.translate(_IME_SYNTAX)
    _prescan(q)
    try:
        tree = _parser.parse(q)
    except UnexpectedInput as exc:
        raise _syntax_error(q, exc) from None
    if isinstance(tree, Token):  # a lone value is inlined by the grammar's ?rules
        v = _unquote(tree)
        return Term(None, ":", v, v.pos)
    node = _ToAst().transform(tree)
    if isinstance(node, Token):  # pragma: no cover - defensive
        v = _unquote(node)
        return Term(None, ":", v, v.pos)
    count = _count_terms(node)
    if count > MAX_TERMS:
        raise QueryError("too_many_terms", f"the query has {count} terms; at most {MAX_TERMS} are allowed", 0, q)
    return node


def _count_terms(node: Node | None) -> int:
    if node is None:
        return 0
    stack, count = [node], 0
    while stack:
        cur = stack.pop()
        if isinstance(cur, Term):
            count += 1
        elif isinstance(cur, Not):
            stack.append(cur.child)
        else:
            stack.extend(cur.children)
    return count
