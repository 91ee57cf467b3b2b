"""Weiß Schwarz on the pages: the stat line and the deck charts (level and cost curves, triggers)."""
from __future__ import annotations

from typing import Any

from .. import games as g
from ..display import ChartData, Main, StatLine, basic_charts, count, gettext_noop, stat_line_from


def _stats(line: StatLine, card: Any) -> None:
    if not (line.deck and card.card_type == "climax"):
        line.stat(gettext_noop("Lv"), gettext_noop("Lv {}"), card.level)
        line.stat(gettext_noop("Cost"), gettext_noop("Cost {}"), card.cost)
    line.add(gettext_noop("{} power"), card.power)
    line.stat(gettext_noop("Soul"), gettext_noop("Soul {}"), card.soul)
    line.add(gettext_noop("trigger {}"), "/".join(line.labels.trigger(t) for t in card.triggers or ()))


stat_line = stat_line_from(_stats)


def deck_charts(main: Main) -> list[ChartData]:
    levels = count(main, lambda r: ("CX" if r.card_type == "climax" else f"L{r.level}",))
    triggers = count(main, lambda r: r.triggers)
    return [
        ChartData("curve", gettext_noop("Level curve"), levels, ("L0", "L1", "L2", "L3", "CX")),
        *basic_charts(g.WS, main, cost_key="cost"),
        ChartData("triggers", gettext_noop("Trigger icons"), triggers, tuple(t for t in g.WS_TRIGGERS if triggers.get(t)),
                  unit=gettext_noop("icons"), labels="trigger"),
    ]
