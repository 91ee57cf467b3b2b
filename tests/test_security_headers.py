"""Production mode (DJANGO_DEBUG=0): security headers, HTTPS redirect, secure cookie flags, and
`manage.py check --deploy` clean of security warnings. Each runs in a subprocess, because the
production settings are chosen when config/settings.py is imported."""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

from django.conf import settings

PROBE = r"""
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0, run_syncdb=True)
from django.contrib.auth.models import User
from django.test import Client
User.objects.create_user("erin", password="Prod-Mode-Pass-77")
out = {}
c = Client()
r = c.get("/cards/", HTTP_HOST="example.org")
out["plain_http"] = [r.status_code, r.get("Location", "")]
r = c.get("/accounts/login/", secure=True, HTTP_HOST="example.org")
out["headers"] = {k: r.get(k) for k in ("Strict-Transport-Security", "X-Content-Type-Options", "X-Frame-Options",
                                        "Referrer-Policy", "Cross-Origin-Opener-Policy")}
csrf = r.cookies["csrftoken"]
out["csrf_cookie"] = {"secure": bool(csrf["secure"]), "samesite": csrf["samesite"]}
r = c.post("/accounts/login/", {"username": "erin", "password": "Prod-Mode-Pass-77",
                                "csrfmiddlewaretoken": csrf.value}, secure=True, HTTP_HOST="example.org",
           HTTP_REFERER="https://example.org/accounts/login/")
out["login"] = r.status_code
s = r.cookies.get("sessionid")
out["session_cookie"] = s and {"secure": bool(s["secure"]), "httponly": bool(s["httponly"]), "samesite": s["samesite"]}
r = c.get("/api/v1/cards/?q=(", secure=True, HTTP_HOST="example.org")
out["api_error"] = [r.status_code, r["Content-Type"], "Traceback" in r.content.decode()]
r = c.get("/no/such/page/", secure=True, HTTP_HOST="example.org")
out["not_found"] = [r.status_code, "Traceback" in r.content.decode() or "URLconf" in r.content.decode()]
print("PROBE " + json.dumps(out))
"""


def _prod_env(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL")}
    # The browser fixture sets this for Playwright's event loop; production never has it.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_ALLOWED_HOSTS": "example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}", "TCGDB_VAR_DIR": str(tmp_path),
    })
    return env


def test_production_mode_sends_security_headers_and_secure_cookies(tmp_path):
    out = subprocess.run([sys.executable, "-c", PROBE], env=_prod_env(tmp_path), cwd=settings.BASE_DIR,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    line = next(x for x in out.stdout.splitlines() if x.startswith("PROBE "))
    got = json.loads(line[len("PROBE "):])
    status, location = got["plain_http"]
    assert status == 301 and location.startswith("https://example.org/"), got["plain_http"]
    h = got["headers"]
    assert h["Strict-Transport-Security"].startswith("max-age=31536000")
    assert "includeSubDomains" in h["Strict-Transport-Security"]
    assert h["X-Content-Type-Options"] == "nosniff"
    assert h["X-Frame-Options"] == "DENY"
    assert h["Referrer-Policy"] == "same-origin" and h["Cross-Origin-Opener-Policy"] == "same-origin"
    assert got["csrf_cookie"]["secure"] is True and got["csrf_cookie"]["samesite"] == "Lax"
    assert got["login"] == 302
    assert got["session_cookie"] == {"secure": True, "httponly": True, "samesite": "Lax"}
    assert got["api_error"] == [400, "application/json", False]
    assert got["not_found"] == [404, False]  # no debug page in production


def test_production_mode_refuses_the_development_secret_key(tmp_path):
    env = _prod_env(tmp_path)
    env.pop("DJANGO_SECRET_KEY")
    out = subprocess.run([sys.executable, "-c", "import django; django.setup()"], env=env, cwd=settings.BASE_DIR,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "DJANGO_SECRET_KEY must be set" in out.stderr


def test_check_deploy_passes_with_production_settings(tmp_path):
    out = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], env=_prod_env(tmp_path),
                         cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "security." not in out.stdout + out.stderr, out.stdout + out.stderr
