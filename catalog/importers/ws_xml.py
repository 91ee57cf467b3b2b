"""Weiß Schwarz cards as AlphaC2 XML, one ``<Card>`` file per card (``CardData/<SERIES>/<SET>/*.xml``).

``<Card><Type/><ID/><Name/><Rarity/><ImageURL/><Colour/><Level/><Cost/><Trigger/>* <FlavourText/>
<Ability/><Character><Power/><Trait/>*<Soul/></Character></Card>``. A directory path reads every
``*.xml`` in it (and below). A file that is not well-formed XML becomes one record with a clear
error: file, line, column, what is wrong, and the offending line.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import ImportProblem, ImportRecord, register
from . import normalize as n
from .ws_jsonl import TRAITS_FILE, convert, load_trait_names


def _hint(line: str) -> str:
    if re.search(r"&(?![a-zA-Z]+;|#\d+;|#x[0-9a-fA-F]+;)", line):
        return "an unescaped '&' (write &amp;)"
    if re.search(r"<[A-Za-z]+[^A-Za-z\s>/]", line) or re.search(r"<\d", line) or re.search(r"<[A-Za-z]+\d*</", line):
        return "a broken tag"
    return "malformed markup"


def parse_error(file: Path, text: str, exc: ET.ParseError) -> ImportProblem:
    line_no, column = exc.position
    lines = text.split("\n")
    line = lines[line_no - 1] if 0 < line_no <= len(lines) else ""
    reason = str(exc).split(":")[0]
    return ImportProblem(
        "xml",
        f"{file.name}: not well-formed XML at line {line_no}, column {column + 1} ({reason}; {_hint(line)}): "
        f"{line.strip()[:120]!r}",
    )


def element_data(root: ET.Element) -> dict[str, Any]:
    """The ``<Card>`` element → the AlphaC2 dict shape the JSON-lines converter reads."""
    data: dict[str, Any] = {"Trigger": [], "Trait": []}

    def text_of(el: ET.Element) -> str:
        return (el.text or "").strip()

    for el in root:
        if el.tag == "Character":
            for sub in el:
                if sub.tag == "Trait":
                    data["Trait"].append(text_of(sub))
                else:
                    data[sub.tag] = text_of(sub)
        elif el.tag in ("Trigger", "Trait"):
            data[el.tag].append(text_of(el))
        else:
            data[el.tag] = text_of(el)
    return data


class WsXml:
    name = "ws-xml"
    description = "Weiß Schwarz AlphaC2 XML card files (<Card>...</Card>); a directory reads all *.xml"
    merge_default = True  # a second source merges into the first (import_cards --merge)
    repair_names = True  # names cut short in one source repaired from the other printings

    def detect(self, path: Path, head: bytes) -> bool:
        text = head.decode("utf-8", "ignore")
        return bool(re.search(r"<Card>\s*<Type>", text)) or (path.suffix.lower() == ".xml" and "<Card>" in text and "<ID>" in text and "<deck>" not in text)

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        return n.warnings_on_cards(self._read(path, game))

    def _read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        files = sorted(path.rglob("*.xml")) if path.is_dir() else [path]
        traits_cache: dict[Path, dict[str, str]] = {}
        for number, file in enumerate(files, start=1):
            text = file.read_text(encoding="utf-8-sig", errors="replace")
            try:
                root = ET.fromstring(text.encode("utf-8"))
            except ET.ParseError as exc:
                yield ImportRecord(number, None, [parse_error(file, text, exc)], source=file.name)
                continue
            if root.tag != "Card":
                yield ImportRecord(number, None, [ImportProblem("xml", f"{file.name}: root element <{root.tag}>, expected <Card>")], source=file.name)
                continue
            folder = file.parent
            if folder not in traits_cache:
                found = next((p / TRAITS_FILE for p in [folder, *folder.parents][:4] if (p / TRAITS_FILE).is_file()), None)
                traits_cache[folder] = load_trait_names(found) if found else {}
            card, problems, printings = convert(element_data(root), traits_cache[folder])
            yield ImportRecord(number, card, problems, printings, source=file.name)


register(WsXml())
