"""Strict reading of API query parameters: a value that cannot be read is a 400 naming the parameter,
never silently ignored or replaced by a default (docs/security.md, "Hostile and broken input").

``?mine=maybe``, ``?mine=null``, ``?deck_id=0.5``, ``?level=1e3``, ``?page=abc``, ``?page_size=0``
used to answer 200 as if the parameter had not been given (or had another value).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django_filters import filters
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination

TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off"})
INT_MAX = 2**31 - 1  # the database's integer column; larger numbers match nothing and overflow PostgreSQL


def empty_message() -> str:
    return gettext("is empty; leave the parameter out or give a value")


def reject_empty(params: Mapping[str, Any], names: Any) -> None:
    """A typed parameter (choice, number, boolean) given with no value is a 400, not "not given"."""
    errors = {n: [empty_message()] for n in names if n in params and str(params.get(n)).strip() == ""}
    if errors:
        raise ValidationError(errors)


def bool_param(params: Mapping[str, Any], name: str) -> bool | None:
    """``true``/``false`` (also 1/0, yes/no, on/off, any case); absent → None; empty → 400."""
    raw = params.get(name)
    if raw is None:
        return None
    try:
        return parse_bool(raw)
    except ValueError:
        raise ValidationError({name: [bool_message(raw)]}) from None


def parse_bool(raw: Any) -> bool:
    """``true``/``false``, 1/0, yes/no, on/off in any case; ``ValueError`` for anything else."""
    value = str(raw).strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ValueError(value)


def bool_message(raw: Any) -> str:
    return gettext("must be true or false (or 1/0), got %(value)s") % bool_params(raw)


def bool_params(raw: Any) -> dict[str, Any]:
    return {"value": repr(str(raw)[:20])}


def int_message(raw: Any, low: int, high: int) -> str:
    return gettext("must be a whole number from %(low)s to %(high)s, got %(value)s") % int_params(raw, low, high)


def int_params(raw: Any, low: int, high: int) -> dict[str, Any]:
    return {"low": low, "high": high, "value": repr(str(raw)[:20])}


def form_error(template: str, params: dict[str, Any]) -> forms.ValidationError:
    """A form error whose message is ``template % params`` (the way Django and django-filter format
    it): a value the user typed never goes into the template, so a ``%`` in it stays text."""
    return forms.ValidationError(gettext(template), code="invalid", params=params)


def int_param(params: Mapping[str, Any], name: str, *, low: int = 1, high: int = INT_MAX) -> int | None:
    """A whole number in ``[low, high]`` written in plain digits (no ``1.0``, ``1e3``, ``+1``, spaces);
    absent → None; empty → 400."""
    raw = params.get(name)
    if raw is None:
        return None
    text = str(raw)
    digits = text[1:] if text.startswith("-") else text
    if not digits.isascii() or not digits.isdigit() or len(digits) > 10 or not low <= int(text) <= high:
        raise ValidationError({name: [int_message(raw, low, high)]})
    return int(text)


class StrictBooleanField(forms.Field):
    """Form field for filters: true/false/1/0/yes/no/on/off; anything else is an error (Django's
    ``NullBooleanField`` reads ``maybe`` as "not given")."""

    def to_python(self, value: Any) -> bool | None:
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            return value
        try:
            return parse_bool(value)
        except ValueError:
            raise form_error("must be true or false (or 1/0), got %(value)s", bool_params(value)) from None


class StrictBooleanFilter(filters.BooleanFilter):
    field_class = StrictBooleanField


class StrictIntegerField(forms.IntegerField):
    """Whole numbers only (``0.5``, ``1.0`` and ``1e3`` are errors; Django's IntegerField accepts
    ``1.0`` and django-filter's ``NumberFilter`` any decimal), within the database's integer range."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", -INT_MAX)
        kwargs.setdefault("max_value", INT_MAX)
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not digits.isascii() or not digits.isdigit() or len(digits) > 12 \
                or not self.min_value <= int(text) <= self.max_value:
            raise form_error("must be a whole number from %(low)s to %(high)s, got %(value)s",
                             int_params(value, self.min_value, self.max_value))
        number = int(text)
        return number

    def validate(self, value: Any) -> None:  # range checked above with one message
        forms.Field.validate(self, value)

    def run_validators(self, value: Any) -> None:
        return None


@extend_schema_field({"type": "integer", "minimum": -INT_MAX, "maximum": INT_MAX})
class StrictIntegerFilter(filters.NumberFilter):
    field_class = StrictIntegerField


def _page_parameters() -> list[Any]:
    """``page`` / ``page_size`` for views that paginate by hand (drf-spectacular parameters)."""
    from drf_spectacular.utils import OpenApiParameter

    return [
        OpenApiParameter("page", {"type": "integer", "minimum": 1, "maximum": StrictPageNumberPagination.max_page},
                         description="page number (a page past the last one is a 404)"),
        OpenApiParameter("page_size", {"type": "integer", "minimum": 1,
                                       "maximum": StrictPageNumberPagination.max_page_size},
                         description=f"results per page, 1 to {StrictPageNumberPagination.max_page_size} "
                                     f"(default {StrictPageNumberPagination.page_size})"),
    ]


class StrictPageNumberPagination(PageNumberPagination):
    """``page`` must be a whole number ≥ 1 (else 400 naming it; a page past the last one stays 404),
    ``page_size`` a whole number from 1 to ``max_page_size`` (else 400; no silent default or cap)."""

    page_size_query_param = "page_size"
    max_page_size = 200
    max_page = 10**9

    def get_page_size(self, request: Any) -> int:
        size = int_param(request.query_params, self.page_size_query_param, low=1, high=self.max_page_size)
        return size if size is not None else self.page_size

    def get_page_number(self, request: Any, paginator: Any) -> int | str:
        number = int_param(request.query_params, self.page_query_param, low=1, high=self.max_page)
        return number if number is not None else 1

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        params = super().get_schema_operation_parameters(view)
        for p in params:
            if p["name"] == self.page_query_param:
                p["schema"].update(minimum=1, maximum=self.max_page)
            elif p["name"] == self.page_size_query_param:
                p["schema"].update(minimum=1, maximum=self.max_page_size)
                p["description"] = f"results per page, 1 to {self.max_page_size} (default {self.page_size})"
        return params

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> list[Any] | None:
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:
            number = self.get_page_number(request, None)
            raise NotFound(gettext("there is no page %(page)s of this list") % {"page": number}) from None


PAGE_PARAMETERS = _page_parameters()


class StrictCharField(serializers.CharField):
    """A JSON string only: DRF's ``CharField`` turns ``5`` or ``1.5`` into ``"5"`` / ``"1.5"``."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
