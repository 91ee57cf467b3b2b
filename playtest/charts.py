"""Server-side SVG charts for playtest reports: accessible (title, desc, role="img") and
self-contained (no script, no external font). Pages put a data table next to each chart."""
from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

W, H = 640, 280
ML, MR, MT, MB = 56, 16, 16, 44
PALETTE = ("#2563eb", "#dc2626", "#059669", "#d97706")
_ids = itertools.count(1)


def _frame(title: str, desc: str, body: list[str], *, css_class: str) -> SafeString:
    n = next(_ids)
    tid, did = f"chart-{n}-title", f"chart-{n}-desc"
    return mark_safe(
        f'<svg class="chart {css_class}" viewBox="0 0 {W} {H}" width="100%" role="img" '
        f'aria-labelledby="{tid} {did}" xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="12">'
        f'<title id="{tid}">{escape(title)}</title><desc id="{did}">{escape(desc)}</desc>'
        + "".join(body) + "</svg>"
    )


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1.0
    for mag in range(-3, 13):
        for step in (1, 2, 2.5, 5):
            cand = step * 10.0**mag
            if cand >= value:
                return cand
    return float(value)


def _axes(x_labels: Sequence[str], y_max: float, y_fmt, x_title: str, y_title: str) -> list[str]:
    pw, ph = W - ML - MR, H - MT - MB
    out = [f'<g class="axes" stroke="#555" stroke-width="1">'
           f'<line x1="{ML}" y1="{MT + ph}" x2="{ML + pw}" y2="{MT + ph}"/>'
           f'<line x1="{ML}" y1="{MT}" x2="{ML}" y2="{MT + ph}"/></g>']
    for i in range(5):
        v = y_max * i / 4
        y = MT + ph - ph * i / 4
        out.append(f'<line x1="{ML}" x2="{ML + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
                   f'<text x="{ML - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#333">{escape(y_fmt(v))}</text>')
    n = max(1, len(x_labels))
    every = max(1, n // 20)
    for i, label in enumerate(x_labels):
        if i % every:
            continue
        x = ML + pw * (i + 0.5) / n
        out.append(f'<text x="{x:.1f}" y="{MT + ph + 16}" text-anchor="middle" fill="#333">{escape(label)}</text>')
    out.append(f'<text x="{ML + pw / 2}" y="{H - 6}" text-anchor="middle" fill="#111">{escape(x_title)}</text>')
    out.append(f'<text transform="translate(14 {MT + ph / 2}) rotate(-90)" text-anchor="middle" fill="#111">{escape(y_title)}</text>')
    return out


def _no_data(title: str, desc: str, css_class: str) -> SafeString:
    none, short = _("No data."), _("no data")
    return _frame(title, f"{desc} {none}", [f'<text x="{W / 2}" y="{H / 2}" text-anchor="middle">{escape(short)}</text>'],
                  css_class=css_class)


def bar_chart(series: Sequence[tuple[str, Mapping[int, float]]], *, title: str, desc: str, x_title: str | None = None,
              y_title: str | None = None, percent: bool = False) -> SafeString:
    """Grouped bars over the union of integer x values (e.g. turn-of-win histograms). Axis titles
    default to "own turn" and "games" in the active language."""
    x_title = _("own turn") if x_title is None else x_title
    y_title = _("games") if y_title is None else y_title
    xs = sorted({int(x) for _, data in series for x in data})
    if not xs:
        return _no_data(title, desc, "bar")
    xs = list(range(min(1, xs[0]), xs[-1] + 1))
    y_max = _nice_max(max((float(v) for _, d in series for v in d.values()), default=0))
    fmt = (lambda v: f"{v:.0%}") if percent else (lambda v: f"{v:,.0f}" if v >= 10 or v == int(v) else f"{v:.1f}")
    body = _axes([str(x) for x in xs], y_max, fmt, x_title, y_title)
    pw, ph = W - ML - MR, H - MT - MB
    slot = pw / len(xs)
    bw = slot * 0.8 / len(series)
    for si, (label, data) in enumerate(series):
        color = PALETTE[si % len(PALETTE)]
        body.append(f'<g class="series" fill="{color}"><title>{escape(label)}</title>')
        for i, x in enumerate(xs):
            v = float(data.get(x, data.get(str(x), 0)) or 0)
            if v <= 0:
                continue
            h = ph * v / y_max
            bx = ML + slot * i + slot * 0.1 + bw * si
            shown = f"{v:.1%}" if percent else f"{v:,.0f}"
            tip = _("%(series)s: turn %(turn)s: %(value)s") % {"series": label, "turn": x, "value": shown}
            body.append(f'<rect x="{bx:.1f}" y="{MT + ph - h:.1f}" width="{bw:.1f}" height="{h:.1f}">'
                        f'<title>{escape(tip)}</title></rect>')
        body.append("</g>")
    if len(series) > 1:
        body.extend(_legend(series))
    return _frame(title, desc, body, css_class="bar")


def line_chart(series: Sequence[tuple[str, Mapping[int, float]]], *, title: str, desc: str,
               x_title: str | None = None, y_title: str | None = None, y_max: float | None = 1.0) -> SafeString:
    """Step-free polylines over integer x values; y as a share (0..y_max) shown in percent. Axis titles
    default to "own turn" and "probability" in the active language."""
    x_title = _("own turn") if x_title is None else x_title
    y_title = _("probability") if y_title is None else y_title
    xs = sorted({int(x) for _, data in series for x in data})
    if not xs:
        return _no_data(title, desc, "line")
    xs = list(range(min(1, xs[0]), xs[-1] + 1))
    top = y_max or _nice_max(max(float(v) for _, d in series for v in d.values()))
    body = _axes([str(x) for x in xs], top, lambda v: f"{v:.0%}", x_title, y_title)
    pw, ph = W - ML - MR, H - MT - MB
    n = len(xs)
    for si, (label, data) in enumerate(series):
        color = PALETTE[si % len(PALETTE)]
        pts = []
        last = 0.0
        for i, x in enumerate(xs):
            v = data.get(x, data.get(str(x)))
            last = float(v) if v is not None else last
            pts.append((ML + pw * (i + 0.5) / n, MT + ph - ph * min(last, top) / top, x, last))
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py, _, _ in pts)
        body.append(f'<g class="series"><title>{escape(label)}</title>'
                    f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2.5"/>')
        for px, py, x, v in pts:
            tip = _("%(series)s: by turn %(turn)s: %(value)s") % {"series": label, "turn": x, "value": f"{v:.1%}"}
            body.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{color}">'
                        f'<title>{escape(tip)}</title></circle>')
        body.append("</g>")
    if len(series) > 1:
        body.extend(_legend(series))
    return _frame(title, desc, body, css_class="line")


def _legend(series: Sequence[tuple[str, Mapping]]) -> list[str]:
    out = []
    for si, (label, _data) in enumerate(series):
        y = MT + 6 + si * 16
        out.append(f'<rect x="{ML + 10}" y="{y}" width="10" height="10" fill="{PALETTE[si % len(PALETTE)]}"/>'
                   f'<text x="{ML + 26}" y="{y + 9}" fill="#111">{escape(label)}</text>')
    return out
