"""Playtest jobs: a goldfish run of one deck snapshot, split into chunks that workers play.

A job stores everything needed to replay any of its games later — the deck **snapshot** (zone counts
plus each card's full JSON record at the time), the seed, pilot and options — so later edits to the
catalog or the deck never change an old report or replay. Each finished chunk is one
``PlaytestChunk`` row, unique on (job, index); the job's result is aggregated only from those rows,
so a chunk that ran twice (a retry, a redelivered message) is counted once.
"""
from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models

from rules import games as g

GAME_CHOICES = [(code, g.GAME_NAMES[code]) for code in g.GAMES]


def new_share_slug() -> str:
    """An unguessable share slug: 96 random bits, URL-safe."""
    return secrets.token_urlsafe(12)


def new_seed() -> int:
    return secrets.randbits(48)


class PlaytestJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"
        CANCELLED = "cancelled", "cancelled"

    class Source(models.TextChoices):
        TEXT = "text", "pasted deck list"
        DECK = "deck", "saved deck"
        SHARE = "share", "shared deck link"

    ACTIVE = (Status.QUEUED, Status.RUNNING)
    FINISHED = (Status.DONE, Status.FAILED, Status.CANCELLED)

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="playtests"
    )
    # Anonymous jobs belong to the browser session (and are counted per IP for limits).
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    client_ip = models.GenericIPAddressField(null=True, blank=True)
    share_slug = models.CharField(max_length=32, unique=True, default=new_share_slug, editable=False)

    # What was played.
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    name = models.CharField(max_length=200, blank=True, help_text="Deck name at the time of the run")
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.TEXT)
    deck_id = models.PositiveBigIntegerField(null=True, blank=True, help_text="Source deck id (if any)")
    deck_version = models.PositiveIntegerField(null=True, blank=True)
    deck_slug = models.CharField(max_length=64, blank=True)
    snapshot = models.JSONField(help_text='{"zones": {zone: {code: count}}, "cards": {code: card JSON}}')
    games = models.PositiveIntegerField()
    seed = models.PositiveBigIntegerField(default=new_seed)
    pilot = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True, help_text="Goldfish options actually used")
    turn_cap = models.PositiveSmallIntegerField()
    chunk_size = models.PositiveIntegerField()
    chunks_total = models.PositiveIntegerField()

    # Progress and outcome.
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED, db_index=True)
    progress = models.PositiveIntegerField(default=0, help_text="Games finished")
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True, help_text="Last time a chunk started or finished")
    error = models.TextField(blank=True)
    task_ids = models.JSONField(default=list, blank=True, help_text="Celery task ids (for revoking)")
    # Fair queuing and lost chunks (issue 19): chunks go to the queue a few at a time per player
    # (runner.playtest_claim_chunks), and chunks lost with a worker or a restarted broker are queued
    # again (runner.playtest_recover_stale); what happened is told in ``notes``.
    chunks_sent = models.PositiveIntegerField(default=0, help_text="Chunks handed to the queue so far (0..chunks_sent-1)")
    requeues = models.PositiveSmallIntegerField(default=0, help_text="Times lost chunks were queued again")
    notes = models.JSONField(default=list, blank=True,
                             help_text='What happened to the job: [{"at", "code", "params"}] (chunks lost and queued again)')
    result = models.JSONField(null=True, blank=True, help_text="RunStats.to_dict()")
    summary = models.JSONField(null=True, blank=True, help_text="RunStats.summary()")
    compute_seconds = models.FloatField(default=0.0, help_text="Sum of the chunks' engine time")

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["owner", "status"], name="playtest_owner_status_idx"),
            models.Index(fields=["session_key", "status"], name="playtest_session_status_idx"),
            models.Index(fields=["client_ip", "status"], name="playtest_ip_status_idx"),
        ]

    def __str__(self) -> str:
        return f"playtest {self.pk} {self.game} {self.games} games ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def percent(self) -> int:
        return int(100 * self.progress / self.games) if self.games else 0

    @property
    def wall_seconds(self) -> float | None:
        if self.started and self.finished:
            return (self.finished - self.started).total_seconds()
        return None

    def chunk_range(self, index: int) -> range:
        start = index * self.chunk_size
        return range(start, min(self.games, start + self.chunk_size))

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("playtest-report", kwargs={"slug": self.share_slug})

    def deck_counts(self) -> dict[str, dict[str, int]]:
        return {z: dict(c) for z, c in self.snapshot.get("zones", {}).items()}

    def card_data(self) -> dict[str, dict[str, Any]]:
        return self.snapshot.get("cards", {})


class PlaytestChunk(models.Model):
    """The statistics of games ``[start, stop)`` of a job, written once per (job, index)."""

    job = models.ForeignKey(PlaytestJob, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    start = models.PositiveIntegerField()
    stop = models.PositiveIntegerField()
    stats = models.JSONField(help_text="RunStats.to_dict() of this chunk's games")
    examples = models.JSONField(default=dict, blank=True,
                                help_text="{outcome: {turn: first game index}}: games to replay from the report")
    seconds = models.FloatField(default=0.0)
    worker = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [models.UniqueConstraint(fields=["job", "index"], name="playtest_chunk_unique")]

    def __str__(self) -> str:
        return f"chunk {self.index} of job {self.job_id} (games {self.start}-{self.stop - 1})"

    @property
    def games(self) -> int:
        return self.stop - self.start
