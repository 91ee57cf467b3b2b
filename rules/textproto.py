"""A small parser for the Protocol Buffers *text format* (no schema needed), built on lark.

``parse_textproto(text)`` returns a :class:`Message`: every field name maps to the list of its
values in order (repeated fields are simply several values); a value is a ``str`` (quoted
strings, adjacent ones concatenated, escapes decoded), an ``int``/``float``, an enum identifier
as a ``str``, or a nested :class:`Message`. Extension fields keep their bracketed name
(``[pkg.Type.ext]``). Errors raise :class:`TextprotoError` with the line and column.
"""
from __future__ import annotations

import ast
import codecs
from typing import Any

from lark import Lark, Transformer, exceptions

GRAMMAR = r"""
start: field*
?field: name ":" scalar sep?            -> scalar_field
      | name ":"? "{" field* "}" sep?   -> message_field
      | name ":"? "<" field* ">" sep?   -> message_field
      | name ":" "[" [scalar ("," scalar)*] "]" sep? -> list_field
sep: "," | ";"
name: IDENT | EXT
?scalar: strings | NUMBER -> number | IDENT -> ident | SIGNED_IDENT -> ident
strings: STRING+
EXT: "[" /[A-Za-z_][\w.\/]*/ "]"
IDENT: /[A-Za-z_]\w*/
SIGNED_IDENT: /-(inf|nan)/i
NUMBER: /[+-]?(0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFuUlL]?/
STRING: /"(\\.|[^"\\\n])*"/ | /'(\\.|[^'\\\n])*'/
COMMENT: /#[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
"""


class TextprotoError(ValueError):
    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(f"{where}{message}")
        self.line = line
        self.column = column


class Message(dict):
    """Field name → list of values."""

    def first(self, name: str, default: Any = None) -> Any:
        values = self.get(name)
        return values[0] if values else default

    def all(self, name: str) -> list[Any]:
        return list(self.get(name) or [])


class _ToMessage(Transformer):
    def start(self, items: list[tuple[str, Any]]) -> Message:
        msg = Message()
        for key, values in items:
            msg.setdefault(key, []).extend(values)
        return msg

    def name(self, items: list[Any]) -> str:
        return str(items[0])

    def sep(self, items: list[Any]) -> None:
        return None

    def strings(self, items: list[Any]) -> str:
        out = []
        for tok in items:
            body = str(tok)[1:-1]
            if "\\" not in body:
                out.append(body)
                continue
            try:  # escapes are bytes in the text format (\303\251 is UTF-8 for é)
                out.append(codecs.escape_decode(body.encode("utf-8"))[0].decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                try:
                    out.append(ast.literal_eval(str(tok)))
                except (ValueError, SyntaxError):
                    out.append(body)
        return "".join(out)

    def number(self, items: list[Any]) -> int | float:
        raw = str(items[0]).rstrip("fFuUlL") if not str(items[0]).lower().startswith(("0x", "-0x", "+0x")) else str(items[0])
        try:
            return int(raw, 0) if not any(c in raw for c in ".eE") or raw.lower().startswith(("0x", "-0x", "+0x")) else float(raw)
        except ValueError:
            return float(raw)

    def ident(self, items: list[Any]) -> str:
        return str(items[0])

    def scalar_field(self, items: list[Any]) -> tuple[str, list[Any]]:
        return items[0], [items[1]]

    def list_field(self, items: list[Any]) -> tuple[str, list[Any]]:
        return items[0], [v for v in items[1:] if v is not None]

    def message_field(self, items: list[Any]) -> tuple[str, list[Any]]:
        name, *fields = [i for i in items if i is not None]
        return name, [self.start(fields)]


_PARSER = Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)


MAX_NESTING = 32  # messages inside messages; deck files use 3 (470 levels overflowed the stack)


def _check_nesting(text: str) -> None:
    """Raise ``TextprotoError`` at the first ``{``/``<`` nested deeper than ``MAX_NESTING`` (outside
    strings and comments), before the parser and the tree walk recurse that deep."""
    depth, line, col, quote, escaped, comment = 0, 1, 0, "", False, False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, comment, quote = line + 1, 0, False, ""  # strings end at the line (grammar)
            continue
        if comment:
            continue
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            comment = True
        elif ch in "{<":
            depth += 1
            if depth > MAX_NESTING:
                raise TextprotoError(f"messages nested deeper than {MAX_NESTING} levels", line, col)
        elif ch in "}>":
            depth = max(0, depth - 1)


def parse_textproto(text: str) -> Message:
    """Parse protobuf text format; raises TextprotoError naming the line and column."""
    _check_nesting(text)
    try:
        tree = _PARSER.parse(text)
    except exceptions.UnexpectedCharacters as exc:
        raise TextprotoError(f"unexpected character {text[exc.pos_in_stream]!r}", exc.line, exc.column) from None
    except exceptions.UnexpectedToken as exc:
        tok = exc.token
        what = "end of file" if tok.type == "$END" else repr(str(tok))
        raise TextprotoError(f"unexpected {what}", getattr(tok, "line", None), getattr(tok, "column", None)) from None
    except exceptions.UnexpectedEOF:
        raise TextprotoError("unexpected end of file (an unclosed '{'?)") from None
    return _ToMessage().transform(tree)
