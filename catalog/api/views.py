"""Cards API: search/list with pagination and ordering, detail by game and code.

Every error of these endpoints is the same JSON object (``CardErrorSerializer``)::

    {"error": {"code": "unknown_field", "message": "...", "position": 7, "query": "..."}}
"""
from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics
from rest_framework.response import Response

from rules import games as g

from ..filters import CardFilterBackend, CardFilterSet
from ..i18n import query_error_message
from ..search import QueryError
from ..selectors import _finish_order, card_get, card_rows, card_search, card_suggest, parse_order
from .pagination import CardPagination
from .serializers import CARD_API_FIELDS, CardDetailSerializer, CardErrorSerializer, CardSerializer, card_urls

_CODES = {400: "invalid_parameter", 404: "not_found", 405: "method_not_allowed", 406: "not_acceptable"}


def error_response(code: str, message: str, status: int, *, position: int | None = None,
                   query: str | None = None, fields: dict | None = None) -> Response:
    body: dict[str, Any] = {"code": code, "message": message, "position": position, "query": query}
    if fields:
        body["fields"] = fields
    return Response({"error": body}, status=status)


def cards_exception_handler(exc: Exception, context: dict) -> Response | None:
    """Turn every exception of the cards API into the documented error object (never a 500 body
    for bad input: query errors are 400s)."""
    if isinstance(exc, QueryError):
        return error_response(exc.code, query_error_message(exc), 400, position=exc.position, query=exc.query)
    if isinstance(exc, Http404):
        return error_response("not_found", str(exc) or "not found", 404)
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        fields = {k: [str(m) for m in (v if isinstance(v, list) else [v])] for k, v in detail.items()}
        first_key, first_msgs = next(iter(fields.items()))
        return error_response(
            "invalid_parameter", f"{first_key}: {' '.join(first_msgs)}", 400, fields=fields
        )
    if isinstance(exc, exceptions.APIException):
        response = error_response(
            _CODES.get(exc.status_code, exc.default_code), str(exc.detail), exc.status_code
        )
        if getattr(exc, "wait", None):
            response["Retry-After"] = str(int(exc.wait))
        return response
    return None


class CardsAPIMixin:
    def get_exception_handler(self):
        return cards_exception_handler


_ERRORS = {
    400: OpenApiResponse(CardErrorSerializer, description="bad query, order or filter parameter"),
    404: OpenApiResponse(CardErrorSerializer, description="no such page or card"),
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
class CardListView(CardsAPIMixin, generics.ListAPIView):
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

    def list(self, request, *args, **kwargs):
        response = super().list(request, *args, **kwargs)
        # "Did you mean": only when nothing matched and the query has name words to compare.
        suggestions = []
        if response.data.get("count") == 0 and request.query_params.get("q"):
            game = request.query_params.get("game")
            for card in card_suggest(q=request.query_params["q"], game=game if game in g.GAMES else None):
                url, api_url = card_urls(card.game, card.code)
                suggestions.append({"game": card.game, "code": card.code, "name": card.name,
                                    "similarity": round(float(card.similarity), 3), "url": url, "api_url": api_url})
        response.data["suggestions"] = suggestions
        return response


@extend_schema(
    summary="One card",
    description="A card by game and code as printed (codes may contain `/`, e.g. `DC/W01-001`).",
    responses={200: CardDetailSerializer, 404: _ERRORS[404]},
)
class CardDetailView(CardsAPIMixin, generics.RetrieveAPIView):
    serializer_class = CardDetailSerializer

    def get_object(self):
        game = self.kwargs["game"]
        if game not in g.GAMES:
            raise Http404(f"unknown game '{game}'; expected one of {', '.join(g.GAMES)}")
        return card_get(game=game, code=self.kwargs["code"])
