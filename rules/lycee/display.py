"""Lycee on the pages: the stat line and the deck charts (cost curve, EX per attribute)."""
from __future__ import annotations

from typing import Any

from .. import games as g
from ..display import ChartData, Main, StatLine, basic_charts, count, gettext_noop, stat_line_from


def _stats(line: StatLine, card: Any) -> None:
    line.stat("EX", "EX {}", card.ex)
    line.stat(gettext_noop("Cost"), gettext_noop("Cost {}"), card.cost)
    line.stat("AP", "AP {}", card.ap)
    line.stat("DP", "DP {}", card.dp)
    line.stat("SP", "SP {}", card.sp)


stat_line = stat_line_from(_stats)


def deck_charts(main: Main) -> list[ChartData]:
    ex = count(main, lambda r: r.attributes or ("star",), weight=lambda r: r.ex or 0)
    return [*basic_charts(g.LYCEE, main),
            ChartData("ex", gettext_noop("EX total per attribute"), ex, g.LYCEE_ATTRIBUTES, unit="EX", colored=True,
                      labels="color")]
