"""Weiß Schwarz JSON lines in the AlphaC2/Weiss-Schwarz layout (one JSON object per card).

Fields: ``Type ID Name Rarity Colour Level Cost Trigger[] Power Soul Trait[] Ability FlavourText
ImageURL source_path``. Traits are English enum names; the ``traits_en_jp.csv`` next to the file
(``ENUM,日本語``) maps them to the printed Japanese trait. See docs/importing.md for the mapping.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rules import games as g
from rules.abilities import is_vanilla_text

from . import ImportProblem, ImportRecord, register
from . import normalize as n

TRAITS_FILE = "traits_en_jp.csv"


def trait_key(enum: str) -> str:
    """The lookup key of an English trait enum: case, spaces, hyphens and underscores do not count
    (``Student Council``, ``student_council`` and ``STUDENT_COUNCIL`` are one enum)."""
    return re.sub(r"[\s_\-]+", "_", n.nfkc(enum)).strip("_").upper()


def load_trait_names(path: Path) -> dict[str, str]:
    """``ENUM,日本語`` lines → {enum key (``trait_key``): Japanese}; the first line for an enum wins
    (the file has duplicates such as ``ANIMAL,物`` after ``ANIMAL,動物``)."""
    names: dict[str, str] = {}
    if not path.is_file():
        return names
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        enum, _, jp = line.partition(",")
        key, jp = trait_key(enum), n.nfkc(jp)
        if key and jp and key not in names:
            names[key] = jp
    return names


def map_traits(raw: Any, traits: dict[str, str]) -> tuple[list[str], list[ImportProblem]]:
    """AlphaC2 trait enums → the Japanese traits (``traits_en_jp.csv``). An enum in another case or
    spelled with spaces (``Dead``, ``Student Council``) is the same enum and is reported; a value that
    already is a Japanese trait of the table is kept; anything else is kept as is and reported."""
    out: list[str] = []
    problems: list[ImportProblem] = []
    japanese = set(traits.values())
    for value in raw or []:
        key = str(value or "").strip()
        if not key or key.upper() == "NONE":
            continue
        mapped = traits.get(trait_key(key))
        if mapped is not None:
            out.append(mapped)
            if key != key.upper() or " " in key:
                problems.append(ImportProblem("traits", f"trait {key!r} read as the enum {trait_key(key)} ({mapped})"))
        elif n.nfkc(key) in japanese:
            out.append(n.nfkc(key))
        else:
            out.append(n.nfkc(key))
            if traits:
                problems.append(ImportProblem("traits", f"trait {key!r} has no Japanese name in {TRAITS_FILE}; kept as is"))
    return list(dict.fromkeys(out)), problems


def ws_files(path: Path, suffix: str) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix.lower() == suffix and p.is_file())
    return [path]


def convert(data: dict[str, Any], traits: dict[str, str]) -> tuple[dict[str, Any] | None, list[ImportProblem], list[dict[str, Any]]]:
    """One AlphaC2 card object (from JSON or XML) → (card, problems, printings)."""
    problems: list[ImportProblem] = []
    raw_id = str(data.get("ID") or "").strip()
    if not raw_id:
        return None, [ImportProblem("ID", "card has no ID")], []
    # ``AB-W11-001`` → ``AB/W11-001`` on every record: a convention of this source, documented in
    # docs/importing.md, not reported per record.
    code, _ = n.ws_code(raw_id)
    set_code, number = n.ws_code_parts(code)
    if not set_code:
        problems.append(ImportProblem("code", f"code {code!r} is not of the form SERIES/SET-NUMBER"))

    raw_type = str(data.get("Type") or "")
    card_type = n.enum_value(raw_type)
    if raw_type and raw_type != raw_type.upper():
        problems.append(ImportProblem("card_type", f"type {raw_type!r} read as {card_type!r}"))
    if card_type not in g.CARD_TYPES[g.WS]:
        return None, problems + [ImportProblem("card_type", f"unknown type {raw_type!r}")], []

    name, marker = n.ws_name(data.get("Name") or "")
    if marker:
        problems.append(ImportProblem("name", f"printing marker '({marker})' removed from the name; kept on the printing"))

    colors: list[str] = []
    raw_colour = str(data.get("Colour") or "")
    colour = n.enum_value(raw_colour)
    if colour in g.WS_COLORS:
        colors = [colour]
        if raw_colour != raw_colour.upper():
            problems.append(ImportProblem("colors", f"colour {raw_colour!r} read as {colour!r}"))
    elif raw_colour:
        problems.append(ImportProblem("colors", f"{raw_colour!r} is not a WS colour; colour left empty"))
    else:
        problems.append(ImportProblem("colors", "no colour given"))

    triggers, trig_problems = n.ws_triggers(data.get("Trigger") if isinstance(data.get("Trigger"), list) else [data.get("Trigger")])
    problems += trig_problems

    trait_list, trait_problems = map_traits(data.get("Trait"), traits)
    problems += trait_problems
    text = n.nfkc(data.get("Ability"))
    if is_vanilla_text(text):  # the source writes "-" for a card without text: stored as no text
        text = ""
    card: dict[str, Any] = {
        "game": g.WS,
        "code": code,
        "name": name,
        "card_type": card_type,
        "colors": colors,
        "rarity": n.nfkc(data.get("Rarity")),
        "set_code": set_code,
        "number": number,
        "traits": trait_list,
        "text": text,
        "flavor": n.nfkc(data.get("FlavourText")),
        "triggers": triggers,
        "counter": n.ws_counter(text),
    }
    if card_type == "climax":
        for key in ("Level", "Cost", "Power", "Soul"):
            if data.get(key) not in (None, "", 0):
                problems.append(ImportProblem(key.lower(), f"a climax has no {key.lower()}; {data[key]!r} ignored"))
        effects, modelled = n.ws_climax_bonus(text)
        card["effects"] = effects
        card["text_modelled"] = modelled
        reminder = n.ws_reminder_conflict(card_type, triggers, text)
        if reminder:
            problems.append(ImportProblem(
                "triggers", f"trigger icons {triggers} disagree with the reminder text (which describes {reminder!r})"))
    else:
        for key in ("Level", "Cost"):
            value = n.as_int(data.get(key))
            if value is None:
                problems.append(ImportProblem(key.lower(), f"{key} {data.get(key)!r} is not a number"))
            card[key.lower()] = value
        if card_type == "character":
            for key in ("Power", "Soul"):
                value = n.as_int(data.get(key))
                if value is None:
                    problems.append(ImportProblem(key.lower(), f"{key} {data.get(key)!r} is not a number"))
                card[key.lower()] = value
    printing = {"code": code, "rarity": card["rarity"], "image_url": str(data.get("ImageURL") or "").strip()}
    if marker:
        printing["marker"] = marker
    return card, problems, [printing]


class WsJsonLines:
    name = "ws-jsonl"
    description = "Weiß Schwarz JSON lines, AlphaC2 layout (ID/Name/Colour/Trigger/Trait...)"
    merge_default = True  # a second source merges into the first (import_cards --merge)
    repair_names = True  # names cut short in one source repaired from the other printings

    def detect(self, path: Path, head: bytes) -> bool:
        first = head.split(b"\n", 1)[0].strip()
        if not first.startswith(b"{"):
            return False
        try:
            data = json.loads(first)
        except ValueError:
            return False
        return isinstance(data, dict) and {"ID", "Type", "Name", "Colour"} <= set(data)

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        return n.warnings_on_cards(self._read(path, game))

    def _read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        for file in ws_files(path, ".jsonl"):
            traits = load_trait_names(file.parent / TRAITS_FILE)
            with open(file, encoding="utf-8-sig") as fh:
                for number, line in enumerate(fh, start=1):
                    if not line.strip():
                        continue
                    try:
                        data = json.loads(line)
                    except ValueError as exc:
                        yield ImportRecord(number, None, [ImportProblem("json", f"not valid JSON: {exc}")], source=file.name)
                        continue
                    if not isinstance(data, dict):
                        yield ImportRecord(number, None, [ImportProblem("json", "line is not a JSON object")], source=file.name)
                        continue
                    card, problems, printings = convert(data, traits)
                    yield ImportRecord(number, card, problems, printings, source=file.name)


register(WsJsonLines())
