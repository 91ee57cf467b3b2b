"""Phantasmagoria on the pages: the stat line and the deck charts (cost curve, ability spread)."""
from __future__ import annotations

from typing import Any

from .. import games as g
from ..display import (
    ChartData,
    FaceBuilder,
    FaceStat,
    Main,
    StatLine,
    basic_charts,
    face_from,
    gettext_noop,
    stat_line_from,
)


def _stats(line: StatLine, card: Any) -> None:
    line.stat(gettext_noop("Cost"), gettext_noop("Cost {}"), card.cost)
    line.stat("MHP", "MHP {}", card.mhp)
    if card.mhp is not None:
        line.text(" ".join(str(getattr(card, a)) if getattr(card, a) is not None else "–"
                           for a in g.PHANTASMA_ATTRIBUTES))
    if card.attack_attribute:
        color = line.labels.color
        line.text(f"{color(card.attack_attribute)} → {color(card.defense_attribute or '')}")
    line.stat(gettext_noop("EX condition"), gettext_noop("EX condition {}"), card.ex_condition)


stat_line = stat_line_from(_stats)


def _ability_average(main: Main) -> dict[str, int]:
    """Each attribute's ability value averaged over the characters (empty without characters)."""
    chars = [(rec, n) for rec, n in main if rec.card_type == "character"]
    copies = sum(n for _, n in chars)
    if not copies:
        return {}
    return {a: round(sum((getattr(rec, a) or 0) * n for rec, n in chars) / copies) for a in g.PHANTASMA_ATTRIBUTES}


def deck_charts(main: Main) -> list[ChartData]:
    return [*basic_charts(g.PHANTASMA, main),
            ChartData("spread", gettext_noop("Average ability value per attribute (characters)"), _ability_average(main),
                      g.PHANTASMA_ATTRIBUTES, unit=gettext_noop("points"), colored=True, labels="color")]


def _face(face: FaceBuilder, card: Any) -> None:
    face.stat(face.corner, gettext_noop("Cost"), card.cost, big=True)
    face.stat(face.corner, gettext_noop("Usage condition"), card.ex_condition)
    if card.mhp is not None:
        face.stat(face.row, "MHP", card.mhp, big=True)
        for a in g.PHANTASMA_ATTRIBUTES:
            value = getattr(card, a)
            face.row.append(FaceStat(face.labels.color(a), "–" if value is None else str(value)))
    if card.attack_attribute:
        color = face.labels.color
        face.bottom.append(FaceStat(face.labels.text(gettext_noop("Attack attribute")), color(card.attack_attribute)))
        face.bottom.append(FaceStat(face.labels.text(gettext_noop("Defense attribute")), color(card.defense_attribute or "")))


face = face_from(_face)
