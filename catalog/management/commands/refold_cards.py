"""``manage.py refold_cards [--game G]``: recompute the stored search columns of every card.

``name_folded``, ``text_folded`` and ``code_folded`` (``catalog.textnorm``) are written on every
save and import; run this when the folding itself changes — a new rule in ``textnorm.fold``, or an
upgrade of the ``opencc`` package whose dictionaries fold the kanji — so stored rows and queries agree
again. Only rows whose folded values change are written; the card tables are analysed afterwards.
"""
from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction

from catalog.models import FOLDED_FIELDS, Card
from rules import games as g

BATCH = 2000


class Command(BaseCommand):
    help = "Recompute the folded search columns (name, text, code) of every card."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=g.GAMES, help="only this game's cards")

    def handle(self, *args: Any, game: str | None = None, **options: Any) -> None:
        t0 = time.perf_counter()
        qs = Card.objects.order_by("pk").only("pk", "code", "name", "alt_names", "text", "translations",
                                             *FOLDED_FIELDS)
        if game:
            qs = qs.filter(game=game)
        seen = changed = 0
        last = 0
        while True:
            rows = list(qs.filter(pk__gt=last)[:BATCH])
            if not rows:
                break
            last = rows[-1].pk
            seen += len(rows)
            dirty = []
            for card in rows:
                before = tuple(getattr(card, f) for f in FOLDED_FIELDS)
                card.fold_fields()
                if tuple(getattr(card, f) for f in FOLDED_FIELDS) != before:
                    dirty.append(card)
            if dirty:
                with transaction.atomic():
                    Card.objects.bulk_update(dirty, list(FOLDED_FIELDS))  # folded columns only: no refold
                changed += len(dirty)
        if changed and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE catalog_card")
        self.stdout.write(f"refolded {changed} of {seen} cards in {time.perf_counter() - t0:.1f}s")
