"""A database statement timeout for a block of code, on PostgreSQL and on SQLite.

``statement_timeout(seconds)`` runs the block so that the database stops its statements after
``seconds``; a stopped statement raises ``StatementTimeout`` (on PostgreSQL the block is a
transaction, rolled back), so a slow query can never hold a web worker for longer than that.

- PostgreSQL: ``set_config('statement_timeout', ..., true)``, i.e. ``SET LOCAL``: only for this
  transaction. Inside an outer transaction (a test, an ``atomic`` view) the previous value is put
  back when the block ends. Synchronized sequential scans are off for the block the same way: a
  capped count (``LIMIT`` over a sequential scan of the cards table) then reads the same stretch of
  the table every time instead of starting where the last scan stopped (see
  ``SET_LOCAL``: the same statement read 610 to 5,430 buffers).
- SQLite: a progress handler that interrupts the running statement once the deadline has passed
  (checked every ``SQLITE_STEPS`` virtual-machine steps; removed when the block ends). No
  transaction: it would take the write lock (``BEGIN IMMEDIATE``, ``config.settings.SQLITE_OPTIONS``).
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from django.db import DEFAULT_DB_ALIAS, OperationalError, connections, transaction

SQLITE_STEPS = 1000


class StatementTimeout(Exception):
    """A statement ran past the deadline of ``statement_timeout`` and was stopped."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"a statement ran longer than {seconds:g} s and was stopped")
        self.seconds = seconds


def is_timeout(exc: BaseException) -> bool:
    """True for the database's "statement stopped" error (PostgreSQL 57014, SQLite "interrupted")."""
    cause = exc.__cause__ or exc
    if getattr(cause, "sqlstate", None) == "57014":  # query_canceled
        return True
    return type(cause).__name__ == "QueryCanceled" or "interrupted" in str(cause).lower()


@contextmanager
def statement_timeout(seconds: float, *, using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Run the block in a transaction whose statements stop after ``seconds`` (see the module)."""
    conn = connections[using]
    nested = conn.in_atomic_block
    # SQLite: the progress handler belongs to the connection, so no transaction is needed, and one
    # would take the file's write lock (transactions begin IMMEDIATE there, config.settings), making
    # concurrent searches wait for each other and for every writer.
    block = nullcontext() if conn.vendor == "sqlite" else transaction.atomic(using=using)
    try:
        with block:
            restore = _arm(conn, seconds, nested)
            try:
                yield
            except BaseException:
                # PostgreSQL: the rollback (to the savepoint, when nested) undoes the SET LOCAL too.
                _disarm(conn, restore, restore_previous=False)
                raise
            _disarm(conn, restore, restore_previous=True)
    except OperationalError as exc:
        if is_timeout(exc):
            raise StatementTimeout(seconds) from exc
        raise


# A block's transaction settings (SET LOCAL): the statement timeout, and no synchronized sequential
# scans. PostgreSQL starts a sequential scan of a table larger than a quarter of shared_buffers where
# the last one stopped; a capped count (``LIMIT cap`` over a sequential scan, e.g. the search
# ``o:/draw [23] card/``) then reads a different stretch of the table each time: on search_bench
# 7,700-22,500 rows and 610-5,430 buffers for the same statement (the same 9,062 and 697 every time
# without), its SQL p95 ~25 ms for a p50 of ~9 ms. The answers are the same either way. The cards
# API sends them in its search's pipeline (``catalog.selectors.card_rows_from_statement``), where an
# outer transaction's values are saved in the transaction's own settings and put back after, in the
# same round trip (``SAVE_AND_SET_LOCAL`` ... ``RESTORE_LOCAL``).
SET_LOCAL = "SELECT set_config('statement_timeout', %s, true), set_config('synchronize_seqscans', 'off', true)"
SAVE_AND_SET_LOCAL = ("SELECT set_config('tcgdb.outer_statement_timeout', current_setting('statement_timeout'), true), "
                      "set_config('tcgdb.outer_synchronize_seqscans', current_setting('synchronize_seqscans'), true), "
                      "set_config('statement_timeout', %s, true), set_config('synchronize_seqscans', 'off', true)")
RESTORE_LOCAL = ("SELECT set_config('statement_timeout', current_setting('tcgdb.outer_statement_timeout'), true), "
                 "set_config('synchronize_seqscans', current_setting('tcgdb.outer_synchronize_seqscans'), true)")


def _arm(conn: Any, seconds: float, nested: bool) -> Any:
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            previous = None
            if nested:  # kept here, not in the transaction's settings: blocks may nest
                cursor.execute("SELECT current_setting('statement_timeout'), current_setting('synchronize_seqscans')")
                previous = cursor.fetchone()
            cursor.execute(SET_LOCAL, [f"{max(1, int(seconds * 1000))}ms"])
        return ("postgresql", previous)
    if conn.vendor == "sqlite":
        conn.ensure_connection()
        deadline = time.monotonic() + seconds
        conn.connection.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, SQLITE_STEPS)
        return ("sqlite", None)
    return (conn.vendor, None)


def _disarm(conn: Any, restore: Any, *, restore_previous: bool) -> None:
    vendor, previous = restore
    if vendor == "postgresql" and previous is not None and restore_previous and not conn.needs_rollback:
        with conn.cursor() as cursor:
            cursor.execute("SELECT set_config('statement_timeout', %s, true), set_config('synchronize_seqscans', %s, true)",
                           list(previous))
    elif vendor == "sqlite" and conn.connection is not None:
        conn.connection.set_progress_handler(None, 0)
