"""``DeckFilterSet``: the one definition of deck list filters (API and pages)."""
from __future__ import annotations

import django_filters

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


class DeckFilterError(ValueError):
    def __init__(self, errors: dict):
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
        self.errors = errors
