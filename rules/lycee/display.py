"""Lycee on the pages: the stat line and the deck charts (cost curve, EX per attribute)."""
from __future__ import annotations

from typing import Any

from .. import games as g
from ..display import (
    ChartData,
    FaceBuilder,
    Main,
    StatLine,
    basic_charts,
    count,
    face_from,
    gettext_noop,
    stat_line_from,
)


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


def _face(face: FaceBuilder, card: Any) -> None:
    face.stat(face.corner, "EX", card.ex, big=True)
    face.stat(face.corner, gettext_noop("Cost"), card.cost)
    face.stat(face.bottom, "AP", card.ap, big=True)
    face.stat(face.bottom, "DP", card.dp, big=True)
    face.stat(face.bottom, "SP", card.sp, big=True)
    face.stat(face.bottom, "DMG", card.dmg)


face = face_from(_face)
