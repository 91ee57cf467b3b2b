"""Rate limiting (DRF throttling): anonymous API use per client address, signed-in use per user,
password guessing on the token endpoint, playtest job creation; every refusal a 429 with Retry-After.
The counters live in the default cache: Redis when REDIS_URL/CACHE_URL is set (shared by all
worker processes, proved below with two processes), else the single process's local memory."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from playtest.models import PlaytestJob
from tests import test_playtest_toy as toy
from tests.test_playtest_toy import GAME, toy_text

toy_engine, toy_cards, inline_jobs = toy.toy_engine, toy.toy_cards, toy.inline_jobs
REDIS_TEST_URL = os.environ.get("SECURITY_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


@pytest.fixture
def rates(monkeypatch):
    """Small rates for the test. DRF binds THROTTLE_RATES to the settings dict at import time, so
    the dict itself is patched (override_settings would not reach it)."""

    def set_rates(**kw: str) -> None:
        for scope, rate in kw.items():
            monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, rate)

    return set_rates


def _get(client: APIClient, url: str, **extra):
    return client.get(url, **extra)


@pytest.mark.django_db
def test_anonymous_api_use_is_limited_per_address_with_retry_after(rates):
    rates(anon="3/minute")
    c = APIClient()
    for _ in range(3):
        assert c.get("/api/v1/cards/").status_code == 200
    r = c.get("/api/v1/cards/")
    assert r.status_code == 429
    assert 0 < int(r["Retry-After"]) <= 60
    body = r.json()
    assert body["error"]["code"] == "throttled" and "throttled" in body["error"]["message"].lower()
    # Every API endpoint shares the anonymous budget of this address.
    r = c.post("/api/v1/decks/validate/", {"game": "ws", "text": "1 X"}, format="json")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0 and r.json()["error"]["code"] == "throttled"
    # Another address has its own budget.
    assert c.get("/api/v1/cards/", REMOTE_ADDR="10.9.8.7").status_code == 200


@pytest.mark.django_db
def test_spoofed_forwarded_for_does_not_reset_the_budget(rates):
    """Without trusted proxies (DJANGO_NUM_PROXIES=0) the address is REMOTE_ADDR, whatever the
    client writes into X-Forwarded-For."""
    rates(anon="2/minute")
    c = APIClient()
    for i in range(2):
        assert c.get("/api/v1/cards/", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code == 200
    r = c.get("/api/v1/cards/", HTTP_X_FORWARDED_FOR="198.51.100.77")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0


@pytest.mark.django_db
def test_signed_in_users_are_counted_per_user_not_per_address(rates):
    rates(anon="1/minute", user="3/minute")
    alice = User.objects.create_user("alice", password="pw-alice-123456")
    bob = User.objects.create_user("bob", password="pw-bob-123456")
    a, b = APIClient(), APIClient()
    a.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    b.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=bob).key}")
    for _ in range(3):  # above the anonymous rate, within the user rate
        assert a.get("/api/v1/decks/?mine=true").status_code == 200
    r = a.get("/api/v1/decks/?mine=true")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert b.get("/api/v1/decks/?mine=true").status_code == 200  # same address, other user


@pytest.mark.django_db
def test_token_endpoint_limits_password_guessing(rates):
    rates(auth="3/minute")
    User.objects.create_user("carol", password="right-password-1")
    c = APIClient()
    for guess in ("a", "b", "c"):
        r = c.post("/api/v1/auth/token/", {"username": "carol", "password": guess}, format="json")
        assert r.status_code == 400
    r = c.post("/api/v1/auth/token/", {"username": "carol", "password": "right-password-1"}, format="json")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert "token" not in r.json()


@pytest.mark.django_db
def test_job_creation_budget_is_shared_by_the_api_and_the_form(rates, toy_engine, toy_cards, inline_jobs,
                                                                settings, django_capture_on_commit_callbacks):
    """Job creation has its own lower rate; switching from the API to the page does not reset it,
    nor does a spoofed X-Forwarded-For."""
    settings.PLAYTEST_CREATE_RATE_ANON = "2/hour"
    settings.PLAYTEST_MAX_ACTIVE_ANON = 10
    c = APIClient()
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(2):
            r = c.post("/api/v1/playtests/", {"game": GAME, "text": toy_text(), "games": 5}, format="json",
                       HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
            assert r.status_code == 202, r.content
        r = c.post("/api/v1/playtests/", {"game": GAME, "text": toy_text(), "games": 5}, format="json",
                   HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    r = c.post("/playtests/new/", {"game": GAME, "text": toy_text(), "games": 5})
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert PlaytestJob.objects.count() == 2


def test_cache_setting_follows_the_environment():
    """REDIS_URL/CACHE_URL choose a Redis cache (shared by processes); nothing set means local memory."""
    code = "import django,json;django.setup();from django.conf import settings as s;print(json.dumps(s.CACHES))"
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CACHE_URL")}
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"

    def caches(**env: str) -> dict:
        out = subprocess.run([sys.executable, "-c", code], env={**base, **env}, cwd=settings.BASE_DIR,
                             capture_output=True, text=True, timeout=60, check=True).stdout
        return json.loads(out.strip().splitlines()[-1])["default"]

    assert caches()["BACKEND"].endswith("LocMemCache")
    redis_cache = caches(REDIS_URL="redis://127.0.0.1:6379/3")
    assert redis_cache["BACKEND"].endswith("RedisCache") and redis_cache["LOCATION"] == "redis://127.0.0.1:6379/3"
    assert caches(CACHE_URL="file:///tmp/x", REDIS_URL="redis://h/1")["BACKEND"].endswith("FileBasedCache")


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=2).ping())
    except Exception:
        return False


_PROC = """
import django, os, sys
django.setup()
from rest_framework.throttling import SimpleRateThrottle
SimpleRateThrottle.THROTTLE_RATES["anon"] = "4/minute"
from django.test import Client
c = Client(REMOTE_ADDR=sys.argv[2])
print(" ".join(str(c.get("/api/v1/playtests/compare/").status_code) for _ in range(int(sys.argv[1]))))
"""


def test_two_worker_processes_share_one_budget_through_redis():
    """What several gunicorn workers see: two processes with CACHE_URL=redis://... count together
    (4 allowed in all, not 4 each)."""
    if not _redis_up():
        pytest.skip(f"needs Redis at {REDIS_TEST_URL} (CI starts it)")
    import redis

    redis.Redis.from_url(REDIS_TEST_URL).flushdb()
    addr = f"192.0.2.{os.getpid() % 250 + 1}"  # apart from any other run sharing this Redis
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "CACHE_URL": REDIS_TEST_URL}

    def run(n: int) -> list[int]:
        out = subprocess.run([sys.executable, "-c", _PROC, str(n), addr], env=env, cwd=settings.BASE_DIR,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr[-2000:]
        return [int(x) for x in out.stdout.split()]

    try:
        first = run(3)
        second = run(3)
    finally:
        redis.Redis.from_url(REDIS_TEST_URL).flushdb()
    # compare without jobs answers 400, counted all the same
    assert first == [400, 400, 400] and second == [400, 429, 429], (first, second)


@pytest.mark.django_db
def test_playtest_listing_counts_against_the_anonymous_rate(rates):
    rates(anon="2/minute")
    c = APIClient()
    assert [c.get("/api/v1/playtests/").status_code for _ in range(3)] == [200, 200, 429]


def _timeline_decisions(throttle_class, times: list[float], rate: str) -> list[tuple[bool, float | None]]:
    """``allow_request`` (and ``wait`` when refused) of one throttle class over a timeline of
    requests from one address, with its own local-memory cache and the timeline as its clock."""
    from django.core.cache.backends.locmem import LocMemCache
    from django.test import RequestFactory

    request = RequestFactory().get("/api/v1/cards/", REMOTE_ADDR="198.51.100.9")
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    cache = LocMemCache(f"throttle-{throttle_class.__module__}-{rate}", {})
    out = []
    for now in times:
        throttle = throttle_class()
        throttle.cache, throttle.timer, throttle.rate = cache, (lambda now=now: now), rate
        throttle.num_requests, throttle.duration = throttle.parse_rate(rate)
        allowed = throttle.allow_request(request, None)
        out.append((allowed, None if allowed else round(throttle.wait() or 0, 9)))
    return out


@pytest.mark.parametrize("rate", ["3/second", "5/minute", "40/minute"])
def test_compact_throttles_decide_and_wait_as_drfs(rate):
    """config.throttling's Anon/UserRateThrottle keep the history as array bytes (no pickled list to
    load and store per request) but allow, refuse and answer ``wait()`` exactly as DRF's on the same
    requests: bursts, pauses longer than the window, requests at the window's edge."""
    import random

    from rest_framework import throttling as drf

    from config import throttling as compact

    rng = random.Random(rate)
    num, duration = drf.SimpleRateThrottle.parse_rate(None, rate)
    times, now = [], 1_700_000_000.0
    for _ in range(600):
        pause = rng.random() < 0.05  # now and then a pause as long as the window or a part of it
        now += rng.choice([duration / 7, duration, duration * 1.5] if pause else [0.0, duration / num / 3, duration / num])
        times.append(now)
    for ours, theirs in ((compact.AnonRateThrottle, drf.AnonRateThrottle), (compact.UserRateThrottle, drf.UserRateThrottle)):
        expected = _timeline_decisions(theirs, times, rate)
        assert _timeline_decisions(ours, times, rate) == expected
        assert 30 < sum(1 for allowed, _ in expected if not allowed) < 570  # both kinds of answer tested


def test_compact_throttle_history_is_bytes_and_reads_drfs_list():
    """The stored history is 8 bytes a request (the cost of a request no longer grows with a pickled
    list of every request in the window), and a history DRF stored (a list, newest first) still counts."""
    from array import array

    from django.core.cache.backends.locmem import LocMemCache
    from django.test import RequestFactory

    from config.throttling import AnonRateThrottle

    request = RequestFactory().get("/", REMOTE_ADDR="198.51.100.10")
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    cache = LocMemCache("throttle-legacy", {})
    throttle = AnonRateThrottle()
    cache.set(throttle.cache_format % {"scope": "anon", "ident": "198.51.100.10"}, [105.0, 103.0, 101.0], 60)
    for now, allowed in ((106.0, True), (107.0, False), (161.5, True)):
        throttle = AnonRateThrottle()
        throttle.cache, throttle.timer = cache, (lambda now=now: now)
        throttle.num_requests, throttle.duration = 4, 60
        assert throttle.allow_request(request, None) is allowed, now
    stored = cache.get(throttle.key)
    assert isinstance(stored, bytes) and array("d", stored).tolist() == [103.0, 105.0, 106.0, 161.5]
