"""``DeckFilterSet``: the one definition of deck list filters (API and pages)."""
from __future__ import annotations

import django_filters

from config.errors import InvalidInput
from rules import games as g

from .models import Deck


class DeckFilterSet(django_filters.FilterSet):
    game = django_filters.ChoiceFilter(choices=[(c, g.GAME_NAMES[c]) for c in g.GAMES])
    owner = django_filters.CharFilter(field_name="owner__username")
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains", max_length=100)
    visibility = django_filters.ChoiceFilter(choices=Deck._meta.get_field("visibility").choices)

    class Meta:
        model = Deck
        fields = ["game", "owner", "q", "visibility"]


class DeckFilterError(InvalidInput):
    """Invalid deck list filters (code ``invalid``, 400); ``errors`` maps parameter -> messages."""

    def __init__(self, errors: dict) -> None:
        super().__init__(errors)
        self.errors = self.fields
