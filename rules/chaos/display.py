"""Chaos TCG on the pages: the stat line and the deck charts (ATK and DEF spread)."""
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
    count,
    face_from,
    gettext_noop,
    stat_line_from,
)


def _stats(line: StatLine, card: Any) -> None:
    line.stat("ATK", "ATK {}", card.atk)
    line.stat("DEF", "DEF {}", card.defense)
    if card.partner_atk is not None or card.partner_def is not None:
        line.text(line.labels.text(gettext_noop("partner +{}/+{}")).format(card.partner_atk or 0, card.partner_def or 0))
    line.add("{}", card.timing)


stat_line = stat_line_from(_stats)


def deck_charts(main: Main) -> list[ChartData]:
    chars = [(rec, n) for rec, n in main if rec.card_type == "character"]
    atk = count(chars, lambda r: (r.atk or 0,))
    dfn = count(chars, lambda r: (r.defense or 0,))
    spread = tuple(range(0, max([*atk, *dfn], default=0) + 1))
    return [*basic_charts(g.CHAOS, main, cost_key=None),
            ChartData("atk", gettext_noop("ATK spread (characters)"), atk, spread),
            ChartData("def", gettext_noop("DEF spread (characters)"), dfn, spread)]


def _face(face: FaceBuilder, card: Any) -> None:
    if card.timing:
        face.marks.append(card.timing)
    face.stat(face.bottom, "ATK", card.atk, big=True)
    face.stat(face.bottom, "DEF", card.defense, big=True)
    if card.partner_atk is not None or card.partner_def is not None:
        face.bottom.append(FaceStat(face.labels.text(gettext_noop("Partner bonus")),
                                    f"+{card.partner_atk or 0}/+{card.partner_def or 0}"))


face = face_from(_face)
