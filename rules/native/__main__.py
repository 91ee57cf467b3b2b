"""``python -m rules.native build|status``: compile the engines' hot modules, or show how they run."""
from __future__ import annotations

import sys

from rules import native


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m rules.native", description=native.__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("build", "status"))
    ap.add_argument("--force", action="store_true", help="recompile everything")
    ap.add_argument("--verbose", action="store_true", help="show the compiler's output")
    args = ap.parse_args(argv)
    if args.command == "status":
        for module, state in native.status().items():
            print(f"{module:<36} {state}")
        return 0
    try:
        done = native.build(force=args.force, quiet=not args.verbose)
    except Exception as exc:  # no Cython, no C compiler, a compile error: the plain engines still run
        print(f"rules.native: the engines were not compiled ({type(exc).__name__}: {exc}); they run as plain "
              "Python — the same games, slower", file=sys.stderr)
        return 1
    if done:
        print(f"rules.native: compiled {len(done)} engine module(s) into {native.BUILD.relative_to(native.ROOT)}/", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
