"""The one error type of the query language."""
from __future__ import annotations

from typing import Any

from config.errors import AppError


class QueryError(AppError):
    """A query that cannot be run: ``code`` (machine-readable: ``unknown_field``, ``bad_value``,
    ``syntax`` ...), ``message`` (words, in the active language), ``position`` (0-based character
    offset in ``query`` where the problem is). A 400; ``params`` carry ``position`` and ``query``.

    The search writes English (``english``); ``message`` is that text in the language of the request
    (``catalog.i18n.query_error_message``)."""

    status = 400

    def __init__(self, code: str, message: str, position: int, query: str = "") -> None:
        super().__init__(message, code=code, params={"position": position, "query": query})
        self.english = message
        self.position = position
        self.query = query

    @property
    def message(self) -> str:
        from catalog.i18n import query_error_message

        return query_error_message(self)

    @message.setter
    def message(self, value: Any) -> None:
        self.english = str(value)

    def __repr__(self) -> str:
        return f"QueryError({self.code!r}, {self.english!r}, position={self.position})"
