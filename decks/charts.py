"""Server-side SVG charts: small bar charts with an accessible title and description.

Every chart is an ``<svg role="img">`` labelled by its ``<title>`` and described by a ``<desc>``
that spells out every value, so a screen reader (or a text browser) gets the same numbers.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

_ids = itertools.count(1)

PALETTE = {
    # colors / attributes get their own hue; anything else uses the accent.
    "red": "#c62828", "blue": "#1565c0", "yellow": "#b58900", "green": "#2e7d32",
    "martial": "#c62828", "agility": "#1565c0", "wisdom": "#2e7d32", "craft": "#b58900", "poise": "#d81b60",
    "earth": "#795548", "water": "#0277bd", "fire": "#d84315", "wind": "#2e7d32", "light": "#b58900",
    "dark": "#4a148c", "none": "#757575",
    "snow": "#4fa3d1", "moon": "#5e35b1", "flower": "#d81b60", "space": "#283593", "sun": "#ef6c00", "star": "#757575",
}
DEFAULT = "#2456c7"


def bar_chart(title: str, bars: Sequence[tuple[str, float]], *, unit: str | None = None, colored: bool = False,
              width: int = 320, height: int = 160, fmt: str = "{:g}",
              label_of: Callable[[str], str] | None = None) -> SafeString:
    """A vertical bar chart. ``bars`` = ``[(key, value), ...]``; ``colored`` picks hues by key;
    ``label_of`` turns a key (``red``, ``character``...) into the label shown (the active language)."""
    if unit is None:
        unit = gettext("cards")
    keys = [str(key) for key, _ in bars]
    if label_of is not None:
        bars = [(label_of(str(key)), value) for key, value in bars]
    n = next(_ids)
    tid, did = f"chart-t{n}", f"chart-d{n}"
    desc = "; ".join(f"{label}: {fmt.format(value)} {unit}" for label, value in bars) or gettext("no data")
    top = max((v for _, v in bars), default=0) or 1
    pad_l, pad_b, pad_t = 8, 34, 18
    plot_h = height - pad_b - pad_t
    slot = (width - pad_l * 2) / max(1, len(bars))
    bar_w = max(6.0, min(42.0, slot * 0.7))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" aria-labelledby="{tid} {did}">',
        f'<title id="{tid}">{escape(title)}</title>',
        f'<desc id="{did}">{escape(desc)}</desc>',
        f'<line x1="{pad_l}" y1="{height - pad_b}" x2="{width - pad_l}" y2="{height - pad_b}" stroke="#9aa0ad"/>',
    ]
    for i, ((label, value), key) in enumerate(zip(bars, keys, strict=True)):
        x = pad_l + slot * i + (slot - bar_w) / 2
        h = plot_h * (value / top) if value else 0
        y = height - pad_b - h
        color = PALETTE.get(key.lower(), DEFAULT) if colored else DEFAULT
        cx = x + bar_w / 2
        parts.append(
            f'<g><rect x="{x:.1f}" y="{y:.1f}" width="{bar_w:.1f}" height="{h:.1f}" fill="{color}" rx="2">'
            f'<title>{escape(label)}: {escape(fmt.format(value))} {escape(unit)}</title></rect>'
            f'<text x="{cx:.1f}" y="{y - 4:.1f}" text-anchor="middle" font-size="11" aria-hidden="true">'
            f'{escape(fmt.format(value))}</text>'
            f'<text x="{cx:.1f}" y="{height - pad_b + 14}" text-anchor="middle" font-size="11" aria-hidden="true">'
            f'{escape(_short(str(label)))}</text></g>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _short(label: str, n: int = 9) -> str:
    return label if len(label) <= n else label[: n - 1] + "…"
