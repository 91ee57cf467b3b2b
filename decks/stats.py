"""Deck statistics for the deck page: curves, color/attribute split, types and per-game extras,
plus exact draw odds (``rules.odds``). Pure functions over ``CardRecord``s and counts."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from catalog.labels import STAT_LABELS, color_label, trigger_label, type_label
from rules.cards import CardRecord
from rules.odds import cards_seen, p_at_least
from rules.registry import get_spec

from .charts import bar_chart


def _main(zones: Mapping[str, Mapping[str, int]], cards: Mapping[str, CardRecord], game: str):
    for code, n in (zones.get("main") or {}).items():
        rec = cards.get(code)
        if rec is not None and rec.game == game:
            yield rec, n


def stat_line(card: Any) -> str:
    """The deck pages' stat line of a Card or CardRecord (``rules/<game>/display.py``)."""
    if card is None:
        return ""
    return get_spec(card.game).stat_line(card, STAT_LABELS, deck=True)


def _bonus_mark_label(key: str) -> str:
    return pgettext("bonus mark", "none") if key == "none" else key


_KEY_LABELS: dict[str, Callable[[str], str]] = {
    "color": color_label, "type": type_label, "trigger": trigger_label, "bonus_mark": _bonus_mark_label,
}


def deck_charts(game: str, zones: Mapping[str, Mapping[str, int]], cards: Mapping[str, CardRecord]) -> list[dict[str, Any]]:
    """``[{"key", "title", "svg"}]`` for the deck page: the game's chart data, drawn in the reader's language."""
    charts: list[dict[str, Any]] = []
    for chart in get_spec(game).deck_charts(list(_main(zones, cards, game))):
        bars = [(str(k), chart.counts.get(k, 0)) for k in chart.order]
        if any(v for _, v in bars):
            title = _(chart.title)
            svg = bar_chart(title, bars, unit=_(chart.unit) if chart.unit is not None else None, colored=chart.colored,
                            label_of=_KEY_LABELS.get(chart.labels))
            charts.append({"key": chart.key, "title": title, "svg": svg})
    return charts


def odds_groups(game: str, zones: Mapping[str, Mapping[str, int]], cards: Mapping[str, CardRecord]) -> list[dict[str, Any]]:
    """Choices for the odds panel: every main-deck card, every type, color/attribute and (WS) trigger.
    Each is ``{"key", "label", "copies", "codes"}``."""
    main = list(_main(zones, cards, game))
    groups: dict[str, dict[str, Any]] = {}

    def put(key: str, label: str, code: str, n: int) -> None:
        grp = groups.setdefault(key, {"key": key, "label": label, "copies": 0, "codes": set()})
        grp["copies"] += n
        grp["codes"].add(code)

    for rec, n in main:
        put(f"type:{rec.card_type}", _("any %(type)s") % {"type": type_label(rec.card_type)}, rec.code, n)
        for c in rec.colors:
            put(f"color:{c}", _("any %(color)s card") % {"color": color_label(c)}, rec.code, n)
        for a in rec.attributes:
            put(f"attr:{a}", _("any %(color)s card") % {"color": color_label(a)}, rec.code, n)
        for t in set(rec.triggers):
            put(f"trigger:{t}", _("any card with a %(trigger)s trigger") % {"trigger": trigger_label(t)}, rec.code, n)
    cards_list = [{"key": f"card:{rec.code}", "label": f"{rec.name} ({rec.code})", "copies": n, "codes": {rec.code}}
                  for rec, n in sorted(main, key=lambda x: x[0].name)]
    return cards_list + sorted(groups.values(), key=lambda x: x["key"])


def odds_selection(groups: list[dict[str, Any]], keys: list[str], zones: Mapping[str, Mapping[str, int]]
                   ) -> dict[str, Any] | None:
    """The union of the chosen groups (a card counted once even if two chosen groups hold it)."""
    chosen = [grp for grp in groups if grp["key"] in set(keys)]
    if not chosen:
        return None
    codes = set().union(*(grp["codes"] for grp in chosen))
    main = zones.get("main") or {}
    return {"keys": [grp["key"] for grp in chosen], "label": _(" or ").join(grp["label"] for grp in chosen),
            "copies": sum(main.get(c, 0) for c in codes)}


def odds_table(game: str, deck_size: int, copies: int, turns: int = 5, at_least: int = 1) -> list[dict[str, Any]]:
    """P(at least ``at_least`` of ``copies``) in the opening hand (turn 0) and by own turns 1..``turns``,
    going first and going second, with each game's hand size and draws (WS counts the clock's 2 draws)."""
    rows: list[dict[str, Any]] = []
    for turn in range(0, turns + 1):
        first = cards_seen(game, turn, first_player=True)
        second = cards_seen(game, turn, first_player=False)
        rows.append({
            "turn": turn,
            "seen_first": min(first, deck_size), "seen_second": min(second, deck_size),
            "first": p_at_least(deck_size, copies, first, at_least) if deck_size else 0.0,
            "second": p_at_least(deck_size, copies, second, at_least) if deck_size else 0.0,
        })
        rows[-1]["first_pct"] = _pct(rows[-1]["first"])
        rows[-1]["second_pct"] = _pct(rows[-1]["second"])
    return rows


def _pct(p: float) -> str:
    if p >= 1.0:
        return "100%"
    if p > 0.999:
        return ">99.9%"
    if 0 < p < 0.001:
        return "<0.1%"
    return f"{p * 100:.1f}%"
