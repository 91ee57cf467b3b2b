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
from django.utils.translation import gettext

from config.errors import AppError
from config.parsers import bad_text_problem
from rules import games as g
from rules.decktext import MAX_COUNT

from .models import Deck, DeckCard, DeckVersion, ShareLink, Visibility
from .reader import read_deck
from .selectors import deck_can_edit, deck_can_view, zones_diff

MAX_ENTRIES_PER_ZONE = 500
MAX_CODE_LENGTH = 64


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


class DeckVersionRequired(AppError):
    """An edit that does not say which version it is based on (code ``precondition_required``, 428);
    ``params["current_version"]`` is the deck's version."""

    code = "precondition_required"
    status = 428


def zones_normalize(zones: Any) -> dict[str, dict[str, int]]:
    """Check the ``{zone: {code: count}}`` shape; raise ``DeckInputError`` naming the problem."""
    if zones is None:
        return {}
    if not isinstance(zones, Mapping):
        raise DeckInputError("zones", gettext("zones must be an object {zone: {code: count}}"))
    out: dict[str, dict[str, int]] = {}
    for zone, cards in zones.items():
        if zone not in g.ZONES:
            raise DeckInputError("zones", gettext("unknown zone %(zone)s; expected one of %(zones)s") % {"zone": repr(zone), "zones": ", ".join(g.ZONES)})
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


def _snapshot(deck: Deck, *, author: Any, note: str = "") -> DeckVersion:
    deck_cards_sync(deck=deck)
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


@transaction.atomic
def deck_create(*, owner: Any, game: str, name: str, zones: Mapping | None = None, description: str = "",
                visibility: str = Visibility.PRIVATE, note: str = "", forked_from: Deck | None = None,
                forked_from_version: int | None = None) -> Deck:
    _check_fields(game=game, name=name, visibility=visibility, description=description)
    deck = Deck.objects.create(
        owner=owner, game=game, name=name.strip(), description=description, visibility=visibility,
        zones=zones_normalize(zones), version=1, forked_from=forked_from, forked_from_version=forked_from_version,
    )
    _snapshot(deck, author=owner, note=note or "created")
    return deck


@transaction.atomic
def deck_update(*, deck: Deck, user: Any, base_version: int | None, name: str | None = None,
                description: str | None = None, visibility: str | None = None, zones: Mapping | None = None,
                note: str = "") -> Deck:
    """Save a new version. ``base_version`` None means "overwrite whatever is there" (only used by forms
    that just loaded the deck in the same request). Raises DeckConflict, DeckPermissionDenied, DeckInputError.
    """
    if not deck_can_edit(deck=deck, user=user):
        raise DeckPermissionDenied(gettext("only the owner can edit this deck"))
    _check_fields(name=name, visibility=visibility, description=description)
    new_zones = zones_normalize(zones) if zones is not None else None
    current = Deck.objects.select_for_update().get(pk=deck.pk)
    if base_version is not None and base_version != current.version:
        base = current.versions.filter(number=base_version).first()
        changes: dict[str, Any] = {"zones": zones_diff(base.zones if base else {}, current.zones)}
        if base and base.name != current.name:
            changes["name"] = {"from": base.name, "to": current.name}
        raise DeckConflict(deck=current, base_version=base_version, changes=changes)
    changed = False
    for attr, value in (("name", name.strip() if name is not None else None), ("description", description),
                        ("visibility", visibility), ("zones", new_zones)):
        if value is not None and getattr(current, attr) != value:
            setattr(current, attr, value)
            changed = True
    if not changed:
        return current
    # Compare-and-swap on the version: a concurrent writer makes this update 0 rows.
    rows = Deck.objects.filter(pk=current.pk, version=current.version).update(
        name=current.name, description=current.description, visibility=current.visibility,
        zones=current.zones, version=F("version") + 1, updated=timezone.now(),
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
    """Copy ``deck`` (at ``version``, default the latest) into ``user``'s private decks."""
    if not deck_can_view(deck=deck, user=user, via_link=via_link):
        raise DeckPermissionDenied(gettext("you cannot see this deck"))
    if version is None or version == deck.version:
        zones, number, src_name = deck.zones, deck.version, deck.name
    else:
        v = deck.versions.filter(number=version).first()
        if v is None:
            raise DeckInputError("version", gettext("deck has no version %(version)s (latest is %(latest)s)") % {"version": version, "latest": deck.version})
        zones, number, src_name = v.zones, v.number, v.name
    return deck_create(
        owner=user, game=deck.game, name=(name or f"{src_name} (fork)")[:120], zones=zones,
        description=deck.description, visibility=Visibility.PRIVATE,
        note=f"forked from deck {deck.pk} v{number}", forked_from=deck, forked_from_version=number,
    )


@transaction.atomic
def share_link_create(*, deck: Deck, user: Any, version: int | None = None) -> ShareLink:
    """A new share link, pinned to ``version`` if given. Sharing a private deck makes it unlisted."""
    if not deck_can_edit(deck=deck, user=user):
        raise DeckPermissionDenied(gettext("only the owner can share this deck"))
    if version is not None and not deck.versions.filter(number=version).exists():
        raise DeckInputError("version", gettext("deck has no version %(version)s (latest is %(latest)s)") % {"version": version, "latest": deck.version})
    if deck.visibility == Visibility.PRIVATE:
        Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.UNLISTED)
        deck.visibility = Visibility.UNLISTED
    return ShareLink.objects.create(deck=deck, version=version)


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
        zones = zones_normalize(reading.zones)
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
