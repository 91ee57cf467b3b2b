"""The API's JSON parser, refusing what the database or the code behind it cannot take (issue 19,
finding 5): a body nested deeper than ``MAX_DEPTH`` levels (950 levels of ``[`` crashed with a
RecursionError), and text holding a NUL character or an unpaired surrogate (``"\\u0000"``,
``"\\ud800"``: PostgreSQL refuses the first, UTF-8 cannot encode the second) — in any value or key.

Each is a 400 ``invalid`` naming the place in the body (``zones.main``, ``username``); nothing is
read further and nothing is written. Every API view uses it (``DEFAULT_PARSER_CLASSES`` and the
views that list their parsers).
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from .errors import NON_FIELD, InvalidInput

MAX_DEPTH = 32


def bad_text_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored (a NUL character, an unpaired surrogate), or None."""
    if "\x00" in text:
        return gettext("contains a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return gettext("contains an unpaired surrogate (%(char)s) at character %(pos)s") % {
            "char": f"\\u{ord(text[exc.start]):04x}", "pos": exc.start + 1}
    return None


def check_json(data: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Raise ``InvalidInput`` naming the path of the first value nested too deep or holding bad text."""
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > max_depth:
                raise InvalidInput({path or NON_FIELD: [gettext("nested deeper than %(n)s levels") % {"n": max_depth}]})
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in items:
                if isinstance(key, str) and (problem := bad_text_problem(key)):
                    raise InvalidInput({path or NON_FIELD: [gettext("a key %(problem)s") % {"problem": problem}]})
                stack.append((child, f"{path}.{key}" if path else str(key), depth + 1))
        elif isinstance(value, str) and (problem := bad_text_problem(value)):
            raise InvalidInput({path or NON_FIELD: [problem]})


class StrictJSONParser(parsers.JSONParser):
    """DRF's JSON parser plus ``check_json`` (depth, NUL, unpaired surrogates)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(gettext("JSON parse error - nested deeper than %(n)s levels") % {"n": MAX_DEPTH}) from None
        check_json(data)
        return data


class StrictFormParser(parsers.FormParser):
    """Form bodies: Django decodes them (no surrogates possible); NUL characters are refused."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        for key, values in data.lists():
            for value in values:
                if problem := bad_text_problem(value):
                    raise InvalidInput({key: [problem]})
        return data
