"""Chaos TCG cards in protobuf text format (BupjaeLee/tcg-network ``proto/*.txt``).

One ``info { ... }`` block per card: ``serial``, ``name`` (``title 「person」``), ``image_url`` and an
extension block ``[chaostcg.ChaosTcgCardInfo.extension] { title os type element* gender power
tough power_mod tough_mod rule_name* feature* }``. The file is parsed with a real textproto parser
(rules.textproto, lark); the schema (``chaostcg.proto``) is not needed.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rules import games as g
from rules.textproto import Message, TextprotoError, parse_textproto

from . import ImportProblem, ImportRecord, register
from . import normalize as n

TYPES = {"CHARA": "character", "CHARACTER": "character", "EXTRA": "extra", "EVENT": "event", "SET": "set"}
ELEMENTS = {"FIRE": "fire", "WATER": "water", "AIR": "wind", "WIND": "wind", "EARTH": "earth",
            "LIGHT": "light", "DARK": "dark", "NONE": "none"}
GENDERS = {"WOMAN": "female", "FEMALE": "female", "MAN": "male", "MALE": "male", "BOTH": "both"}
_PERSON = re.compile(r"「([^」]*)」")


def extension(info: Message) -> Message:
    for key, values in info.items():
        if key.startswith("[") and values and isinstance(values[0], dict):
            return values[0]
    return Message()


def convert(info: Message, set_code: str = "") -> tuple[dict[str, Any] | None, list[ImportProblem], list[dict[str, Any]]]:
    problems: list[ImportProblem] = []
    code = n.nfkc(info.first("serial", "")).upper()
    if not code:
        return None, [ImportProblem("serial", "card has no serial")], []
    ext = extension(info)
    raw_type = str(ext.first("type", ""))
    card_type = TYPES.get(raw_type.upper())
    if card_type is None:
        return None, [ImportProblem("type", f"unknown card type {raw_type!r}")], []
    name = n.nfkc(info.first("name", ""))
    attributes: list[str] = []
    for raw in ext.all("element"):
        attr = ELEMENTS.get(str(raw).upper())
        if attr is None:
            problems.append(ImportProblem("attributes", f"unknown element {raw!r} dropped"))
        elif attr not in attributes:
            attributes.append(attr)
    card: dict[str, Any] = {
        "game": g.CHAOS,
        "code": code,
        "name": name,
        "card_type": card_type,
        "attributes": attributes,
        "set_code": set_code,
        "work": n.nfkc(ext.first("os", "")),
        "traits": [n.nfkc(t) for t in ext.all("feature")],
    }
    if ext.first("gender") is not None:
        gender = GENDERS.get(str(ext.first("gender")).upper())
        if gender is None:
            problems.append(ImportProblem("gender", f"unknown gender {ext.first('gender')!r} dropped"))
        else:
            card["gender"] = gender
    for src, dst in (("power", "atk"), ("tough", "defense"), ("power_mod", "partner_atk"), ("tough_mod", "partner_def")):
        value = ext.first(src)
        if value is not None:
            if isinstance(value, int) and value >= 0:
                card[dst] = value
            else:
                problems.append(ImportProblem(dst, f"{src} {value!r} is not a whole number ≥ 0"))
    rule_names = [n.nfkc(r) for r in ext.all("rule_name")]
    if card_type in ("character", "extra"):
        persons = _PERSON.findall(name)
        first_bracket = name.find("「")
        card["title"] = name[:first_bracket].strip() if first_bracket > 0 else ""
        if card_type == "character":
            card["person"] = rule_names[0] if rule_names else (persons[0] if persons else "")
            if len(rule_names) > 1:
                problems.append(ImportProblem("person", f"a character with {len(rule_names)} rule names; kept the first"))
        else:
            card["extra_persons"] = rule_names or persons
            card["person"] = " & ".join(card["extra_persons"])
        if persons and rule_names and [n.nfkc(p) for p in persons] != rule_names:
            problems.append(ImportProblem(
                "person", f"name brackets {persons} differ from rule names {rule_names}; rule names kept"))
        if not card["person"]:
            problems.append(ImportProblem("person", "no person name (「...」 or rule_name)"))
    elif rule_names:
        card["alt_names"] = [r for r in rule_names if r != name]
    image = str(info.first("image_url", "") or "").strip()
    return card, problems, [{"code": code, "rarity": "", "image_url": image}]


def cards_of(message: Message) -> list[Message]:
    return [m for m in message.all("info") if isinstance(m, dict)]


class ChaosTextproto:
    name = "chaos-textproto"
    description = "Chaos TCG cards in protobuf text format (info { serial name [ext] { ... } })"
    merge_default = True  # a second source merges into the first (import_cards --merge)

    def detect(self, path: Path, head: bytes) -> bool:
        text = head.decode("utf-8", "ignore")
        return bool(re.search(r"^info\s*\{", text, re.M)) and "serial:" in text

    def read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        return n.warnings_on_cards(self._read(path, game))

    def _read(self, path: Path, game: str | None) -> Iterator[ImportRecord]:
        text = path.read_text(encoding="utf-8-sig")
        try:
            message = parse_textproto(text)
        except TextprotoError as exc:
            yield ImportRecord(exc.line or 1, None, [ImportProblem("textproto", str(exc))], source=path.name)
            return
        set_code = n.nfkc((message.first("metadata") or Message()).first("pack_name", ""))
        infos = cards_of(message)
        if not infos:
            yield ImportRecord(1, None, [ImportProblem("textproto", "no info { ... } card blocks")], source=path.name)
        for number, info in enumerate(infos, start=1):
            card, problems, printings = convert(info, set_code)
            yield ImportRecord(number, card, problems, printings, source=path.name)


register(ChaosTextproto())
