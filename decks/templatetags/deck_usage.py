"""``{% deck_usage card %}``: the card page's "decks using this card" (public decks only) and how
often the card is played. The catalog's card page loads this tag: the catalog app imports nothing
from decks (docs/architecture.md); the tag reads the card's codes through catalog selectors."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import template
from django.urls import reverse

from catalog.selectors import card_all_codes

from ..selectors import card_usage

register = template.Library()


@register.inclusion_tag("decks/_card_usage.html")
def deck_usage(card: Any, limit: int = 10) -> dict[str, Any]:
    usage = card_usage(game=card.game, codes=card_all_codes(card=card), limit=limit)
    return {
        "card": card, "usage": usage, "percent": round(usage["rate"] * 100),
        "more_url": reverse("deck-public") + "?" + urlencode({"game": card.game, "card": card.code}),
    }
