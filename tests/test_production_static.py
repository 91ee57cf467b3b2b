"""Production mode serves its own static files (WhiteNoise) after ``collectstatic``: the pages'
CSS and scripts load with no web server in front. Runs in a subprocess: production settings are
chosen when config/settings.py is imported."""
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
call_command("migrate", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
from django.test import Client
c = Client()
out = {}
page = c.get("/cards/", secure=True, HTTP_HOST="example.org").content.decode()
out["css_linked"] = "/static/site.css" in page
for name, enc in (("site.css", ""), ("site.css", "gzip"), ("no-such-file.css", "")):
    r = c.get(f"/static/{name}", secure=True, HTTP_HOST="example.org", HTTP_ACCEPT_ENCODING=enc)
    body = b"".join(r.streaming_content) if r.streaming else r.content
    out[f"{name} {enc}"] = [r.status_code, r.get("Content-Type", ""), r.get("Content-Encoding", ""),
                             r.get("Cache-Control", ""), len(body)]
print("PROBE " + json.dumps(out))
"""


def test_production_serves_collected_static_files_compressed(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_ALLOWED_HOSTS": "example.org",
                "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}", "TCGDB_VAR_DIR": str(tmp_path)})
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=settings.BASE_DIR,
                         capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(next(x for x in out.stdout.splitlines() if x.startswith("PROBE "))[len("PROBE "):])
    assert got["css_linked"]
    size = (settings.BASE_DIR / "static" / "site.css").stat().st_size
    status, ctype, encoding, cache, length = got["site.css "]
    assert (status, encoding, length) == (200, "", size) and ctype.startswith("text/css")
    assert "max-age" in cache
    status, ctype, encoding, cache, length = got["site.css gzip"]
    assert status == 200 and encoding == "gzip" and 0 < length < size
    assert got["no-such-file.css "][0] == 404
    assert (tmp_path / "static" / "site.css.gz").exists()
