"""``manage.py export_cards --game GAME [--format json|csv] [-o FILE]``: every card of a game, in code order.

The output reads back with ``import_cards`` unchanged (the round trip is lossless). Default format
json; default output stdout.
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.importers import FORMATS, load_all
from catalog.services import card_export
from rules import games as g


class Command(BaseCommand):
    help = "Export every card of a game in the project's card JSON or CSV format."

    def add_arguments(self, parser: CommandParser) -> None:
        load_all()
        parser.add_argument("--game", required=True, choices=g.GAMES)
        parser.add_argument("--format", dest="fmt", default="json",
                            choices=sorted(n for n, f in FORMATS.items() if hasattr(f, "write")))
        parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")

    def handle(self, *args, game: str, fmt: str, output: str | None, **options) -> None:
        try:
            if output and output != "-":
                path = Path(output)
                tmp = path.with_name(path.name + ".part")
                with open(tmp, "w", encoding="utf-8", newline="") as fh:
                    count = card_export(game=game, fmt=fmt, fh=fh)
                tmp.replace(path)
                self.stderr.write(f"{game}: exported {count} card(s) to {output} ({fmt})")
            else:
                count = card_export(game=game, fmt=fmt, fh=_Raw(self.stdout))
        except (ValueError, OSError) as exc:
            raise CommandError(str(exc), returncode=2) from exc


class _Raw:
    """A text stream over the command's stdout that adds no line endings of its own."""

    def __init__(self, out) -> None:
        self.out = out

    def write(self, text: str) -> int:
        self.out.write(text, ending="")
        return len(text)
