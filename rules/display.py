"""What pages show of a card or a deck, per game, without Django: the stat line and the deck-page
chart data. Each game builds them in ``rules/<game>/display.py``; the apps render them.

Words a reader sees are English msgids marked with ``gettext_noop`` (the name Django's
``makemessages`` extracts); the caller passes ``Labels`` that translate them (``PLAIN`` keeps
English). The stat line comes in two forms, as the pages always showed them: the card pages'
(``Lv 2``: the label translated, then the value) and the deck pages' (``deck=True``: the whole
``Lv {}`` template translated, and a WS climax without level and cost).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import games as g

Main = Sequence[tuple[Any, int]]  # the main deck as (CardRecord, copies)
_NO_VALUE: tuple[Any, ...] = (None, "", [], ())


def gettext_noop(message: str) -> str:
    """Mark an English message for translation (``makemessages`` extracts it) and return it unchanged."""
    return message


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Labels:
    """How words reach the reader: ``text`` translates a msgid, ``color`` names a color or
    attribute code, ``trigger`` a WS trigger code. The defaults keep the English codes."""

    text: Callable[[str], str] = _same
    color: Callable[[str], str] = _same
    trigger: Callable[[str], str] = _same


PLAIN = Labels()


@dataclass
class StatLine:
    """The parts of one card's stat line, joined with `` · `` after the card's colors/attributes."""

    labels: Labels
    deck: bool = False
    parts: list[str] = field(default_factory=list)

    def stat(self, label: str, template: str, value: Any) -> None:
        """A labelled number: the card pages' ``label value``, the deck pages' ``template`` (``"Lv {}"``)."""
        if value not in _NO_VALUE:
            t = self.labels.text
            self.parts.append(t(template).format(value) if self.deck else f"{t(label)} {value}")

    def add(self, template: str, *values: Any) -> None:
        """``template`` (translated) filled with ``values``; skipped when the first value is empty."""
        if values[0] not in _NO_VALUE:
            self.parts.append(self.labels.text(template).format(*values))

    def text(self, part: str) -> None:
        """A part already in the reader's words."""
        self.parts.append(part)

    def render(self, card: Any) -> str:
        colors = [*(card.colors or ()), *(card.attributes or ())]
        parts = (["/".join(self.labels.color(c) for c in colors)] if colors else []) + self.parts
        return " · ".join(parts)


def stat_line_from(add_stats: Callable[[StatLine, Any], None]) -> Callable[..., str]:
    """A game's ``stat_line(card, labels=PLAIN, deck=False)`` from the function adding its stats."""
    def stat_line(card: Any, labels: Labels = PLAIN, deck: bool = False) -> str:
        line = StatLine(labels, deck)
        add_stats(line, card)
        return line.render(card)
    stat_line.__doc__ = "The stats a player reads first, as one short line (a Card or a CardRecord)."
    return stat_line


# -- deck-page charts ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChartData:
    """One bar chart of the deck page: ``counts`` per key, bars in ``order``. ``title`` and ``unit``
    are msgids; ``labels`` names how keys are shown: ``"color"``, ``"type"``, ``"trigger"``,
    ``"bonus_mark"`` or ``""`` (as they are)."""

    key: str
    title: str
    counts: Mapping[Any, float]
    order: tuple[Any, ...]
    unit: str | None = None
    colored: bool = False
    labels: str = ""


def count(main: Main, keys_of: Callable[[Any], Iterable[Any]], weight: Callable[[Any], float] | None = None
          ) -> Counter:
    """``Counter`` over ``main``: every key ``keys_of(record)`` gets the copies (times ``weight``)."""
    out: Counter = Counter()
    for rec, n in main:
        for key in keys_of(rec):
            out[key] += n * (weight(rec) if weight else 1)
    return out


def cost_curve(main: Main, key: str = "curve") -> ChartData:
    cost = count(main, lambda r: () if r.cost is None else (r.cost,))
    return ChartData(key, gettext_noop("Cost curve"), cost, tuple(range(0, max(cost, default=0) + 1)))


def split_chart(game: str, main: Main) -> ChartData:
    """Copies per color (games with colors) or per attribute."""
    if game in g.COLORS:
        split = count(main, lambda r: r.colors or ("none",))
        order = (*g.COLORS[game], *(["none"] if split.get("none") else []))
        return ChartData("colors", gettext_noop("Color split"), split, order, colored=True, labels="color")
    split = count(main, lambda r: r.attributes or ("none",))
    attrs = g.ATTRIBUTES[game]
    order = (*attrs, *(a for a in split if a not in attrs))
    return ChartData("attributes", gettext_noop("Attribute split"), split, order, colored=True, labels="color")


def types_chart(game: str, main: Main) -> ChartData:
    return ChartData("types", gettext_noop("Card types"), count(main, lambda r: (r.card_type,)),
                     g.CARD_TYPES[game], labels="type")


def basic_charts(game: str, main: Main, cost_key: str | None = "curve") -> list[ChartData]:
    """The charts every game shows: the cost curve (under ``cost_key``; None for none), the
    color/attribute split and the card types."""
    curve = [cost_curve(main, cost_key)] if cost_key is not None else []
    return [*curve, split_chart(game, main), types_chart(game, main)]


# -- the generated card face --------------------------------------------------------------------------
@dataclass(frozen=True)
class FaceStat:
    """One labelled value on a generated card face (``label`` and ``value`` in the reader's words)."""

    label: str
    value: str
    big: bool = False


@dataclass(frozen=True)
class Face:
    """A card drawn from its data: the picture pages show when a printing has no image (or it does not
    load). The apps render it with one template; each game's frame is its CSS (``face-<game>``) over
    these parts: ``corner`` (top left: level and cost, cost, EX...), ``marks`` (top right: trigger
    icons, bonus mark, timing), ``row`` (a small table under the name: Phantasmagoria's MHP and
    abilities), ``bottom`` (power and soul, AP/DP/SP, ATK/DEF...) and ``tones``: the color or
    attribute codes the frame is drawn in."""

    corner: tuple[FaceStat, ...] = ()
    marks: tuple[str, ...] = ()
    row: tuple[FaceStat, ...] = ()
    bottom: tuple[FaceStat, ...] = ()
    tones: tuple[str, ...] = ()


@dataclass
class FaceBuilder:
    """What a game's ``_face(face, card)`` fills; ``stat`` skips empty values like the stat line."""

    labels: Labels
    corner: list[FaceStat] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)
    row: list[FaceStat] = field(default_factory=list)
    bottom: list[FaceStat] = field(default_factory=list)

    def stat(self, part: list[FaceStat], label: str, value: Any, big: bool = False) -> None:
        if value not in _NO_VALUE:
            part.append(FaceStat(self.labels.text(label), str(value), big))


def face_from(add_parts: Callable[[FaceBuilder, Any], None]) -> Callable[..., Face]:
    """A game's ``face(card, labels=PLAIN)`` from the function adding its parts."""
    def face(card: Any, labels: Labels = PLAIN) -> Face:
        builder = FaceBuilder(labels)
        add_parts(builder, card)
        tones = tuple(str(c) for c in (*(card.colors or ()), *(card.attributes or ())) if c)
        return Face(tuple(builder.corner), tuple(builder.marks), tuple(builder.row), tuple(builder.bottom), tones)
    face.__doc__ = "The card's generated face (a Card or a CardRecord)."
    return face


def picture_group_by_type(card: Any) -> tuple[str, Any]:
    """Where the deck page's picture view puts a card: ``("type", card_type)`` (most games), or a game's
    own key such as ``("level", 2)``; the apps order levels first, then the game's card types."""
    return ("type", card.card_type)


def series_of(set_code: str, work: str) -> str:
    """The series (work) a set or card belongs to, as the data says: the card's work."""
    return work or ""
