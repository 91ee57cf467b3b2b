"""The project's own card JSON format (``--format json``), documented in docs/card-format.md.

A document ``{"format": "tcgdb-cards", "version": 1, "game": "ws", "cards": [card, ...]}``; each card
has the keys of ``rules.cards.CARD_FIELDS`` (missing keys take their defaults; ``game`` may be left
out of a card when the document names it) plus an optional ``printings`` list of
``{"code", "rarity", "image_url"}``. Records are numbered by their position in ``cards`` (1-based).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from catalog.cardfields import FIELD_ORDER, canonical, is_default

from . import ImportProblem, ImportRecord, register

FORMAT_NAME = "tcgdb-cards"
VERSION = 1
_SIGNATURE = re.compile(rb'"format"\s*:\s*"tcgdb-cards"')


class ProjectJson:
    name = "json"
    description = "the project's card JSON format (tcgdb-cards version 1, docs/card-format.md)"

    def detect(self, path: Path, head: bytes) -> bool:
        head = head.removeprefix(b"\xef\xbb\xbf").lstrip()
        return head.startswith(b"{") and bool(_SIGNATURE.search(head))

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        source = path.name
        try:
            doc = json.loads(path.read_text(encoding="utf-8-sig"))
        except UnicodeDecodeError as exc:
            yield ImportRecord(0, None, [ImportProblem("file", f"not UTF-8 text: {exc}")], source=source)
            return
        except json.JSONDecodeError as exc:
            yield ImportRecord(0, None, [ImportProblem(
                "file", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}")], source=source)
            return
        yield from self.read_document(doc, game, source)

    def read_document(self, doc: Any, game: str | None, source: str = "") -> Iterator[ImportRecord]:
        """Records from an already parsed document (the API upload uses this)."""
        def fail(fld: str, msg: str) -> ImportRecord:
            return ImportRecord(0, None, [ImportProblem(fld, msg)], source=source)

        if not isinstance(doc, dict):
            yield fail("file", "expected a JSON object {\"format\": \"tcgdb-cards\", \"cards\": [...]}")
            return
        if doc.get("format") != FORMAT_NAME:
            yield fail("format", f"expected \"format\": \"{FORMAT_NAME}\", got {doc.get('format')!r}")
            return
        if doc.get("version") != VERSION:
            yield fail("version", f"unsupported version {doc.get('version')!r}; this reader knows version {VERSION}")
            return
        doc_game = doc.get("game")
        if doc_game is not None and game is not None and doc_game != game:
            yield fail("game", f"the file holds {doc_game!r} cards but --game is {game!r}")
            return
        cards = doc.get("cards")
        if not isinstance(cards, list):
            yield fail("cards", "\"cards\" must be a list of card objects")
            return
        default_game = game or doc_game
        for number, raw in enumerate(cards, start=1):
            if not isinstance(raw, dict):
                yield ImportRecord(number, None, [ImportProblem("card", f"record {number} is not an object")], source=source)
                continue
            card = dict(raw)
            printings = card.pop("printings", None)
            problems: list[ImportProblem] = []
            if default_game is not None:
                card.setdefault("game", default_game)
            if printings is None:
                printings = []
            elif not isinstance(printings, list) or not all(isinstance(p, dict) for p in printings):
                problems.append(ImportProblem("printings", "printings must be a list of {code, rarity, image_url} objects"))
                printings = []
            yield ImportRecord(number, card, problems, printings=printings, source=source)

    # -- export ----------------------------------------------------------------------------------
    def write(self, cards: Iterable[tuple[dict[str, Any], list[dict[str, Any]]]], fh: IO[str], game: str) -> int:
        """Write ``(card, printings)`` pairs as one document, one compact card per line."""
        fh.write(f'{{\n  "format": "{FORMAT_NAME}",\n  "version": {VERSION},\n  "game": {json.dumps(game)},\n  "cards": [')
        count = 0
        for card, printings in cards:
            out = {k: canonical(card[k]) for k in FIELD_ORDER if k != "game" and k in card and not is_default(k, card[k])}
            if card.get("game") != game:
                out["game"] = card.get("game")
            if printings:
                out["printings"] = canonical(printings)
            fh.write(("\n    " if count == 0 else ",\n    ") + json.dumps(out, ensure_ascii=False))
            count += 1
        fh.write("\n  ]\n}\n" if count else "]\n}\n")
        return count


register(ProjectJson())
