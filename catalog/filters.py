"""``CardFilterSet``: plain django-filter parameters, the alternative to the query language.

``?game=ws&power__gte=9000&trait=music`` filters the same columns and facets as ``q``.
"""
from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

import django_filters
from django.db import models
from django.db.models import Exists, OuterRef, QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema_field

from config.errors import InvalidInput
from config.params import INT_MAX, StrictBooleanFilter, StrictIntegerFilter, reject_empty
from rules import games as g
from rules.cards import NUMERIC_STATS

from .models import CARD_TYPE_CHOICES, GAME_CHOICES, Card, CardFacet


class FilterError(InvalidInput):
    """Invalid filter parameters (code ``invalid``, 400); ``errors`` maps parameter -> messages."""

    def __init__(self, errors: Any) -> None:
        super().__init__(errors)
        self.errors = self.fields
        self.param = next(iter(self.fields), "")


# The range each integer column holds (PostgreSQL's smallint / integer; positive fields from 0).
COLUMN_RANGES: dict[type[models.Field], tuple[int, int]] = {
    models.PositiveSmallIntegerField: (0, 32767),
    models.PositiveIntegerField: (0, INT_MAX),
    models.IntegerField: (-INT_MAX, INT_MAX),
}


@cache
def _ranged_filter(field_class: type[models.Field]) -> type[StrictIntegerFilter]:
    """A ``StrictIntegerFilter`` accepting only the values ``field_class`` can hold: a 400 naming the
    parameter and the range otherwise (and the OpenAPI document says the range)."""
    low, high = COLUMN_RANGES[field_class]

    @extend_schema_field({"type": "integer", "minimum": low, "maximum": high})
    class RangedIntegerFilter(StrictIntegerFilter):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("min_value", low)
            kwargs.setdefault("max_value", high)
            super().__init__(*args, **kwargs)

    return RangedIntegerFilter


def _facet_filter(facet: str):
    def method(queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        if not value:
            return queryset
        return queryset.filter(
            Exists(CardFacet.objects.filter(card=OuterRef("pk"), facet=facet, value=value.strip().lower()))
        )

    return method


class CardFilterSet(django_filters.FilterSet):
    """Plain filters. ``for_params`` gives a subclass with only the filters a request uses: building
    the form of all ~140 filters per request cost more than the whole SQL of a search."""

    game = django_filters.ChoiceFilter(choices=GAME_CHOICES)
    card_type = django_filters.ChoiceFilter(choices=CARD_TYPE_CHOICES)
    name = django_filters.CharFilter(lookup_expr="icontains")
    text = django_filters.CharFilter(lookup_expr="icontains")
    code = django_filters.CharFilter(lookup_expr="iexact")
    set_code = django_filters.CharFilter(lookup_expr="iexact")
    rarity = django_filters.CharFilter(lookup_expr="iexact")
    work = django_filters.CharFilter(lookup_expr="icontains")
    color = django_filters.CharFilter(method=_facet_filter("colors"), label="color (facet)")
    attribute = django_filters.CharFilter(method=_facet_filter("attributes"), label="attribute (facet)")
    trait = django_filters.CharFilter(method=_facet_filter("traits"), label="trait (facet)")
    trigger = django_filters.ChoiceFilter(
        method=_facet_filter("triggers"), choices=[(t, t) for t in g.WS_TRIGGERS], label="WS trigger icon"
    )
    slot = django_filters.ChoiceFilter(
        method=_facet_filter("slots"), choices=[(s.lower(), s) for s in g.LYCEE_SLOTS], label="Lycee slot"
    )
    keyword = django_filters.CharFilter(method=_facet_filter("keywords"), label="keyword (facet)")
    gender = django_filters.ChoiceFilter(choices=[(x, x) for x in g.CHAOS_GENDERS])
    counter = StrictBooleanFilter()

    class Meta:
        model = Card
        fields = {stat: ["exact", "gte", "lte", "gt", "lt"] for stat in NUMERIC_STATS}
        # whole numbers only: django-filter's NumberFilter reads 0.5 and 1e3 as decimals; and only
        # within the column's range (level=-1 on a positive column was a 500 on PostgreSQL)
        filter_overrides = {f: {"filter_class": _ranged_filter(f)}
                            for f in (models.PositiveIntegerField, models.PositiveSmallIntegerField, models.IntegerField)}

    @classmethod
    def for_params(cls, keys) -> type[CardFilterSet]:
        return _subset(frozenset(k for k in keys if k in cls.base_filters))


@lru_cache(maxsize=512)
def _subset(names: frozenset[str]) -> type[CardFilterSet]:
    sub = type("CardFilterSet", (CardFilterSet,), {"__module__": __name__})
    sub.base_filters = {name: f for name, f in CardFilterSet.base_filters.items() if name in names}
    return sub


class CardFilterBackend(DjangoFilterBackend):
    """django-filter backend that instantiates only the filters present in the request."""

    def get_filterset(self, request, queryset, view):
        keys = [k for k in request.query_params if k in CardFilterSet.base_filters]
        if not keys:
            return None
        filterset_class = CardFilterSet.for_params(keys)
        return filterset_class(**self.get_filterset_kwargs(request, queryset, view))

    def filter_queryset(self, request, queryset, view):
        typed = [k for k in request.query_params
                 if k in CardFilterSet.base_filters and not isinstance(CardFilterSet.base_filters[k], django_filters.CharFilter)]
        reject_empty(request.query_params, typed)  # ?level= or ?game= is a 400, not "any"
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        if not filterset.is_valid() and self.raise_exception:
            from django_filters.utils import translate_validation
            raise translate_validation(filterset.errors)
        return filterset.qs
