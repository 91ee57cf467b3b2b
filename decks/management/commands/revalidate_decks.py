"""``manage.py revalidate_decks [--all]``: check decks against their game's rules again and store the
outcome (``Deck.legal`` / ``Deck.problems``), e.g. after a card import changed what their codes are.

Without ``--all`` only the decks not checked yet (``legal`` empty: saved before legality was stored,
or left by the migration). Lists never validate on the fly (issue 19, docs/security.md).
"""
from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from decks.models import Deck
from decks.services import deck_legality_store


class Command(BaseCommand):
    help = "Check decks against their game's construction rules again and store legal/problems."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--all", action="store_true", help="every deck, not only the unchecked ones")

    def handle(self, *args: Any, **options: Any) -> None:
        qs = Deck.objects.all() if options["all"] else Deck.objects.filter(legal__isnull=True)
        done = legal = 0
        for deck in qs.only("pk", "game", "zones").iterator(chunk_size=200):
            deck_legality_store(deck=deck)
            done += 1
            legal += bool(deck.legal)
        self.stdout.write(f"checked {done} deck(s): {legal} legal, {done - legal} with problems")
