from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def pct(value: Any, digits: int = 1) -> str:
    """0.4567 -> '45.7%'; None -> '—'."""
    if value is None or value == "":
        return "—"
    try:
        return f"{float(value) * 100:.{int(digits)}f}%"
    except (TypeError, ValueError):
        return "—"


@register.filter
def num(value: Any, digits: int = 2) -> str:
    if value is None or value == "":
        return "—"
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    if f == int(f) and abs(f) < 1e15:
        return f"{int(f):,}"
    return f"{f:,.{int(digits)}f}"


@register.filter
def signed_pct(value: Any) -> str:
    """A difference of two shares in percentage points: 0.123 -> '+12.3 pts' (in the active language)."""
    if value is None:
        return "—"
    from django.utils.translation import gettext

    return gettext("%(n)s pts") % {"n": f"{float(value) * 100:+.1f}"}


@register.filter
def pvalue(value: Any) -> str:
    if value is None:
        return "—"
    v = float(value)
    return "< 0.0001" if v < 1e-4 else f"{v:.4f}"


@register.filter
def status_label(value: str) -> str:
    """A job status (``queued``, ``done``...) in the active language."""
    from playtest.i18n import status_label as label

    return label(value)


@register.filter
def zone_label(value: str) -> str:
    """A deck zone (``main``, ``extra``...) in the active language."""
    from decks.i18n import zone_label as label

    return label(value)


@register.filter
def job_error(value: str) -> str:
    """A job's stored (English) error in the active language, for the errors the site writes itself."""
    from playtest.i18n import job_error as translate

    return translate(value)


@register.filter
def job_notes(notes: list) -> list[str]:
    """What happened to a job (chunks lost and queued again: ``PlaytestJob.notes``), in the active language."""
    from playtest.i18n import note_message

    return [note_message(n) for n in (notes or []) if isinstance(n, dict)]
