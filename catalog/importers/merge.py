"""Merging a second source into cards already in the catalog, by card code (pure, no database).

``merge_card(existing, incoming)`` returns the merged card and the field disagreements between the
two sources — the data-quality report a curator acts on. Rules:

- a field empty on one side takes the other side's value (no disagreement);
- **names** (WS copy limits go by name): when one name is the other plus more (one source carries
  only the title part, ``優等生の委員長``, the other the full name, ``優等生の委員長 沢井麻耶``), the full
  name is kept and the difference reported as ``name_title_only``; names that differ only in
  spacing or width (``&``/``＆``) keep the existing spelling and are reported as ``name_spacing``;
  any other difference keeps the existing name and is reported as ``name``;
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

from dataclasses import dataclass
from typing import Any

from .normalize import squash, text_key

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
        return f"sources disagree on {self.field}: kept {self.kept!r}, other source has {self.other!r}"


def _name_key(name: str) -> str:
    return squash(name)


def merge_name(existing: str, incoming: str) -> tuple[str, str | None]:
    """(kept name, disagreement kind or None)."""
    if existing == incoming or not incoming:
        return existing, None
    if not existing:
        return incoming, None
    a, b = _name_key(existing), _name_key(incoming)
    if a == b:
        return existing, "name_spacing"
    if b.startswith(a):
        return incoming, "name_title_only"
    if a.startswith(b):
        return existing, "name_title_only"
    return existing, "name"


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
            kept, kind = merge_name(old or "", new or "")
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
            if sorted(map(str, old)) != sorted(map(str, new)):
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
    """United printings by (code, rarity); an image URL fills an empty one."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for p in [*existing, *incoming]:
        key = (p.get("code", ""), p.get("rarity", ""))
        if key in out:
            if not out[key].get("image_url") and p.get("image_url"):
                out[key] = {**out[key], "image_url": p["image_url"]}
        else:
            out[key] = dict(p)
    return list(out.values())
