"""Read-side selectors for the catalog (HackSoft style: ``<entity>_list`` / ``<entity>_get``).

``card_search`` is the query language entry point other apps call (the deck builder's card picker,
the API, the pages); ``card_list`` adds django-filter parameters on top; ``card_get`` loads one card.

The other apps (``decks``, ``playtest``) read the card tables only through this module:
``card_records_by_codes`` / ``card_records_resolve`` / ``card_data_by_codes`` /
``card_games_by_codes`` (cards of a deck), ``card_codes_resolve`` (printed code → card code),
``catalog_card_records`` (every card of a game, for engine options).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import orjson
from django.db import connection
from django.db.models import F, OrderBy, QuerySet
from django.http import Http404

from rules.cards import CardRecord
from rules.deckformats import official_ws_code
from rules.games import GAMES

from .models import Card, CardPrinting
from .search import QueryError, compile_query, install_sqlite_regexp
from .search.fields import lookup_field, lookup_order

__all__ = ["QueryError", "card_get", "card_list", "card_search", "DEFAULT_ORDER", "parse_order",
           "card_codes_resolve", "card_data_by_codes", "card_games_by_codes", "card_records_by_codes",
           "card_records_resolve", "catalog_card_records"]

# Stable default ordering: name, then identity (pagination never repeats or skips a card).
DEFAULT_ORDER = ("name", "game", "code")


def _finish_order(order: list[str]) -> list[OrderBy]:
    """Sort keys -> expressions; cards without the stat sort last in both directions."""
    keys = list(order)
    for key in DEFAULT_ORDER:
        if key not in {o.lstrip("-") for o in keys}:
            keys.append(key)
    return [F(k[1:]).desc(nulls_last=True) if k.startswith("-") else F(k).asc(nulls_last=True) for k in keys]


def parse_order(value: str, query: str = "") -> list[str]:
    """Parse an API ``order`` parameter: ``power``, ``-power``, ``name,-cost`` (field names or aliases)."""
    out: list[str] = []
    pos = 0
    for part in value.split(","):
        key = part.strip()
        desc = key.startswith("-")
        column = lookup_order(key.lstrip("-+")) if key else None
        if column is None:
            raise QueryError("bad_order", f"cannot sort by '{key}'", pos, value)
        out.append(("-" if desc else "") + column)
        pos += len(part) + 1
    return out


def card_search(*, q: str, game: str | None = None) -> QuerySet[Card]:
    """Cards matching the query string ``q`` (see docs/search.md), ordered as the query says.

    Raises ``QueryError`` (``.code``, ``.message``, ``.position``) for a query that cannot run.
    """
    if game is not None and game not in GAMES:
        raise QueryError("bad_value", f"unknown game '{game}'; expected one of {', '.join(GAMES)}", 0, q or "")
    compiled = compile_query(q or "", game=game, vendor=connection.vendor)
    if compiled.uses_regex:
        install_sqlite_regexp(connection)
    qs = Card.objects.filter(compiled.q)
    if game is not None:
        qs = qs.filter(game=game)
    return qs.order_by(*_finish_order(compiled.order))


def card_list(*, q: str = "", filters: Mapping[str, Any] | None = None, order: str = "",
              game: str | None = None) -> QuerySet[Card]:
    """Cards matching ``q`` and the plain django-filter parameters ``filters`` (CardFilterSet).

    Raises ``QueryError`` for a bad query or order, ``django.core.exceptions.ValidationError``-like
    ``FilterError`` for invalid filter parameters.
    """
    from .filters import CardFilterSet, FilterError

    qs = card_search(q=q, game=game)
    if filters:
        fs = CardFilterSet.for_params(filters.keys())(data=filters, queryset=qs)
        if not fs.is_valid():
            raise FilterError(fs.errors)
        qs = fs.qs
    if order:
        qs = qs.order_by(*_finish_order(parse_order(order)))
    return qs


def card_get(*, game: str, code: str) -> Card:
    """One card by game and code (case-sensitive code as printed); ``Http404`` when missing."""
    if "\x00" in code or len(code) > 64:  # cannot be a stored code (and PostgreSQL rejects NUL)
        raise Http404(f"no {game} card with code {code[:64]!r}")
    try:
        return Card.objects.prefetch_related("printings").get(game=game, code=code)
    except Card.DoesNotExist:
        raise Http404(f"no {game} card with code {code}") from None


def card_rows(queryset: QuerySet[Card], fields: Sequence[str]) -> list[dict[str, Any]]:
    """Evaluate ``queryset`` as plain dicts of ``fields`` (no model instances).

    On PostgreSQL each row is built as JSON by the database (``row_to_json``) and the page is decoded
    with one ``orjson.loads``: the hot path of the cards API, which would otherwise decode every JSON
    column of every card separately in Python.
    """
    values = queryset.values(*fields)
    if connection.vendor != "postgresql":
        return list(values)
    sql, params = values.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT row_to_json(t)::text FROM ({sql}) t", params)
        rows = cursor.fetchall()
    return orjson.loads("[" + ",".join(row[0] for row in rows) + "]")


# -- cards of a deck (read by decks and playtest) ---------------------------------------------------
def card_records_by_codes(*, game: str, codes: Iterable[str], printings: bool = False) -> dict[str, CardRecord]:
    """``{code: CardRecord}`` for the codes that are ``game`` cards (one query). With ``printings``,
    a code that is not a card code but a printing's own code (a rarity or parallel version,
    ``CardPrinting``) maps to that printing's card (one more query). Unknown codes are absent."""
    wanted = {c for c in codes if c}
    if not wanted:
        return {}
    out = {c.code: c.to_record() for c in Card.objects.filter(game=game, code__in=wanted)}
    missing = wanted - set(out)
    if printings and missing:
        for p in CardPrinting.objects.filter(game=game, code__in=missing).select_related("card"):
            out[p.code] = p.card.to_record()
    return out


def card_records_resolve(*, game: str, codes: Iterable[str]) -> dict[str, CardRecord]:
    """Catalog records for ``codes`` in one query. A code of ``game`` wins; a code found only in another
    game maps to that game's card (construction rules then report ``wrong_game``); unknown codes are absent.
    """
    wanted = {c for c in codes if c}
    if not wanted:
        return {}
    out: dict[str, CardRecord] = {}
    others: dict[str, CardRecord] = {}
    # game IN (all games) lets both PostgreSQL and SQLite use the (game, code) unique index.
    for card in Card.objects.filter(game__in=GAMES, code__in=wanted):
        if card.game == game:
            out[card.code] = card.to_record()
        else:
            others.setdefault(card.code, card.to_record())
    for code, rec in others.items():
        out.setdefault(code, rec)
    return out


def card_data_by_codes(*, game: str, codes: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``{code: card in the card JSON format}`` (``Card.to_dict()``) for the codes that are ``game`` cards."""
    return {c.code: c.to_dict() for c in Card.objects.filter(game=game, code__in=list(codes))}


def card_games_by_codes(*, codes: Iterable[str], exclude_game: str) -> dict[str, str]:
    """``{code: game}`` for the codes that are cards of a game other than ``exclude_game``."""
    return dict(Card.objects.filter(code__in=list(codes)).exclude(game=exclude_game).values_list("code", "game"))


def catalog_card_records(*, game: str) -> Iterator[CardRecord]:
    """Every card of ``game`` as a record (streamed), e.g. for an engine's catalog-derived options."""
    return (c.to_record() for c in Card.objects.filter(game=game).iterator())


def card_codes_resolve(*, game: str, codes: Iterable[str]) -> dict[str, str]:
    """Printed code → catalog card code for ``game``: card codes first, then printing codes
    (``CardPrinting``), then WS codes written with ``-`` for ``/``. Codes not found are absent."""
    wanted = {c for c in codes if c}
    if not wanted:
        return {}
    found = {c: c for c in Card.objects.filter(game=game, code__in=wanted).values_list("code", flat=True)}
    rest = wanted - set(found)
    if rest:
        for code, card_code in CardPrinting.objects.filter(game=game, code__in=rest).values_list("code", "card__code"):
            found.setdefault(code, card_code)
    rest = wanted - set(found)
    if rest:  # WS codes written with '-' for '/'
        official = {official_ws_code(c): c for c in rest}
        for code in Card.objects.filter(game=game, code__in=list(official)).values_list("code", flat=True):
            found[official[code]] = code
    return found


SUGGEST_MIN_SIMILARITY = 0.3


def _name_words(node: Any, negated: bool = False) -> list[str]:
    """The name words of a parsed query (bare words and ``name:`` terms, not under a negation)."""
    from .search.fields import NAME
    from .search.grammar import Not, Term

    if node is None:
        return []
    if isinstance(node, Term):
        if negated or node.value.kind == "regex" or node.op not in (":", "="):
            return []
        spec = lookup_field(node.field) if node.field else None
        return [node.value.text] if node.field is None or (spec is not None and spec.kind == NAME) else []
    if isinstance(node, Not):
        return _name_words(node.child, not negated)
    return [w for child in node.children for w in _name_words(child, negated)]


def card_suggest(*, q: str, game: str | None = None, limit: int = 5) -> list[Card]:
    """Cards whose names are close to the name words of ``q`` — "did you mean" for a search that
    found nothing (a typo: ``captian``; full-width input is NFKC-normalised). Restricted to the
    query's games.

    PostgreSQL: trigram word similarity against ``UPPER(name)`` (the ``<%`` operator, served by that
    expression's GIN trigram index), best first. SQLite: the same measure in Python over the
    candidate names (slower; small catalogs). Returns ``[]`` for a query without name words, with
    fewer than 3 characters of them, or one that cannot be parsed.
    """
    from .search import parse

    try:
        words = _name_words(parse(q or ""))
        games = compile_query(q or "", game=game, vendor=connection.vendor).games
    except QueryError:
        return []
    # Names as printed (case-folded by pg_trgm itself): the folded column has no spaces, and
    # trigram similarity needs the word boundaries.
    wanted = unicodedata.normalize("NFKC", " ".join(words)).strip()
    if len(wanted.replace(" ", "")) < 3:
        return []
    qs = Card.objects.all()
    if game is not None:
        qs = qs.filter(game=game)
    if games:
        qs = qs.filter(game__in=games)
    if connection.vendor == "postgresql":
        from django.contrib.postgres.search import TrigramWordSimilarity
        from django.db import transaction
        from django.db.models import BooleanField
        from django.db.models.expressions import RawSQL
        from django.db.models.functions import Upper

        with transaction.atomic(), connection.cursor() as cursor:
            # The operator's threshold, for this transaction only; UPPER(name) is trigram-indexed.
            cursor.execute("SELECT set_config('pg_trgm.word_similarity_threshold', %s, true)",
                           [str(SUGGEST_MIN_SIMILARITY)])
            return list(qs.filter(RawSQL('%s <%% UPPER("catalog_card"."name")', [wanted], output_field=BooleanField()))
                        .annotate(similarity=TrigramWordSimilarity(wanted, Upper("name")))
                        .order_by("-similarity", "name", "game", "code")[:limit])
    target = _trigrams(wanted)
    scored = []
    for pk, name in qs.values_list("pk", "name").iterator(chunk_size=2000):
        name = unicodedata.normalize("NFKC", name)
        score = max((len(target & grams) / len(target | grams)
                     for grams in map(_trigrams, _windows(name, len(wanted)))), default=0.0)
        if score >= SUGGEST_MIN_SIMILARITY:
            scored.append((-score, pk))
    scored.sort()
    best = {pk: -s for s, pk in scored[: limit * 4]}
    cards = sorted(Card.objects.filter(pk__in=best), key=lambda c: (-best[c.pk], c.name, c.game, c.code))[:limit]
    for c in cards:
        c.similarity = best[c.pk]
    return cards


def _trigrams(text: str) -> set[str]:
    """pg_trgm's trigrams: lower case, each alphanumeric run padded with two spaces before and one after."""
    out: set[str] = set()
    for word in re.findall(r"\w+", text.lower()):
        padded = f"  {word} "
        out.update(padded[i:i + 3] for i in range(len(padded) - 2))
    return out


def _windows(name: str, size: int) -> list[str]:
    """Runs of whole words of ``name`` about as long as the query (word similarity's extent)."""
    words = name.split()
    out = []
    for i in range(len(words)):
        run = ""
        for w in words[i:]:
            run = f"{run} {w}".strip()
            out.append(run)
            if len(run) >= size:
                break
    return out or [name]
