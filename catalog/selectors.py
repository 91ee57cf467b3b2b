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
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Count, F, OrderBy, Prefetch, Q, QuerySet
from django.http import Http404

from config.dbtimeout import RESTORE_LOCAL, SAVE_AND_SET_LOCAL, SET_LOCAL
from rules.cards import CardRecord
from rules.deckformats import official_ws_code
from rules.games import GAMES

from .models import Card, CardPrinting, CardSet
from .search import QueryError, compile_query, install_sqlite_regexp
from .search.fields import lookup_field, lookup_order
from .timeouts import RETRY_AFTER, SearchTimeout, search_deadline  # noqa: F401 - for the deck builder's search

if TYPE_CHECKING:
    from .pictures import Picture

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


_SCHEMA_FEATURES: dict[tuple[str, str], bool] = {}


def _database_has(feature: str, sql: str, params: Sequence[Any] = ()) -> bool:
    """Whether this PostgreSQL database has ``feature`` (``sql`` returns a row when it does): asked
    once per database and process; False on other databases."""
    if connection.vendor != "postgresql":
        return False
    key = (str(connection.settings_dict.get("NAME")), feature)
    if key not in _SCHEMA_FEATURES:
        with connection.cursor() as cursor:
            cursor.execute(sql, list(params))
            _SCHEMA_FEATURES[key] = cursor.fetchone() is not None
    return _SCHEMA_FEATURES[key]


def _has_facet_keys() -> bool:
    """Whether this database has ``catalog_card.facet_keys`` (PostgreSQL, migration 0013); a
    database not migrated yet keeps the portable EXISTS path."""
    return _database_has("facet_keys", "SELECT 1 FROM information_schema.columns WHERE table_name = 'catalog_card' "
                         "AND column_name = 'facet_keys' AND table_schema = current_schema()")


def _has_text_prefilter() -> bool:
    """Whether this database has the operator a /regex/ checks its words with first (PostgreSQL,
    migration 0015, ``catalog.search.compiler.TEXT_CONTAINS_OPERATOR``); without it a regex runs
    alone, as before."""
    from .search.compiler import TEXT_CONTAINS_OPERATOR

    return _database_has("text_prefilter", "SELECT 1 FROM pg_operator WHERE oprname = %s AND oprleft = 'text'::regtype "
                         "AND oprright = 'text'::regtype AND pg_operator_is_visible(oid)", [TEXT_CONTAINS_OPERATOR])


def card_search(*, q: str, game: str | None = None) -> QuerySet[Card]:
    """Cards matching the query string ``q`` (see docs/search.md), ordered as the query says.

    Raises ``QueryError`` (``.code``, ``.message``, ``.position``) for a query that cannot run.
    """
    if game is not None and game not in GAMES:
        raise QueryError("bad_value", f"unknown game '{game}'; expected one of {', '.join(GAMES)}", 0, q or "")
    compiled = compile_query(q or "", game=game, vendor=connection.vendor, facet_keys=_has_facet_keys(),
                             text_prefilter=_has_text_prefilter)
    if compiled.uses_regex:
        install_sqlite_regexp(connection)
    qs = Card.objects.filter(compiled.q)
    if game is not None:
        qs = qs.filter(game=game)
    # The games the query is restricted to (card_rows_counted walks each game's index on its own);
    # a Query attribute, so it survives the clones that filters and slices make.
    qs.query.search_games = compiled.games if game is None else (game,)
    qs.query.search_regex = compiled.uses_regex
    if compiled.code_words and not compiled.order:
        # a bare card code (AB/W11-002, ab-w11-002): the card with exactly that code first
        from django.db.models import Case, IntegerField, Value, When

        first = Case(When(code_folded__in=compiled.code_words, then=Value(0)), default=Value(1),
                     output_field=IntegerField())
        return qs.order_by(first, *_finish_order([]))
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
    try:
        sql, params = values.query.sql_with_params()
    except EmptyResultSet:  # a condition Django knows matches nothing (e.g. a value out of the column's range)
        return []
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT row_to_json(t)::text FROM ({sql}) t", params)
        rows = cursor.fetchall()
    return orjson.loads("[" + ",".join(row[0] for row in rows) + "]")


_ID_SELECT = re.compile(r'SELECT "catalog_card"\."id"(?: AS "id")? FROM "catalog_card"')
# Matches up to which a page is sorted from the matches themselves; past it the order's index is walked.
SORT_BOUND = 3000
# ... lower when every match is checked by a regular expression (the check costs more than a walk's row).
REGEX_SORT_BOUND = 1000
_PAGE_TAIL = re.compile(r"^(?P<where>(?: WHERE .*)?) ORDER BY (?P<order>.*?) LIMIT \d+(?: OFFSET \d+)?$", re.S)
_PLACEHOLDER = re.compile(r"%[%s]")


def _select_sql(queryset: QuerySet[Card], columns: str) -> tuple[str, tuple[Any, ...]]:
    """``queryset`` as SQL selecting ``columns``: compiled with one column (compiling the 60 columns
    of a card costs more than the rest of the query) and the column list put in its place."""
    sql, params = queryset.values("id").query.sql_with_params()
    head = _ID_SELECT.match(sql)
    if head is None:  # pragma: no cover - DISTINCT or a join Django put first
        raise ValueError(sql[:80])
    return f"SELECT {columns} FROM \"catalog_card\"{sql[head.end():]}", params


@lru_cache(maxsize=8)
def _column_list(fields: tuple[str, ...]) -> str:
    return ", ".join(f'"catalog_card"."{f}"' for f in fields)


def _placeholders(sql: str) -> int:
    return sum(1 for m in _PLACEHOLDER.finditer(sql) if m.group() == "%s")


def _walk_by_game(page_sql_parts: tuple[str, str, str], params: tuple[tuple[Any, ...], tuple[Any, ...]],
                  fields: Sequence[str], games: Sequence[str], *, offset: int, limit: int) -> tuple[str, tuple[Any, ...]]:
    """The page of a query restricted to several games (``(game:ws or game:pc) order:cost``) as one
    ordered walk per game, merged: each branch walks that game's ``(game, <order>)`` index and stops
    after ``offset + limit`` rows, where one query over both games would fetch and sort every match."""
    columns, where, order = page_sql_parts
    where_params, order_params = params
    wanted = re.findall(r'"catalog_card"\."(\w+)"', order)
    extra = "".join(f', "catalog_card"."{c}"' for c in dict.fromkeys(wanted) if c not in fields)
    cond = f"({where[len(' WHERE '):]}) AND " if where else ""
    branch = (f'(SELECT {columns}{extra} FROM "catalog_card" WHERE {cond}"catalog_card"."game" = %s '
              f"ORDER BY {order} LIMIT {offset + limit})")
    plain = ", ".join(f'"catalog_card"."{f}"' for f in fields)
    sql = (f'SELECT {plain} FROM ({" UNION ALL ".join(branch for _ in games)}) AS "catalog_card" '
           f"ORDER BY {order} LIMIT {limit} OFFSET {offset}")
    branch_params = [p for game in games for p in (*where_params, game, *order_params)]
    return sql, (*branch_params, *order_params)


def _counted_page_sql(page_sql: str, params: tuple[Any, ...], columns: str, *, offset: int, limit: int,
                      cap: int, fields: Sequence[str] = (), games: Sequence[str] | None = None,
                      bound: int = SORT_BOUND) -> tuple[str, tuple[Any, ...]] | None:
    """One statement for the count (up to ``cap``) and the page; None when ``page_sql`` is not the
    expected ``SELECT … FROM catalog_card [WHERE …] ORDER BY … LIMIT …``.

    The matches are found once, in any order, up to ``bound + 1`` (id and the sort columns only;
    ``SORT_BOUND``, or ``REGEX_SORT_BOUND`` for a /regex/); the count comes from them. Up to
    ``bound`` matches the page is sorted from them —
    the planner can no longer walk the name index past thousands of rows that do not match (it
    assumes the matches are spread evenly over the order, and a search for Japanese text finds
    cards whose names all sort after the Latin ones). Past it the page query runs as written: the
    matches are dense, and walking the order's index stops after one page (one walk per game when
    the query is restricted to several, ``_walk_by_game``). The branch not taken is never executed
    (a one-time filter on the count)."""
    prefix = f'SELECT {columns} FROM "catalog_card"'
    tail = _PAGE_TAIL.match(page_sql[len(prefix):]) if page_sql.startswith(prefix) else None
    if tail is None:
        return None
    where, order = tail.group("where"), tail.group("order")
    n_where = _placeholders(where)
    if n_where + _placeholders(order) != len(params):
        return None
    where_params, order_params = params[:n_where], params[n_where:]
    sort_columns = ", ".join(f'"catalog_card"."{c}"' for c in dict.fromkeys(re.findall(r'"catalog_card"\."(\w+)"', order))
                             if c != "id")
    sql = (
        f'WITH m AS MATERIALIZED (SELECT "catalog_card"."id"{", " + sort_columns if sort_columns else ""} '
        f'FROM "catalog_card"{where} LIMIT {max(bound + 1, cap)}), '
        "n AS (SELECT COUNT(*) AS n FROM m) "
        "SELECT LEAST(n, %s)::int, NULL::text FROM n "
        "UNION ALL (SELECT NULL, {row} FROM ("
        f'{prefix} WHERE "catalog_card"."id" IN (SELECT "catalog_card"."id" FROM m AS "catalog_card" '
        f"ORDER BY {order} LIMIT {limit} OFFSET {offset}) ORDER BY {order}"
        f") t WHERE (SELECT n FROM n) <= {bound}) "
        f"UNION ALL (SELECT NULL, {{row}} FROM ({{walk}}) t WHERE (SELECT n FROM n) > {bound})"
    )
    walk, walk_params = page_sql, params
    if games and len(games) > 1 and fields:
        walk, walk_params = _walk_by_game((columns, where, order), (where_params, order_params), fields, games,
                                          offset=offset, limit=limit)
    return sql.replace("{walk}", walk), (*where_params, cap, *order_params, *order_params, *walk_params)


def card_page_statement(queryset: QuerySet[Card], fields: Sequence[str], *, offset: int, limit: int, cap: int,
                        urls: tuple[tuple[str, str, str], tuple[str, str, str]] | None = None,
                        ) -> tuple[str, tuple[Any, ...]] | None:
    """The one statement of ``card_rows_counted`` (the count up to ``cap`` and rows
    ``offset..offset+limit``) as SQL and parameters, or None when Django knows ``queryset`` matches
    nothing. It depends only on the queryset, the page and ``urls``: the cards API keeps it per
    query string (``catalog.api.views``) and runs it with ``card_rows_from_statement``."""
    columns = _column_list(tuple(fields))
    try:
        page_sql, page_params = _select_sql(queryset[offset: offset + limit], columns)
        counted = _counted_page_sql(page_sql, page_params, columns, offset=offset, limit=limit, cap=cap,
                                    fields=fields, games=getattr(queryset.query, "search_games", None),
                                    bound=REGEX_SORT_BOUND if getattr(queryset.query, "search_regex", False)
                                    else SORT_BOUND)
        if counted is None:  # pragma: no cover - an unexpected shape: the count, then the page
            count_sql, count_params = _select_sql(queryset.order_by()[:cap], "1")
            counted = (f"SELECT COUNT(*), NULL::text FROM ({count_sql}) c UNION ALL "
                       f"(SELECT NULL, {{row}} FROM ({page_sql}) t)", (*count_params, *page_params))
    except EmptyResultSet:
        return None
    body, body_params = counted
    # Bound once here (literals, like the text Django's client-side cursor sends): a kept statement
    # is run as it is, never parsed for parameters again, and can be prepared (card_rows_from_statement).
    return connection.ops.compose_sql(body.replace("{row}", _row_json(urls)), body_params), ()


def card_rows_from_statement(statement: tuple[str, tuple[Any, ...]] | None, *, timeout: float,
                             urls: tuple[tuple[str, str, str], tuple[str, str, str]] | None = None,
                             prepare: bool = False) -> tuple[int, list[Any]]:
    """Run a ``card_page_statement`` (made with the same ``urls``) under the statement timeout, in
    one round trip: ``(count up to cap, rows)`` as ``card_rows_counted`` returns them.

    With ``prepare`` (the cards API's kept statements) and the connection's ``prepare_threshold``
    set (``DATABASE_PREPARED_STATEMENTS``, config/settings.py), the statement is a server-side
    prepared statement of this connection: PostgreSQL parses and plans the ~4.6 kB statement once
    instead of on every request (most of the database's time on a cheap search: ~1 ms planned,
    ~0.15 ms prepared). The timeout, the statement (and, inside a transaction, putting the outer
    timeout back) go in one pipeline: one round trip, one implicit transaction for ``SET LOCAL``.
    The statement is bound (literals, no parameters; ``card_page_statement``), so its plan is the
    plan of those values, never a generic plan. Without ``prepare``, psycopg prepares a statement
    run ``prepare_threshold`` times on the connection. Without prepared statements (a pooler that
    cannot keep them) or pipelines (libpq < 14): one simple-protocol query of the timeout and the
    statement."""
    from django.db import OperationalError, transaction

    from config.dbtimeout import is_timeout

    if statement is None:
        return 0, []
    body, body_params = statement
    if body_params:  # a statement bound by the caller needs none
        body = connection.ops.compose_sql(body, body_params)
    limit_ms = f"{max(1, int(timeout * 1000))}ms"
    nested = connection.in_atomic_block
    try:
        with transaction.atomic() if nested else nullcontext():
            connection.ensure_connection()
            raw = connection.connection
            if raw.prepare_threshold is not None and _pipeline_supported():
                result = _run_pipelined(raw, body, limit_ms, nested=nested, prepare=prepare)
            else:
                result = _run_simple(body, limit_ms, nested=nested)
    except OperationalError as exc:
        if is_timeout(exc):
            raise SearchTimeout(params={"seconds": f"{timeout:g}"},
                                headers={"Retry-After": str(RETRY_AFTER)}) from None
        raise
    count = result[0][0]
    if urls is None:
        return count, orjson.loads("[" + ",".join(row[1] for row in result[1:]) + "]")
    return count, [row[1] if row[1][0] == "{" else _with_urls(row[1][1:], urls) for row in result[1:]]


@lru_cache(maxsize=1)
def _pipeline_supported() -> bool:
    from psycopg import Pipeline

    return Pipeline.is_supported()


@lru_cache(maxsize=2)
def _prepared_cursor_class(prepare: bool) -> type:
    """A server-side binding psycopg cursor (Django's default, ``ClientCursor``, never prepares)
    that asks psycopg to prepare what it runs (``prepare=True``) or leaves it to the threshold."""
    import psycopg

    default = True if prepare else None

    class Cursor(psycopg.Cursor):
        def execute(self, query: Any, params: Any = None, *, prepare: bool | None = None, **kwargs: Any) -> Any:
            return super().execute(query, params, prepare=default if prepare is None else prepare, **kwargs)

    return Cursor


def _django_cursor(raw_cursor: Any) -> Any:
    """``raw_cursor`` in Django's wrapper: errors converted, queries logged (DEBUG, tests'
    ``CaptureQueriesContext``) like any other, with their parameters bound in the logged text."""
    if not connection.queries_logged:
        return connection.make_cursor(raw_cursor)
    from django.db.backends.utils import CursorDebugWrapper

    class BoundDebugWrapper(CursorDebugWrapper):
        # Django reads a statement's text back from a client-side cursor; a server-side binding
        # one in a pipeline has none yet: the statement is bound here for the log instead.
        def execute(self, sql: str, params: Any = None) -> Any:
            with self.debug_sql(sql if params is None else self.db.ops.compose_sql(sql, params), params):
                return self._execute_with_wrappers(sql, params, many=False, executor=self._execute)

    return BoundDebugWrapper(raw_cursor, connection)


# Prepared statements kept per connection (psycopg deallocates the least recently used past it): a
# search's plan takes ~400 kB of the server's memory (measured, pg_backend_memory_contexts).
PREPARED_MAX = 16


def _run_pipelined(raw: Any, body: str, limit_ms: str, *, nested: bool, prepare: bool) -> list[tuple[Any, ...]]:
    if raw.prepared_max != PREPARED_MAX:
        raw.prepared_max = PREPARED_MAX
    cursor_class = _prepared_cursor_class(prepare)
    with connection.wrap_database_errors, _django_cursor(cursor_class(raw)) as page:
        if not nested:  # one cursor: its result is the last statement's
            with raw.pipeline():
                page.execute(SET_LOCAL, [limit_ms])
                page.execute(body)
            return page.fetchall()
        with _django_cursor(cursor_class(raw)) as setup:
            with raw.pipeline():
                setup.execute(SAVE_AND_SET_LOCAL, [limit_ms])
                page.execute(body)
                setup.execute(RESTORE_LOCAL)
            return page.fetchall()


def _run_simple(body: str, limit_ms: str, *, nested: bool) -> list[tuple[Any, ...]]:
    sql = f"{connection.ops.compose_sql(SAVE_AND_SET_LOCAL if nested else SET_LOCAL, [limit_ms])}; {body}"
    if nested:
        sql += f"; {RESTORE_LOCAL}"
    with connection.cursor() as cursor:
        cursor.execute(sql)  # bound: no parameters
        cursor.nextset()
        return cursor.fetchall()


def card_rows_counted(queryset: QuerySet[Card], fields: Sequence[str], *, offset: int, limit: int, cap: int,
                      timeout: float, urls: tuple[tuple[str, str, str], tuple[str, str, str]] | None = None,
                      ) -> tuple[int, list[Any]]:
    """PostgreSQL: the number of matches (counted up to ``cap``) and rows ``offset..offset+limit`` as
    dicts of ``fields``, in ONE round trip: the statement timeout and one statement for the count
    and the page (``_counted_page_sql``). Outside a transaction the timeout is ``SET LOCAL`` to the
    implicit transaction of that multi-statement query; inside one (tests, atomic views) a
    savepoint, and the previous timeout is put back by the same query. A statement running past
    ``timeout`` seconds raises ``SearchTimeout`` (503, catalog/timeouts.py).

    With ``urls`` (the card page's and API's URL templates split around the game and the code, see
    ``catalog.api.serializers.card_url_maker``) the rows are the cards' JSON texts as the API answers
    them, ``url`` and ``api_url`` added by PostgreSQL: the page is never decoded in Python."""
    statement = card_page_statement(queryset, fields, offset=offset, limit=limit, cap=cap, urls=urls)
    return card_rows_from_statement(statement, timeout=timeout, urls=urls)


_PLAIN_CODE_SQL = "^[A-Za-z0-9/_.~-]*$"  # codes a URL carries as they are (quote(code, safe="/"))


def _sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''").replace("%", "%%") + "'"


def _row_json(urls: tuple[tuple[str, str, str], tuple[str, str, str]] | None) -> str:
    """The SQL of one result row: the card's JSON, with its URLs when ``urls`` are given (a code
    that a URL must escape comes back marked with ``!``, for Python to finish: ``_with_urls``)."""
    if urls is None:
        return "row_to_json(t)::text"
    (p0, p1, p2), (a0, a1, a2) = urls
    page = f"to_json({_sql_literal(p0)} || t.game || {_sql_literal(p1)} || t.code || {_sql_literal(p2)})::text"
    api = f"to_json({_sql_literal(a0)} || t.game || {_sql_literal(a1)} || t.code || {_sql_literal(a2)})::text"
    return (f"CASE WHEN t.code ~ '{_PLAIN_CODE_SQL}' THEN left(row_to_json(t)::text, -1) || "
            f"',\"url\":' || {page} || ',\"api_url\":' || {api} || '}}' ELSE '!' || row_to_json(t)::text END")


def _with_urls(row: str, urls: tuple[tuple[str, str, str], tuple[str, str, str]]) -> str:
    from urllib.parse import quote

    card = orjson.loads(row)
    code = quote(card["code"], safe="/")
    (p0, p1, p2), (a0, a1, a2) = urls
    card["url"], card["api_url"] = f"{p0}{card['game']}{p1}{code}{p2}", f"{a0}{card['game']}{a1}{code}{a2}"
    return orjson.dumps(card).decode()


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
    """``{code: card in the card JSON format}`` (``Card.to_dict()``) for the codes that are ``game`` cards,
    with the compiled ``abilities`` when the card has any (``CardRecord.from_dict`` reads them: a
    playtest snapshot keeps the abilities its games were played with)."""
    return {c.code: {**c.to_dict(), **({"abilities": c.abilities} if c.abilities else {})}
            for c in Card.objects.filter(game=game, code__in=list(codes))}


def card_games_by_codes(*, codes: Iterable[str], exclude_game: str) -> dict[str, str]:
    """``{code: game}`` for the codes that are cards of a game other than ``exclude_game``."""
    return dict(Card.objects.filter(code__in=list(codes)).exclude(game=exclude_game).values_list("code", "game"))


def catalog_card_records(*, game: str) -> Iterator[CardRecord]:
    """Every card of ``game`` as a record (streamed), e.g. for an engine's catalog-derived options."""
    return (c.to_record() for c in Card.objects.filter(game=game).iterator())


def card_codes_resolve(*, game: str, codes: Iterable[str]) -> dict[str, str]:
    """Printed code → catalog card code for ``game``: card codes first, then printing codes
    (``CardPrinting``), then WS codes written with ``-`` for ``/``, then codes as players type them
    (any case, with or without the set's slash: ``ab-w11-002``, ``abw11-002``; ``Card.code_folded``)
    when exactly one card of ``game`` has that form. Codes not found are absent."""
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
    rest = wanted - set(found)
    if rest:  # any case, separators optional: one card only, else it stays unknown (never a guess)
        from .textnorm import fold_code

        folded: dict[str, list[str]] = {}
        for c in rest:
            if fold_code(c):
                folded.setdefault(fold_code(c), []).append(c)
        matches: dict[str, list[str]] = {}
        for code, key in Card.objects.filter(game=game, code_folded__in=list(folded)).values_list("code", "code_folded"):
            matches.setdefault(key, []).append(code)
        for key, codes_ in matches.items():
            if len(codes_) == 1:
                for typed in folded[key]:
                    found[typed] = codes_[0]
    return found


SUGGEST_MIN_SIMILARITY = 0.3
SUGGEST_MAX_WORDS = 4  # "did you mean" compares at most this many name words ...
SUGGEST_MAX_CHARS = 40  # ... and this many characters of them


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
    # Cut before any SQL: every trigram of a long input is looked up and compared with each
    # candidate name (a long no-match name: query spent ~13 s here; issue 19).
    wanted = " ".join(wanted.split()[:SUGGEST_MAX_WORDS])[:SUGGEST_MAX_CHARS].strip()
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


# -- pictures, printings, sets and series (card pages, lists, the decks app) --------------------------
_PICTURE_FIELDS = ("card_id", "game", "code", "rarity", "image", "image_url")


def printings_for_pictures() -> Prefetch:
    """``prefetch_related`` of the printings pictures need (``catalog.pictures.attach_pictures``)."""
    return Prefetch("printings", queryset=CardPrinting.objects.only(*_PICTURE_FIELDS).order_by("code", "rarity"))


def card_pictures_by_codes(*, game: str, codes: Iterable[str]) -> dict[str, Picture]:
    """``{code: Picture}`` for the codes of ``game`` that have a picture (one query): a card code gets
    its card's picture, a printing's own code (a parallel) that printing's. Codes without are absent
    (pages draw the face)."""
    from .pictures import best_picture

    wanted = {c for c in codes if c}
    if not wanted:
        return {}
    rows = (CardPrinting.objects.filter(game=game).filter(Q(code__in=wanted) | Q(card__code__in=wanted))
            .exclude(image="", image_url="").select_related("card").only(*_PICTURE_FIELDS, "card__code"))
    by_card: dict[str, list[CardPrinting]] = {}
    by_code: dict[str, list[CardPrinting]] = {}
    for p in rows:
        by_card.setdefault(p.card.code, []).append(p)
        by_code.setdefault(p.code, []).append(p)
    out: dict[str, Picture] = {}
    for code in wanted:
        picture = best_picture(code, by_card[code]) if code in by_card else None
        if picture is None and code in by_code:
            picture = best_picture(code, by_code[code])
        if picture is not None:
            out[code] = picture
    return out


def card_printing_groups(*, card: Card) -> list[dict[str, Any]]:
    """The card's printings grouped by their code (the card's own code first, then its parallels):
    ``[{"code", "parallel", "printings": [{"rarity", "picture"}]}]`` (printings prefetched by ``card_get``)."""
    from .pictures import printing_picture

    groups: dict[str, list[dict[str, Any]]] = {}
    for p in sorted(card.printings.all(), key=lambda p: (p.code != card.code, p.code, p.rarity)):
        groups.setdefault(p.code, []).append({"rarity": p.rarity, "picture": printing_picture(p)})
    return [{"code": code, "parallel": code != card.code, "printings": rows} for code, rows in groups.items()]


# Card columns no card picture or face reads (catalog.templatetags.card_pictures; a large picture
# reads ``text``, the small ones do not): lists of small pictures leave them in the database.
_NOT_ON_FACES = ("alt_names", "text", "flavor", "effects", "translations", "abilities", "effect_kinds",
                 "name_folded", "text_folded", "code_folded")


def card_same_identity(*, card: Card, limit: int = 40) -> list[Card]:
    """Other cards of the game that count as the same card for the copy limit (reprints in other sets,
    parallels with their own card row), with pictures attached (two queries)."""
    from rules.registry import get_spec

    from .pictures import attach_pictures

    match = Q(name=card.name)
    if card.work and card.number:
        match |= Q(work=card.work, number=card.number)  # index card_game_work_number_idx
    spec = get_spec(card.game)
    key = spec.identity(card.to_record())
    # The candidates are drawn as small pictures (the face: name, type, traits, stats); their text,
    # translations, compiled abilities and search columns are not read, so not fetched, and the
    # identity is read from the row (the identity functions read names, title/person, work, number
    # and code, which a Card has as a CardRecord does) instead of building a record per candidate.
    candidates = (Card.objects.filter(game=card.game).filter(match).exclude(pk=card.pk)
                  .defer(*_NOT_ON_FACES).prefetch_related(printings_for_pictures())
                  .order_by("set_code", "code")[: limit * 2])
    out = [c for c in candidates if spec.identity(c) == key][:limit]
    attach_pictures(out)
    return out


def card_lookup(*, game: str, text: str) -> Card | None:
    """The card a reader names by its code, a printing's code or its exact name (``None``: no such card)."""
    text = (text or "").strip()
    if not text or len(text) > 255 or "\x00" in text:
        return None
    qs = Card.objects.filter(game=game)
    return (qs.filter(code=text).first() or qs.filter(code__iexact=text).first()
            or qs.filter(printings__code__iexact=text).first() or qs.filter(name=text).order_by("code").first())


def card_all_codes(*, card: Card) -> list[str]:
    """The codes a deck may list the card under: its own and its printings' (parallels); the card
    page's card (``card_get``) has its printings already, and no query is made for them again."""
    if "printings" in getattr(card, "_prefetched_objects_cache", {}):
        printed = [p.code for p in card.printings.all()]
    else:
        printed = list(CardPrinting.objects.filter(card=card).values_list("code", flat=True))
    return sorted({card.code, *printed})


@dataclass
class SetRow:
    """A set of a game as its cards and ``CardSet`` say."""

    code: str
    name: str = ""
    cards: int = 0
    series: list[str] = field(default_factory=list)
    release_date: Any = None
    release_order: int | None = None


def _natural(text: str) -> tuple:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p.lower()) for p in re.split(r"(\d+)", text) if p)


SET_PAIRS_SECONDS = 120  # how long the sets/series summary of a game is reused (a new import shows after that)


def set_pairs_key(game: str) -> str:
    return f"catalog:set-pairs:{game}"


def _set_pairs(game: str) -> tuple[list[dict[str, Any]], dict[str, CardSet]]:
    """Card counts per (set, work) of ``game`` and its ``CardSet`` rows: two queries, then reused for
    ``SET_PAIRS_SECONDS`` from the cache (saving a ``CardSet`` forgets it)."""
    from django.core.cache import cache

    def compute() -> tuple[list[dict[str, Any]], dict[str, CardSet]]:
        pairs = list(Card.objects.filter(game=game).values("set_code", "work").annotate(n=Count("id")).order_by())
        return pairs, {s.code: s for s in CardSet.objects.filter(game=game)}

    return cache.get_or_set(set_pairs_key(game), compute, SET_PAIRS_SECONDS)


def _series_key(game: str, set_code: str, work: str, meta: Mapping[str, CardSet]) -> str:
    from rules.registry import get_spec

    known = meta.get(set_code)
    if known is not None and known.series:
        return known.series
    return get_spec(game).series_of(set_code, work)


def card_sets(*, game: str) -> list[SetRow]:
    """The sets of ``game`` in release order (where known; then by code), each with its name, series
    and card count (two queries)."""
    pairs, meta = _set_pairs(game)
    rows: dict[str, SetRow] = {}
    for pair in pairs:
        code = pair["set_code"]
        row = rows.get(code)
        if row is None:
            m = meta.get(code)
            row = rows[code] = SetRow(code, m.name if m else "", 0, [], m.release_date if m else None,
                                      m.release_order if m else None)
        row.cards += pair["n"]
        series = _series_key(game, code, pair["work"], meta)
        if series and series not in row.series:
            row.series.append(series)
    return sorted(rows.values(), key=lambda r: (
        r.release_order is None, r.release_order or 0, r.release_date is None, str(r.release_date or ""),
        not r.code, _natural(r.code)))


def card_series(*, game: str) -> list[dict[str, Any]]:
    """The series (works) of ``game``: ``[{"name", "cards", "sets": [set codes]}]`` by name."""
    pairs, meta = _set_pairs(game)
    out: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        name = _series_key(game, pair["set_code"], pair["work"], meta)
        if not name:
            continue
        row = out.setdefault(name, {"name": name, "cards": 0, "sets": []})
        row["cards"] += pair["n"]
        if pair["set_code"] and pair["set_code"] not in row["sets"]:
            row["sets"].append(pair["set_code"])
    for row in out.values():
        row["sets"].sort(key=_natural)
    return sorted(out.values(), key=lambda r: _natural(r["name"]))


def card_series_query(*, game: str, series: str) -> Q | None:
    """A filter for the cards of one series of ``game`` (None: no such series)."""
    pairs, meta = _set_pairs(game)
    by_work: dict[str, list[str]] = {}
    for pair in pairs:
        if series and _series_key(game, pair["set_code"], pair["work"], meta) == series:
            by_work.setdefault(pair["work"], []).append(pair["set_code"])
    if not by_work:
        return None
    q = Q()
    for work, sets in by_work.items():
        q |= Q(work=work, set_code__in=sets)
    return Q(game=game) & q


def card_series_cards(*, game: str, series: str) -> QuerySet[Card] | None:
    """The cards of one series (by set and code); None: no such series."""
    q = card_series_query(game=game, series=series)
    if q is None:
        return None
    return Card.objects.filter(q).order_by("set_code", "code")


def card_series_codes(*, game: str, series: str) -> list[str]:
    """Every code a deck may list a card of the series under (card codes and printing codes)."""
    q = card_series_query(game=game, series=series)
    if q is None:
        return []
    cards = Card.objects.filter(q)
    codes = set(cards.values_list("code", flat=True))
    codes.update(CardPrinting.objects.filter(card__in=cards).values_list("code", flat=True))
    return sorted(codes)


def card_names_by_codes(*, game: str, codes: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``{code: {"name", "code", "game", "card_type", "level", "set_code", "work"}}`` for card and printing
    codes (two light queries at most: no card records built, for lists of many decks)."""
    wanted = {c for c in codes if c}
    if not wanted:
        return {}
    fields = ("code", "name", "game", "card_type", "level", "set_code", "work")
    out = {row["code"]: row for row in Card.objects.filter(game=game, code__in=wanted).values(*fields)}
    rest = wanted - set(out)
    if rest:
        for p in CardPrinting.objects.filter(game=game, code__in=rest).select_related("card").only("code", *(f"card__{f}" for f in fields)):
            out.setdefault(p.code, {f: getattr(p.card, f) for f in fields})
    return out


# -- several games at once (the public deck list: decks of every game on one page) -----------------
def _by_game(wanted: Mapping[str, Iterable[str]]) -> tuple[Q | None, dict[str, set[str]]]:
    """``(Q matching (game, code) for every game's codes, {game: codes})``; the Q is None when no code."""
    sets = {game: {c for c in codes if c} for game, codes in wanted.items()}
    sets = {game: codes for game, codes in sets.items() if codes}
    match = None
    for game, codes in sets.items():
        part = Q(game=game, code__in=codes)
        match = part if match is None else match | part
    return match, sets


def card_names_by_game_codes(*, wanted: Mapping[str, Iterable[str]]) -> dict[str, dict[str, dict[str, Any]]]:
    """``card_names_by_codes`` for the codes of several games in one query (and one more for printing
    codes): ``{game: {code: row}}``. The public deck list reads the cards of decks of every game at once
    instead of once per game."""
    match, sets = _by_game(wanted)
    out: dict[str, dict[str, dict[str, Any]]] = {game: {} for game in sets}
    if match is None:
        return out
    fields = ("code", "name", "game", "card_type", "level", "set_code", "work")
    for row in Card.objects.filter(match).values(*fields).order_by():
        out[row["game"]][row["code"]] = row
    rest, _ = _by_game({game: codes - set(out[game]) for game, codes in sets.items()})
    if rest is not None:
        printings = (CardPrinting.objects.filter(rest).select_related("card")
                     .only("game", "code", *(f"card__{f}" for f in fields)))
        for p in printings:
            out[p.game].setdefault(p.code, {f: getattr(p.card, f) for f in fields})
    return out


def cards_for_pictures(*, wanted: Mapping[str, Iterable[str]]) -> dict[str, dict[str, Card]]:
    """``{game: {code: Card}}`` for card codes of several games (one query), without the columns no
    small picture reads (text, translations, abilities...): cards a list draws as small pictures."""
    match, sets = _by_game(wanted)
    out: dict[str, dict[str, Card]] = {game: {} for game in sets}
    if match is not None:
        for card in Card.objects.filter(match).defer(*_NOT_ON_FACES).order_by():
            out[card.game][card.code] = card
    return out


def card_pictures_by_game_codes(*, wanted: Mapping[str, Iterable[str]]) -> dict[str, dict[str, Picture]]:
    """``card_pictures_by_codes`` for the codes of several games in one query: ``{game: {code: Picture}}``."""
    from .pictures import best_picture

    _, sets = _by_game(wanted)
    out: dict[str, dict[str, Picture]] = {game: {} for game in sets}
    match = None
    for game, codes in sets.items():
        part = Q(game=game) & (Q(code__in=codes) | Q(card__code__in=codes))
        match = part if match is None else match | part
    if match is None:
        return out
    rows = (CardPrinting.objects.filter(match).exclude(image="", image_url="").select_related("card")
            .only(*_PICTURE_FIELDS, "card__code"))
    by_card: dict[tuple[str, str], list[CardPrinting]] = {}
    by_code: dict[tuple[str, str], list[CardPrinting]] = {}
    for p in rows:
        by_card.setdefault((p.game, p.card.code), []).append(p)
        by_code.setdefault((p.game, p.code), []).append(p)
    for game, codes in sets.items():
        for code in codes:
            picture = best_picture(code, by_card[game, code]) if (game, code) in by_card else None
            if picture is None and (game, code) in by_code:
                picture = best_picture(code, by_code[game, code])
            if picture is not None:
                out[game][code] = picture
    return out
