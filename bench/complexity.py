"""Function size and cyclomatic complexity per layer (radon), for the architecture targets.

    .venv/bin/python bench/complexity.py            # table per layer: longest function, most complex
    .venv/bin/python bench/complexity.py --over 60 15   # every function over 60 lines or complexity 15

Layers: ``rules`` (shared modules and game packages, without the engines' turn scripts),
``rules engines`` (``rules/**/engine*`` and ``rules/<game>/turn.py``-style turn scripts), and the
Django apps ``catalog``, ``decks``, ``playtest``, ``accounts`` and ``config``. Migrations and tests
are left out.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parent.parent
APPS = ("catalog", "decks", "playtest", "accounts", "config")


def layer_of(path: Path) -> str | None:
    rel = path.relative_to(ROOT)
    top = rel.parts[0]
    if "migrations" in rel.parts:
        return None
    if top == "rules":
        is_engine = "engine" in rel.parts or rel.stem.startswith("engine") or rel.stem in ("turn", "state", "pilot")
        return "rules engines" if is_engine else "rules"
    return top if top in APPS else None


def functions(path: Path) -> list[tuple[str, int, int]]:
    """``(qualified name, lines, complexity)`` of every function and method in the file."""
    out = []
    for block in cc_visit(path.read_text(encoding="utf-8")):
        if hasattr(block, "methods"):  # a class: radon lists its methods as functions of their own
            continue
        for f in (block,):
            name = f"{f.classname}.{f.name}" if getattr(f, "classname", None) else f.name
            out.append((name, f.endline - f.lineno + 1, f.complexity))
            for inner in getattr(f, "closures", []):
                out.append((f"{name}.{inner.name}", inner.endline - inner.lineno + 1, inner.complexity))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--over", nargs=2, type=int, metavar=("LINES", "CC"), help="list functions over these limits")
    args = ap.parse_args()
    table: dict[str, list[tuple[str, str, int, int]]] = {}
    for path in sorted(ROOT.glob("*/**/*.py")):
        layer = layer_of(path)
        if layer is None:
            continue
        for name, lines, cc in functions(path):
            table.setdefault(layer, []).append((str(path.relative_to(ROOT)), name, lines, cc))
    if args.over:
        max_lines, max_cc = args.over
        for layer, rows in sorted(table.items()):
            for file, name, lines, cc in sorted(rows, key=lambda r: -r[3]):
                if lines > max_lines or cc > max_cc:
                    print(f"{layer:<14} {file}:{name}  {lines} lines, complexity {cc}")
        return 0
    print(f"{'layer':<14} {'functions':>9}  {'longest function':<58} {'most complex function':<58}")
    for layer, rows in sorted(table.items()):
        longest = max(rows, key=lambda r: r[2])
        worst = max(rows, key=lambda r: r[3])
        print(f"{layer:<14} {len(rows):>9}  {longest[0] + ':' + longest[1] + f' ({longest[2]} lines)':<58} "
              f"{worst[0] + ':' + worst[1] + f' (cc {worst[3]})':<58}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
