"""The real Lycee Overture cards (``../shared/carddata/lycee/lycee_overture_cards.jsonl``) as engine
records, read by the catalog's importer with no database, and a legal real 60-card deck of one
title built from them (used by ``tests/test_lycee_coverage.py`` and ``bench/goldfish.py
--lycee-real``).

The data records neither a card's work (title) nor its brand; a card is *known* to be of a work
when its own construction restriction (構築制限) confines the deck to that work. The deck is made
of such cards only: the work with the most cards that can form a legal 60-card deck together (no
restriction of one of them broken by the others: ``rules.lycee.construction``), four copies each
(a card's own copy limit when lower), in card-number order — leaving out, as a deck builder
would, the characters that cannot enter play by themselves (``※…以外で登場できない``, or one that
removes itself when it enters other than by another card's effect).
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rules.cards import CardRecord  # noqa: E402
from rules.construction import validate_deck  # noqa: E402
from rules.engine.core import Deck  # noqa: E402

JSONL = ROOT.parent / "shared" / "carddata" / "lycee" / "lycee_overture_cards.jsonl"


@cache
def lycee_records() -> tuple[CardRecord, ...]:
    """Every real Lycee Overture card as a ``CardRecord`` (the importer's conversion, no database)."""
    from catalog.importers.lycee_jsonl import convert

    out = []
    for line in JSONL.read_text(encoding="utf-8").splitlines():
        if line.strip():
            card, _, _ = convert(json.loads(line))
            if card is not None:
                out.append(CardRecord.from_dict(card))
    return tuple(out)


def _walk(rule: dict[str, Any]):
    yield rule
    for sub in rule.get("of", ()):
        yield from _walk(sub)


def title_candidates() -> dict[str, list[tuple[CardRecord, tuple[str, ...] | None]]]:
    """For each work: its cards whose restriction is that work alone, or that work and one
    attribute (``(card, attribute or None)``); characters that cannot enter play by themselves left
    out."""
    from rules.lycee.construction import card_restriction
    from rules.lycee.engine import info_of

    out: dict[str, list[tuple[CardRecord, tuple[str, ...] | None]]] = defaultdict(list)
    for card in lycee_records():
        if card.card_type == "character" and (info_of(card).enter_only_by or info_of(card).self_exiles):
            continue
        r = card_restriction(card)
        if r is None or r.rule is None or not r.parsed:
            continue
        entries = list(_walk(r.rule))
        titles = [e["name"] for e in entries if e["kind"] == "title"]
        attrs = [tuple(e["attributes"]) for e in entries if e["kind"] == "attribute"]
        other = [e for e in entries if e["kind"] not in ("title", "attribute", "all_of", "copy_limit")]
        if len(titles) != 1 or other or len(attrs) > 1:
            continue
        out[titles[0]].append((card, attrs[0] if attrs else None))
    return out


@cache
def title_deck() -> tuple[str, Deck]:
    """(work, deck): a legal 60-card deck of the work whose cards make one (module docstring)."""
    best: tuple[int, str, list[CardRecord]] | None = None
    for title, cards in sorted(title_candidates().items()):
        for attr in (None, "snow", "moon", "flower", "space", "sun"):
            chosen = [c for c, a in cards if (a is None if attr is None else a in (None, (attr,)) and attr in c.attributes)]
            copies = sum(min(4, c.copy_limit or 4) for c in chosen)
            if copies >= 60 and (best is None or len(chosen) > len(best[2])):
                best = (copies, title, chosen)
    if best is None:
        raise LookupError("no work of the real data makes a legal 60-card deck")
    _, title, chosen = best
    counts: dict[str, int] = {}
    left = 60
    for card in sorted(chosen, key=lambda c: c.code):
        n = min(4, card.copy_limit or 4, left)
        if n:
            counts[card.code] = n
            left -= n
    by_code = {c.code: c for c in chosen}
    report = validate_deck("lycee", {"main": counts}, by_code)
    if not report["valid"]:
        raise AssertionError(f"the {title} deck is not legal: {report['errors']}")
    return title, Deck.from_counts("lycee", {"main": counts}, by_code)


if __name__ == "__main__":
    work, deck = title_deck()
    print(f"『{work}』: {len(deck.main)} cards")
    for code in sorted({c.code for c in deck.main}):
        card = next(c for c in deck.main if c.code == code)
        print(f"{sum(1 for c in deck.main if c.code == code)} {code} {card.name}")
