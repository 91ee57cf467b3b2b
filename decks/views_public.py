"""The public deck list: every deck its owner made public, filtered by game, series, "contains card"
format and name; paged."""
from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from catalog.selectors import (
    card_all_codes,
    card_lookup,
    card_names_by_game_codes,
    card_pictures_by_game_codes,
    card_series,
    card_series_codes,
    cards_for_pictures,
)
from rules import games as g
from rules.registry import get_spec

from .selectors import deck_card_counts, format_list, public_deck_list
from .services import deck_legality_store

PUBLIC_PAGE_SIZE = 25


def _card_filter(game: str, text: str) -> tuple[Any, list[str] | None]:
    """The card named by ``text`` (code, printing code or exact name) and the codes a deck may hold it
    under; in every game when no game is chosen."""
    for code in ([game] if game else list(g.GAMES)):
        card = card_lookup(game=code, text=text)
        if card is not None:
            return card, card_all_codes(card=card)
    return None, []


def _series_codes(game: str, series: str) -> list[str]:
    codes: list[str] = []
    for code in ([game] if game else list(g.GAMES)):
        codes += card_series_codes(game=code, series=series)
    return codes


def _describe(decks: list[Any]) -> None:
    """Per listed deck: ``legal`` / ``problems`` (stored at save), ``cards`` (main deck count),
    ``series`` (the series most of its cards come from) and ``cover`` (its most played card, highest
    level first, as ``(card, picture)``): one light catalog read of the listed decks' cards, then
    the cover cards and their pictures: three catalog queries for decks of any number of games (one
    read per game made 15 queries for a page of five games)."""
    counts = deck_card_counts(decks=decks)
    by_game: dict[str, set[str]] = {}
    for d in decks:
        by_game.setdefault(d.game, set()).update(counts.get(d.pk, {}))
    rows = card_names_by_game_codes(wanted=by_game)
    covers: dict[str, set[str]] = {}
    for d in decks:
        cards = rows.get(d.game, {})
        if d.legal is None:  # saved before legality was stored: checked once, then kept (issue 19)
            deck_legality_store(deck=d)
        d.cards = d.card_count("main")
        spec = get_spec(d.game)
        series: Counter = Counter()
        for code, n in counts.get(d.pk, {}).items():
            row = cards.get(code)
            if row is not None:
                name = spec.series_of(row["set_code"], row["work"])
                if name:
                    series[name] += n
        d.series = [name for name, _ in series.most_common(2)]
        main = [(code, n) for code, n in (d.zones or {}).get("main", {}).items() if code in cards]
        best = max(main, key=lambda cn: (cn[1], cards[cn[0]]["level"] or 0, cn[0]), default=None)
        d.cover_code = best[0] if best else ""
        if d.cover_code:
            covers.setdefault(d.game, set()).add(d.cover_code)
    records = cards_for_pictures(wanted=covers)
    pictures = card_pictures_by_game_codes(wanted=covers)
    for d in decks:
        rec = records.get(d.game, {}).get(d.cover_code)
        d.cover = (rec, pictures.get(d.game, {}).get(d.cover_code)) if rec is not None else None


def deck_public_view(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game") if request.GET.get("game") in g.GAMES else ""
    q = request.GET.get("q", "")[:100].strip()
    series = request.GET.get("series", "")[:128].strip()
    card_text = request.GET.get("card", "")[:255].strip()
    formats = list(format_list(game=game))
    fmt = request.GET.get("format", "")[:40].strip()
    if fmt and fmt not in {f.code for f in formats}:
        fmt = ""
    card, card_codes = _card_filter(game, card_text) if card_text else (None, None)
    notes = []
    if card_text and card is None:
        notes.append(_("No card is called or coded “%(card)s”.") % {"card": card_text})
    series_codes = _series_codes(game, series) if series else None
    if series and not series_codes:
        notes.append(_("No series is called “%(series)s”.") % {"series": series})
    qs = public_deck_list(game=game, q=q, card_codes=card_codes, series_codes=series_codes, format_code=fmt)
    paginator = Paginator(qs, PUBLIC_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    decks = list(page.object_list)
    _describe(decks)
    params = request.GET.copy()
    params.pop("page", None)
    return render(request, "decks/deck_public.html", {
        "decks": decks, "page": page, "game": game, "q": q, "series": series, "card_text": card_text,
        "card": card, "notes": notes, "games": [(c, g.GAME_NAMES[c]) for c in g.GAMES],
        "series_names": [s["name"] for s in card_series(game=game)] if game else [],
        "base_query": params.urlencode(), "filtered": bool(game or q or series or card_text or fmt),
        "formats": formats, "format": fmt,
    })
