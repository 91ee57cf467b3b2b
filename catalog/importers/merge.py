"""Merging a second source into cards already in the catalog, by card code (pure, no database).

``merge_card(existing, incoming)`` returns the merged card and the field disagreements between the
two sources — the data-quality report a curator acts on. Rules:

- a field empty on one side takes the other side's value (no disagreement);
- **names** (WS copy limits go by name): when one name is the other plus more (one source carries
  only the title part, ``優等生の委員長``, the other the full name, ``優等生の委員長 沢井麻耶``), the full
  name is kept and the difference reported as ``name_title_only`` — unless the more is Latin
  letters glued on by the source that has an English name (``“超電磁砲”美琴“Railgun”``): then the
  shorter name is kept (``name_english``); a trailing bracketed part only one source has is the
  printing's marker (``活発なネロ(おやつを…)``): the name without it is kept (``name_marker``, and the
  caller puts the marker on that source's printings); names that differ only in spacing or width
  (``&``/``＆``) keep the existing spelling and are reported as ``name_spacing``; any other difference
  keeps the existing name and is reported as ``name``;
- WS climax **trigger icons**: when the stored icons disagree with the card's reminder text and the
  incoming ones agree with it, the incoming ones are taken (``triggers_reminder``);
- text and flavour are compared ignoring whitespace, width, punctuation and brackets
  (``normalize.text_key``); if they still differ, the existing one is kept and the difference reported;
- when the two give different card types, nothing is filled in (every difference is reported);
- ``translations`` are united per language and part (``name``/``text``/``flavor``): a language or a
  part missing on one side is filled from the other (no disagreement); the same part given
  differently (texts compared as above, names ignoring spacing and width) keeps the existing one and
  is reported with the field ``translations.<language>.<part>``;
- ``alt_names`` are united; list fields are compared as sets; the card-level ``rarity`` is not
  compared (the printings carry each rarity); every other field: existing value kept, difference
  reported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .normalize import squash, text_key, ws_reminder_conflict

_EMPTY = (None, "", [], (), {})
_TEXT_FIELDS = {"text", "flavor"}
# Bookkeeping fields never compared.
_IGNORED = {"game", "code", "alt_names", "text_modelled", "effects", "counter", "rarity"}


@dataclass(frozen=True)
class Disagreement:
    code: str
    field: str
    kind: str  # name_title_only / name_spacing / name / value
    kept: Any
    other: Any

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "field": self.field, "kind": self.kind, "kept": self.kept, "other": self.other}

    @property
    def message(self) -> str:
        if self.kind == "name_title_only":
            return f"one source has only the title part {self.other!r}; kept the full name {self.kept!r}"
        if self.kind == "name_english":
            return f"one source glued the English name on {self.other!r}; kept {self.kept!r}"
        if self.kind == "name_marker":
            return f"one source adds a printing marker to the name ({self.other!r}); kept {self.kept!r}"
        if self.kind == "triggers_reminder":
            return f"the reminder text and the other source say {self.kept!r}; replaced {self.other!r}"
        return f"sources disagree on {self.field}: kept {self.kept!r}, other source has {self.other!r}"


def _name_key(name: str) -> str:
    return squash(name)


# A trailing bracketed part one source adds to a name the other gives without it: a printing's
# marker (``サイコキネシス(ピンク色)``, ``活発なネロ(おやつを食べてきたからバッチリだよ)``).
_TRAILING_NOTE = re.compile(r"\s*\((?P<note>[^()]+)\)\s*$")


def word_spaces(name: str) -> int:
    """Spaces between two letters or digits (``優等生の委員長 沢井麻耶``: 1); a space next to a sign
    (``“頂の座” ヘカテー``, ``ル・ ブラン``) is not counted."""
    return len(re.findall(r"(?<=\w)\s+(?=\w)", name))


def _latin_only(extra: str) -> bool:
    """English words and no Japanese letter: an English name glued on, not the rest of a name
    (``TK`` in ``陽気なダンサーTK`` is a name, written in capitals)."""
    return any(c.isascii() and c.islower() for c in extra) and not any(
        c.isalpha() and not c.isascii() and not ("À" <= c <= "ÿ") for c in extra)


def name_marker(long: str, short: str) -> str:
    """The marker ``long`` adds to ``short`` (``'活発なネロ(…)'``, ``'活発なネロ'`` → ``'…'``), else ``''``."""
    m = _TRAILING_NOTE.search(long)
    return m["note"].strip() if m and m.start() > 0 and _name_key(long[: m.start()]) == _name_key(short) else ""


def merge_name(existing: str, incoming: str, english: tuple[bool, bool] = (False, False)) -> tuple[str, str | None]:
    """(kept name, disagreement kind or None). ``english``: whether the existing / incoming card
    carries an English name (the source that has one is the one that may glue it on its name)."""
    if existing == incoming or not incoming:
        return existing, None
    if not existing:
        return incoming, None
    a, b = _name_key(existing), _name_key(incoming)
    if a == b:
        # the spelling with a space between words is the printed one: sources drop spaces, not add them
        return (incoming if word_spaces(incoming) > word_spaces(existing) else existing), "name_spacing"
    if name_marker(existing, incoming):
        return incoming, "name_marker"
    if name_marker(incoming, existing):
        return existing, "name_marker"
    if b.startswith(a):
        # ``“超電磁砲”美琴`` + ``“超電磁砲”美琴“Railgun”``: English glued on by the source that has it
        glued = english[1] and _latin_only(incoming[len(existing):]) and not incoming[len(existing):][:1].isspace()
        return (existing, "name_english") if glued else (incoming, "name_title_only")
    if a.startswith(b):
        # (a stored name is never shortened on these grounds: its English may come from another source)
        return existing, "name_title_only"
    return existing, "name"


def _has_english_name(card: dict[str, Any]) -> bool:
    return bool(((card.get("translations") or {}).get("en") or {}).get("name"))


def _reminder_triggers(existing: dict[str, Any], incoming: dict[str, Any]) -> bool:
    """True when the incoming WS climax's trigger icons agree with its reminder text and the stored
    ones do not (two of three say so: take the incoming icons)."""
    if existing.get("game") != "ws" or existing.get("card_type") != "climax":
        return False
    text = existing.get("text") or incoming.get("text") or ""
    return bool(ws_reminder_conflict("climax", list(existing.get("triggers") or []), text)
                and not ws_reminder_conflict("climax", list(incoming.get("triggers") or []), text))


def merge_translations(code: str, existing: dict[str, Any], incoming: dict[str, Any],
                       found: list[Disagreement]) -> dict[str, Any]:
    """United translations (see the module docstring); disagreements are appended to ``found``."""
    merged = {lang: dict(parts) for lang, parts in existing.items()}
    for lang, parts in incoming.items():
        have = merged.setdefault(lang, {})
        for part, new in parts.items():
            old = have.get(part)
            if not old:
                if new:
                    have[part] = new
                continue
            if not new or old == new:
                continue
            same = _name_key(old) == _name_key(new) if part == "name" else text_key(str(old)) == text_key(str(new))
            if not same:
                found.append(Disagreement(code, f"translations.{lang}.{part}", "value", old, new))
    return {lang: parts for lang, parts in merged.items() if parts}


def merge_card(existing: dict[str, Any], incoming: dict[str, Any]) -> tuple[dict[str, Any], list[Disagreement]]:
    """Merge ``incoming`` (a second source's card) into ``existing``; see the module docstring."""
    merged = dict(existing)
    code = existing.get("code") or incoming.get("code") or ""
    found: list[Disagreement] = []
    # Sources that disagree on the card type describe different cards: report, fill nothing.
    other_type = bool(existing.get("card_type") and incoming.get("card_type")
                      and existing["card_type"] != incoming["card_type"])
    for key, new in incoming.items():
        old = existing.get(key)
        if old == new and key != "name":
            continue
        if key == "alt_names":
            names = list(dict.fromkeys([*(old or []), *(new or [])]))
            merged[key] = names
            continue
        if key == "translations" and not other_type:
            merged[key] = merge_translations(code, old or {}, new or {}, found)
            continue
        if key == "name":
            kept, kind = merge_name(old or "", new or "", (_has_english_name(existing), _has_english_name(incoming)))
            merged["name"] = kept
            if kind:
                other = new if kept == old else old
                found.append(Disagreement(code, "name", kind, kept, other))
            continue
        if new in _EMPTY and key not in ("counter", "text_modelled"):
            continue
        if old in _EMPTY or old is None:
            if other_type:
                found.append(Disagreement(code, key, "value", old, new))
            else:
                merged[key] = new
            continue
        if key in _IGNORED:
            if key == "counter":
                merged[key] = bool(old) or bool(new)
            continue
        if key in _TEXT_FIELDS:
            if old != new and text_key(str(old)) != text_key(str(new)):
                found.append(Disagreement(code, key, "value", old, new))
            continue
        if isinstance(old, list) and isinstance(new, list):
            if key == "triggers" and not other_type and _reminder_triggers(existing, incoming):
                merged[key] = new
                found.append(Disagreement(code, key, "triggers_reminder", new, old))
            elif sorted(map(str, old)) != sorted(map(str, new)):
                found.append(Disagreement(code, key, "value", old, new))
            continue
        if old != new:
            found.append(Disagreement(code, key, "value", old, new))
    # The other name of a card whose names really differ is kept as an alternate name, so a
    # search by either finds it.
    for d in found:
        if d.field == "name" and d.kind == "name" and d.other not in merged.setdefault("alt_names", []):
            merged["alt_names"] = [*merged["alt_names"], d.other]
    if merged.get("name") in merged.get("alt_names", []):
        merged["alt_names"] = [a for a in merged["alt_names"] if a != merged["name"]]
    return merged, found


def merge_printings(existing: list[dict[str, Any]], incoming: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """United printings by (code, rarity); an image URL or a marker fills an empty one."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for p in [*existing, *incoming]:
        key = (p.get("code", ""), p.get("rarity", ""))
        if key in out:
            for extra in ("image_url", "marker"):
                if not out[key].get(extra) and p.get(extra):
                    out[key] = {**out[key], extra: p[extra]}
        else:
            out[key] = dict(p)
    return list(out.values())


# -- names cut short in one source --------------------------------------------------------------

@dataclass(frozen=True)
class NameRepair:
    """A card whose name is repaired from the other printings of the same card."""

    code: str
    old: str
    new: str
    sources: tuple[str, ...]  # the codes whose name was taken
    kind: str  # name_cut_short / name_spacing

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "field": "name", "kind": self.kind, "old": self.old, "new": self.new,
                "from": list(self.sources)}

    @property
    def message(self) -> str:
        what = "cut short" if self.kind == "name_cut_short" else "spaced differently"
        return f"name {self.old!r} {what}; repaired to {self.new!r} from {', '.join(self.sources)}"


def same_card_key(card: dict[str, Any]) -> tuple[Any, ...]:
    """What printings of one card share: type, stats, colours, trigger icons, traits and text
    (compared as ``text_key``). Two codes with the same key are printings of one card."""
    return (card.get("card_type"), card.get("level"), card.get("cost"), card.get("power"), card.get("soul"),
            tuple(sorted(card.get("colors") or ())), tuple(sorted(card.get("triggers") or ())),
            tuple(sorted(card.get("traits") or ())), text_key(card.get("text") or ""))


def _cut_short(short: str, long: str, card: dict[str, Any]) -> bool:
    """``long`` is ``short`` with its end restored: the rest starts after a space (AlphaC2 cuts its
    names at the first space: ``結弦の心臓`` for ``結弦の心臓 かなで``), or — on a character with a text,
    whose text and stats leave no doubt — right after it (``朝礼`` / ``朝礼小鳥``). A climax or event
    shares a standard text with cards of other names (``I`` / ``IQ爆上げ``): only the first rule."""
    if len(long) <= len(short) or not long.startswith(short) or not short.strip():
        return False
    rest = long[len(short):]
    if rest.lstrip().startswith(("(", "（")) or long.count("(") != long.count(")"):
        return False  # a printing's marker (``活発なネロ(…)``), or a broken name (``ちび葵(``)
    if rest[0].isspace():
        return True
    return card.get("card_type") == "character" and bool(text_key(card.get("text") or "")) and len(short) >= 2


def repair_names(cards: list[dict[str, Any]]) -> list[NameRepair]:
    """The names to repair among ``cards`` (dicts with ``code``, ``name`` and the ``same_card_key``
    fields), one repair per card: names of one card that differ only in spacing take the spelling with
    the most spaces between words (``word_spaces``; the printed one: sources drop spaces, not add
    them); then a name cut short takes
    the full name of the other printings of the same card, when they agree on one (several different
    full names: left alone)."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for card in cards:
        if card.get("name"):
            groups.setdefault(same_card_key(card), []).append(card)
    repairs: list[NameRepair] = []
    for members in groups.values():
        if len({c["name"] for c in members}) < 2:
            continue
        name = {c["code"]: c["name"] for c in members}
        kinds: dict[str, str] = {}
        by_key: dict[str, list[str]] = {}
        for c in members:
            by_key.setdefault(_name_key(c["name"]), []).append(c["name"])
        for c in members:
            best = max(by_key[_name_key(c["name"])], key=word_spaces)
            if word_spaces(best) > word_spaces(c["name"]):
                name[c["code"]], kinds[c["code"]] = best, "name_spacing"
        names = set(name.values())
        for c in members:
            longer = {n for n in names if _cut_short(name[c["code"]], n, c)}
            full = max(longer, key=len) if longer else ""
            if full and all(full.startswith(n) for n in longer):
                name[c["code"]], kinds[c["code"]] = full, "name_cut_short"
        for c in members:
            new = name[c["code"]]
            if new != c["name"]:
                sources = tuple(sorted(m["code"] for m in members if m["name"] == new)) or tuple(
                    sorted(code for code, n in name.items() if n == new and code != c["code"]))
                repairs.append(NameRepair(c["code"], c["name"], new, sources, kinds[c["code"]]))
    return sorted(repairs, key=lambda r: r.code)
