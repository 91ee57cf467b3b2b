"""Card import formats, one module per format, registered by name.

An importer turns a file into a stream of ``ImportRecord``s: each is one source record with its
number (1-based line / record / row), the card dict in the project's card JSON format (the keys of
``rules.cards.CARD_FIELDS``, see docs/card-format.md), any printings it carries, and the problems
found while reading it. The ``import_cards`` command validates, normalises and upserts them in one
transaction; an importer never touches the database.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


@dataclass
class ImportProblem:
    field: str
    message: str
    # A warning is an anomaly the importer fixed or flagged (reported, the card is still imported);
    # anything else refuses the record.
    warning: bool = False


@dataclass
class ImportRecord:
    number: int  # position in the source: line, row or record number (1-based)
    card: dict[str, Any] | None  # None when the record could not be read at all
    problems: list[ImportProblem] = field(default_factory=list)
    printings: list[dict[str, Any]] = field(default_factory=list)  # {"code", "rarity", "image_url"}
    source: str = ""  # e.g. the file name, for reports


class Importer(Protocol):
    name: str  # the --format value
    description: str

    def detect(self, path: Path, head: bytes) -> bool:
        """True when ``head`` (the first bytes of ``path``) unambiguously is this format."""

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        """Yield one record per source record; never raise for bad content, report it."""


FORMATS: dict[str, Importer] = {}


def register(importer: Importer) -> Importer:
    FORMATS[importer.name] = importer
    return importer


def detect_format(path: Path) -> str | None:
    """The single registered format that recognises ``path``, or None if none or several do."""
    load_all()
    with open(path, "rb") as fh:
        head = fh.read(65536)
    hits = [name for name, imp in FORMATS.items() if imp.detect(path, head)]
    return hits[0] if len(hits) == 1 else None


def load_all() -> None:
    """Import every format module in this package so each registers itself."""
    import importlib
    import pkgutil

    for mod in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{mod.name}")
