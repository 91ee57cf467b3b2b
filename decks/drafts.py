"""The deck builder's working copy (``DeckDraft``): changes, undo, save as one version, discard.

Builder clicks change the working copy only; ``draft_save`` turns it into one new ``DeckVersion``
(with the player's note), so building a deck makes one version, not one per click. Every change is a
delta (``+n`` / ``−n`` / set to ``n``) recorded with the counts it replaced, so the last change can
be undone. When the deck moves on elsewhere (the API, the text editor, a restore), the copy's own
changes are re-applied on top of the latest version the next time the copy is read (``rebased``).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from rules import games as g
from rules.decktext import MAX_COUNT

from .models import UNDO_DEPTH, Deck, DeckDraft
from .selectors import deck_can_edit, zones_clean_copy, zones_diff
from .services import MAX_ENTRIES_PER_ZONE, DeckInputError, DeckPermissionDenied, deck_update

ADD, REMOVE, SET = "add", "remove", "set"


@dataclass(frozen=True)
class Change:
    """One card's change: ``op`` add / remove ``count`` copies, or set the count to ``count``."""

    zone: str
    code: str
    op: str
    count: int


@dataclass
class DraftResult:
    draft: DeckDraft
    deck: Deck
    changed: bool = False
    rebased: bool = False  # the deck had moved on: the copy's changes now sit on the latest version
    codes: set[str] = field(default_factory=set)  # cards whose counts changed
    entry: dict[str, Any] | None = None  # the undo entry made (or undone)


def _own(deck: Deck, user: Any) -> None:
    if not deck_can_edit(deck=deck, user=user):
        raise DeckPermissionDenied(gettext("only the owner can edit this deck"))


def _copy(zones: Mapping[str, Mapping[str, int]] | None) -> dict[str, dict[str, int]]:
    return {zone: dict(cards) for zone, cards in (zones or {}).items()}


def _rebase(draft: DeckDraft, current: Deck) -> bool:
    """Put the copy's own changes (base version → copy) on top of the deck's latest version.
    Returns True when the copy had changes that were carried over."""
    if draft.base_version == current.version:
        return False
    base = current.versions.filter(number=draft.base_version).first()
    own = zones_diff(base.zones, draft.zones) if base is not None else {}
    zones = _copy(current.zones)
    for zone, change in own.items():
        cards = zones.setdefault(zone, {})
        if zone == "partner" and change["added"]:
            cards.clear()
        for code, n in change["added"].items():
            cards[code] = min(MAX_COUNT, cards.get(code, 0) + n)
        for code, n in change["removed"].items():
            left = cards.get(code, 0) - n
            if left > 0:
                cards[code] = left
            else:
                cards.pop(code, None)
    draft.zones = zones_clean_copy(zones)
    draft.base_version = current.version
    return bool(own)


def _locked(deck: Deck) -> tuple[DeckDraft, Deck, bool]:
    """The deck's copy, locked for this transaction (made from the latest version if missing), rebased."""
    current = Deck.objects.select_for_update().get(pk=deck.pk)
    draft = DeckDraft.objects.select_for_update().filter(deck=current).first()
    if draft is None:
        try:
            with transaction.atomic():
                draft = DeckDraft.objects.create(deck=current, base_version=current.version,
                                                 zones=zones_clean_copy(current.zones))
        except IntegrityError:  # made by a concurrent request meanwhile
            draft = DeckDraft.objects.select_for_update().get(deck=current)
    stale = draft.base_version != current.version
    rebased = _rebase(draft, current)
    if stale:
        draft.save()
    draft.deck = current
    return draft, current, rebased


def draft_get(*, deck: Deck, user: Any) -> DraftResult:
    """The working copy of ``deck`` (made from the latest version when there is none yet), rebased on
    the latest version when the deck moved on; ``rebased`` says the copy's changes were carried over."""
    _own(deck, user)
    existing = DeckDraft.objects.filter(deck=deck).first()
    if existing is not None and existing.base_version == deck.version:
        existing.deck = deck
        return DraftResult(draft=existing, deck=deck)
    with transaction.atomic():
        draft, current, rebased = _locked(deck)
    return DraftResult(draft=draft, deck=current, rebased=rebased)


def draft_unsaved(*, deck: Deck) -> bool:
    """Whether the builder holds changes to ``deck`` not saved as a version (one or two small queries)."""
    draft = DeckDraft.objects.filter(deck=deck).only("zones", "base_version").first()
    if draft is None:
        return False
    if draft.base_version == deck.version:
        return zones_clean_copy(draft.zones) != zones_clean_copy(deck.zones)
    base = deck.versions.filter(number=draft.base_version).only("zones").first()
    return base is not None and bool(zones_diff(base.zones, draft.zones))


def draft_pending(draft: DeckDraft) -> dict[str, dict]:
    """The copy's unsaved changes against the version it is based on (``zones_diff`` shape)."""
    return zones_diff(draft.deck.zones or {}, draft.zones or {}) if draft.base_version == draft.deck.version else {}


def _apply_one(zones: dict[str, dict[str, int]], change: Change, before: dict[tuple[str, str], int]) -> None:
    cards = zones.setdefault(change.zone, {})
    have = cards.get(change.code, 0)
    if change.op == ADD:
        new = have + max(1, change.count)
    elif change.op == REMOVE:
        new = max(0, have - max(1, change.count))
    else:
        new = max(0, change.count)
    if change.zone == "partner" and new:
        for other in [c for c in cards if c != change.code]:
            before.setdefault(("partner", other), cards.pop(other))
        new = 1
    if new > MAX_COUNT:
        raise DeckInputError("count", gettext("At most 99 copies of a card."))
    if new == have:
        return
    before.setdefault((change.zone, change.code), have)
    if new:
        cards[change.code] = new
    else:
        cards.pop(change.code, None)
    if len(cards) > MAX_ENTRIES_PER_ZONE:
        raise DeckInputError("zones", gettext("at most %(n)s different cards per zone") % {"n": MAX_ENTRIES_PER_ZONE})


def _check(game: str, changes: Iterable[Change]) -> list[Change]:
    out = list(changes)
    for change in out:
        if change.zone not in g.GAME_ZONES[game]:
            raise DeckInputError("zone", gettext("%(game)s decks have no %(zone)s zone.")
                                 % {"game": g.GAME_NAMES[game], "zone": change.zone})
        if not change.code or len(change.code) > 64 or any(c.isspace() for c in change.code):
            raise DeckInputError("code", gettext("invalid card code %(code)s") % {"code": repr(change.code)})
    return out


def _push(draft: DeckDraft, entry: dict[str, Any]) -> None:
    draft.undo = [*(draft.undo or []), entry][-UNDO_DEPTH:]


@transaction.atomic
def draft_apply(*, deck: Deck, user: Any, changes: Iterable[Change], kind: str = "",
                replace: bool = False) -> DraftResult:
    """Apply ``changes`` to the working copy as one undoable step (``kind`` names it for the undo
    message: add, remove, set, paste...). ``replace`` first empties the copy (a pasted list that
    replaces the deck). Raises ``DeckInputError`` (zone the game lacks, more than 99 copies) and
    ``DeckPermissionDenied``; nothing is changed then."""
    _own(deck, user)
    changes = _check(deck.game, changes)
    draft, current, rebased = _locked(deck)
    zones = _copy(draft.zones)
    before: dict[tuple[str, str], int] = {}
    if replace:
        for zone, cards in zones.items():
            for code, n in cards.items():
                before[(zone, code)] = n
        zones = {}
    for change in changes:
        _apply_one(zones, change, before)
    zones = zones_clean_copy(zones)
    if zones == zones_clean_copy(draft.zones):
        return DraftResult(draft=draft, deck=current, rebased=rebased)
    first = changes[0] if changes else None
    entry = {"kind": kind or (first.op if first else "paste"), "cards": [[z, c, n] for (z, c), n in before.items()],
             "code": first.code if first and len(changes) == 1 else "", "count": first.count if first else 0,
             "zone": first.zone if first else "main", "n": len(changes)}
    _push(draft, entry)
    draft.zones = zones
    draft.save()
    return DraftResult(draft=draft, deck=current, changed=True, rebased=rebased,
                       codes={c for (_z, c) in before}, entry=entry)


@transaction.atomic
def draft_undo(*, deck: Deck, user: Any) -> DraftResult:
    """Undo the last change of the working copy (``entry`` is the change undone; None: nothing to undo)."""
    _own(deck, user)
    draft, current, rebased = _locked(deck)
    stack = list(draft.undo or [])
    if not stack:
        return DraftResult(draft=draft, deck=current, rebased=rebased)
    entry = stack.pop()
    zones = _copy(draft.zones)
    codes: set[str] = set()
    for zone, code, n in entry.get("cards", []):
        if zone not in g.ZONES:
            continue
        cards = zones.setdefault(zone, {})
        if n:
            cards[code] = int(n)
        else:
            cards.pop(code, None)
        codes.add(code)
    draft.zones = zones_clean_copy(zones)
    draft.undo = stack
    draft.save()
    return DraftResult(draft=draft, deck=current, changed=True, rebased=rebased, codes=codes, entry=entry)


@transaction.atomic
def draft_discard(*, deck: Deck, user: Any) -> DraftResult:
    """Drop the copy's unsaved changes (back to the latest version); undo brings them back."""
    _own(deck, user)
    draft, current, rebased = _locked(deck)
    target = zones_clean_copy(current.zones)
    if draft.zones == target:
        return DraftResult(draft=draft, deck=current, rebased=rebased)
    before: dict[tuple[str, str], int] = {}
    for zone in g.ZONES:
        mine, theirs = draft.zones.get(zone) or {}, target.get(zone) or {}
        for code in set(mine) | set(theirs):
            if mine.get(code, 0) != theirs.get(code, 0):
                before[(zone, code)] = mine.get(code, 0)
    entry = {"kind": "discard", "cards": [[z, c, n] for (z, c), n in before.items()], "code": "", "count": 0,
             "zone": "main", "n": len(before)}
    _push(draft, entry)
    draft.zones = target
    draft.save()
    return DraftResult(draft=draft, deck=current, changed=True, rebased=rebased,
                       codes={c for (_z, c) in before}, entry=entry)


def pending_note(pending: Mapping[str, Mapping[str, Any]], limit: int = 200) -> str:
    """A version note listing the changes (``+4 DC/W01-001, −1 DC/W01-002 (extra)``), cut to ``limit``."""
    parts = []
    for zone, change in pending.items():
        where = "" if zone == "main" else f" ({zone})"
        parts += [f"+{n} {code}{where}" for code, n in change["added"].items()]
        parts += [f"−{n} {code}{where}" for code, n in change["removed"].items()]
    text = "builder: " + ", ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@transaction.atomic
def draft_save(*, deck: Deck, user: Any, note: str = "") -> DraftResult:
    """Save the working copy as one new version (``note``, or a list of the changes when empty).
    ``changed`` is False when the copy equals the latest version (no version is made)."""
    _own(deck, user)
    draft, current, rebased = _locked(deck)
    pending = zones_diff(current.zones or {}, draft.zones or {})
    if not pending:
        return DraftResult(draft=draft, deck=current, rebased=rebased)
    saved = deck_update(deck=current, user=user, base_version=current.version, zones=draft.zones,
                        note=(note or "").strip()[:200] or pending_note(pending))
    draft.base_version = saved.version
    draft.zones = zones_clean_copy(saved.zones)
    draft.save()
    draft.deck = saved
    return DraftResult(draft=draft, deck=saved, changed=True, rebased=rebased,
                       codes={c for z in pending.values() for part in ("added", "removed") for c in z[part]})
