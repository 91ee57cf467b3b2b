"""Instructions per goldfish game, counted by callgrind: a figure that does not move with the load
of a shared machine (timings there scatter by ±20 % and more), to compare two versions of an engine.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/cg.out \\
        .venv/bin/python bench/goldfish_callgrind.py --lycee-real --games 300
    PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/cg.out \\
        .venv/bin/python bench/goldfish_callgrind.py --game lycee --deck lycee-snow-moon --games 300

The deck's first 20 games are played unmeasured (caches warm, abilities compiled), then callgrind's
instrumentation is switched on (``callgrind_control -i on``) for ``--games`` more games and off
again; valgrind's ``Collected :`` line divided by ``--games`` is the figure. Outside callgrind the
script only plays the games.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.engine.core import get_engine, run_games  # noqa: E402


def _instrument(on: bool) -> None:
    if os.environ.get("LD_PRELOAD", "").find("vgpreload") >= 0:  # running under valgrind
        subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(os.getpid())],
                       stdout=subprocess.DEVNULL, check=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--lycee-real", action="store_true", help="the real Lycee Overture deck of one title")
    ap.add_argument("--game", help="a game's sample decks (fixtures/decks/<game>-*.txt)")
    ap.add_argument("--deck", help="with --game: the sample deck's name (e.g. lycee-snow-moon)")
    args = ap.parse_args(argv)
    options: dict = {}
    if args.lycee_real:
        from bench.lycee_real import title_deck

        _, deck = title_deck()
    else:
        from bench.goldfish import load_fixture_decks

        decks, records = load_fixture_decks(args.game)
        engine = get_engine(args.game)
        options = engine.catalog_options(records) if engine.catalog_options else {}
        deck = dict(decks)[args.deck]
    run_games(deck, args.seed, range(20), options=options)
    _instrument(True)
    run_games(deck, args.seed, range(20, 20 + args.games), options=options)
    _instrument(False)
    print(f"{args.games} games measured", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
