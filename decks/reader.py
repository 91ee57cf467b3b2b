"""The one deck reader: any deck input → zones + line-numbered problems.

``read_deck(...)`` is the entry point for every way a deck comes in:

- ``text``: the project's deck text (``COUNT CODE`` lines, ``# zone`` headers; ``rules.decktext``)
  or a format players exchange (``rules.deckformats``: ``CODE RARITY`` lines, the AlphaC2 ``<deck>``
  XML, the Chaos ``mainDeck { … }`` textproto). Deck text is read first; text that is not deck text
  is read in the exchange format detected from its content. ``fmt`` names the format instead
  (``"text"`` or one of ``rules.deckformats.FORMATS``); ``formats`` limits what may be detected
  (``FORMATS`` alone: exchange formats only, as ``manage.py import_deck`` reads).
  Printed codes of an exchange format are mapped to catalog card codes
  (``catalog.selectors.card_codes_resolve``: card codes, printing codes, WS ``-`` codes).
- ``upload``: an uploaded file (at most ``MAX_FILE`` bytes of UTF-8), then read as ``text``;
- ``entries``: ``[{"zone", "code", "count"}]`` (the API's entries, already shape-checked);
- ``zones``: ``{zone: {code: count}}``, passed through as given (``decks.services.zones_normalize``
  checks its shape when it is saved or validated).

It returns a :class:`DeckReading`; it never raises for bad content. Callers: the deck API
(``decks.api.serializers``), the deck pages (``decks.forms.DeckForm``), deck files and
``manage.py import_deck`` (``decks.deckfiles``), ``manage.py goldfish`` and playtest jobs
(``playtest.services``), the sample decks (``decks.services.sample_decks_load``).
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.utils.translation import gettext

from catalog.selectors import card_codes_resolve
from rules import games as g
from rules.deckformats import FORMATS, detect_deck_format, parse_deck, resolve_codes
from rules.decktext import DeckEntry, parse_deck_text

__all__ = ["DECK_TEXT", "MAX_FILE", "READABLE", "DeckReading", "read_deck", "zones_from_entries"]

DECK_TEXT = "deck text"  # DeckReading.format of the project's deck text ("text" when naming it as fmt)
READABLE = ("text", *FORMATS)  # what read_deck detects by default
MAX_FILE = 1_000_000  # bytes of an uploaded deck file


class UploadedDeckFile(Protocol):
    size: int

    def read(self) -> bytes: ...


@dataclass
class DeckReading:
    """What was read.

    ``format``: ``"deck text"``, ``"entries"``, ``"zones"``, ``"file"`` (an upload that could not be
    read) or the exchange format (``"unknown"`` when none could be told).
    ``zones``: ``{zone: {code: count}}`` in reading order. With problems, what could still be read:
    for text that is neither clean deck text nor readable in the detected format, what deck text
    could read (so the other problems can still be reported); for a named or exchange-only format,
    what that format could read.
    ``problems``: ``{"code", "line", "message", "text"}`` dicts (``LineError.as_dict`` shape; ``line``
    is None for a file that could not be read at all).
    ``partner``: an exchange format's partner card (deck text keeps it in the ``partner`` zone).
    ``lines``: deck text entries with their line numbers.
    """

    format: str
    zones: Any = field(default_factory=dict)
    problems: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    game: str | None = None
    partner: str | None = None
    lines: tuple[DeckEntry, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    def zones_with_partner(self) -> dict[str, dict[str, int]]:
        """``zones`` plus an exchange format's partner as the ``partner`` zone."""
        if not self.partner:
            return self.zones
        zones = {z: dict(c) for z, c in self.zones.items()}
        if self.partner:
            zones["partner"] = {self.partner: 1}
        return zones


def zones_from_entries(entries: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """``[{"zone", "code", "count"}]`` → ``{zone: {code: count}}`` (codes stripped, repeats added up)."""
    zones: dict[str, dict[str, int]] = {}
    for e in entries:
        z = zones.setdefault(e["zone"], {})
        z[e["code"].strip()] = z.get(e["code"].strip(), 0) + e["count"]
    return zones


def read_deck(*, game: str | None = None, text: str | None = None, upload: UploadedDeckFile | None = None,
              entries: Iterable[Mapping[str, Any]] | None = None, zones: Any = None, fmt: str | None = None,
              formats: Collection[str] = READABLE) -> DeckReading:
    """Read one deck given exactly one of ``text``, ``upload``, ``entries`` or ``zones`` (see the
    module docstring). ``game`` is the deck's game when known (an exchange format without one is
    read as Weiß Schwarz, or as the game its format implies)."""
    given = [name for name, value in (("text", text), ("upload", upload), ("entries", entries), ("zones", zones))
             if value is not None]
    if len(given) != 1:
        raise TypeError(f"read_deck takes exactly one of text, upload, entries, zones (got {', '.join(given) or 'none'})")
    if entries is not None:
        return DeckReading(format="entries", zones=zones_from_entries(entries), game=game)
    if zones is not None:
        return DeckReading(format="zones", zones=zones, game=game)
    if upload is not None:
        return _read_upload(upload, game=game, fmt=fmt, formats=formats)
    assert text is not None
    return _read_text(text, game=game, fmt=fmt, formats=formats)


def _file_problem(code: str, message: str) -> DeckReading:
    return DeckReading(format="file", zones={}, problems=[{"code": code, "line": None, "message": message, "text": ""}])


def _read_upload(upload: UploadedDeckFile, *, game: str | None, fmt: str | None,
                 formats: Collection[str]) -> DeckReading:
    if upload.size > MAX_FILE:
        return _file_problem("file_too_large", gettext("the file is %(size)s bytes; at most %(max)s are read")
                             % {"size": upload.size, "max": MAX_FILE})
    try:
        text = upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        return _file_problem("not_utf8", gettext("the file is not UTF-8 text"))
    return _read_text(text, game=game, fmt=fmt, formats=formats)


def _read_text(text: str, *, game: str | None, fmt: str | None, formats: Collection[str]) -> DeckReading:
    if fmt is None and "text" not in formats:  # exchange formats only: detected ("could not tell" otherwise)
        return _read_exchange(text, None, game)
    if fmt not in (None, "text"):
        return _read_exchange(text, fmt, game)
    parsed = parse_deck_text(text)
    reading = DeckReading(format=DECK_TEXT, zones=parsed.zones(), problems=[e.as_dict() for e in parsed.errors],
                          game=game, lines=tuple(parsed.entries))
    if reading.ok or fmt == "text":
        return reading
    detected = detect_deck_format(text)
    if detected is None or detected not in formats:
        return reading
    exchange = _read_exchange(text, detected, game)
    if not exchange.ok:  # keep what deck text could read, as for text that is no format at all
        exchange.zones, exchange.partner = reading.zones, None
    return exchange


def _read_exchange(text: str, fmt: str | None, game: str | None) -> DeckReading:
    deck = parse_deck(text, fmt, game or g.WS)
    game = game or deck.game
    codes = {code for zone in deck.zones.values() for code in zone}
    if deck.partner:
        codes.add(deck.partner)
    resolve_codes(deck, card_codes_resolve(game=game, codes=codes).get)
    return DeckReading(format=deck.format, zones=deck.zones, problems=list(deck.errors), notes=deck.notes,
                       game=game, partner=deck.partner)
