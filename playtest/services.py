"""Writes for playtest jobs: create (validate, snapshot, store), enqueue, cancel, delete.

Running the jobs (a chunk, the final combination, the stale-job sweep) is ``playtest.runner``;
the Celery tasks (``playtest.tasks``) wrap the runner, not this module. So the imports go one way:
``services`` → ``runner``, and ``services`` → ``tasks`` (lazily, only to queue a job on Celery)
→ ``runner``; neither ``tasks`` nor ``runner`` imports ``services``.
"""
from __future__ import annotations

import logging
import math
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db import close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from catalog.selectors import card_data_by_codes, card_games_by_codes, catalog_card_records
from config.errors import AppError
from decks.reader import read_deck
from rules import games as g
from rules.cards import CardRecord
from rules.engine.core import DEFAULT_TURN_CAP, get_engine, play_game

from . import conf
from .models import PlaytestJob
from .runner import (
    deck_from_snapshot,
    jsonable,
    playtest_claim_chunks,
    playtest_run_all,
    playtest_sweep_stale,
)

log = logging.getLogger(__name__)

Status = PlaytestJob.Status


class PlaytestError(AppError):
    """Bad input or a request over a limit; ``status`` is the HTTP status the API answers with.

    ``errors`` lists every problem (``field``, ``code``, ``message`` and its own values): the API's
    ``details``, and ``fields`` by field. The error's own ``code`` is ``invalid`` (400) unless given:
    ``not_found`` (404), ``job_active`` (409), ``too_many_active_jobs`` (429)."""

    code = "invalid"
    status = 400

    def __init__(self, errors: list[dict[str, Any]] | str, *, status: int | None = None, retry_after: int | None = None,
                 code: str | None = None):
        if isinstance(errors, str):
            errors = [{"field": "non_field_errors", "code": "invalid", "message": errors}]
        self.errors = errors
        self.retry_after = retry_after
        fields: dict[str, list[str]] = {}
        for e in errors:
            fields.setdefault(str(e.get("field") or "non_field_errors"), []).append(str(e["message"]))
        super().__init__("; ".join(str(e["message"]) for e in errors), code=code, status=status, fields=fields,
                         details=errors, headers={"Retry-After": str(retry_after)} if retry_after else None)

    @property
    def messages(self) -> list[str]:
        return [e["message"] for e in self.errors]


def _err(field: str, code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"field": field, "code": code, "message": message, **extra}


# -- deck snapshots --------------------------------------------------------------------------------
def snapshot_build(*, game: str, zones: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """Freeze a deck: its zone counts plus every card's full record, read from the catalog now.

    Raises ``PlaytestError`` naming unknown codes, cards of another game, zones the game does not
    have, and an empty main deck — all problems at once.
    """
    errors: list[dict[str, Any]] = []
    if game not in g.GAMES:
        raise PlaytestError([_err("game", "unknown_game", gettext("unknown game %(game)s; expected one of %(games)s") % {"game": repr(game), "games": ", ".join(g.GAMES)})])
    clean: dict[str, dict[str, int]] = {}
    for zone, entries in zones.items():
        if zone not in g.GAME_ZONES[game]:
            errors.append(_err("deck", "zone_not_allowed",
                               gettext("%(game)s decks have no %(zone)s zone (zones: %(zones)s)") % {
                                   "game": g.GAME_NAMES[game], "zone": repr(zone), "zones": ", ".join(g.GAME_ZONES[game])}))
            continue
        for code, count in entries.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                errors.append(_err("deck", "invalid_count", gettext("%(zone)s: count of %(code)s must be a positive whole number (got %(value)s)") % {
                                   "zone": zone, "code": code, "value": repr(count)},
                                   codes=[code]))
                continue
            clean.setdefault(zone, {})
            clean[zone][code] = clean[zone].get(code, 0) + count
    if not sum(clean.get("main", {}).values()):
        errors.append(_err("deck", "empty_deck", gettext("the main deck is empty")))
    codes = sorted({code for entries in clean.values() for code in entries})
    found = card_data_by_codes(game=game, codes=codes)
    missing = [c for c in codes if c not in found]
    if missing:
        elsewhere = card_games_by_codes(codes=missing, exclude_game=game)
        wrong = [c for c in missing if c in elsewhere]
        unknown = [c for c in missing if c not in elsewhere]
        if unknown:
            errors.append(_err("deck", "unknown_card", gettext("unknown %(game)s card code(s): %(codes)s") % {"game": game, "codes": ", ".join(unknown)}, codes=unknown))
        if wrong:
            errors.append(_err("deck", "wrong_game", gettext("card(s) of another game: ")
                               + ", ".join(f"{c} ({elsewhere[c]})" for c in wrong), codes=wrong))
    if errors:
        raise PlaytestError(errors)
    return {
        "zones": {z: dict(sorted(e.items())) for z, e in clean.items()},
        "cards": {code: jsonable(found[code]) for code in codes},
    }


def _construction_errors(game: str, snapshot: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The deck's construction-rule errors (``decks.selectors.deck_validate_records`` on the snapshot's
    card records), messages in the active language."""
    from decks.selectors import deck_validate_records

    cards = {code: CardRecord.from_dict(d) for code, d in snapshot["cards"].items()}
    report = deck_validate_records(game=game, zones=snapshot["zones"], cards=cards)
    return [_err("deck", d.get("code", "invalid_deck"), d["message"], codes=list(d.get("cards", d.get("codes", []))))
            for d in report.get("errors", [])]


# -- limits ----------------------------------------------------------------------------------------
def _active_jobs(*, owner: Any, session_key: str, client_ip: str | None):
    qs = PlaytestJob.objects.filter(status__in=PlaytestJob.ACTIVE)
    if owner is not None:
        return qs.filter(owner=owner)
    cond = Q(owner__isnull=True) & (Q(session_key=session_key) if session_key else Q(pk__in=[]))
    if client_ip:
        cond |= Q(owner__isnull=True, client_ip=client_ip)
    return qs.filter(cond)


_local_create_lock = threading.Lock()


def _lock_keys(*, owner: Any, session_key: str, client_ip: str | None) -> list[int]:
    """Advisory-lock keys (signed 64-bit) for everything the active-job limit counts by: the user,
    or an anonymous job's session and address (both, as either one counts)."""
    import hashlib

    names = [f"user:{owner.pk}"] if owner is not None else (
        ([f"session:{session_key}"] if session_key else []) + ([f"ip:{client_ip}"] if client_ip else []))
    keys = {int.from_bytes(hashlib.blake2b(f"playtest-active:{n}".encode(), digest_size=8).digest(), "big", signed=True)
            for n in names}
    return sorted(keys)  # one order for every request: no deadlock between two lockers


@contextmanager
def _active_jobs_locked(*, owner: Any, session_key: str, client_ip: str | None) -> Iterator[None]:
    """A transaction in which the active-job count cannot change under us until it commits.

    PostgreSQL: transaction-scoped advisory locks on the user (or the anonymous session and address),
    so two requests of one user at the same moment, in any worker process, take turns between
    counting and inserting. Other databases (the embedded SQLite default, one process): a lock of
    this process, held until the job's row is committed.
    """
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                for key in _lock_keys(owner=owner, session_key=session_key, client_ip=client_ip):
                    cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
            yield
    else:
        with _local_create_lock, transaction.atomic():
            yield


def _check_active(*, owner: Any, session_key: str, client_ip: str | None) -> None:
    anon = owner is None
    limit = conf.get("PLAYTEST_MAX_ACTIVE_ANON" if anon else "PLAYTEST_MAX_ACTIVE_USER")
    active = _active_jobs(owner=owner, session_key=session_key, client_ip=client_ip).count()
    if active >= limit:
        who = gettext("anonymous use (per browser session and address)") if anon else gettext("your account")
        raise PlaytestError(
            [_err("non_field_errors", "too_many_active_jobs",
                  gettext("%(n)s playtest job(s) already queued or running for %(who)s; the limit is %(limit)s. "
                          "Wait for one to finish or cancel it.") % {"n": active, "who": who, "limit": limit},
                  limit=limit)],
            status=429, retry_after=30, code="too_many_active_jobs",
        )


def _check_limits(*, owner: Any, session_key: str, client_ip: str | None, games: Any, turn_cap: int) -> None:
    anon = owner is None
    cap = conf.get("PLAYTEST_MAX_GAMES_ANON" if anon else "PLAYTEST_MAX_GAMES_USER")
    if isinstance(games, bool) or not isinstance(games, int):
        raise PlaytestError([_err("games", "invalid", gettext("games must be a whole number (got %(value)s)") % {"value": repr(games)})])
    if games < 1:
        raise PlaytestError([_err("games", "min_value", gettext("games must be at least 1 (got %(value)s)") % {"value": games})])
    if games > cap:
        if anon:
            message = gettext("at most %(cap)s games per job for anonymous use (asked for %(n)s); signed-in users "
                              "may run up to %(user_cap)s") % {"cap": f"{cap:,}", "n": f"{games:,}",
                                                                "user_cap": f"{conf.get('PLAYTEST_MAX_GAMES_USER'):,}"}
        else:
            message = gettext("at most %(cap)s games per job (asked for %(n)s)") % {"cap": f"{cap:,}", "n": f"{games:,}"}
        raise PlaytestError([_err("games", "max_value", message, limit=cap)])
    max_turns = conf.get("PLAYTEST_MAX_TURN_CAP")
    if not 1 <= turn_cap <= max_turns:
        raise PlaytestError([_err("turn_cap", "max_value", gettext("turn_cap must be between 1 and %(max)s (got %(value)s)") % {"max": max_turns, "value": turn_cap},
                                  limit=max_turns)])
    _check_active(owner=owner, session_key=session_key, client_ip=client_ip)  # early answer; checked again, locked


def _resolve_options(game: str, engine: Any, pilot: str | None, options: Any) -> tuple[str, dict[str, Any]]:
    errors = []
    pilot = pilot or engine.default_pilot
    if pilot not in engine.pilots:
        errors.append(_err("pilot", "invalid_choice", gettext("unknown pilot %(pilot)s for %(game)s; expected one of %(pilots)s") % {
            "pilot": repr(pilot), "game": game, "pilots": ", ".join(engine.pilots)}))
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise PlaytestError([_err("options", "invalid", gettext("options must be an object"))])
    defaults = dict(engine.default_options)
    clean: dict[str, Any] = {}
    for key, value in options.items():
        if key == "turn_cap":
            errors.append(_err("options", "invalid", gettext("set turn_cap as its own field, not inside options")))
        elif key not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            errors.append(_err("options", "unknown_option", gettext("unknown %(game)s goldfish option %(key)s (known: %(known)s)") % {
                "game": game, "key": repr(key), "known": known}))
        else:
            want = type(defaults[key])
            ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                ok, value = True, float(value)
            if not ok:
                errors.append(_err("options", "invalid", gettext("option %(key)s must be %(type)s (got %(value)s)") % {
                    "key": repr(key), "type": want.__name__, "value": repr(value)}))
            elif isinstance(value, int | float) and value < 0:
                errors.append(_err("options", "invalid", gettext("option %(key)s cannot be negative (got %(value)s)") % {"key": repr(key), "value": repr(value)}))
            else:
                clean[key] = value
    if errors:
        raise PlaytestError(errors)
    merged: dict[str, Any] = dict(defaults)
    if engine.catalog_options is not None:
        merged.update(jsonable(engine.catalog_options(catalog_card_records(game=game))))
    merged.update(clean)
    return pilot, jsonable(merged)


# -- create / enqueue ------------------------------------------------------------------------------
def playtest_create(
    *,
    game: str,
    zones: Mapping[str, Mapping[str, int]],
    games: Any,
    owner: Any = None,
    session_key: str = "",
    client_ip: str | None = None,
    seed: int | None = None,
    pilot: str | None = None,
    options: Mapping[str, Any] | None = None,
    turn_cap: int | None = None,
    name: str = "",
    source: str = PlaytestJob.Source.TEXT,
    deck_id: int | None = None,
    deck_version: int | None = None,
    deck_slug: str = "",
) -> PlaytestJob:
    """Validate, snapshot and store a job, then queue it once the transaction commits."""
    if owner is not None and not getattr(owner, "is_authenticated", False):
        owner = None
    playtest_recover()
    try:
        engine = get_engine(game) if game in g.GAMES else None
    except KeyError:
        engine = None
    if game not in g.GAMES:
        raise PlaytestError([_err("game", "unknown_game", gettext("unknown game %(game)s; expected one of %(games)s") % {"game": repr(game), "games": ", ".join(g.GAMES)})])
    if engine is None:
        raise PlaytestError([_err("game", "no_engine", gettext("there is no goldfish engine for %(game)s yet") % {"game": g.GAME_NAMES[game]})])
    if turn_cap is None:
        turn_cap = int(engine.default_options.get("turn_cap", DEFAULT_TURN_CAP))
    if isinstance(turn_cap, bool) or not isinstance(turn_cap, int):
        raise PlaytestError([_err("turn_cap", "invalid", gettext("turn_cap must be a whole number (got %(value)s)") % {"value": repr(turn_cap)})])
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise PlaytestError([_err("seed", "invalid", gettext("seed must be a whole number from 0 to 2^63-1 (got %(value)s)") % {"value": repr(seed)})])
    _check_limits(owner=owner, session_key=session_key, client_ip=client_ip, games=games, turn_cap=turn_cap)
    pilot, opts = _resolve_options(game, engine, pilot, options)
    opts["turn_cap"] = turn_cap
    snapshot = snapshot_build(game=game, zones=zones)
    problems = _construction_errors(game, snapshot)
    if problems:
        raise PlaytestError(problems)
    try:  # one game up front: options the engine refuses (e.g. out of range) are a 400, not a failed job
        play_game(deck_from_snapshot(game, snapshot), 0, 0, options=opts, pilot=pilot)
    except (ValueError, TypeError, KeyError) as exc:
        raise PlaytestError([_err("options", "invalid", gettext("the %(game)s engine refused these settings: %(error)s") % {"game": game, "error": exc})]) from exc
    chunk_size = max(1, int(conf.get("PLAYTEST_CHUNK_SIZE")))
    # Count and insert under one lock: two requests at the same moment cannot both see room for one more.
    with _active_jobs_locked(owner=owner, session_key=session_key, client_ip=client_ip):
        _check_active(owner=owner, session_key=session_key, client_ip=client_ip)
        job = PlaytestJob.objects.create(
            owner=owner, session_key=session_key or "", client_ip=client_ip, game=game, name=name[:200],
            source=source, deck_id=deck_id, deck_version=deck_version, deck_slug=deck_slug or "",
            snapshot=snapshot, games=games, seed=secrets.randbits(48) if seed is None else seed, pilot=pilot,
            options=opts, turn_cap=turn_cap, chunk_size=chunk_size, chunks_total=math.ceil(games / chunk_size),
        )
        job_id = job.pk
        transaction.on_commit(lambda: playtest_enqueue(job_id=job_id))
    return job


QUEUE_DOWN = "the job queue (Celery broker) could not be reached"


def playtest_recover() -> None:
    """Jobs whose chunks were lost: with Celery, queue them again (``tasks.recover_and_send``, which
    the workers also run on their own); otherwise fail the stale ones (``playtest_sweep_stale``)."""
    if conf.executor() != "celery":
        playtest_sweep_stale()
        return
    from .tasks import recover_and_send

    try:
        recover_and_send()
    except Exception:  # noqa: BLE001 - never block a new job over it; the workers retry on their own
        log.warning("could not queue lost playtest chunks again", exc_info=True)


def chunk_task_id(job_id: int, index: int) -> str:
    """Deterministic Celery task id of a chunk, so a job's chunks can be revoked without a lookup."""
    return f"playtest-{job_id}-{index}"


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _thread_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=int(conf.get("PLAYTEST_THREADS")), thread_name_prefix="playtest")
        return _pool


def playtest_enqueue(*, job_id: int) -> None:
    """Hand a job to whatever runs jobs here (see ``conf.executor``)."""
    mode = conf.executor()
    job = PlaytestJob.objects.only("chunks_total", "status").get(pk=job_id)
    if job.status not in PlaytestJob.ACTIVE:
        return
    if mode == "celery":
        from .tasks import send_chunks

        try:
            # a few chunks per player at a time, the rest as they finish (runner.playtest_claim_chunks)
            send_chunks(playtest_claim_chunks(job_id=job_id))
        except Exception as exc:  # broker down: say so on the job instead of leaving it queued forever
            log.exception("could not queue playtest job %s", job_id)  # the details (host, port) go to the log only
            PlaytestJob.objects.filter(pk=job_id, status__in=PlaytestJob.ACTIVE).update(
                status=Status.FAILED, finished=timezone.now(),
                # never the exception's text: it names the internal broker's host and port (issue 19)
                error=f"{QUEUE_DOWN}: {type(exc).__name__}",
            )
    elif mode == "thread":
        playtest_resume_orphans()
        _thread_pool().submit(_run_in_thread, job_id)
    elif mode == "inline":
        playtest_run_all(job_id=job_id)
    else:
        raise ValueError(f"unknown PLAYTEST_EXECUTOR {mode!r} (celery, thread or inline)")


_resumed = False
RESUME_AFTER_SECONDS = 60


def playtest_resume_orphans(*, force: bool = False) -> int:
    """Embedded default only: once per process, pick up jobs left queued or running by a previous
    process (a restarted server). Safe even if another process still runs one of them: chunks that
    are already stored are skipped and a duplicate chunk is dropped. Returns how many were resumed."""
    global _resumed
    if conf.executor() != "thread" or (_resumed and not force):
        return 0
    _resumed = True
    cutoff = timezone.now() - timedelta(seconds=RESUME_AFTER_SECONDS)
    ids = list(PlaytestJob.objects.filter(status__in=PlaytestJob.ACTIVE).filter(
        Q(heartbeat__lt=cutoff) | Q(heartbeat__isnull=True, created__lt=cutoff)).values_list("pk", flat=True))
    for job_id in ids:
        _thread_pool().submit(_run_in_thread, job_id)
    return len(ids)


def _run_in_thread(job_id: int) -> None:
    close_old_connections()
    try:
        playtest_run_all(job_id=job_id)
    except Exception:  # noqa: BLE001 - a background thread must not die silently
        log.exception("playtest job %s failed in its background thread", job_id)
    finally:
        connection.close()


# -- cancel / sweep --------------------------------------------------------------------------------
def playtest_cancel(*, job: PlaytestJob) -> bool:
    """Cancel a queued or running job; its remaining chunks exit early. False if it already ended."""
    with transaction.atomic():
        n = PlaytestJob.objects.filter(pk=job.pk, status__in=PlaytestJob.ACTIVE).update(
            status=Status.CANCELLED, finished=timezone.now(), error="cancelled by its owner"
        )
        if n and job.task_ids:
            ids = list(job.task_ids)
            transaction.on_commit(lambda: _revoke(ids))
    job.refresh_from_db()
    return bool(n)


def playtest_delete(*, job: PlaytestJob) -> None:
    """Delete a finished job and its chunks. A queued or running job must be cancelled first."""
    if job.status in PlaytestJob.ACTIVE:
        raise PlaytestError([_err("status", "active", gettext("the job is %(status)s; cancel it before deleting it") % {"status": job.status})],
                            status=409, code="job_active")
    job.delete()


def _revoke(task_ids: list[str]) -> None:
    try:
        from config.celery import app

        app.control.revoke(task_ids)
    except Exception:  # noqa: BLE001 - revoking is best effort; the chunks also check the status
        log.warning("could not revoke playtest tasks %s", task_ids[:3], exc_info=True)


# -- deck sources ----------------------------------------------------------------------------------
def deck_source_from_text(*, game: str, text: str) -> dict[str, Any]:
    """Zones from pasted deck text (``decks.reader``, deck text only); every line that cannot be
    read is an error with its number."""
    if not isinstance(text, str) or not text.strip():
        raise PlaytestError([_err("text", "required", gettext("the deck list is empty"))])
    reading = read_deck(game=game, text=text, fmt="text")
    if reading.problems:
        raise PlaytestError([_err("text", "parse_error", gettext("line %(line)s: %(message)s") % {"line": e["line"], "message": e["message"]}, line=e["line"]) for e in reading.problems])
    return {"game": game, "zones": reading.zones, "source": PlaytestJob.Source.TEXT}


def deck_source_from_entries(*, game: str, entries: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Zones from ``[{"zone", "code", "count"}]`` entries (``decks.reader``)."""
    return {"game": game, "zones": read_deck(game=game, entries=entries).zones, "source": PlaytestJob.Source.TEXT}


def deck_source_from_deck(*, user: Any, deck_id: int | None = None, share: str | None = None,
                          version: int | None = None) -> dict[str, Any]:
    """Zones of a saved deck (by id: its owner, or anyone for a public deck) or of a shared deck link
    (a link that pins a version always plays that version)."""
    try:
        from decks.selectors import deck_get, deck_get_by_slug, deck_snapshot
    except ImportError as exc:  # pragma: no cover - the decks app is part of the project
        raise PlaytestError("saved decks are not available on this site") from exc
    if share:
        deck = deck_get_by_slug(str(share), user=user)
        if deck is None:
            raise PlaytestError([_err("share", "not_found", gettext("no shared deck with the link %(link)s") % {"link": repr(share)})], status=404,
                                code="not_found")
        pinned = getattr(deck, "shared_version", None)
        if pinned is not None:
            version = pinned
        source = PlaytestJob.Source.SHARE
    else:
        deck = deck_get(deck_id=int(deck_id), user=user) if deck_id is not None else None
        if deck is None:
            raise PlaytestError([_err("deck", "not_found", gettext("deck %(id)s does not exist or is not yours to see") % {"id": deck_id})],
                                status=404, code="not_found")
        source = PlaytestJob.Source.DECK
    try:
        snap = deck_snapshot(deck=deck, version=version)
    except ObjectDoesNotExist as exc:  # DeckVersion.DoesNotExist
        raise PlaytestError([_err("version", "not_found", gettext("the deck has no version %(version)s (latest is %(latest)s)") % {"version": version, "latest": deck.version})]) from exc
    return {"game": deck.game, "zones": snap["zones"], "name": snap.get("name", deck.name), "source": source,
            "deck_id": deck.pk, "deck_version": snap.get("version"), "deck_slug": deck.slug if share is None else str(share)}


def playtest_start(*, data: Mapping[str, Any], owner: Any, session_key: Callable[[], str],
                   client_ip: str | None) -> PlaytestJob:
    """Start a job from checked input (the API's ``PlaytestCreateSerializer`` data, or the page form's
    ``as_api_data()``): one deck source (``deck`` or ``share`` with an optional ``version``,
    ``entries`` or ``text`` with ``game``) and the job's settings. ``owner``: the signed-in user or
    None. ``session_key`` is called once the deck source is known to be good (so an anonymous
    browser gets a session only then). Raises ``PlaytestError``."""
    if "deck" in data or "share" in data:
        src = deck_source_from_deck(user=owner, deck_id=data.get("deck"), share=data.get("share"),
                                    version=data.get("version"))
        if data.get("game") and data["game"] != src["game"]:
            raise PlaytestError([{"field": "game", "code": "mismatch",
                                  "message": f"the deck is a {src['game']} deck, not {data['game']}"}])
    elif "entries" in data:
        src = deck_source_from_entries(game=data["game"], entries=data["entries"])
    else:
        src = deck_source_from_text(game=data["game"], text=data["text"])
    name = data.get("name") or src.pop("name", "") or ""
    src.pop("name", None)
    return playtest_create(
        **src, name=name, games=data.get("games", 1000), owner=owner, session_key=session_key(),
        client_ip=client_ip, seed=data.get("seed"), pilot=data.get("pilot") or None,
        options=data.get("options"), turn_cap=data.get("turn_cap"),
    )
