"""Template filters: stored enumeration values (colors, attributes, triggers, genders) shown in the
reader's language (``catalog.labels``); the stored value stays in CSS classes and links."""
from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.translation import pgettext

from catalog import labels

register = template.Library()


@register.filter
def color_label(value: str) -> str:
    """A color or attribute (``red``, ``martial``, ``snow``...)."""
    return labels.color_label(str(value or ""))


@register.filter
def color_labels(values: Iterable[str]) -> str:
    """Colors or attributes joined with the language's list separator."""
    return pgettext("list separator", ", ").join(labels.color_label(str(v)) for v in values or ())


@register.filter
def trigger_label(value: str) -> str:
    return labels.trigger_label(str(value or ""))


@register.filter
def gender_label(value: str) -> str:
    return labels.gender_label(str(value or ""))


@register.filter
def cost_symbol_label(value: str) -> str:
    """A Phantasmagoria cost symbol (``white``, ``blue``, ``red``, ``hp``)."""
    return labels.cost_symbol_label(str(value or ""))
