"""Reads for playtest jobs. Access: the owner, the anonymous session that created a job, or anyone
holding its share slug."""
from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Q, QuerySet

from config.errors import InvalidInput
from config.params import StrictIntegerFilter

from .models import GAME_CHOICES, PlaytestJob


class PlaytestJobFilterSet(django_filters.FilterSet):
    status = django_filters.MultipleChoiceFilter(choices=PlaytestJob.Status.choices)
    game = django_filters.ChoiceFilter(choices=GAME_CHOICES)
    deck_id = StrictIntegerFilter(min_value=1)

    class Meta:
        model = PlaytestJob
        fields = ["status", "game", "deck_id"]


def _mine(*, user: Any, session_key: str) -> Q:
    cond = Q(pk__in=[])
    if user is not None and getattr(user, "is_authenticated", False):
        cond |= Q(owner=user)
    if session_key:
        cond |= Q(owner__isnull=True, session_key=session_key)
    return cond


def playtest_is_mine(job: PlaytestJob, *, user: Any, session_key: str) -> bool:
    """True for the job's owner (or, for an anonymous job, the session that created it)."""
    if job.owner_id is not None:
        return bool(user is not None and getattr(user, "is_authenticated", False) and job.owner_id == user.pk)
    return bool(session_key) and job.session_key == session_key


class PlaytestFilterError(InvalidInput):
    """Invalid list filters (code ``invalid``, 400); ``errors`` maps parameter -> messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__(errors)
        self.errors = self.fields


def playtest_list(*, user: Any, session_key: str, filters: Any = None) -> QuerySet[PlaytestJob]:
    """The user's (or this session's) jobs; ``filters`` ``status`` (repeatable), ``game``, ``deck_id``.
    An unreadable filter raises ``PlaytestFilterError`` instead of being ignored."""
    qs = PlaytestJob.objects.filter(_mine(user=user, session_key=session_key)).defer("snapshot", "result")
    fs = PlaytestJobFilterSet(filters or {}, queryset=qs)
    if filters and not fs.is_valid():
        raise PlaytestFilterError({k: [str(m) for m in v] for k, v in fs.errors.items()})
    return fs.qs


def playtest_get(*, key: str | int, user: Any = None, session_key: str = "") -> PlaytestJob | None:
    """A job by share slug (anyone) or by numeric id (its owner / creating session only)."""
    key = str(key)
    job = PlaytestJob.objects.filter(share_slug=key).select_related("owner").first()
    if job is not None:
        return job
    if key.isdigit():
        job = PlaytestJob.objects.filter(pk=int(key)).select_related("owner").first()
        if job is not None and playtest_is_mine(job, user=user, session_key=session_key):
            return job
    return None


def playtest_get_by_slug(slug: str) -> PlaytestJob | None:
    return PlaytestJob.objects.filter(share_slug=slug).select_related("owner").first()


def playtest_partial(job: PlaytestJob) -> dict[str, Any] | None:
    """Statistics of the chunks finished so far of a running job (None before the first one)."""
    if job.status != PlaytestJob.Status.RUNNING:
        return None
    games = wins = turn_sum = 0
    for stats in job.chunks.values_list("stats", flat=True):
        games += stats["games"]
        wins += stats["outcomes"].get("win", 0)
        turn_sum += sum(int(t) * n for t, n in stats["win_turns"].items())
    if not games:
        return None
    return {"games": games, "wins": wins, "win_rate": wins / games, "mean_turn_of_win": turn_sum / wins if wins else None}
