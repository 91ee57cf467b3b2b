"""Cards API: search/list with pagination and ordering, detail by game and code.

Errors are the API's one error object (config/errors.py, docs/api-errors.md); a query error says
where in the query it is::

    {"error": {"code": "unknown_field", "message": "...", "params": {"position": 7, "query": "..."}}}
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import orjson
from django.db import connection
from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import generics

from config.schema import error_response
from rules import games as g

from ..filters import CardFilterBackend, CardFilterSet
from ..selectors import (
    _finish_order,
    card_get,
    card_page_statement,
    card_rows,
    card_rows_from_statement,
    card_search,
    card_suggest,
    parse_order,
)
from ..timeouts import search_deadline, timeout_seconds
from .pagination import CardPagination
from .serializers import CARD_API_FIELDS, CardDetailSerializer, CardSerializer, card_url_templates, card_urls

# The statements of recent searches (``card_page_statement``), per query string, order and page: a
# query string always compiles to the same statement (the compiler reads nothing from the database
# but the schema, ``catalog.selectors._has_facet_keys``, and the database's name is in the key), so
# a search asked again skips parsing, compiling and Django's SQL compiler — most of a cheap
# search's Python; it is bound (no parameters) and runs as a server-side prepared statement of the
# connection (``card_rows_from_statement``), so PostgreSQL does not parse and plan it again either.
# Only requests whose parameters are all in ``STATEMENT_PARAMS`` (no filters) and
# that succeeded are kept; least recently used first out.
STATEMENT_PARAMS = frozenset({"q", "order", "page", "page_size"})
STATEMENT_CACHE_SIZE = 1024
_statements: OrderedDict[tuple[Any, ...], tuple[str, tuple[Any, ...]] | None] = OrderedDict()
_statements_lock = threading.Lock()


class _KnownStatement:
    """Stands in for the queryset of a search whose statement is kept (``_statements``)."""

    ordered = True  # Django's Paginator warns about unordered object lists

    def __init__(self, statement: tuple[str, tuple[Any, ...]] | None) -> None:
        self.statement = statement


def statement_cache_clear() -> None:
    """Forget the kept statements (tests; a schema change such as migration 0013 needs a restart)."""
    with _statements_lock:
        _statements.clear()


_ERRORS = {
    400: error_response("bad query, order or filter parameter"),
    404: error_response("no such page or card"),
    503: error_response("the search ran past the statement timeout (code search_timeout; Retry-After)"),
}


@extend_schema(
    summary="Search and list cards",
    description=(
        "Cards matching the query language `q` (see the search help page) and/or plain filter "
        "parameters such as `game=ws&power__gte=9000`. Ordered by `order` (e.g. `-power,name`), "
        "else by the query's `order:`/`dir:`, else by name."
    ),
    parameters=[
        OpenApiParameter("q", OpenApiTypes.STR, description="query, e.g. `game:ws power>=9000 trigger:soul`",
                         examples=[OpenApiExample("ws", value="game:ws power>=9000")]),
        OpenApiParameter("order", OpenApiTypes.STR,
                         description="comma-separated sort keys, `-` for descending: name, code, game, set, "
                                     "rarity, type, work or any numeric stat"),
    ],
    responses={200: CardSerializer(many=True), **_ERRORS},
)
class CardListView(generics.ListAPIView):
    serializer_class = CardSerializer
    pagination_class = CardPagination
    filter_backends = [CardFilterBackend]
    filterset_class = CardFilterSet

    def get_queryset(self):
        params = self.request.query_params
        q = params.get("q", "")
        qs = card_search(q=q)
        order = params.get("order", "")
        if order:
            qs = qs.order_by(*_finish_order(parse_order(order)))
        return qs

    def load_rows(self, queryset):
        """Rows of one page as dicts of the card JSON fields (see ``card_rows``)."""
        return card_rows(queryset, CARD_API_FIELDS)

    @property
    def load_rows_with_count(self):
        """PostgreSQL: the count and the page in one round trip, under the search timeout
        (``card_rows_counted``); elsewhere None (a count query, then the page). The statement is
        kept for the next identical request (``_statements``)."""
        if connection.vendor != "postgresql":
            return None

        urls = card_url_templates()
        key = getattr(self, "statement_key", None)

        def load(queryset, offset: int, limit: int, cap: int):
            known = isinstance(queryset, _KnownStatement)
            if known:
                statement = queryset.statement
            else:
                statement = card_page_statement(queryset, CARD_API_FIELDS, offset=offset, limit=limit, cap=cap,
                                                urls=urls)
            # A search asked again runs as a prepared statement of the connection (planned once).
            count_rows = card_rows_from_statement(statement, timeout=timeout_seconds(), urls=urls, prepare=known)
            if key is not None and not isinstance(queryset, _KnownStatement):
                with _statements_lock:
                    _statements[(*key, urls)] = statement
                    while len(_statements) > STATEMENT_CACHE_SIZE:
                        _statements.popitem(last=False)
            return count_rows

        return load

    def known_statement(self, request) -> _KnownStatement | None:
        """The kept statement of this request (a search asked before with the same query string,
        order and page), or None; sets ``statement_key`` when the request may be kept."""
        self.statement_key = None
        params = request.query_params
        if not params.keys() <= STATEMENT_PARAMS or any(len(params.getlist(k)) != 1 for k in params):
            return None
        self.statement_key = (str(connection.settings_dict.get("NAME")),
                              *(params.get(k) for k in ("q", "order", "page", "page_size")))
        with _statements_lock:
            key = (*self.statement_key, card_url_templates())
            if key not in _statements:
                return None
            _statements.move_to_end(key)
            return _KnownStatement(_statements[key])

    def list(self, request, *args, **kwargs):
        # Every statement of the search (count, page, "did you mean") under the search timeout:
        # one running past it is stopped by the database and answered 503 (catalog/timeouts.py).
        # On PostgreSQL the count and the page carry their own timeout in their one round trip
        # (load_rows_with_count), so only "did you mean" needs a timeout block of its own.
        if connection.vendor == "postgresql":
            # The page comes as the cards' JSON texts, URLs included (card_rows_counted): they go
            # into the answer as they are, never decoded and encoded again.
            known = self.known_statement(request)
            queryset = known if known is not None else self.filter_queryset(self.get_queryset())
            page = self.paginate_queryset(queryset)
            response = self.get_paginated_response(orjson.Fragment("[" + ",".join(page) + "]"))
            count = response.data.get("count")
            if count == 0 and request.query_params.get("q"):
                with search_deadline():
                    response.data["suggestions"] = self.suggestions(request, count)
            else:
                response.data["suggestions"] = []
            return response
        with search_deadline():
            response = super().list(request, *args, **kwargs)
            response.data["suggestions"] = self.suggestions(request, response.data.get("count"))
        return response

    @staticmethod
    def suggestions(request, count: int | None) -> list[dict]:
        """"Did you mean": only when nothing matched and the query has name words to compare."""
        q = request.query_params.get("q")
        if count != 0 or not q:
            return []
        game = request.query_params.get("game")
        out = []
        for card in card_suggest(q=q, game=game if game in g.GAMES else None):
            url, api_url = card_urls(card.game, card.code)
            out.append({"game": card.game, "code": card.code, "name": card.name,
                        "similarity": round(float(card.similarity), 3), "url": url, "api_url": api_url})
        return out


@extend_schema(
    summary="One card",
    description="A card by game and code as printed (codes may contain `/`, e.g. `DC/W01-001`).",
    responses={200: CardDetailSerializer, 404: _ERRORS[404]},
)
class CardDetailView(generics.RetrieveAPIView):
    serializer_class = CardDetailSerializer

    def get_object(self):
        game = self.kwargs["game"]
        if game not in g.GAMES:
            raise Http404(gettext("unknown game %(game)s; expected one of %(games)s") % {
                "game": repr(game), "games": ", ".join(g.GAMES)})
        return card_get(game=game, code=self.kwargs["code"])
