"""The embedded SQLite default with several writers on one file (web requests, in-process playtest
threads, a Celery worker on the same machine).

A transaction that reads and then writes (``playtest_create`` counts the active jobs, then inserts
one) while another connection writes must wait for it, not fail. With SQLite's default deferred
``BEGIN`` it failed at once with "database is locked" — SQLite answers that without calling the busy
handler because the two connections would deadlock — which the suite saw once as a flaky failure of
``test_playtest_recovery``'s fairness test. ``config.settings.SQLITE_OPTIONS`` makes every
transaction ``BEGIN IMMEDIATE``. The test runs on a file of its own with those options, so it runs
in the PostgreSQL suite too.
"""
from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from django.conf import settings
from django.db import connections, transaction

ALIAS = "sqlite_writers"


@pytest.fixture
def sqlite_file(tmp_path, django_db_blocker):
    """A connection alias on a SQLite file of its own, configured as the settings configure SQLite."""
    path = tmp_path / "writers.sqlite3"
    config = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path), "OPTIONS": dict(settings.SQLITE_OPTIONS)}
    connections.settings[ALIAS] = connections.configure_settings({"default": config, ALIAS: config})[ALIAS]
    try:
        with django_db_blocker.unblock():
            with connections[ALIAS].cursor() as cursor:
                cursor.execute("CREATE TABLE job (n INTEGER)")
            yield path
            connections[ALIAS].close()
    finally:
        del connections[ALIAS]
        del connections.settings[ALIAS]


def test_a_transaction_that_reads_then_writes_waits_for_another_writer(sqlite_file):
    started, written, errors = threading.Event(), threading.Event(), []

    def other_writer() -> None:  # another process's connection, with a busy timeout as ours
        other = sqlite3.connect(sqlite_file, timeout=20, isolation_level=None)
        started.wait(10)
        try:
            other.execute("INSERT INTO job VALUES (2)")
            written.set()
        except sqlite3.OperationalError as exc:
            errors.append(str(exc))
        finally:
            other.close()

    thread = threading.Thread(target=other_writer)
    thread.start()
    try:
        with transaction.atomic(using=ALIAS), connections[ALIAS].cursor() as cursor:
            cursor.execute("SELECT count(*) FROM job")
            assert cursor.fetchone() == (0,)
            started.set()
            # the other writer comes in between our read and our write; it waits for our commit
            assert not written.wait(0.5), "the other writer got in while our transaction was open"
            cursor.execute("INSERT INTO job VALUES (1)")
    finally:
        started.set()
        thread.join(30)
    assert errors == []
    with connections[ALIAS].cursor() as cursor:
        cursor.execute("SELECT n FROM job ORDER BY rowid")
        assert cursor.fetchall() == [(1,), (2,)]


def test_the_settings_use_these_options_for_sqlite_only():
    options = settings.DATABASES["default"].get("OPTIONS", {})
    applied = {k: options.get(k) for k in settings.SQLITE_OPTIONS}
    if connections["default"].vendor == "sqlite":
        assert applied == settings.SQLITE_OPTIONS
    else:  # PostgreSQL in this run: none of them reach its connection options
        assert applied == dict.fromkeys(settings.SQLITE_OPTIONS)


def test_a_search_under_the_statement_timeout_does_not_wait_for_a_writer(sqlite_file):
    """Searches run under ``statement_timeout``; on SQLite that is a progress handler, not a
    transaction, so a search reads while a writer holds the write lock instead of queueing behind it
    (an IMMEDIATE transaction would have waited for the writer's commit)."""
    from config.dbtimeout import statement_timeout

    writer = sqlite3.connect(sqlite_file, timeout=20, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO job VALUES (7)")
    release = threading.Timer(3.0, writer.commit)
    release.start()
    try:
        started = time.monotonic()
        with statement_timeout(5, using=ALIAS), connections[ALIAS].cursor() as cursor:
            cursor.execute("SELECT count(*) FROM job")
            assert cursor.fetchone() == (0,)  # the writer has not committed yet
        waited = time.monotonic() - started
    finally:
        release.join()
        writer.close()
    assert waited < 2.0, f"the search waited {waited:.1f} s for the writer"
