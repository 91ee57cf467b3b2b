"""Every card search runs under a database statement timeout (docs/security.md, issue 19 finding 1).

``search_deadline()`` wraps the part of a view that evaluates a search (the count, the page, the
"did you mean" suggestions): a statement running past ``SEARCH_TIMEOUT_SECONDS`` (default 3 s) is
stopped by the database and the request answers ``SearchTimeout``, a **503** with ``Retry-After``
(code ``search_timeout``), instead of holding a web worker. Queries are priced before they run
(``catalog.search.cost``); the timeout is the backstop for what pricing cannot see.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils.translation import gettext_lazy

from config.dbtimeout import StatementTimeout, statement_timeout
from config.errors import AppError

DEFAULT_SECONDS = 3.0
RETRY_AFTER = 30


class SearchTimeout(AppError):
    """A search stopped by the statement timeout (code ``search_timeout``, 503, ``Retry-After``);
    ``params["seconds"]`` is the limit."""

    code = "search_timeout"
    status = 503
    default_message = gettext_lazy("the search took longer than %(seconds)s seconds and was stopped; "
                                   "narrow it down (fewer regular expressions or alternatives) and try again")


def timeout_seconds() -> float:
    return float(getattr(settings, "SEARCH_TIMEOUT_SECONDS", DEFAULT_SECONDS))


@contextmanager
def search_deadline(seconds: float | None = None) -> Iterator[None]:
    """Run the block under the search statement timeout; raise ``SearchTimeout`` when it fires."""
    limit = timeout_seconds() if seconds is None else seconds
    try:
        with statement_timeout(limit):
            yield
    except StatementTimeout:
        raise SearchTimeout(params={"seconds": f"{limit:g}"}, headers={"Retry-After": str(RETRY_AFTER)}) from None
