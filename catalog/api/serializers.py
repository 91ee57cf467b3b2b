"""Serializers of the cards API: cards in the documented card JSON format, and the error object."""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from django.urls import get_script_prefix, reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rules.cards import CARD_FIELDS

from ..models import Card, CardPrinting

# Card JSON format keys (docs/card-format.md), in a stable, readable order.
_FIRST = ["game", "code", "name", "alt_names", "card_type"]
CARD_API_FIELDS = _FIRST + sorted(CARD_FIELDS - set(_FIRST))


class CardPrintingSerializer(serializers.ModelSerializer):
    class Meta:
        model = CardPrinting
        fields = ["code", "rarity", "image_url", "marker"]


@lru_cache(maxsize=32)
def _url_template(name: str, prefix: str) -> str:
    return reverse(name, kwargs={"game": "GAME0", "code": "CODE0"})


def card_urls(game: str, code: str) -> tuple[str, str]:
    """The card's page and API URLs, without resolving the URLconf per card (hot path of lists)."""
    return card_url_maker()(game, code)


_PLAIN_CODE = re.compile(r"[A-Za-z0-9/_.~-]*")  # what quote(code, safe="/") leaves as it is


def card_url_templates() -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    """The card page's and API's URL for the current script prefix, each split around the game and
    the code: ``("/cards/", "/", "/")`` (PostgreSQL joins them, ``catalog.selectors.card_rows_counted``)."""
    prefix = get_script_prefix()
    return (_split_template(_url_template("card-detail", prefix)),
            _split_template(_url_template("catalog-api:card-detail", prefix)))


def card_url_maker() -> Callable[[str, str], tuple[str, str]]:
    """``(game, code) -> (page URL, API URL)`` for the current script prefix: the URL templates are
    split once, so a page of 50 cards costs 50 string joins (and a quote only for unusual codes)."""
    (p0, p1, p2), (a0, a1, a2) = card_url_templates()
    plain = _PLAIN_CODE.fullmatch

    def urls(game: str, code: str) -> tuple[str, str]:
        quoted = code if plain(code) else quote(code, safe="/")
        return f"{p0}{game}{p1}{quoted}{p2}", f"{a0}{game}{a1}{quoted}{a2}"

    return urls


@lru_cache(maxsize=32)
def _split_template(template: str) -> tuple[str, str, str]:
    head, rest = template.split("GAME0", 1)
    mid, tail = rest.split("CODE0", 1)
    return head, mid, tail


class CardListSerializer(serializers.ListSerializer):
    """A page of cards: the URL templates resolved once per page, rows used as they come (the dicts
    of ``catalog.selectors.card_rows``/``card_rows_counted`` already hold the card JSON fields in order)."""

    def to_representation(self, data: Any) -> list[dict[str, Any]]:
        urls = card_url_maker()
        out = []
        for row in data:
            item = dict(row) if isinstance(row, dict) else {name: getattr(row, name) for name in CARD_API_FIELDS}
            item["url"], item["api_url"] = urls(item["game"], item["code"])
            out.append(item)
        return out


class CardSerializer(serializers.ModelSerializer):
    """One card, in the card JSON format plus links to its page and API detail.

    The declared fields document the schema; ``to_representation`` builds the dict directly (the
    card JSON values are plain JSON types already), which is ~20x faster than DRF's per-field path
    on a page of 50 cards with 60 fields each.
    """

    url = serializers.SerializerMethodField(help_text="the card's web page")
    api_url = serializers.SerializerMethodField(help_text="this card in the API")

    class Meta:
        model = Card
        fields = [*CARD_API_FIELDS, "url", "api_url"]
        list_serializer_class = CardListSerializer

    @extend_schema_field(serializers.CharField())
    def get_url(self, obj: Card) -> str:
        return card_urls(obj.game, obj.code)[0]

    @extend_schema_field(serializers.CharField())
    def get_api_url(self, obj: Card) -> str:
        return card_urls(obj.game, obj.code)[1]

    def to_representation(self, instance: Card | dict[str, Any]) -> dict[str, Any]:
        if isinstance(instance, dict):  # a row from catalog.selectors.card_rows
            data = {name: instance[name] for name in CARD_API_FIELDS}
        else:
            data = {name: getattr(instance, name) for name in CARD_API_FIELDS}
        data["url"], data["api_url"] = card_urls(data["game"], data["code"])
        return data


class CardDetailSerializer(CardSerializer):
    printings = CardPrintingSerializer(many=True, read_only=True)

    class Meta(CardSerializer.Meta):
        fields = [*CardSerializer.Meta.fields, "printings"]

    def to_representation(self, instance: Card) -> dict[str, Any]:
        data = super().to_representation(instance)
        data["printings"] = CardPrintingSerializer(instance.printings.all(), many=True).data
        return data
