"""Decks: a named list of card codes per zone, with a full snapshot kept for every save.

``Deck.zones`` is the current content ``{zone: {code: count}}``; ``DeckVersion`` rows keep every
saved state (name, description, zones) so any two versions can be compared and a share link can
pin one. ``Deck.version`` is the number of the latest version and doubles as the optimistic
concurrency token (the API's ETag).
"""
from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from rules import games as g

if TYPE_CHECKING:
    from rules.formats import FormatRules

GAME_CHOICES = [(code, g.GAME_NAMES[code]) for code in g.GAMES]

# 12 random bytes = 96 bits, rendered as 16 URL-safe characters.
SLUG_BYTES = 12


def new_slug() -> str:
    return secrets.token_urlsafe(SLUG_BYTES)


class Visibility(models.TextChoices):
    PRIVATE = "private", _("Private (only me)")
    UNLISTED = "unlisted", _("Unlisted (anyone with the link)")
    PUBLIC = "public", _("Public (listed)")


class Format(models.Model):
    """A game's format and its ban lists, as data (``rules.formats.FormatRules``): curated in the admin
    or loaded with ``manage.py load_formats FILE``."""

    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    code = models.SlugField(max_length=40, help_text="Stable code, e.g. standard, neo-standard")
    name = models.CharField(max_length=80)
    order = models.PositiveSmallIntegerField(default=0, help_text="Lists show formats by this number")
    series = models.JSONField(default=list, blank=True, help_text="Series allowed (WS: title codes); empty: all")
    groups = models.JSONField(default=list, blank=True,
                              help_text="Title groups (Neo-Standard): lists of series; the deck's cards come from one")
    single_series = models.BooleanField(default=False, help_text="Every card from one series (Title-only)")
    banned = models.JSONField(default=list, blank=True, help_text="Banned cards: codes, names or identities")
    restricted = models.JSONField(default=dict, blank=True, help_text="{card: most copies}")
    notes = models.TextField(blank=True, max_length=2000)

    class Meta:
        ordering = ["game", "order", "code"]
        constraints = [models.UniqueConstraint(fields=["game", "code"], name="format_game_code_uniq")]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"

    def rules(self) -> FormatRules:
        from rules.formats import format_from_dict

        return format_from_dict(self.game, {
            "code": self.code, "name": self.name, "series": self.series, "groups": self.groups,
            "single_series": self.single_series, "banned": self.banned, "restricted": self.restricted})


class Deck(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True, max_length=5000)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PRIVATE)
    slug = models.CharField(max_length=32, unique=True, default=new_slug, editable=False,
                            help_text="The deck's own share link /d/<slug>/ (follows the latest version)")
    zones = models.JSONField(default=dict, blank=True, help_text="{zone: {code: count}} of the latest version")
    version = models.PositiveIntegerField(default=1, help_text="Number of the latest version")
    forked_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks")
    forked_from_version = models.PositiveIntegerField(null=True, blank=True)
    format = models.ForeignKey(Format, null=True, blank=True, on_delete=models.SET_NULL, related_name="decks",
                               help_text="The format the deck is built for (None: the game's rules only)")
    # Stored when a version is saved, so lists never validate decks on the fly (issue 19: one account's
    # 100 public decks of 2,500 codes took the public list from 84 ms to 7.8 s).
    legal = models.BooleanField(null=True, blank=True,
                                help_text="The latest version passed the game's construction rules when saved "
                                          "(None: not checked yet)")
    problems = models.PositiveIntegerField(default=0, help_text="Construction problems of the latest version")
    public_from_version = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="First version others may see while the deck is public: versions saved before it was made "
                  "public stay the owner's unless the owner chose to publish them (None: every version)")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated", "-id"]
        indexes = [
            models.Index(fields=["owner", "-updated"], name="deck_owner_updated_idx"),
            models.Index(fields=["visibility", "game", "-updated"], name="deck_vis_game_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"

    @property
    def etag(self) -> str:
        return f'"deck-{self.pk}-v{self.version}"'

    def card_count(self, zone: str = "main") -> int:
        return sum((self.zones or {}).get(zone, {}).values())


class DeckVersion(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    zones = models.JSONField(default=dict)
    note = models.CharField(max_length=200, blank=True, help_text="What this save changed, if the author said")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="deckversion_unique_number")]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"


class ShareLink(models.Model):
    """An extra share link for a deck, optionally pinned to one version (``version`` = None: latest)."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="share_links")
    slug = models.CharField(max_length=32, unique=True, default=new_slug, editable=False)
    version = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"/d/{self.slug}/"


UNDO_DEPTH = 100


class DeckDraft(models.Model):
    """The deck builder's working copy of a deck (one per deck; only its owner edits it).

    Every builder change (``+``, ``−``, add the top hit, paste a list) lands here, not in a version;
    "Save version" turns the working copy into one new ``DeckVersion`` (``decks.drafts``).
    ``base_version`` is the deck version the copy started from: when the deck moves on elsewhere
    (the API, the text editor, a restore), the copy's own changes are re-applied on top of it.
    ``undo`` is the stack of the last changes (newest last), each ``{"label", "cards": [[zone, code,
    count before], ...]}``: undo puts those counts back.
    """

    deck = models.OneToOneField(Deck, on_delete=models.CASCADE, related_name="draft")
    base_version = models.PositiveIntegerField(help_text="The deck version this working copy started from")
    zones = models.JSONField(default=dict, blank=True, help_text="{zone: {code: count}} being edited")
    undo = models.JSONField(default=list, blank=True, help_text="The last changes, newest last (at most 100)")
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"working copy of deck {self.deck_id} (from v{self.base_version})"


class DeckCard(models.Model):
    """One card of a deck's latest version, copies over all zones: the index behind "decks using this
    card", play rates and the public list's "contains card" and series filters. Written with every
    version (``decks.services.deck_cards_sync``); ``Deck.zones`` stays the source."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="card_rows")
    code = models.CharField(max_length=64)
    copies = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deck", "code"], name="deckcard_unique_deck_code")]
        indexes = [models.Index(fields=["code", "deck"], name="deckcard_code_idx")]

    def __str__(self) -> str:
        return f"{self.deck_id}: {self.copies}× {self.code}"
