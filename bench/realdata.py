"""The real Weiß Schwarz cards and decks of ``../shared/carddata/weiss_schwarz/`` (and the real Chaos
trial deck), without a database.

    from bench.realdata import WS_ROOT, ws_cards, ws_deck, ws_real_decks, chaos_trial_deck
    cards = ws_cards()                       # {card code: CardRecord}, both sources merged
    deck = ws_deck(WS_ROOT / "decks" / "rcyberw" / "Sara.txt", cards)

The cards go through the catalog's own importers (``catalog.importers.ws_jsonl`` then
``ws_hotc``, pure readers that never touch the database) and are merged the way ``import_cards``
merges them: the AlphaC2 lines first, the HOTC blocks merged in (``merge_card``: empty fields
filled, the first source's wording kept). Records an importer cannot read are skipped (as
``--allow-skips``). A deck file is any format ``rules.deckformats`` reads (``CODE RARITY`` lines,
the AlphaC2 ``<deck>`` XML); a printed code is resolved to its card through the printings.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from rules import games as g
from rules.cards import CARD_FIELDS, CardRecord
from rules.deckformats import parse_deck
from rules.engine.core import Deck

ROOT = Path(__file__).resolve().parent.parent
WS_ROOT = ROOT.parent / "shared" / "carddata" / "weiss_schwarz"
CHAOS_TRIAL = ROOT.parent / "shared" / "carddata" / "chaos" / "decks" / "IMT_trial_deck_ko.textproto"


def _read(importer: Any, path: Path) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    out = []
    for rec in importer.read(path, g.WS):
        if rec.card is not None and not any(not p.warning for p in rec.problems):
            out.append((rec.card, rec.printings))
    return out


@lru_cache(maxsize=4)
def _ws_cards(root: Path) -> tuple[dict[str, CardRecord], dict[str, str]]:
    from catalog.importers.merge import merge_card
    from catalog.importers.ws_hotc import WsHotc
    from catalog.importers.ws_jsonl import WsJsonLines

    merged: dict[str, dict[str, Any]] = {}
    printings: dict[str, str] = {}
    for importer, path in ((WsJsonLines(), root / "alphac2_jp"), (WsHotc(), root / "rcyberw_hotc_en_jp")):
        for card, prints in _read(importer, path):
            code = card["code"]
            merged[code] = merge_card(merged[code], card)[0] if code in merged else card
            for p in prints:
                printings.setdefault(p["code"], code)
    records: dict[str, CardRecord] = {}
    for code, card in merged.items():
        data = {k: v for k, v in card.items() if k in CARD_FIELDS}
        try:
            records[code] = CardRecord.from_dict(data, game=g.WS)
        except (ValueError, TypeError):
            continue
    return records, printings


def ws_cards(root: Path = WS_ROOT) -> dict[str, CardRecord]:
    """Every real WS card by code (both sources merged, AlphaC2 first)."""
    return _ws_cards(root)[0]


def ws_printings(root: Path = WS_ROOT) -> dict[str, str]:
    """Printed code → card code."""
    return _ws_cards(root)[1]


def ws_deck(path: Path, cards: dict[str, CardRecord] | None = None, root: Path = WS_ROOT,
            skip_unknown: bool = False) -> Deck:
    """A real deck file → a ``Deck`` of real cards; unknown codes raise ``KeyError`` naming them
    (``skip_unknown``: left out — ``Newspaper.txt`` uses 16 ``DC3/WE16`` codes no source has)."""
    cards = ws_cards(root) if cards is None else cards
    printings = ws_printings(root)
    parsed = parse_deck(path.read_text(encoding="utf-8"))
    if parsed.errors:
        raise ValueError(f"{path}: line {parsed.errors[0]['line']}: {parsed.errors[0]['message']}")
    counts: dict[str, dict[str, int]] = {}
    missing = []
    for zone, entries in parsed.zones.items():
        z = counts.setdefault(zone, {})
        for code, n in entries.items():
            real = code if code in cards else printings.get(code)
            if real is None or real not in cards:
                missing.append(code)
                continue
            z[real] = z.get(real, 0) + n
    if missing and not skip_unknown:
        raise KeyError(f"{path.name}: codes not in the real data: {', '.join(sorted(missing))}")
    return Deck.from_counts(g.WS, counts, cards)


def ws_real_decks(root: Path = WS_ROOT) -> list[Path]:
    """The real deck files (``decks/*/*``), sorted."""
    return sorted(p for p in (root / "decks").glob("*/*") if p.is_file())


def chaos_trial_deck(path: Path = CHAOS_TRIAL) -> Deck:
    """The real Chaos trial deck (its ``mainDeck`` and ``extraDeck`` entries carry the cards
    themselves), read by the catalog's ``chaos_textproto`` converter."""
    from catalog.importers.chaos_textproto import convert
    from rules.textproto import parse_textproto

    message = parse_textproto(path.read_text(encoding="utf-8"))
    zones = {key: tuple(CardRecord.from_dict(convert(info)[0]) for entry in message.all(zone)
                        for info in entry.all("info"))
             for zone, key in (("mainDeck", "main"), ("extraDeck", "extra"))}
    return Deck(game=g.CHAOS, main=zones["main"], zones={"extra": zones["extra"]})
