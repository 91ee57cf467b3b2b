"""Prism Connect on the pages: the stat line and the deck charts (cost curve, bonus marks)."""
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
    line.stat(gettext_noop("Cost"), gettext_noop("Cost {}"), card.cost)
    line.stat("CP", "CP {}", card.cp)
    line.stat("RANK", gettext_noop("RANK {}"), card.rank)
    line.add("{}", card.bonus_mark)


stat_line = stat_line_from(_stats)


def deck_charts(main: Main) -> list[ChartData]:
    marks = count(main, lambda r: (r.bonus_mark or "none",))
    return [*basic_charts(g.PC, main),
            ChartData("bonus", gettext_noop("Bonus marks"), marks, ("RANK+1", "LIFE+1", "DRAW", "none"), labels="bonus_mark")]


def _face(face: FaceBuilder, card: Any) -> None:
    face.stat(face.corner, gettext_noop("Cost"), card.cost, big=True)
    if card.bonus_mark:
        face.marks.append(card.bonus_mark)
    face.stat(face.bottom, "CP", card.cp, big=True)
    face.stat(face.bottom, "RANK", card.rank)
    face.stat(face.bottom, gettext_noop("Connect attack"), card.connect_attack)


face = face_from(_face)
