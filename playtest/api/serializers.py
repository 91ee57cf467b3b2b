from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from config.params import StrictCharField
from rules import games as g

from ..models import GAME_CHOICES, PlaytestJob


class DeckEntrySerializer(serializers.Serializer):
    code = StrictCharField(max_length=64)
    count = serializers.IntegerField(min_value=1, max_value=99)
    zone = serializers.ChoiceField(choices=g.ZONES, default="main")


class PlaytestCreateSerializer(serializers.Serializer):
    """Exactly one deck source: ``deck`` (a saved deck id), ``share`` (a shared deck link slug),
    ``text`` (a deck list) or ``entries``. ``game`` is required with ``text``/``entries``."""

    game = serializers.ChoiceField(choices=GAME_CHOICES, required=False)
    deck = serializers.IntegerField(required=False, min_value=1, help_text="id of a saved deck")
    share = StrictCharField(required=False, max_length=32, help_text="slug of a shared deck link /d/<slug>/")
    version = serializers.IntegerField(required=False, min_value=1, help_text="deck version (default: latest)")
    text = StrictCharField(required=False, max_length=20000, allow_blank=True, trim_whitespace=False)
    entries = DeckEntrySerializer(many=True, required=False)
    name = StrictCharField(required=False, max_length=200, allow_blank=True)
    games = serializers.IntegerField(default=1000, help_text="number of goldfish games")
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**63 - 1)
    pilot = StrictCharField(required=False, max_length=32)
    options = serializers.DictField(required=False, help_text="goldfish options of the game's engine")
    turn_cap = serializers.IntegerField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        sources = [k for k in ("deck", "share", "text", "entries") if k in attrs]
        if len(sources) != 1:
            raise serializers.ValidationError(
                {"non_field_errors": ["give exactly one deck source: deck, share, text or entries"
                                      + (f" (got {', '.join(sources)})" if sources else "")]})
        if sources[0] in ("text", "entries") and "game" not in attrs:
            raise serializers.ValidationError({"game": ["game is required with a deck list"]})
        if "version" in attrs and sources[0] not in ("deck", "share"):
            raise serializers.ValidationError({"version": ["version applies to a saved or shared deck only"]})
        return attrs


class PlaytestJobSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    report_url = serializers.SerializerMethodField()
    percent = serializers.IntegerField(read_only=True)
    chunks_done = serializers.SerializerMethodField()
    statistics = serializers.SerializerMethodField(help_text="RunStats.summary() when done, else null")
    partial = serializers.SerializerMethodField(help_text="while running: games, wins, win_rate, mean_turn_of_win so far")
    coverage = serializers.SerializerMethodField(
        help_text="what the engine models of the deck: cards, cards_modelled, copies, copies_modelled, copies_share "
                  "and not_modelled [{code, name, copies, modelled, never_played, abilities: "
                  "[{text, kind, status, reason, phrase?}]}] (rules.coverage.deck_coverage)")
    deck = serializers.SerializerMethodField()
    owner = serializers.SerializerMethodField()
    notes = serializers.SerializerMethodField(
        help_text="what happened to the job: [{at, code, params, message}] (chunks lost and queued again)")

    class Meta:
        model = PlaytestJob
        fields = [
            "id", "url", "report_url", "share_slug", "owner", "game", "name", "source", "deck_id", "deck_version",
            "games", "seed", "pilot", "options", "turn_cap", "status", "progress", "percent", "chunks_total",
            "chunks_done", "chunk_size", "created", "started", "finished", "error", "compute_seconds",
            "partial", "coverage", "statistics", "deck", "notes",
        ]
        read_only_fields = fields

    def get_notes(self, obj: PlaytestJob) -> list[dict[str, Any]]:
        from ..i18n import note_message

        return [{**n, "message": note_message(n)} for n in (obj.notes or []) if isinstance(n, dict)]

    def _abs(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path

    def get_url(self, obj: PlaytestJob) -> str:
        return self._abs(reverse("api-playtest-detail", kwargs={"key": obj.pk}))

    def get_report_url(self, obj: PlaytestJob) -> str:
        return self._abs(obj.get_absolute_url())

    def get_chunks_done(self, obj: PlaytestJob) -> int:
        return obj.chunks.count()

    def get_statistics(self, obj: PlaytestJob) -> dict | None:
        return obj.summary if obj.status == PlaytestJob.Status.DONE else None

    def get_partial(self, obj: PlaytestJob) -> dict | None:
        from ..selectors import playtest_partial

        return playtest_partial(obj)

    def get_coverage(self, obj: PlaytestJob) -> dict[str, Any]:
        from ..reports import coverage

        return coverage(obj)

    def get_deck(self, obj: PlaytestJob) -> dict[str, dict[str, int]]:
        return obj.deck_counts()

    def get_owner(self, obj: PlaytestJob) -> str | None:
        return obj.owner.get_username() if obj.owner_id else None


class PlaytestListSerializer(PlaytestJobSerializer):
    class Meta(PlaytestJobSerializer.Meta):
        fields = ["id", "url", "report_url", "share_slug", "game", "name", "games", "status", "progress", "percent",
                  "created", "finished"]
        read_only_fields = fields


class GameLogSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    seed = serializers.IntegerField()
    outcome = StrictCharField()
    outcome_label = StrictCharField(help_text="the outcome in the request's language")
    turn = serializers.IntegerField()
    reason = StrictCharField(help_text="the engine's end reason (English, stable)")
    reason_label = StrictCharField(help_text="the end reason in the request's language")
    counters = serializers.DictField(child=serializers.IntegerField())
    events = serializers.ListField(
        child=serializers.DictField(),
        help_text="turn, player, kind, code (stable event code), params, text (English); message and "
                  "kind_label in the request's language")
    truncated = serializers.BooleanField()
    text = StrictCharField(help_text="the whole log as English text")
