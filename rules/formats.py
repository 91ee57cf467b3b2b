"""Formats and ban lists: pure checks of a deck against one format's data (no Django).

A format is data (``FormatRules``), curated in the admin or loaded from a file (``manage.py load_formats``):

- ``series``: the series (WS: title codes) the format allows; empty means every series;
- ``groups``: title groups (WS Neo-Standard): every card must come from the series of ONE group;
- ``single_series``: every card from one series (WS Title-only);
- ``banned``: cards no deck of the format may hold;
- ``restricted``: ``{card: most copies}``.

Cards in the lists are named by code, by name or by copy-limit identity. The problems use the stable
codes ``banned``, ``restricted`` and ``not_in_format`` (always errors). A deck without a format is not
checked here at all, so its report is the plain construction report.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import CardRecord
from .construction import label, problem
from .registry import get_spec

FORMAT_CODES: tuple[str, ...] = ("banned", "restricted", "not_in_format")


@dataclass(frozen=True)
class FormatRules:
    """One format of one game, as data."""

    game: str
    code: str
    name: str
    series: tuple[str, ...] = ()
    groups: tuple[tuple[str, ...], ...] = ()
    single_series: bool = False
    banned: tuple[str, ...] = ()
    restricted: Mapping[str, int] = field(default_factory=dict)


def format_from_dict(game: str, data: Mapping[str, Any]) -> FormatRules:
    """A ``FormatRules`` from plain data (a file's entry or a model's fields); raises ValueError naming the field."""
    code = str(data.get("code") or "").strip()
    if not code:
        raise ValueError("code: required")
    restricted = data.get("restricted") or {}
    if not isinstance(restricted, Mapping):
        raise ValueError("restricted: expected {card: copies}")
    try:
        limits = {str(k): int(v) for k, v in restricted.items()}
    except (TypeError, ValueError):
        raise ValueError("restricted: copies must be whole numbers") from None
    if any(n < 0 for n in limits.values()):
        raise ValueError("restricted: copies must not be negative")
    groups = data.get("groups") or ()
    if not all(isinstance(grp, (list, tuple)) for grp in groups):
        raise ValueError("groups: expected a list of lists of series")
    return FormatRules(
        game=game, code=code, name=str(data.get("name") or code),
        series=tuple(str(s) for s in data.get("series") or ()),
        groups=tuple(tuple(str(s) for s in grp) for grp in groups),
        single_series=bool(data.get("single_series", False)),
        banned=tuple(str(c) for c in data.get("banned") or ()),
        restricted=limits,
    )


def _keys(rec: CardRecord | None, code: str) -> set[str]:
    keys = {code}
    if rec is not None:
        spec = get_spec(rec.game)
        keys |= {rec.name, spec.identity(rec)}
    return keys


def _series(rec: CardRecord) -> str:
    spec = get_spec(rec.game)
    return spec.series_of(rec.set_code, rec.work) if spec.series_of else rec.work


def validate_format(fmt: FormatRules, zones: Mapping[str, Mapping[str, int]],
                    cards: Mapping[str, CardRecord]) -> list[dict[str, Any]]:
    """The deck's problems in ``fmt``: ``banned``, ``restricted``, ``not_in_format`` (empty when it fits)."""
    counts: dict[str, int] = {}
    for zone_cards in zones.values():
        for code, n in zone_cards.items():
            counts[code] = counts.get(code, 0) + int(n)
    own = {code: rec for code in counts if (rec := cards.get(code)) is not None and rec.game == fmt.game}
    problems: list[dict[str, Any]] = []

    banned = set(fmt.banned)
    hit = sorted(code for code in counts if _keys(own.get(code), code) & banned)
    if hit:
        problems.append(problem("banned", f"Banned in {fmt.name}: {', '.join(label(c, cards) for c in hit)}",
                                hit, format=fmt.code, format_name=fmt.name))

    for entry, most in sorted(fmt.restricted.items()):
        held = sorted(code for code in counts if entry in _keys(own.get(code), code))
        total = sum(counts[c] for c in held)
        if total > most:
            problems.append(problem(
                "restricted", f"Restricted in {fmt.name}: at most {most} of {label(held[0], cards)}, the deck has {total}",
                held, format=fmt.code, format_name=fmt.name, limit=most, count=total))

    series = {code: _series(rec) for code, rec in own.items()}
    outside: list[str] = []
    if fmt.series:
        allowed = set(fmt.series)
        outside = [c for c, s in series.items() if s not in allowed]
    if fmt.groups and not outside:
        used = set(series.values())
        if not any(used <= set(grp) for grp in fmt.groups):
            best = max(fmt.groups, key=lambda grp: sum(1 for s in series.values() if s in grp))
            outside = [c for c, s in series.items() if s not in best]
    if fmt.single_series and not outside and len(set(series.values())) > 1:
        main = max(set(series.values()), key=lambda s: sum(counts[c] for c, x in series.items() if x == s))
        outside = [c for c, s in series.items() if s != main]
    if outside:
        outside.sort()
        problems.append(problem("not_in_format", f"Not in {fmt.name}: {', '.join(label(c, cards) for c in outside)}",
                                outside, format=fmt.code, format_name=fmt.name))
    return problems


def apply_format(report: dict[str, Any], fmt: FormatRules | None, zones: Mapping[str, Mapping[str, int]],
                 cards: Mapping[str, CardRecord]) -> dict[str, Any]:
    """The construction report with ``fmt``'s problems added as errors (unchanged without a format)."""
    if fmt is None:
        return report
    found = validate_format(fmt, zones, cards)
    out = dict(report)
    out["errors"] = list(report.get("errors", ())) + found
    out["valid"] = not out["errors"]
    out["format"] = {"code": fmt.code, "name": fmt.name, "valid": not found}
    return out


def formats_problems_codes(problems: Iterable[Mapping[str, Any]]) -> list[str]:
    """The format codes among ``problems`` (for tests and summaries)."""
    return [p["code"] for p in problems if p.get("code") in FORMAT_CODES]
