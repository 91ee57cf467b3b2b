"""Cards API: search/list with pagination and ordering, detail by game and code.

Errors are the API's one error object (config/errors.py, docs/api-errors.md); a query error says
where in the query it is::

    {"error": {"code": "unknown_field", "message": "...", "params": {"position": 7, "query": "..."}}}
"""
from __future__ import annotations

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
    card_rows,
    card_rows_counted,
    card_search,
    card_suggest,
    parse_order,
)
from ..timeouts import search_deadline, timeout_seconds
from .pagination import CardPagination
from .serializers import CARD_API_FIELDS, CardDetailSerializer, CardSerializer, card_url_templates, card_urls

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
        (``card_rows_counted``); elsewhere None (a count query, then the page)."""
        if connection.vendor != "postgresql":
            return None

        urls = card_url_templates()

        def load(queryset, offset: int, limit: int, cap: int):
            return card_rows_counted(queryset, CARD_API_FIELDS, offset=offset, limit=limit, cap=cap,
                                     timeout=timeout_seconds(), urls=urls)

        return load

    def list(self, request, *args, **kwargs):
        # Every statement of the search (count, page, "did you mean") under the search timeout:
        # one running past it is stopped by the database and answered 503 (catalog/timeouts.py).
        # On PostgreSQL the count and the page carry their own timeout in their one round trip
        # (load_rows_with_count), so only "did you mean" needs a timeout block of its own.
        if connection.vendor == "postgresql":
            # The page comes as the cards' JSON texts, URLs included (card_rows_counted): they go
            # into the answer as they are, never decoded and encoded again.
            page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
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
