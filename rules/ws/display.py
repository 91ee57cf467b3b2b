"""Weiß Schwarz on the pages: the stat line and the deck charts (level and cost curves, triggers)."""
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


def _face(face: FaceBuilder, card: Any) -> None:
    face.stat(face.corner, gettext_noop("Level"), card.level, big=True)
    face.stat(face.corner, gettext_noop("Cost"), card.cost)
    face.marks.extend(face.labels.trigger(t) for t in card.triggers or ())
    if card.counter:
        face.marks.append(face.labels.text(gettext_noop("Counter")))
    face.stat(face.bottom, gettext_noop("Power"), card.power, big=True)
    face.stat(face.bottom, gettext_noop("Soul"), card.soul)


face = face_from(_face)


def picture_group(card: Any) -> tuple[str, Any]:
    """The picture view groups Weiß Schwarz characters and events by level, climaxes apart."""
    if card.card_type == "climax" or card.level is None:
        return ("type", card.card_type)
    return ("level", card.level)


def series_of(set_code: str, work: str) -> str:
    """A Weiß Schwarz series is its title code, the part of the set code before ``/`` (``DC/W01`` → ``DC``)."""
    return work or (set_code.split("/", 1)[0] if "/" in set_code else "")
