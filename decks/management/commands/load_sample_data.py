"""``manage.py load_sample_data``: the project's invented sample catalog, then the sample decks.

Imports every ``fixtures/cards/*.json`` (the game comes from the document) through the same catalog
service as ``import_cards``, then loads ``fixtures/decks/*.txt`` (``decks.services.sample_decks_load``);
idempotent — a second run finds every card and deck unchanged. ``./dev serve`` runs it. It lives in
the decks app because decks build on the catalog (it writes both through their services).
"""
from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.importers import FORMATS, load_all
from catalog.services import card_import

from ...services import DeckInputError, sample_decks_load


class Command(BaseCommand):
    help = "Load the invented sample cards from fixtures/ (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--fixtures", default=str(Path(settings.BASE_DIR) / "fixtures"),
                            help="fixtures directory (default: the project's fixtures/)")

    def handle(self, *args, fixtures: str, **options) -> None:
        root = Path(fixtures)
        self.load_cards(root)
        self.load_decks(root)

    def load_cards(self, root: Path) -> None:
        load_all()
        files = sorted((root / "cards").glob("*.json"))
        if not files:
            raise CommandError(f"no sample card files in {root / 'cards'}")
        for path in files:
            try:
                game = json.loads(path.read_text(encoding="utf-8")).get("game") or path.stem
            except (OSError, ValueError) as exc:
                raise CommandError(f"{path}: {exc}") from exc
            summary = card_import(records=FORMATS["json"].read(path, game), game=game)
            for err in summary.errors:
                self.stderr.write(f"error: {err}")
            if not summary.ok:
                raise CommandError(f"{path}: sample cards refused; nothing written for {game}")
            self.stdout.write(summary.text())

    def load_decks(self, root: Path) -> None:
        """Sample decks (``fixtures/decks/<game>-<name>.txt``) as public decks of the ``sample`` user
        (``decks.services.sample_decks_load``; idempotent; the cards are already in the database)."""
        if not (root / "decks").is_dir():
            return
        try:
            for line in sample_decks_load(root=root / "decks"):
                self.stdout.write(line)
        except DeckInputError as exc:
            raise CommandError(f"sample decks refused: {exc.message}") from exc
