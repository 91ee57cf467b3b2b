"""Page-number pagination whose count is capped, so a query matching most of a huge catalog does
not pay for an exact COUNT(*) over every matching row (Django's ``Paginator``; the card pages use it
directly, the cards API through ``catalog.api.pagination.CardPagination``).

Up to ``COUNT_CAP`` matches the count is exact. Past it the count says "more than COUNT_CAP"
(``count_exact: false``, ``pages: null``) and pages stay reachable: a page exists when it has cards,
and ``next`` is offered when a row past the page exists.
"""
from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage, Page, PageNotAnInteger, Paginator
from django.utils.functional import cached_property

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
    """``load`` turns a sliced queryset into the page's rows (default: evaluate it).

    ``load_with_count`` (optional): ``(queryset, offset, limit, cap) -> (count up to cap, rows)`` gives
    the count and the page in one round trip to the database (``catalog.selectors.card_rows_counted``).
    """

    def __init__(self, object_list, per_page, *args, load=list, load_with_count=None, **kwargs) -> None:
        super().__init__(object_list, per_page, *args, **kwargs)
        self.load = load
        self.load_with_count = load_with_count

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
        value = _as_int(number)
        if self.load_with_count is not None and "count" not in self.__dict__ and value is not None and value >= 1:
            bottom = (value - 1) * self.per_page
            # one row past the page: is there a next one when the count is capped?
            count, rows = self.load_with_count(self.object_list, bottom, self.per_page + 1, COUNT_CAP + 1)
            self.__dict__["count"] = count
            number = self.validate_number(value)  # a page past the last one: EmptyPage, as below
            if not rows and number > 1:
                raise EmptyPage("That page contains no results")
            page = CappedPage(rows[: self.per_page], number, self)
            page.has_more = len(rows) > self.per_page
            return page
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

