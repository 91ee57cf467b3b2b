"""Serializers of the cards API: cards in the documented card JSON format, and the error object."""
from __future__ import annotations

from django.urls import reverse
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
        fields = ["code", "rarity", "image_url"]


class CardSerializer(serializers.ModelSerializer):
    """One card, in the card JSON format plus links to its page and API detail."""

    url = serializers.SerializerMethodField(help_text="the card's web page")
    api_url = serializers.SerializerMethodField(help_text="this card in the API")

    class Meta:
        model = Card
        fields = [*CARD_API_FIELDS, "url", "api_url"]

    @extend_schema_field(serializers.CharField())
    def get_url(self, obj: Card) -> str:
        return reverse("card-detail", kwargs={"game": obj.game, "code": obj.code})

    @extend_schema_field(serializers.CharField())
    def get_api_url(self, obj: Card) -> str:
        return reverse("catalog-api:card-detail", kwargs={"game": obj.game, "code": obj.code})


class CardDetailSerializer(CardSerializer):
    printings = CardPrintingSerializer(many=True, read_only=True)

    class Meta(CardSerializer.Meta):
        fields = [*CardSerializer.Meta.fields, "printings"]


class CardErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable kind, e.g. unknown_field, bad_number, not_found")
    message = serializers.CharField(help_text="what is wrong, in words")
    position = serializers.IntegerField(
        allow_null=True, help_text="0-based character offset in `query` where the problem is (query errors)"
    )
    query = serializers.CharField(allow_null=True, help_text="the query (or order) string that failed, if any")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="invalid parameters -> messages (filter parameter errors)",
    )


class CardErrorSerializer(serializers.Serializer):
    """Every error of the cards API: `{"error": {"code", "message", "position", "query"}}`."""

    error = CardErrorBodySerializer()
