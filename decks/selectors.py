"""Reads for decks. Visibility rules live here so pages, the API and playtests agree.

- the owner sees every deck of theirs;
- anyone sees ``public`` decks (listed and by id);
- ``unlisted`` decks are reachable only through a share link (``deck_get_by_slug``);
- ``private`` decks are invisible to everyone else (callers answer 404).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Q, QuerySet, Sum

from catalog.selectors import card_records_resolve
from rules import games as g
from rules.cards import CardRecord
from rules.decktext import format_deck_text

from .models import Deck, DeckCard, DeckVersion, Format, ShareLink, Visibility


def _is_owner(deck: Deck, user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False) and deck.owner_id == user.pk)


def deck_can_view(*, deck: Deck, user: Any, via_link: bool = False) -> bool:
    if _is_owner(deck, user):
        return True
    if deck.visibility == Visibility.PUBLIC:
        return True
    return via_link and deck.visibility == Visibility.UNLISTED


def deck_can_edit(*, deck: Deck, user: Any) -> bool:
    return _is_owner(deck, user)


def deck_list(*, user: Any = None, filters: Mapping[str, Any] | None = None) -> QuerySet[Deck]:
    """Decks ``user`` may list: their own (any visibility) and everyone's public ones.

    ``filters``: ``game``, ``owner`` (username), ``mine`` (truthy: only the user's), ``q`` (name contains),
    ``visibility`` — through ``DeckFilterSet``; invalid values raise ``DeckFilterError``.
    """
    from .filters import DeckFilterError, DeckFilterSet

    filters = filters or {}
    qs = Deck.objects.select_related("owner", "format")
    visible = Q(visibility=Visibility.PUBLIC)
    if user is not None and getattr(user, "is_authenticated", False):
        visible |= Q(owner=user)
        if filters.get("mine") not in (None, "", "0", "false", False):
            visible = Q(owner=user)
    qs = qs.filter(visible)
    data = {k: filters.get(k) for k in ("game", "owner", "q", "visibility") if filters.get(k) not in (None, "")}
    fs = DeckFilterSet(data=data, queryset=qs)
    if not fs.is_valid():
        raise DeckFilterError(dict(fs.errors))
    return fs.qs


def deck_get(*, deck_id: int, user: Any = None) -> Deck | None:
    """The deck with that id if ``user`` may see it by id (owner, or public), else None.

    The deck carries ``visible_from``: the first version ``user`` may see (the owner every one;
    others, of a public deck, those since it was made public: ``public_from_version``)."""
    deck = Deck.objects.select_related("owner", "forked_from", "format").filter(pk=deck_id).first()
    if deck is None or not deck_can_view(deck=deck, user=user):
        return None
    deck.visible_from = 1 if _is_owner(deck, user) else (deck.public_from_version or 1)
    deck.visible_to = None
    return deck


def _refuse_save(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("a deck as a share link shows it (an old version) is not saved")


def deck_version_visible(*, deck: Deck, number: int) -> bool:
    """Whether the reader ``deck`` was fetched for may see version ``number`` (``deck_get``,
    ``deck_get_by_slug``; a deck fetched otherwise: every version)."""
    last = getattr(deck, "visible_to", None) or deck.version
    return getattr(deck, "visible_from", 1) <= number <= last


def deck_get_by_slug(slug: str, *, user: Any = None) -> Deck | None:
    """The deck behind a share link ``/d/<slug>/`` (the deck's own slug or a ``ShareLink``).

    Returns None when there is no such link or the deck is private and ``user`` is not its owner.
    The returned deck carries ``shared_version``: the version the link pins, or None (= latest).
    """
    slug = (slug or "").strip()
    if not slug or len(slug) > 32:
        return None
    deck = Deck.objects.select_related("owner", "forked_from", "format").filter(slug=slug).first()
    pinned = None
    link = None
    if deck is None:
        link = ShareLink.objects.select_related("deck", "deck__owner", "deck__format").filter(slug=slug).first()
        if link is None:
            return None
        deck, pinned = link.deck, link.version
    if not deck_can_view(deck=deck, user=user, via_link=True):
        return None
    deck.shared_version = pinned
    deck.visible_from, deck.visible_to = 1, None
    if _is_owner(deck, user):
        return deck
    # Anyone else sees the one version the link shows, and nothing newer or older (issue 19): a
    # pinned link gives the deck as it was then (name, description, cards, version number), under
    # the link's own address rather than the deck's always-latest one.
    deck.via_link = True
    if pinned is not None and pinned != deck.version:
        old = deck.versions.filter(number=pinned).first()
        if old is None:
            return None
        deck.name, deck.description, deck.zones = old.name, old.description, old.zones
        deck.version, deck.updated = old.number, old.created
        deck.frozen = True
        deck.save = _refuse_save  # type: ignore[method-assign]
    if link is not None:
        deck.slug = link.slug
    deck.visible_from = deck.visible_to = deck.version
    return deck


def deck_version_list(*, deck: Deck) -> QuerySet[DeckVersion]:
    """The versions the reader may see (``deck_version_visible``), newest first."""
    qs = deck.versions.select_related("author").filter(number__gte=getattr(deck, "visible_from", 1))
    if getattr(deck, "visible_to", None):
        qs = qs.filter(number__lte=deck.visible_to)
    return qs.order_by("-number")


def deck_version_get(*, deck: Deck, number: int) -> DeckVersion | None:
    if not deck_version_visible(deck=deck, number=number):
        return None
    return deck.versions.filter(number=number).first()


def zones_clean_copy(zones: Mapping[str, Mapping[str, int]] | None) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for zone in g.ZONES:
        cards = (zones or {}).get(zone) or {}
        if cards:
            out[zone] = {code: int(n) for code, n in cards.items() if int(n) > 0}
    return out


def deck_snapshot(*, deck: Deck, version: int | None = None) -> dict[str, Any]:
    """``{"game", "name", "version", "zones": {zone: {code: count}}, "text"}`` of a version (default latest).

    Raises ``DeckVersion.DoesNotExist`` for a version the deck does not have (or the reader may not see).
    """
    if version is None or version == deck.version:
        zones, name, number = deck.zones, deck.name, deck.version
    else:
        if not deck_version_visible(deck=deck, number=version):
            raise DeckVersion.DoesNotExist(f"deck has no version {version}")
        v = deck.versions.get(number=version)
        zones, name, number = v.zones, v.name, v.number
    zones = zones_clean_copy(zones)
    return {
        "game": deck.game,
        "name": name,
        "version": number,
        "zones": zones,
        "text": zones_to_text(zones),
    }


def zones_to_text(zones: Mapping[str, Mapping[str, int]], names: Mapping[str, str] | None = None) -> str:
    rows = [(zone, code, count) for zone in g.ZONES for code, count in sorted((zones.get(zone) or {}).items())]
    return format_deck_text(rows, dict(names or {})) if rows else ""


def zones_diff(old: Mapping[str, Mapping[str, int]], new: Mapping[str, Mapping[str, int]]) -> dict[str, dict]:
    """Per zone, the cards added and removed going from ``old`` to ``new`` (zones without change omitted)."""
    out: dict[str, dict] = {}
    for zone in g.ZONES:
        a, b = (old.get(zone) or {}), (new.get(zone) or {})
        added = {c: b.get(c, 0) - a.get(c, 0) for c in sorted(set(a) | set(b)) if b.get(c, 0) > a.get(c, 0)}
        removed = {c: a.get(c, 0) - b.get(c, 0) for c in sorted(set(a) | set(b)) if a.get(c, 0) > b.get(c, 0)}
        if added or removed:
            out[zone] = {"added": added, "removed": removed}
    return out


def deck_diff(*, deck: Deck, from_version: int, to_version: int) -> dict[str, Any]:
    """Changes between two versions of a deck: cards per zone, and name/description when they changed.

    Raises ``DeckVersion.DoesNotExist`` naming the missing version.
    """
    visible = [n for n in (from_version, to_version) if deck_version_visible(deck=deck, number=n)]
    versions = {v.number: v for v in deck.versions.filter(number__in=visible)}
    for n in (from_version, to_version):
        if n not in versions:
            raise DeckVersion.DoesNotExist(f"deck has no version {n} (latest is {deck.version})")
    a, b = versions[from_version], versions[to_version]
    out: dict[str, Any] = {"from": a.number, "to": b.number, "zones": zones_diff(a.zones, b.zones)}
    if a.name != b.name:
        out["name"] = {"from": a.name, "to": b.name}
    if a.description != b.description:
        out["description"] = {"from": a.description, "to": b.description}
    return out


def cards_resolve(*, game: str, codes: Iterable[str]) -> dict[str, CardRecord]:
    """Catalog records for ``codes`` in one query. A code of ``game`` wins; a code found only in another
    game maps to that game's card (construction rules then report ``wrong_game``); unknown codes are absent.
    (The catalog's ``card_records_resolve``: decks read the card tables only through catalog selectors.)
    """
    return card_records_resolve(game=game, codes=codes)


def deck_export_text(*, deck: Deck, snapshot: Mapping[str, Any]) -> str:
    """A version of ``deck`` (``deck_snapshot``) as deck text with card names, under a ``//`` header
    line naming the deck, its game and the version (the pages' and the API's text export)."""
    cards = cards_resolve(game=deck.game, codes={c for z in snapshot["zones"].values() for c in z})
    header = f"// {snapshot['name']} — {g.GAME_NAMES[deck.game]} — version {snapshot['version']}\n"
    return header + zones_to_text(snapshot["zones"], {code: rec.name for code, rec in cards.items()})


def deck_validate(*, game: str, zones: Mapping[str, Mapping[str, int]], partner: str | None = None,
                  fmt: Format | None = None) -> dict[str, Any]:
    """Validate a deck against its game's construction rules (and ``fmt``'s lists when given),
    resolving all codes in one query."""
    codes = {code for cards in zones.values() for code in cards}
    if partner:
        codes.add(partner)
    cards = cards_resolve(game=game, codes=codes)
    return deck_validate_records(game=game, zones=zones, cards=cards, partner=partner, fmt=fmt)


def deck_validate_records(*, game: str, zones: Mapping[str, Mapping[str, int]], cards: Mapping[str, CardRecord],
                          partner: str | None = None, fmt: Format | None = None) -> dict[str, Any]:
    """``deck_validate`` with the card records given (no catalog read; e.g. a playtest's frozen
    snapshot): the construction-rule report, messages in the active language. Without a format the
    report is the game's construction report alone."""
    from rules.construction import validate_deck
    from rules.formats import apply_format

    from .i18n import report_localize

    report = validate_deck(game, zones, cards, partner=partner)
    if fmt is not None and fmt.game == game:
        report = apply_format(report, fmt.rules(), zones, cards)
    return report_localize(report, game)


def format_list(*, game: str = "") -> QuerySet[Format]:
    """The formats of ``game`` (every game's when empty), in their curated order."""
    qs = Format.objects.all()
    return qs.filter(game=game) if game else qs


def format_get(*, game: str, code: str) -> Format | None:
    """The format ``code`` of ``game``, or None."""
    return Format.objects.filter(game=game, code=code[:40]).first() if code else None


# -- public decks: the list anyone browses, "decks using this card", play rates ----------------------------
def public_deck_list(*, game: str = "", q: str = "", card_codes: Iterable[str] | None = None,
                     series_codes: Iterable[str] | None = None, format_code: str = "") -> QuerySet[Deck]:
    """Public decks (only those their owners made public), newest first. ``card_codes``: decks holding
    any of these codes (a card and its parallels), annotated with ``copies`` of them; ``series_codes``:
    decks holding a card of the series."""
    qs = Deck.objects.filter(visibility=Visibility.PUBLIC).select_related("owner", "format")
    if game:
        qs = qs.filter(game=game)
    if q:
        qs = qs.filter(name__icontains=q[:100])
    if format_code:
        qs = qs.filter(format__code=format_code[:40])
    if series_codes is not None:
        qs = qs.filter(pk__in=DeckCard.objects.filter(code__in=list(series_codes)).values("deck_id"))
    if card_codes is not None:
        qs = qs.filter(card_rows__code__in=list(card_codes)).annotate(copies=Sum("card_rows__copies"))
    return qs.order_by("-updated", "-id")


def deck_card_counts(*, decks: Iterable[Deck]) -> dict[int, dict[str, int]]:
    """``{deck id: {code: copies}}`` for the listed decks, from the ``DeckCard`` index (one query)."""
    out: dict[int, dict[str, int]] = {}
    ids = [d.pk for d in decks]
    for deck_id, code, copies in DeckCard.objects.filter(deck_id__in=ids).values_list("deck_id", "code", "copies"):
        out.setdefault(deck_id, {})[code] = copies
    return out


def card_usage(*, game: str, codes: Iterable[str], limit: int = 10) -> dict[str, Any]:
    """How the public decks of ``game`` play a card (any of ``codes``: the card and its parallels):
    ``{"decks": [the ``limit`` most recent, each with ``copies``], "using", "public", "rate" (0..1),
    "average" (copies per deck that plays it), "spread": [(copies, decks)]}`` (three queries)."""
    codes = list(codes)
    rows = (DeckCard.objects.filter(code__in=codes, deck__visibility=Visibility.PUBLIC, deck__game=game)
            .values("deck_id").annotate(n=Sum("copies")).order_by())
    per_deck = [r["n"] for r in rows]
    public = Deck.objects.filter(visibility=Visibility.PUBLIC, game=game).count()
    using = len(per_deck)
    decks = list(public_deck_list(game=game, card_codes=codes)[:limit]) if using else []
    spread: dict[int, int] = {}
    for n in per_deck:
        spread[n] = spread.get(n, 0) + 1
    return {
        "decks": decks, "using": using, "public": public, "rate": using / public if public else 0.0,
        "average": sum(per_deck) / using if using else 0.0, "spread": sorted(spread.items()),
    }
