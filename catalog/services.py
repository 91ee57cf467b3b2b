"""Write-side services for the catalog (HackSoft style: ``<entity>_<action>``)."""
from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from .models import Card, CardFacet


@transaction.atomic
def card_sync_facets(*, cards: Iterable[Card]) -> int:
    """Rebuild the CardFacet rows of ``cards`` from their list fields; returns rows written."""
    cards = list(cards)
    CardFacet.objects.filter(card__in=[c.pk for c in cards]).delete()
    rows = [CardFacet(card=c, facet=f, value=v[:128]) for c in cards for f, v in dict.fromkeys(c.facet_values())]
    CardFacet.objects.bulk_create(rows, batch_size=2000)
    return len(rows)
