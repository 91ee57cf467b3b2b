"""Page-number pagination whose count is capped, so a query matching most of a huge catalog does
not pay for an exact COUNT(*) over every row."""
from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.utils.functional import cached_property
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

COUNT_CAP = 10_000


class CappedPaginator(Paginator):
    @cached_property
    def count(self) -> int:
        qs = self.object_list
        if hasattr(qs, "query"):
            return qs.order_by()[: COUNT_CAP + 1].count()
        return len(qs)

    @property
    def count_exact(self) -> bool:
        return self.count <= COUNT_CAP


class CardPagination(PageNumberPagination):
    django_paginator_class = CappedPaginator
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_paginated_response(self, data: Any) -> Response:
        paginator = self.page.paginator
        exact = paginator.count_exact
        return Response({
            "count": min(paginator.count, COUNT_CAP),
            "count_exact": exact,
            "page": self.page.number,
            "pages": paginator.num_pages,
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
                "count": {"type": "integer", "description": f"matching cards (capped at {COUNT_CAP})"},
                "count_exact": {"type": "boolean", "description": f"false when more than {COUNT_CAP} match"},
                "page": {"type": "integer"},
                "pages": {"type": "integer"},
                "page_size": {"type": "integer"},
                "next": {"type": "string", "nullable": True, "format": "uri"},
                "previous": {"type": "string", "nullable": True, "format": "uri"},
                "results": schema,
            },
        }
