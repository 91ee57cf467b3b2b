"""Golden outputs that pin behaviour across refactors (the game-modules issue).

``capture()`` computes, from the invented sample catalog loaded into the test database:

- ``goldfish``: ``manage.py goldfish --json`` for every sample deck of every game (2,000 games,
  seed ``golden``) and the event log of game 0 of each deck;
- ``validation``: ``POST /api/v1/decks/validate/`` for every sample deck and for broken decks
  derived from them (mutations chosen so that every error and warning code appears at least once);
- ``search``: ``GET /api/v1/cards/`` for a fixed list of queries and a few card-detail pages.

``python tests/golden/capture.py`` (with ``DJANGO_SETTINGS_MODULE=config.settings``) is not how it
is run: ``pytest tests/test_golden.py --golden-write`` rewrites the stored files, and a plain run
compares byte for byte. Timing fields are dropped before comparing.
"""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent.parent
DECKS = ROOT / "fixtures" / "decks"
GOLDEN_DIR = Path(__file__).resolve().parent
GAMES_PER_DECK = 2000
SEED = "golden"
TIMING_KEYS = {"elapsed", "elapsed_s", "seconds", "games_per_second", "duration"}

SEARCH_QUERIES = [
    "", "game:ws", "game:pc", "game:phantasma", "game:chaos", "game:lycee",
    "game:ws level>=2 order:level", "game:ws t:climax", "game:ws trigger:soul", "game:ws c:red",
    "game:pc cost<=2", "game:pc c:blue t:character", "(game:ws or game:pc) c:red -t:event order:cost",
    "game:lycee attr:snow", "game:lycee dp>=3 -slot:AF-L", "game:chaos t:extra", "game:phantasma t:ex_skill",
    "name:runner", "o:draw", "o:/dra.?w/", "game:ws order:name direction:desc", "night", "ナイト",
    "code:NOC", "game:chaos gender:female", "game:lycee keyword:supporter", "power>=5000",
]
CARD_DETAILS = [("ws", "NOC/S90-001"), ("chaos", "MA-001"), ("phantasma", "HS-001")]


def _strip_timing(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_timing(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [_strip_timing(v) for v in value]
    return value


def sample_decks() -> list[tuple[str, Path]]:
    return [(p.stem.split("-", 1)[0], p) for p in sorted(DECKS.glob("*.txt"))]


def goldfish_outputs() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game, path in sample_decks():
        buf = io.StringIO()
        call_command("goldfish", "--game", game, "--deck", str(path), "--games", str(GAMES_PER_DECK),
                     "--seed", SEED, "--json", stdout=buf, stderr=io.StringIO())
        out[path.stem] = _strip_timing(json.loads(buf.getvalue()))
        buf = io.StringIO()
        call_command("goldfish", "--game", game, "--deck", str(path), "--seed", SEED, "--log", "0",
                     "--json", stdout=buf, stderr=io.StringIO())
        out[path.stem + ":log0"] = json.loads(buf.getvalue())
    return out


def _card_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines()) if line[:1].isdigit()]


def broken_decks() -> dict[str, tuple[str, str]]:
    """Mutations of the sample decks: ``{name: (game, text)}``."""
    decks = {p.stem: (game, p.read_text(encoding="utf-8")) for game, p in sample_decks()}
    other_game_code = {"ws": "MA-001", "pc": "NOC/S90-001", "phantasma": "NOC/S90-001",
                       "chaos": "NOC/S90-001", "lycee": "NOC/S90-001"}
    out: dict[str, tuple[str, str]] = {}
    for stem, (game, text) in decks.items():
        lines = text.splitlines()
        idx = _card_lines(text)
        first = idx[0]
        count, code = lines[first].split()[:2]
        drop = lines[:first] + lines[first + 1:]
        out[f"{stem}:drop_first"] = (game, "\n".join(drop))
        bump = list(lines)
        bump[first] = f"{int(count) + 3} {code}"
        out[f"{stem}:copies"] = (game, "\n".join(bump))
        out[f"{stem}:unknown"] = (game, text + "\n1 NOPE-999\n")
        out[f"{stem}:wrong_game"] = (game, text + f"\n1 {other_game_code[game]}\n")
        out[f"{stem}:parse"] = (game, text + "\nthree copies of something\n")
        for zone in ("extra", "ace", "ex", "partner"):
            out[f"{stem}:zone_{zone}"] = (game, text + f"\n# {zone}\n1 {code}\n")
        out[f"{stem}:main_only"] = (game, "\n".join(
            line for line in lines if not line.startswith("#") or line.strip() == "# main").split("# main", 1)[-1]
            if "# main" in text else text)
        swap = list(lines)
        for i in idx[-6:]:
            swap[i] = f"4 {lines[i].split()[1]}"
        out[f"{stem}:last_four"] = (game, "\n".join(swap))
        out[f"{stem}:big"] = (game, "\n".join(lines + [f"40 {code}"]))
    # the warnings no mutation above reaches
    ws = decks["ws-skylark"][1]
    out["ws-skylark:few_climaxes"] = ("ws", ws.replace("4 SKY/W90-021", "1 SKY/W90-021"))
    ph = decks["phantasma-hollow-shrine"][1]
    out["phantasma-hollow-shrine:costly_ace"] = ("phantasma", ph.replace("1 HS-006", "1 LV-011"))
    # attribute_unpayable cannot arise with the sample cards (each pays its own cost); test_construction covers it
    return out


def validation_outputs(client: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game, path in sample_decks():
        r = client.post("/api/v1/decks/validate/", {"game": game, "text": path.read_text(encoding="utf-8")},
                        content_type="application/json")
        out[path.stem] = {"status": r.status_code, "body": r.json()}
    for name, (game, text) in broken_decks().items():
        r = client.post("/api/v1/decks/validate/", {"game": game, "text": text}, content_type="application/json")
        out[name] = {"status": r.status_code, "body": r.json()}
    return out


def search_outputs(client: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for q in SEARCH_QUERIES:
        r = client.get("/api/v1/cards/", {"q": q, "page_size": 100})
        out[f"q={q}"] = {"status": r.status_code, "body": r.json()}
    for game, code in CARD_DETAILS:
        r = client.get(f"/api/v1/cards/{game}/{code}/")
        out[f"card={game}/{code}"] = {"status": r.status_code, "body": r.json()}
    return out


def dumps(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def capture(client: Any) -> dict[str, str]:
    """``{file name: text}`` of every golden file."""
    return {
        "goldfish.json": dumps(goldfish_outputs()),
        "validation.json": dumps(validation_outputs(client)),
        "search.json": dumps(search_outputs(client)),
    }
