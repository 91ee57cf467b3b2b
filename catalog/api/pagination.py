"""Page-number pagination whose count is capped, so a query matching most of a huge catalog does
not pay for an exact COUNT(*) over every matching row.

Up to ``COUNT_CAP`` matches the count is exact. Past it the count says "more than COUNT_CAP"
(``count_exact: false``, ``pages: null``) and pages stay reachable: a page exists when it has cards,
and ``next`` is offered when a row past the page exists.
"""
from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage, InvalidPage, Page, PageNotAnInteger, Paginator
from django.utils.functional import cached_property
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from config.params import StrictPageNumberPagination, int_param

COUNT_CAP = 1_000
MAX_PAGE = 10_000


def _as_int(number: Any) -> int | None:
    try:
        return int(number) if not isinstance(number, float) or number.is_integer() else None
    except (TypeError, ValueError):
        return None


class CappedPage(Page):
    has_more = False  # set when one row past the page was found (count not exact)

    def has_next(self) -> bool:
        if self.paginator.count_exact:
            return super().has_next()
        return self.has_more


class CappedPaginator(Paginator):
    """``load`` turns a sliced queryset into the page's rows (default: evaluate it)."""

    def __init__(self, object_list, per_page, *args, load=list, **kwargs) -> None:
        super().__init__(object_list, per_page, *args, **kwargs)
        self.load = load

    @cached_property
    def count(self) -> int:
        qs = self.object_list
        if hasattr(qs, "query"):
            return qs.order_by()[: COUNT_CAP + 1].count()
        return len(qs)

    @property
    def count_exact(self) -> bool:
        return self.count <= COUNT_CAP

    def validate_number(self, number: Any) -> int:
        if self.count_exact:
            return super().validate_number(number)
        value = _as_int(number)
        if value is None:
            raise PageNotAnInteger("That page number is not an integer")
        if value < 1 or value > MAX_PAGE:
            raise EmptyPage("That page contains no results")
        return value

    def page(self, number: Any) -> Page:
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        if self.count_exact:
            return CappedPage(self.load(self.object_list[bottom: bottom + self.per_page]), number, self)
        rows = self.load(self.object_list[bottom: bottom + self.per_page + 1])  # one more: is there a next page?
        if not rows and number > 1:
            raise EmptyPage("That page contains no results")
        page = CappedPage(rows[: self.per_page], number, self)
        page.has_more = len(rows) > self.per_page
        return page

    @property
    def pages_or_none(self) -> int | None:
        return self.num_pages if self.count_exact else None


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
        paginator = self.django_paginator_class(queryset, page_size, load=getattr(view, "load_rows", list))
        number = int_param(request.query_params, self.page_query_param, low=1, high=MAX_PAGE) or 1  # else 400
        try:
            self.page = paginator.page(number)
        except InvalidPage as exc:
            raise NotFound(f"invalid page {number!r}: {exc}") from None
        self.request = request
        return list(self.page)

    def get_paginated_response(self, data: Any) -> Response:
        paginator = self.page.paginator
        exact = paginator.count_exact
        return Response({
            "count": min(paginator.count, COUNT_CAP),
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
                "count": {"type": "integer", "description": f"matching cards, exact up to {COUNT_CAP}"},
                "count_exact": {"type": "boolean", "description": f"false when more than {COUNT_CAP} match"},
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
