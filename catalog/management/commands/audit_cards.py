"""``manage.py audit_cards --game GAME [--json] [--max N] [--kind K ...] [--trait-table FILE] [--limit N]``.

Lists the suspicious card records of a game by kind (``catalog.audit``: script mixes, numbers or
printing markers in names, names that differ between the printings of one card, trigger icons that
contradict a climax's reminder text, traits outside the trait table, climax bonuses that disagree
with their text, Lycee basic abilities not read, text without compiled abilities...). Exit code 0
when the findings are at most ``--max`` (default 0), 1 above it, 2 on a usage error.
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.audit import KINDS, audit_cards
from rules import games as g


class Command(BaseCommand):
    help = "List suspicious card records of a game by kind; exit 1 when there are more than --max."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, choices=g.GAMES)
        parser.add_argument("--json", action="store_true", help="the report as JSON on standard output")
        parser.add_argument("--max", type=int, default=0, metavar="N",
                            help="exit 1 when the audit finds more than N records in all (default 0)")
        parser.add_argument("--kind", action="append", choices=sorted(KINDS), metavar="KIND",
                            help=f"only this kind (repeatable): {', '.join(sorted(KINDS))}")
        parser.add_argument("--trait-table", type=Path, metavar="FILE",
                            help="the trait table (ENUM,日本語 lines); default: the WS source's traits_en_jp.csv")
        parser.add_argument("--limit", type=int, default=20, metavar="N",
                            help="findings listed per kind (default 20; the counts are always whole; 0: all)")

    def handle(self, *args, game: str, json: bool, max: int, kind: list[str] | None, trait_table: Path | None,
               limit: int, **options) -> None:
        if max < 0 or limit < 0:
            raise CommandError("--max and --limit take a number ≥ 0", returncode=2)
        if trait_table is not None and not trait_table.is_file():
            raise CommandError(f"--trait-table {trait_table}: no such file", returncode=2)
        try:
            report = audit_cards(game=game, kinds=kind, trait_table=trait_table)
        except ValueError as exc:
            raise CommandError(str(exc), returncode=2) from exc
        shown = limit or None
        if json:
            self.stdout.write(_json(report.as_dict(shown)))
        else:
            self.stdout.write(f"{game}: {report.cards} cards audited")
            for name, result in report.results.items():
                if not result.available:
                    self.stdout.write(f"{name}: {result.reason}")
                    continue
                self.stdout.write(f"{name}: {len(result.findings)} — {result.kind.description}")
                for f in result.findings[:shown]:
                    self.stdout.write(f"  {f.code}: {f.field}: {f.message}")
                if shown is not None and len(result.findings) > shown:
                    self.stdout.write(f"  ... and {len(result.findings) - shown} more (--limit 0 lists all)")
            self.stdout.write(f"total: {report.total} (threshold --max {max})")
        if report.total > max:
            raise CommandError(f"{report.total} suspicious record(s), above the threshold of {max}", returncode=1)


def _json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)
