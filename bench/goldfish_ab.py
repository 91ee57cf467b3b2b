"""Goldfish speed of several trees of the project in one sitting, alternated (old, new, old, new...).

    git worktree add --detach /tmp/old <commit>
    .venv/bin/python bench/goldfish_ab.py --game chaos --rounds 7 /tmp/old .

Each round runs ``bench/goldfish.py --json`` (``--games``, ``--repeat``) in every tree in turn, in a
fresh process with that tree's code; the best games/s of all rounds is kept per tree and deck, and
the ratios to the first tree are printed, after the line saying how each tree's engines ran
(compiled by ``rules.native`` or plain Python). On a shared machine the load changes by the minute:
alternating and keeping the best of many rounds is what makes the trees comparable.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trees", nargs="+", type=Path, help="project trees (the first is the reference)")
    ap.add_argument("--game", default="chaos")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--lycee-real", action="store_true", help="the real Lycee title deck instead of --game")
    args = ap.parse_args(argv)
    best: dict[tuple[Path, str], float] = {}
    engines: dict[Path, str] = {}
    which = ["--lycee-real"] if args.lycee_real else ["--game", args.game]
    for _ in range(args.rounds):
        for tree in args.trees:
            out = subprocess.run(
                [sys.executable, "bench/goldfish.py", *which, "--games", str(args.games),
                 "--repeat", str(args.repeat), "--json"], cwd=tree, capture_output=True, text=True, check=True).stdout
            for row in json.loads(out):
                key = (tree, row["deck"])
                best[key] = max(best.get(key, 0.0), row["games_per_second"])
                engines[tree] = row.get("engines", "plain Python (a tree before rules.native)")
    for tree in args.trees:
        print(f"{tree}: {engines[tree]}")
    for deck in sorted({d for _, d in best}):
        base = best[(args.trees[0], deck)]
        print(deck, "  ".join(f"{t}: {best[(t, deck)]:,.0f} ({best[(t, deck)] / base:.3f})" for t in args.trees))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
