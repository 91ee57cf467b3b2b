"""Fingerprints of goldfish games, one per deck, for comparing the compiled engines with the plain ones
(``tests/test_native.py``): SHA-256 over ``repr`` of every game's result and, for the first games, the
whole event log. Run as a script it prints ``{"summary": ..., "decks": {name: digest}}`` as JSON
(``RULES_PURE_PYTHON=1`` makes that process run the plain Python engines)."""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def decks() -> list[tuple[str, object, dict]]:
    """Every sample deck of every engine, and the real Lycee title deck and Chaos trial deck when
    ``../shared/carddata`` is here."""
    from bench.goldfish import load_fixture_decks
    from rules import games
    from rules.engine.core import get_engine

    out: list[tuple[str, object, dict]] = []
    for game in games.GAMES:
        engine = get_engine(game)
        sample, records = load_fixture_decks(game)
        options = engine.catalog_options(records) if engine.catalog_options else {}
        out += [(name, deck, options) for name, deck in sample]
    if (ROOT.parent / "shared" / "carddata" / "lycee").is_dir():
        from bench.lycee_real import title_deck

        out.append(("lycee-real", title_deck()[1], {}))
    from bench.realdata import CHAOS_TRIAL, chaos_trial_deck

    if CHAOS_TRIAL.is_file():
        out.append(("chaos-real-trial", chaos_trial_deck(), {}))
    return out


def fingerprints(games: int = 400, logged: int = 40, seed: str = "native") -> dict[str, str]:
    from rules.engine.core import _Run

    out = {}
    for name, deck, options in decks():
        run = _Run(deck, options, None)
        h = hashlib.sha256()
        for i in range(games):
            result, log = run.play(seed, i, i < logged)
            h.update(repr(result).encode())
            if log is not None:
                h.update(json.dumps(log.as_list(), ensure_ascii=False, default=str, sort_keys=True).encode())
        out[name] = h.hexdigest()
    return out


if __name__ == "__main__":
    from rules import native

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    prints = fingerprints(games)
    print(json.dumps({"summary": native.summary(), "decks": prints}))
