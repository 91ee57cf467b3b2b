"""Playtest settings with their defaults (override any of them in ``config/settings.py``)."""
from __future__ import annotations

from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    # How jobs run: "celery" (a broker is configured), "thread" (in-process background thread, the
    # embedded default) or "inline" (run inside the request's on_commit; tests and scripts).
    "PLAYTEST_EXECUTOR": None,
    "PLAYTEST_THREADS": 1,
    "PLAYTEST_CHUNK_SIZE": 1000,
    # Inside a chunk, look for a cancellation every this many games.
    "PLAYTEST_CANCEL_CHECK_GAMES": 250,
    "PLAYTEST_MAX_GAMES_USER": 100_000,
    "PLAYTEST_MAX_GAMES_ANON": 10_000,
    "PLAYTEST_MAX_ACTIVE_USER": 3,
    "PLAYTEST_MAX_ACTIVE_ANON": 1,
    "PLAYTEST_MAX_TURN_CAP": 60,
    # Job creation rate (DRF throttle syntax); a 429 with Retry-After above it.
    "PLAYTEST_CREATE_RATE_USER": "60/hour",
    "PLAYTEST_CREATE_RATE_ANON": "20/hour",
    # A running job without a finished or started chunk for this long is failed by the sweeper;
    # a queued job that never started within PLAYTEST_QUEUED_TIMEOUT likewise.
    "PLAYTEST_STALE_SECONDS": 600,
    "PLAYTEST_QUEUED_TIMEOUT": 3600,
    # Lost chunks (runner.playtest_recover_stale): queued again at most this many times per job; the
    # workers look for them every PLAYTEST_RECOVER_INTERVAL seconds. A chunk may run for at most
    # PLAYTEST_CHUNK_TIME_LIMIT seconds (the broker's visibility timeout is twice that).
    "PLAYTEST_MAX_REQUEUES": 2,
    "PLAYTEST_RECOVER_INTERVAL": 30,
    "PLAYTEST_CHUNK_TIME_LIMIT": 120,
    # Fair queuing: chunks of one player (account or anonymous session) in the queue or running at once.
    "PLAYTEST_PLAYER_CHUNKS": 2,
    # Largest game index whose log can be replayed is games - 1; logs longer than this are cut.
    "PLAYTEST_MAX_LOG_EVENTS": 20_000,
}


def get(name: str) -> Any:
    return getattr(settings, name, DEFAULTS[name])


def executor() -> str:
    mode = get("PLAYTEST_EXECUTOR")
    if mode:
        return mode
    broker = getattr(settings, "CELERY_BROKER_URL", "") or ""
    if broker and not broker.startswith("memory://") and not getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return "celery"
    return "thread"
