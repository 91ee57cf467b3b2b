"""Read-side selectors for the catalog (HackSoft style: ``<entity>_list`` / ``<entity>_get``).

``card_search`` is the query language entry point other apps call (the deck builder's card picker,
the API, the pages); ``card_list`` adds django-filter parameters on top; ``card_get`` loads one card.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from django.db import connection
from django.db.models import F, OrderBy, QuerySet
from django.http import Http404

from rules.games import GAMES

from .models import Card
from .search import QueryError, compile_query, install_sqlite_regexp
from .search.fields import lookup_order

__all__ = ["QueryError", "card_get", "card_list", "card_search", "DEFAULT_ORDER", "parse_order"]

# Stable default ordering: name, then identity (pagination never repeats or skips a card).
DEFAULT_ORDER = ("name", "game", "code")


def _finish_order(order: list[str]) -> list[OrderBy]:
    """Sort keys -> expressions; cards without the stat sort last in both directions."""
    keys = list(order)
    for key in DEFAULT_ORDER:
        if key not in {o.lstrip("-") for o in keys}:
            keys.append(key)
    return [F(k[1:]).desc(nulls_last=True) if k.startswith("-") else F(k).asc(nulls_last=True) for k in keys]


def parse_order(value: str, query: str = "") -> list[str]:
    """Parse an API ``order`` parameter: ``power``, ``-power``, ``name,-cost`` (field names or aliases)."""
    out: list[str] = []
    pos = 0
    for part in value.split(","):
        key = part.strip()
        desc = key.startswith("-")
        column = lookup_order(key.lstrip("-+")) if key else None
        if column is None:
            raise QueryError("bad_order", f"cannot sort by '{key}'", pos, value)
        out.append(("-" if desc else "") + column)
        pos += len(part) + 1
    return out


def card_search(*, q: str, game: str | None = None) -> QuerySet[Card]:
    """Cards matching the query string ``q`` (see docs/search.md), ordered as the query says.

    Raises ``QueryError`` (``.code``, ``.message``, ``.position``) for a query that cannot run.
    """
    if game is not None and game not in GAMES:
        raise QueryError("bad_value", f"unknown game '{game}'; expected one of {', '.join(GAMES)}", 0, q or "")
    compiled = compile_query(q or "", game=game, vendor=connection.vendor)
    if compiled.uses_regex:
        install_sqlite_regexp(connection)
    qs = Card.objects.filter(compiled.q)
    if game is not None:
        qs = qs.filter(game=game)
    return qs.order_by(*_finish_order(compiled.order))


def card_list(*, q: str = "", filters: Mapping[str, Any] | None = None, order: str = "",
              game: str | None = None) -> QuerySet[Card]:
    """Cards matching ``q`` and the plain django-filter parameters ``filters`` (CardFilterSet).

    Raises ``QueryError`` for a bad query or order, ``django.core.exceptions.ValidationError``-like
    ``FilterError`` for invalid filter parameters.
    """
    from .filters import CardFilterSet, FilterError

    qs = card_search(q=q, game=game)
    if filters:
        fs = CardFilterSet.for_params(filters.keys())(data=filters, queryset=qs)
        if not fs.is_valid():
            raise FilterError(fs.errors)
        qs = fs.qs
    if order:
        qs = qs.order_by(*_finish_order(parse_order(order)))
    return qs


def card_get(*, game: str, code: str) -> Card:
    """One card by game and code (case-sensitive code as printed); ``Http404`` when missing."""
    if "\x00" in code or len(code) > 64:  # cannot be a stored code (and PostgreSQL rejects NUL)
        raise Http404(f"no {game} card with code {code[:64]!r}")
    try:
        return Card.objects.prefetch_related("printings").get(game=game, code=code)
    except Card.DoesNotExist:
        raise Http404(f"no {game} card with code {code}") from None


def card_rows(queryset: QuerySet[Card], fields: Sequence[str]) -> list[dict[str, Any]]:
    """Evaluate ``queryset`` as plain dicts of ``fields`` (no model instances).

    On PostgreSQL each row is built as JSON by the database (``row_to_json``) and the page is decoded
    with one ``orjson.loads``: the hot path of the cards API, which would otherwise decode every JSON
    column of every card separately in Python.
    """
    values = queryset.values(*fields)
    if connection.vendor != "postgresql":
        return list(values)
    sql, params = values.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT row_to_json(t)::text FROM ({sql}) t", params)
        rows = cursor.fetchall()
    return orjson.loads("[" + ",".join(row[0] for row in rows) + "]")

