"""Goldfish engine speed, per game, on one core.

    .venv/bin/python bench/goldfish.py                 # every registered engine, every sample deck
    .venv/bin/python bench/goldfish.py --games 5000 --repeat 5 --game ws
    .venv/bin/python bench/goldfish.py --deck ../shared/carddata/weiss_schwarz/decks/rcyberw/Sara.txt
    .venv/bin/python bench/goldfish.py --real-decks    # the 14 real WS decks of ../shared/carddata
    .venv/bin/python bench/goldfish.py --lycee-real    # a legal real Lycee Overture deck of one title

For each game with an engine package (``rules/<game>/engine/``) and each sample deck
``fixtures/decks/<game>-*.txt`` (cards from ``fixtures/cards/<game>.json``, no database), prints:

- games/s: goldfish games per CPU-second of this one process (``time.process_time``, best of
  ``--repeat`` runs, so other load on the machine inflates the figure as little as possible);
- µs/game and the shuffle floor: the time of only creating each game's RNG and shuffling a copy of
  the deck with ``random.shuffle`` that many times — the irreducible work of any pure-Python
  simulation of these games;
- ratio: engine time / shuffle-floor time.

Engines are found through ``rules.engine.core.get_engine``, so a new game's engine is measured as
soon as its package and its sample decks exist.

``--deck FILE`` (repeatable) measures a real Weiß Schwarz deck file (``CODE RARITY`` lines or the
AlphaC2 ``<deck>`` XML) with the real cards of ``../shared/carddata/weiss_schwarz/`` read straight
from the sources by the catalog's importers, no database (``bench/realdata.py``); codes no source
has are left out and named. ``--real-decks`` measures every real deck there. ``--option k=v``
passes engine options (e.g. ``dummy_pressure=off``). ``--lycee-real`` measures the legal real
60-card Lycee Overture deck of one title that ``bench/lycee_real.py`` builds from
``../shared/carddata/lycee/``.

The engines run as this process finds them: compiled when ``python -m rules.native build`` has
compiled today's sources (``./dev`` does), else plain Python; the second line says which (set
``RULES_PURE_PYTHON=1`` to measure the plain ones).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules import games as g  # noqa: E402
from rules import native  # noqa: E402
from rules.cards import CardRecord  # noqa: E402
from rules.decktext import parse_deck_text  # noqa: E402
from rules.engine.core import Deck, game_rng, get_engine, run_games  # noqa: E402


def load_fixture_decks(game: str) -> tuple[list[tuple[str, Deck]], list[CardRecord]]:
    cards_file = ROOT / "fixtures" / "cards" / f"{game}.json"
    if not cards_file.exists():
        return [], []
    data = json.loads(cards_file.read_text(encoding="utf-8"))
    records = [CardRecord.from_dict(c, game=game) for c in data["cards"]]
    by_code = {r.code: r for r in records}
    decks = []
    for path in sorted((ROOT / "fixtures" / "decks").glob(f"{game}-*.txt")):
        parsed = parse_deck_text(path.read_text(encoding="utf-8"))
        if parsed.errors:
            raise SystemExit(f"{path}: line {parsed.errors[0].line}: {parsed.errors[0].message}")
        counts: dict[str, dict[str, int]] = {}
        for e in parsed.entries:
            zone = counts.setdefault(e.zone, {})
            zone[e.code] = zone.get(e.code, 0) + e.count
        missing = {c for z in counts.values() for c in z} - set(by_code)
        if missing:
            raise SystemExit(f"{path}: codes not in {cards_file.name}: {', '.join(sorted(missing))}")
        decks.append((path.stem, Deck.from_counts(game, counts, by_code)))
    return decks, records


def shuffle_floor(deck: Deck, games: int, seed: str) -> float:
    t0 = time.process_time()
    main = deck.main
    for i in range(games):
        rng = game_rng(seed, i)
        cards = list(main)
        rng.shuffle(cards)
    return time.process_time() - t0


def best_of(repeat: int, fn) -> float:
    return min(fn() for _ in range(repeat))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--game", action="append", choices=list(g.GAMES), help="only these games")
    ap.add_argument("--target", type=float, default=2000.0, help="games/s per core to reach (marks misses with *)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--deck", action="append", default=[], help="a real WS deck file (repeatable)")
    ap.add_argument("--real-decks", action="store_true", help="every real WS deck of ../shared/carddata")
    ap.add_argument("--option", action="append", default=[], help="engine option key=value (repeatable)")
    ap.add_argument("--lycee-real", action="store_true", help="the real Lycee Overture deck of one title")
    args = ap.parse_args(argv)
    extra = dict(o.split("=", 1) for o in args.option)
    rows = []
    if args.lycee_real:
        from bench.lycee_real import title_deck

        title, deck = title_deck()
        rows.append(_measure("lycee", f"real: {title}", deck, extra, args))
    if args.deck or args.real_decks:
        from bench.realdata import ws_deck, ws_real_decks

        paths = [Path(p) for p in args.deck] + (ws_real_decks() if args.real_decks else [])
        for path in paths:
            deck = ws_deck(path, skip_unknown=True)
            if len(deck.main) < 20:
                print(f"{path.name}: {len(deck.main)} known cards, skipped", file=sys.stderr)
                continue
            rows.append(_measure("ws", path.stem, deck, extra, args))
    for game in ([] if args.deck or args.real_decks or args.lycee_real else args.game or g.GAMES):
        try:
            engine = get_engine(game)
        except KeyError:
            print(f"{game:<10} no engine package yet", file=sys.stderr)
            continue
        decks, records = load_fixture_decks(game)
        if not decks:
            print(f"{game:<10} no sample decks in fixtures/decks/", file=sys.stderr)
            continue
        options = {**(engine.catalog_options(records) if engine.catalog_options else {}), **extra}
        for name, deck in decks:
            rows.append(_measure(game, name, deck, options, args))
    engines = native.summary()  # compiled (rules.native) or plain Python, and why
    if args.json:
        print(json.dumps([{**r, "engines": engines} for r in rows], indent=2))
        return 0
    print(f"goldfish engines, one core, {args.games} games, best of {args.repeat}, Python {sys.version.split()[0]}")
    print(engines)
    print(f"{'game':<10} {'deck':<28} {'games/s':>9} {'µs/game':>9} {'shuffle µs':>11} {'ratio':>7}")
    for r in rows:
        miss = " *" if r["games_per_second"] < args.target else ""
        print(f"{r['game']:<10} {r['deck']:<28} {r['games_per_second']:>9,.0f} {r['us_per_game']:>9.0f} "
              f"{r['shuffle_us_per_deck']:>11.1f} {r['ratio']:>7.1f}{miss}")
    if any(r["games_per_second"] < args.target for r in rows):
        print(f"* below the target of {args.target:,.0f} games/s on this run")
    return 0


def _measure(game: str, name: str, deck: Deck, options: dict, args: argparse.Namespace) -> dict:
    run_games(deck, args.seed, range(50), options=options)  # warm caches (and compile the deck's abilities)
    t_engine = best_of(args.repeat, lambda: _timed(run_games, deck, args.seed, range(args.games), options))
    t_shuffle = best_of(args.repeat, lambda: shuffle_floor(deck, args.games, args.seed))
    return {
        "game": game, "deck": name, "games": args.games,
        "games_per_second": args.games / t_engine,
        "us_per_game": 1e6 * t_engine / args.games,
        "shuffle_us_per_deck": 1e6 * t_shuffle / args.games,
        "ratio": t_engine / t_shuffle,
    }


def _timed(fn, *args) -> float:
    t0 = time.process_time()
    fn(*args)
    return time.process_time() - t0


if __name__ == "__main__":
    random.seed(0)  # nothing should use it; the engines have their own RNGs
    raise SystemExit(main())
