"""Shared test set-up.

Markers (pyproject.toml): ``postgres`` tests run only when DATABASE_URL points at PostgreSQL,
``carddata`` tests only when ../shared/carddata exists, ``browser`` tests only when Chromium is
installed. Each is skipped with its reason printed (``-ra``) where that is missing.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.conf import settings

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FIXTURES = Path(settings.BASE_DIR) / "fixtures"
CARDDATA = Path(settings.SHARED_DIR) / "carddata"


def is_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def pytest_collection_modifyitems(config, items):
    skip_pg = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://... (CI does)")
    skip_data = pytest.mark.skip(reason=f"needs the public card data at {CARDDATA} (CI has it)")
    has_chromium = Path(CHROMIUM).exists() or shutil.which("chromium")
    skip_browser = pytest.mark.skip(reason=f"needs Chromium at {CHROMIUM} (./dev test installs Debian's chromium)")
    for item in items:
        if "postgres" in item.keywords and not is_postgres():
            item.add_marker(skip_pg)
        if "carddata" in item.keywords and not CARDDATA.is_dir():
            item.add_marker(skip_data)
        if "browser" in item.keywords and not has_chromium:
            item.add_marker(skip_browser)


@pytest.fixture(scope="session")
def browser():
    """A real headless Chromium driven by Playwright (Debian's build, no downloaded browser)."""
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, request):
    """Tests marked ``celery`` start a real worker process that must open the same test database.
    On PostgreSQL it does (``transactional_db`` commits); on SQLite the in-memory default is private
    to this process, so when such tests are selected the test database is a file (one per run).
    ``browser`` tests get the file too: their live server and background job threads write
    concurrently, which SQLite's shared-cache memory database answers with "table is locked"."""
    if is_postgres() or not any(m in item.keywords for item in request.session.items for m in ("celery", "browser")):
        return
    db = settings.DATABASES["default"]
    db.setdefault("TEST", {})["NAME"] = str(Path(settings.VAR_DIR) / f"test-{os.getpid()}.sqlite3")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache, so API rate-limit counters (DRF throttling, counted in
    the cache; Redis in CI's PostgreSQL run) never carry over from one test to the next."""
    from django.core.cache import cache
    from django.utils import translation

    cache.clear()
    yield
    # A request with Accept-Language leaves its language active in this thread (LocaleMiddleware
    # does not reset it): the next test starts in the default language again.
    translation.deactivate()


# -- deck tests' set-up (test_decks_*.py, test_security_decks.py) ---------------------------------
@pytest.fixture
def fast_hasher(settings):
    """MD5 password hashing: making a user costs microseconds instead of a full PBKDF2 round."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def cards(db):
    """The small card set of ``decks.testing`` (every game's ``legal_deck`` is made of it)."""
    from decks.testing import cards_create

    cards_create()


@pytest.fixture
def alice(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def bob(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("bob", password="pw-bob-123")


def pytest_addoption(parser):
    parser.addoption("--golden-write", action="store_true", default=False,
                     help="rewrite tests/golden/*.json from the current code (tests/test_golden.py)")
