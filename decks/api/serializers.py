"""Serializers for the decks API: input shapes are checked here, rules in services/selectors."""
from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext
from rest_framework import serializers

from config.params import StrictCharField
from rules import games as g
from rules.decktext import MAX_COUNT

from ..models import GAME_CHOICES, Deck, DeckVersion, ShareLink, Visibility
from ..reader import read_deck
from ..selectors import zones_to_text

MAX_TEXT = 100_000
MAX_ENTRIES = 1000


class EntrySerializer(serializers.Serializer):
    code = StrictCharField(max_length=64)
    count = serializers.IntegerField(min_value=1, max_value=MAX_COUNT)
    zone = serializers.ChoiceField(choices=g.ZONES, default="main")


class CardsInputMixin(serializers.Serializer):
    """Cards given one of three ways: ``zones``, ``entries`` or deck ``text`` (read by ``decks.reader``)."""

    zones = serializers.JSONField(required=False)
    entries = EntrySerializer(many=True, required=False, max_length=MAX_ENTRIES)
    text = StrictCharField(required=False, allow_blank=True, max_length=MAX_TEXT, trim_whitespace=False)

    def cards_from(self, attrs: dict[str, Any], *, strict_text: bool) -> tuple[dict | None, list[dict]]:
        given = [k for k in ("zones", "entries", "text") if k in attrs]
        if len(given) > 1:
            raise serializers.ValidationError({given[1]: [gettext("give the cards once: %(fields)s, not both") % {"fields": " / ".join(given)}]})
        if not given:
            return None, []
        game = attrs.get("game") or self.context.get("game")
        if "entries" in attrs:
            reading = read_deck(game=game, entries=attrs["entries"])
        elif "zones" in attrs:
            if attrs["zones"] is None:
                return None, []
            reading = read_deck(game=game, zones=attrs["zones"])
        else:
            reading = read_deck(game=game, text=attrs["text"])
        if reading.problems and strict_text:
            raise serializers.ValidationError({"text": [gettext("line %(line)s: %(message)s") % {"line": e["line"], "message": e["message"]} for e in reading.problems]})
        # with problems, keep what could be read, so every other problem is reported too
        return reading.zones_with_partner() if reading.ok else reading.zones, reading.problems


class ValidateSerializer(CardsInputMixin):
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    partner = StrictCharField(required=False, max_length=64)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not any(k in attrs for k in ("zones", "entries", "text")):
            raise serializers.ValidationError({"entries": [gettext("give the cards as 'entries' or as deck 'text'")]})
        zones, errors = self.cards_from(attrs, strict_text=False)
        attrs["parsed_zones"] = zones
        attrs["parse_errors"] = errors
        return attrs


class DeckWriteSerializer(CardsInputMixin):
    name = StrictCharField(max_length=120, required=False)
    game = serializers.ChoiceField(choices=GAME_CHOICES, required=False)
    description = StrictCharField(max_length=5000, required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    base_version = serializers.IntegerField(min_value=1, required=False)
    note = StrictCharField(max_length=200, required=False, allow_blank=True)
    format = StrictCharField(max_length=40, required=False, allow_blank=True,
                             help_text="the format the deck is built for (a code of GET /formats/); \"\" clears it")
    publish_history = serializers.BooleanField(
        required=False, help_text="with visibility public: let others see the versions saved before it was "
                                  "made public too (by default they see the versions from then on)")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        zones, _ = self.cards_from(attrs, strict_text=True)
        attrs["parsed_zones"] = zones
        return attrs


class DeckReplaceSerializer(DeckWriteSerializer):
    """``PUT``: the whole deck. Every field of the representation is required (``PATCH`` changes some)."""

    name = StrictCharField(max_length=120)
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    description = StrictCharField(max_length=5000, allow_blank=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not any(k in attrs for k in ("zones", "entries", "text")):
            raise serializers.ValidationError({"zones": [gettext(
                "PUT replaces the whole deck: give its cards as zones, entries or text "
                "(use PATCH to change only some fields)")]})
        return super().validate(attrs)


class VersionRefSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    name = StrictCharField(max_length=120, required=False)


def share_url(request: Any, slug: str) -> str:
    path = reverse("deck-shared", kwargs={"slug": slug})
    return request.build_absolute_uri(path) if request is not None else path


class DeckSerializer(serializers.ModelSerializer):
    owner = StrictCharField(source="owner.username", read_only=True)
    counts = serializers.SerializerMethodField()
    share_url = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    forked_from = serializers.SerializerMethodField()
    format = serializers.SerializerMethodField()

    class Meta:
        model = Deck
        fields = ["id", "url", "name", "game", "description", "visibility", "owner", "version", "counts", "format",
                  "share_url", "forked_from", "forked_from_version", "created", "updated"]

    def get_counts(self, deck: Deck) -> dict[str, int]:
        return {zone: sum(cards.values()) for zone, cards in (deck.zones or {}).items()}

    def get_share_url(self, deck: Deck) -> str | None:
        if deck.visibility == Visibility.PRIVATE:
            return None
        return share_url(self.context.get("request"), deck.slug)

    def get_format(self, deck: Deck) -> str | None:
        return deck.format.code if deck.format_id else None

    def get_url(self, deck: Deck) -> str:
        return reverse("api-deck-detail", kwargs={"pk": deck.pk})

    def get_forked_from(self, deck: Deck) -> int | None:
        return deck.forked_from_id


class DeckDetailSerializer(DeckSerializer):
    zones = serializers.JSONField(read_only=True)
    text = serializers.SerializerMethodField()

    class Meta(DeckSerializer.Meta):
        fields = DeckSerializer.Meta.fields + ["zones", "text"]

    def get_text(self, deck: Deck) -> str:
        return zones_to_text(deck.zones or {})


class DeckVersionSerializer(serializers.ModelSerializer):
    author = StrictCharField(source="author.username", read_only=True, default=None)
    counts = serializers.SerializerMethodField()

    class Meta:
        model = DeckVersion
        fields = ["number", "name", "note", "author", "created", "counts"]

    def get_counts(self, v: DeckVersion) -> dict[str, int]:
        return {zone: sum(cards.values()) for zone, cards in (v.zones or {}).items()}


class DeckVersionDetailSerializer(DeckVersionSerializer):
    text = serializers.SerializerMethodField()

    class Meta(DeckVersionSerializer.Meta):
        fields = DeckVersionSerializer.Meta.fields + ["description", "zones", "text"]

    def get_text(self, v: DeckVersion) -> str:
        return zones_to_text(v.zones or {})


class ShareLinkSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = ShareLink
        fields = ["slug", "url", "version", "created"]

    def get_url(self, link: ShareLink) -> str:
        return share_url(self.context.get("request"), link.slug)
