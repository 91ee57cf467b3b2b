"""The cards API's pagination: ``CardPagination`` over the capped paginator of
``catalog.pagination`` (exact counts up to ``COUNT_CAP``, every page reachable past it)."""
from __future__ import annotations

from typing import Any

from django.core.paginator import InvalidPage
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from config.params import StrictPageNumberPagination, int_param

from .. import pagination as capped
from ..pagination import MAX_PAGE, CappedPaginator


class CardPagination(StrictPageNumberPagination):
    django_paginator_class = CappedPaginator
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    max_page = MAX_PAGE

    def get_page_size(self, request) -> int:
        """``page_size`` from 1 to ``max_page_size``; anything else is a 400 naming it (not the default)."""
        size = int_param(request.query_params, self.page_size_query_param, low=1, high=self.max_page_size)
        return size if size is not None else self.page_size

    def paginate_queryset(self, queryset, request, view=None):
        page_size = self.get_page_size(request)
        paginator = self.django_paginator_class(queryset, page_size, load=getattr(view, "load_rows", list),
                                                load_with_count=getattr(view, "load_rows_with_count", None))
        number = int_param(request.query_params, self.page_query_param, low=1, high=MAX_PAGE) or 1  # else 400
        try:
            self.page = paginator.page(number)
        except InvalidPage as exc:
            raise NotFound(f"invalid page {number!r}: {exc}") from None
        self.request = request
        rows = self.page.object_list  # a list already: not copied through Page.__getitem__ row by row
        return rows if isinstance(rows, list) else list(rows)

    def get_paginated_response(self, data: Any) -> Response:
        paginator = self.page.paginator
        exact = paginator.count_exact
        return Response({
            "count": min(paginator.count, capped.COUNT_CAP),
            "count_exact": exact,
            "page": self.page.number,
            "pages": paginator.pages_or_none,
            "page_size": paginator.per_page,
            "next": self.get_next_link(),
            "previous": self.get_previous_link(),
            "results": data,
        })

    def get_paginated_response_schema(self, schema: dict) -> dict:
        return {
            "type": "object",
            "required": ["count", "count_exact", "page", "pages", "page_size", "next", "previous", "results"],
            "properties": {
                "count": {"type": "integer", "description": f"matching cards, exact up to {capped.COUNT_CAP}"},
                "count_exact": {"type": "boolean", "description": f"false when more than {capped.COUNT_CAP} match"},
                "page": {"type": "integer"},
                "pages": {"type": "integer", "nullable": True, "description": "null when the count is not exact"},
                "page_size": {"type": "integer"},
                "next": {"type": "string", "nullable": True, "format": "uri"},
                "previous": {"type": "string", "nullable": True, "format": "uri"},
                "results": schema,
                "suggestions": {
                    "type": "array",
                    "description": "when nothing matched: up to 5 cards whose names are close to the query's name "
                                   "words (trigram word similarity, best first); empty otherwise",
                    "items": {
                        "type": "object",
                        "required": ["game", "code", "name", "similarity", "url", "api_url"],
                        "properties": {
                            "game": {"type": "string"}, "code": {"type": "string"}, "name": {"type": "string"},
                            "similarity": {"type": "number", "minimum": 0, "maximum": 1},
                            "url": {"type": "string"}, "api_url": {"type": "string"},
                        },
                    },
                },
            },
        }
