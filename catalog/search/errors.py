"""The one error type of the query language."""
from __future__ import annotations

from typing import Any


class QueryError(ValueError):
    """A query that cannot be run: ``code`` (machine-readable), ``message`` (words), ``position``
    (0-based character offset in ``query`` where the problem is)."""

    def __init__(self, code: str, message: str, position: int, query: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position
        self.query = query

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "position": self.position, "query": self.query}

    def __repr__(self) -> str:
        return f"QueryError({self.code!r}, {self.message!r}, position={self.position})"
