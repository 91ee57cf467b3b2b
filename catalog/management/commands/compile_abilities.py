"""``manage.py compile_abilities --game ws|lycee|chaos|pc|phantasma|all [--report FILE]``.

Recompiles the printed text of every card of the game with the game's ability compiler
(``GameSpec.compile_text``) and refreshes the derived columns ``abilities``, ``effect_kinds`` (and
their ``effect:`` facets) and ``modelled`` (coverage by the game's goldfish engine) — see
``catalog.abilities``. Idempotent: only rows whose values change are written (batched), so a second
run writes nothing. Run it after a compiler or engine change, or after migrating an existing catalog.

Prints the coverage: ability instances compiled, cards fully compiled, cards fully modelled by the
engine, per ability the engine's statuses, the top unrecognised phrases; ``--report FILE`` writes it
all as JSON. A game without a compiler (pc, phantasma) only refreshes ``effect_kinds`` (its structured
effects) and ``modelled``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.abilities import catalog_compile
from rules import games as g


class Command(BaseCommand):
    help = "Recompile the cards' printed text into abilities and refresh effect kinds and engine coverage."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, choices=(*g.GAMES, "all"), help="game short code, or all")
        parser.add_argument("--report", metavar="FILE", help="write the coverage report as JSON")
        parser.add_argument("--top", type=int, default=15, help="unrecognised phrases to print (default 15)")
        parser.add_argument("--batch", type=int, default=2000, help="cards per batch (default 2000)")

    def handle(self, *args: Any, **opts: Any) -> None:
        games = g.GAMES if opts["game"] == "all" else (opts["game"],)
        if opts["batch"] < 1 or opts["top"] < 0:
            raise CommandError("--batch must be at least 1 and --top at least 0")
        reports = []
        for game in games:
            report = catalog_compile(game=game, batch_size=opts["batch"])
            reports.append(report)
            self.stdout.write(report.text(top=opts["top"]))
        if opts["report"]:
            data: Any = reports[0].as_dict() if len(reports) == 1 else {r.game: r.as_dict() for r in reports}
            Path(opts["report"]).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
