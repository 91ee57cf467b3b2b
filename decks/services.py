"""Writes for decks. Every save makes a new ``DeckVersion`` (a full snapshot) inside one transaction.

Updates are optimistic: the caller says which version its edit was based on; if the deck moved on
meanwhile, ``DeckConflict`` is raised with what changed since, and nothing is written.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from config.errors import AppError
from config.parsers import bad_text_problem
from rules import games as g
from rules.decktext import MAX_COUNT

from .models import Deck, DeckCard, DeckVersion, Format, ShareLink, Visibility
from .reader import read_deck
from .selectors import deck_can_edit, deck_can_view, deck_validate, deck_version_visible, zones_diff

MAX_ENTRIES_PER_ZONE = 200  # different cards in one zone (the largest legal deck has 60 cards)
MAX_CARDS_PER_DECK = 500  # copies over all zones
MAX_CODE_LENGTH = 64
# Per account (settings override these; docs/security.md): decks kept, decks created per period.
DEFAULT_DECKS_MAX_PER_USER = 500
DEFAULT_DECK_CREATE_RATE = "60/hour"


class DeckInputError(AppError):
    """Bad input for a deck write (code ``invalid``, 400); ``field`` names the offending field and
    ``message`` says what is wrong (without the field's name)."""

    code = "invalid"
    status = 400

    def __init__(self, field: str, message: Any):
        super().__init__(message, fields={field: [message]})
        self.field = field


class DeckPermissionDenied(AppError):
    """Not the owner (code ``permission_denied``, 403)."""

    code = "permission_denied"
    status = 403


class DeckConflict(AppError):
    """The edit was based on ``base_version`` but the deck is at ``current_version`` (code
    ``conflict``, 409; ``precondition_failed``, 412, when the base came from ``If-Match``). ``params``
    carry both versions and ``changes`` (what changed since); the answer has the deck's ``ETag``."""

    code = "conflict"
    status = 409

    def __init__(self, *, deck: Deck, base_version: int, changes: dict[str, Any]):
        super().__init__(gettext("deck is at version %(current)s; your edit was based on version %(base)s")
                         % {"current": deck.version, "base": base_version},
                         params={"current_version": deck.version, "base_version": base_version, "changes": changes},
                         headers={"ETag": deck.etag})
        self.deck = deck
        self.base_version = base_version
        self.current_version = deck.version
        self.changes = changes

    def precondition_failed(self) -> DeckConflict:
        """The same conflict found through ``If-Match``: 412 ``precondition_failed``."""
        self.code, self.status = "precondition_failed", 412
        return self


class DeckQuotaExceeded(AppError):
    """The account already has as many decks as it may keep (code ``deck_quota_exceeded``, 403);
    ``params["limit"]``."""

    code = "deck_quota_exceeded"
    status = 403
    default_message = gettext_lazy("you have %(limit)s decks, as many as an account may keep; delete one first")


class DeckRateLimited(AppError):
    """Too many decks created in a short time (code ``throttled``, 429, ``Retry-After``)."""

    code = "throttled"
    status = 429
    default_message = gettext_lazy("you created %(count)s decks in the last %(period)s; "
                                   "wait %(wait)s seconds before creating another")


class DeckVersionRequired(AppError):
    """An edit that does not say which version it is based on (code ``precondition_required``, 428);
    ``params["current_version"]`` is the deck's version."""

    code = "precondition_required"
    status = 428


def zones_normalize(zones: Any, *, game: str | None = None) -> dict[str, dict[str, int]]:
    """Check the ``{zone: {code: count}}`` shape (with ``game``: only that game's zones) and the sizes
    (``MAX_ENTRIES_PER_ZONE`` different cards per zone, ``MAX_CARDS_PER_DECK`` copies in all); raise
    ``DeckInputError`` naming the problem."""
    if zones is None:
        return {}
    if not isinstance(zones, Mapping):
        raise DeckInputError("zones", gettext("zones must be an object {zone: {code: count}}"))
    allowed = g.GAME_ZONES[game] if game in g.GAME_ZONES else g.ZONES
    out: dict[str, dict[str, int]] = {}
    for zone, cards in zones.items():
        if zone not in allowed:
            if game in g.GAME_ZONES and zone in g.ZONES:
                raise DeckInputError("zones", gettext("%(game)s decks have no %(zone)s zone (zones: %(zones)s)") % {
                    "game": g.GAME_NAMES[game], "zone": repr(zone), "zones": ", ".join(allowed)})
            raise DeckInputError("zones", gettext("unknown zone %(zone)s; expected one of %(zones)s") % {"zone": repr(zone), "zones": ", ".join(allowed)})
        if not isinstance(cards, Mapping):
            raise DeckInputError(f"zones.{zone}", gettext("must be an object {code: count}"))
        if len(cards) > MAX_ENTRIES_PER_ZONE:
            raise DeckInputError(f"zones.{zone}", gettext("at most %(n)s different cards per zone") % {"n": MAX_ENTRIES_PER_ZONE})
        clean: dict[str, int] = {}
        for code, count in cards.items():
            if (not isinstance(code, str) or not code.strip() or len(code) > MAX_CODE_LENGTH
                    or any(c.isspace() for c in code) or bad_text_problem(code)):  # NUL, lone surrogates
                raise DeckInputError(f"zones.{zone}", gettext("invalid card code %(code)s") % {"code": repr(code)})
            if isinstance(count, bool) or not isinstance(count, int):
                raise DeckInputError(f"zones.{zone}.{code}", gettext("count must be a whole number (got %(value)s)") % {"value": repr(count)})
            if count < 0 or count > MAX_COUNT:
                raise DeckInputError(f"zones.{zone}.{code}", gettext("count must be between 0 and %(max)s (got %(value)s)") % {"max": MAX_COUNT, "value": count})
            if count:
                clean[code.strip()] = clean.get(code.strip(), 0) + count
        if clean:
            out[zone] = dict(sorted(clean.items()))
    total = sum(n for cards in out.values() for n in cards.values())
    if total > MAX_CARDS_PER_DECK:
        raise DeckInputError("zones", gettext("a deck holds at most %(n)s cards (this one has %(total)s)") % {
            "n": MAX_CARDS_PER_DECK, "total": total})
    return out


def _check_fields(*, game: str | None = None, name: str | None = None, visibility: str | None = None,
                  description: str | None = None) -> None:
    if game is not None and game not in g.GAMES:
        raise DeckInputError("game", gettext("unknown game %(game)s; expected one of %(games)s") % {"game": repr(game), "games": ", ".join(g.GAMES)})
    if name is not None and (not name.strip() or len(name) > 120):
        raise DeckInputError("name", gettext("name is required (at most 120 characters)"))
    if visibility is not None and visibility not in Visibility.values:
        raise DeckInputError("visibility", gettext("visibility must be one of %(values)s") % {"values": ", ".join(Visibility.values)})
    if description is not None and len(description) > 5000:
        raise DeckInputError("description", gettext("description is at most 5000 characters"))


def _format_resolve(game: str, code: str | None) -> Format | None:
    """The format ``code`` of ``game`` ("" or None: no format); an unknown code is a 400 naming ``format``."""
    if not code:
        return None
    fmt = Format.objects.filter(game=game, code=str(code)[:40]).first()
    if fmt is None:
        known = ", ".join(Format.objects.filter(game=game).values_list("code", flat=True)) or "–"
        raise DeckInputError("format", gettext("unknown format %(format)s for this game; expected one of %(formats)s")
                             % {"format": repr(str(code)[:40]), "formats": known})
    return fmt


def _snapshot(deck: Deck, *, author: Any, note: str = "") -> DeckVersion:
    deck_cards_sync(deck=deck)
    deck_legality_store(deck=deck)
    return DeckVersion.objects.create(
        deck=deck, number=deck.version, name=deck.name, description=deck.description,
        zones=deck.zones, author=author, note=note[:200],
    )


def deck_cards_sync(*, deck: Deck) -> None:
    """Rewrite the deck's ``DeckCard`` rows from ``deck.zones`` (copies summed over zones): every write
    of a new version calls it, so "decks using this card" and the public list's filters follow."""
    copies: dict[str, int] = {}
    for cards in (deck.zones or {}).values():
        for code, n in (cards or {}).items():
            if isinstance(n, int) and n > 0:
                copies[code] = copies.get(code, 0) + n
    existing = {row.code: row for row in DeckCard.objects.filter(deck=deck)}
    gone = [row.pk for code, row in existing.items() if code not in copies]
    if gone:
        DeckCard.objects.filter(pk__in=gone).delete()
    changed = [row for code, row in existing.items() if code in copies and row.copies != copies[code]]
    for row in changed:
        row.copies = copies[row.code]
    if changed:
        DeckCard.objects.bulk_update(changed, ["copies"])
    DeckCard.objects.bulk_create([DeckCard(deck=deck, code=code[:64], copies=min(n, 32767))
                                  for code, n in copies.items() if code not in existing])


def deck_legality_store(*, deck: Deck) -> None:
    """Check ``deck``'s latest version against its game's rules and store the outcome on the deck
    (``legal``, ``problems``): lists show it without validating anything (one catalog read per save)."""
    report = deck_validate(game=deck.game, zones=deck.zones or {}, fmt=deck.format)
    deck.legal, deck.problems = bool(report["valid"]), len(report["errors"])
    Deck.objects.filter(pk=deck.pk).update(legal=deck.legal, problems=deck.problems)


def _setting(name: str, default: Any) -> Any:
    from django.conf import settings

    return getattr(settings, name, default)


def _check_quota(owner: Any) -> None:
    """Raise ``DeckQuotaExceeded`` / ``DeckRateLimited`` for an owner at a limit. Runs with the owner's
    row locked (PostgreSQL), so simultaneous creates cannot all see room for one more."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from rest_framework.throttling import SimpleRateThrottle

    if owner is None or not getattr(owner, "pk", None):
        return
    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
    limit = int(_setting("DECKS_MAX_PER_USER", DEFAULT_DECKS_MAX_PER_USER))
    if Deck.objects.filter(owner_id=owner.pk).count() >= limit:
        raise DeckQuotaExceeded(params={"limit": limit})
    rate = str(_setting("DECK_CREATE_RATE", DEFAULT_DECK_CREATE_RATE))
    number, seconds = SimpleRateThrottle.parse_rate(None, rate)
    since = timezone.now() - timedelta(seconds=seconds)
    recent = list(Deck.objects.filter(owner_id=owner.pk, created__gte=since).order_by("-created")
                  .values_list("created", flat=True)[:number])
    if len(recent) >= number:
        wait = max(1, int((recent[-1] - since).total_seconds()) + 1)
        period = rate.split("/", 1)[1]
        raise DeckRateLimited(params={"count": len(recent), "period": period, "wait": wait},
                              headers={"Retry-After": str(wait)})


@transaction.atomic
def deck_create(*, owner: Any, game: str, name: str, zones: Mapping | None = None, description: str = "",
                visibility: str = Visibility.PRIVATE, note: str = "", forked_from: Deck | None = None,
                forked_from_version: int | None = None, format_code: str | None = None) -> Deck:
    _check_fields(game=game, name=name, visibility=visibility, description=description)
    fmt = _format_resolve(game, format_code)
    clean = zones_normalize(zones, game=game)
    _check_quota(owner)
    deck = Deck.objects.create(
        owner=owner, game=game, name=name.strip(), description=description, visibility=visibility,
        zones=clean, version=1, forked_from=forked_from, forked_from_version=forked_from_version, format=fmt,
        public_from_version=1 if visibility == Visibility.PUBLIC else None,
    )
    _snapshot(deck, author=owner, note=note or "created")
    return deck


@transaction.atomic
def deck_update(*, deck: Deck, user: Any, base_version: int | None, name: str | None = None,
                description: str | None = None, visibility: str | None = None, zones: Mapping | None = None,
                note: str = "", publish_history: bool = False, format_code: str | None = None) -> Deck:
    """Save a new version. ``format_code``: None keeps the format, "" clears it, else the game's format code. ``base_version`` None means "overwrite whatever is there" (only used by forms
    that just loaded the deck in the same request). Raises DeckConflict, DeckPermissionDenied, DeckInputError.

    Making a deck public shows others the versions from this one on; the earlier ones stay the
    owner's unless ``publish_history`` (which also opens them for a deck that is public already).
    """
    if not deck_can_edit(deck=deck, user=user):
        raise DeckPermissionDenied(gettext("only the owner can edit this deck"))
    _check_fields(name=name, visibility=visibility, description=description)
    new_zones = zones_normalize(zones, game=deck.game) if zones is not None else None
    new_format = _format_resolve(deck.game, format_code) if format_code is not None else None
    current = Deck.objects.select_for_update().get(pk=deck.pk)
    if base_version is not None and base_version != current.version:
        base = current.versions.filter(number=base_version).first()
        changes: dict[str, Any] = {"zones": zones_diff(base.zones if base else {}, current.zones)}
        if base and base.name != current.name:
            changes["name"] = {"from": base.name, "to": current.name}
        raise DeckConflict(deck=current, base_version=base_version, changes=changes)
    changed = False
    was_public = current.visibility == Visibility.PUBLIC
    for attr, value in (("name", name.strip() if name is not None else None), ("description", description),
                        ("visibility", visibility), ("zones", new_zones)):
        if value is not None and getattr(current, attr) != value:
            setattr(current, attr, value)
            changed = True
    if format_code is not None and current.format_id != (new_format.pk if new_format else None):
        current.format = new_format
        changed = True
    if publish_history and current.visibility == Visibility.PUBLIC and current.public_from_version not in (None, 1):
        Deck.objects.filter(pk=current.pk).update(public_from_version=1)
        current.public_from_version = 1
    if not changed:
        return current
    if current.visibility == Visibility.PUBLIC and not was_public:
        # Going public: others see this new version on, not what was private before (issue 19).
        current.public_from_version = 1 if publish_history else current.version + 1
    # Compare-and-swap on the version: a concurrent writer makes this update 0 rows.
    rows = Deck.objects.filter(pk=current.pk, version=current.version).update(
        name=current.name, description=current.description, visibility=current.visibility,
        zones=current.zones, version=F("version") + 1, updated=timezone.now(),
        public_from_version=current.public_from_version, format=current.format,
    )
    if rows != 1:  # pragma: no cover - select_for_update makes this unreachable on PostgreSQL
        fresh = Deck.objects.get(pk=current.pk)
        raise DeckConflict(deck=fresh, base_version=current.version, changes={})
    current.refresh_from_db()
    _snapshot(current, author=user, note=note)
    return current


def deck_restore(*, deck: Deck, user: Any, version: int, base_version: int | None) -> Deck:
    """Save the content (name, description, zones) of an old ``version`` as a new version."""
    if not deck_can_edit(deck=deck, user=user):
        raise DeckPermissionDenied(gettext("only the owner can edit this deck"))
    old = deck.versions.filter(number=version).first()
    if old is None:
        raise DeckInputError("version", gettext("deck has no version %(version)s (latest is %(latest)s)") % {"version": version, "latest": deck.version})
    return deck_update(deck=deck, user=user, base_version=base_version, name=old.name, description=old.description,
                       zones=old.zones, note=f"restored version {version}")


@transaction.atomic
def deck_delete(*, deck: Deck, user: Any) -> None:
    if not deck_can_edit(deck=deck, user=user):
        raise DeckPermissionDenied(gettext("only the owner can delete this deck"))
    deck.delete()


def deck_fork(*, deck: Deck, user: Any, version: int | None = None, name: str | None = None,
              via_link: bool = False) -> Deck:
    """Copy ``deck`` (at ``version``, default the one shown) into ``user``'s private decks: name,
    description and cards of that version. Only versions the reader may see (``deck_version_visible``:
    through a link, the one version it shows; a public deck's, those since it was made public)."""
    if not deck_can_view(deck=deck, user=user, via_link=via_link):
        raise DeckPermissionDenied(gettext("you cannot see this deck"))
    if version is None or version == deck.version:
        zones, number, src_name, description = deck.zones, deck.version, deck.name, deck.description
    else:
        v = deck.versions.filter(number=version).first() if deck_version_visible(deck=deck, number=version) else None
        if v is None:
            if getattr(deck, "shared_version", None) is not None or getattr(deck, "via_link", False):
                raise DeckInputError("version", gettext("this link shows version %(shown)s only") % {"shown": deck.version})
            raise DeckInputError("version", gettext("deck has no version %(version)s (latest is %(latest)s)") % {"version": version, "latest": deck.version})
        zones, number, src_name, description = v.zones, v.number, v.name, v.description
    return deck_create(
        owner=user, game=deck.game, name=(name or f"{src_name} (fork)")[:120], zones=zones,
        description=description, visibility=Visibility.PRIVATE,
        note=f"forked from deck {deck.pk} v{number}", forked_from=deck, forked_from_version=number,
    )


@transaction.atomic
def share_link_create(*, deck: Deck, user: Any, version: int | None = None) -> ShareLink:
    """A new share link, pinned to ``version`` if given. Sharing a private deck makes it unlisted.

    A new link is a change of the deck: it is saved as a new version (same cards, the note says so),
    so an edit based on the version before it conflicts (409/412) instead of silently making the
    deck private again and closing the new link (issue 19)."""
    if not deck_can_edit(deck=deck, user=user):
        raise DeckPermissionDenied(gettext("only the owner can share this deck"))
    current = Deck.objects.select_for_update().get(pk=deck.pk)
    if version is not None and not current.versions.filter(number=version).exists():
        raise DeckInputError("version", gettext("deck has no version %(version)s (latest is %(latest)s)") % {"version": version, "latest": current.version})
    if current.visibility == Visibility.PRIVATE:
        current.visibility = Visibility.UNLISTED
    Deck.objects.filter(pk=current.pk).update(visibility=current.visibility, version=F("version") + 1,
                                              updated=timezone.now())
    current.refresh_from_db()
    _snapshot(current, author=user, note=f"share link created (pinned to version {version})" if version
              else "share link created")
    deck.visibility, deck.version, deck.updated = current.visibility, current.version, current.updated
    return ShareLink.objects.create(deck=current, version=version)


SAMPLE_USER = "sample"
_SAMPLE_FILE = re.compile(r"^(?P<game>[a-z]+)-(?P<name>[a-z0-9-]+)\.txt$")


@transaction.atomic
def sample_decks_load(*, root: Path) -> list[str]:
    """Load ``root/<game>-<name>.txt`` as public decks of the ``sample`` user, named after the file
    (``ws-night-drive.txt`` → "Night Drive"), described by its ``//`` comment lines (idempotent: an
    unchanged deck is left alone, a changed one gets a new version). Returns one line per deck.
    Raises ``DeckInputError`` naming the file and line of anything unreadable (nothing is written).
    """
    from django.contrib.auth import get_user_model

    User = get_user_model()
    user = User.objects.filter(username=SAMPLE_USER).first()
    if user is None:
        user = User(username=SAMPLE_USER)
        user.set_unusable_password()
        user.save()
    out: list[str] = []
    for path in sorted(Path(root).glob("*.txt")):
        m = _SAMPLE_FILE.match(path.name)
        if not m or m.group("game") not in g.GAMES:
            raise DeckInputError("file", f"{path.name}: expected <game>-<name>.txt with game one of {', '.join(g.GAMES)}")
        game = m.group("game")
        text = path.read_text(encoding="utf-8")
        reading = read_deck(game=game, text=text, fmt="text")
        if reading.problems:
            e = reading.problems[0]
            raise DeckInputError("text", f"{path.name} line {e['line']}: {e['message']}")
        comments = [ln.strip()[2:].strip() for ln in text.splitlines() if ln.strip().startswith("//")]
        name = m.group("name").replace("-", " ").title()
        description = "\n".join(comments)
        zones = zones_normalize(reading.zones, game=game)
        deck = Deck.objects.filter(owner=user, game=game, name=name).first()
        if deck is None:
            deck_create(owner=user, game=game, name=name, zones=zones, description=description,
                        visibility=Visibility.PUBLIC, note=f"sample deck {path.name}")
            out.append(f"{path.name}: created")
        elif deck.zones != zones or deck.description != description or deck.visibility != Visibility.PUBLIC:
            deck_update(deck=deck, user=user, base_version=None, zones=zones, description=description,
                        visibility=Visibility.PUBLIC, note=f"sample deck {path.name} changed")
            out.append(f"{path.name}: updated")
        else:
            out.append(f"{path.name}: unchanged")
    return out
