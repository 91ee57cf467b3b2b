"""Password guessing through the HTML login form (and the API token endpoint, which shares the
counts), mass sign-ups: failed logins are counted per username and per client address in the
default cache; above the limit a 429 with Retry-After and a translated message, and the password is
not even checked (accounts/login_throttle.py)."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.login_throttle import parse_rate

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"


@pytest.fixture(autouse=True)
def small_limits(settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LOGIN_FAILURES_USER = "3/15m"
    settings.LOGIN_FAILURES_IP = "5/15m"
    settings.SIGNUP_RATE_IP = "2/h"
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "auth", "1000/minute")  # isolate our limit
    User.objects.create_user("carol", password="right-password-1")


def login(c: Client, password: str, username: str = "carol", **extra):
    return c.post(LOGIN, {"username": username, "password": password}, **extra)


def test_failed_logins_lock_the_username_with_429_and_retry_after():
    c = Client()
    for guess in ("a", "b", "c"):
        r = login(c, guess)
        assert r.status_code == 200 and "_auth_user_id" not in c.session
    r = login(c, "right-password-1")  # even the right password: locked out, not checked
    assert r.status_code == 429
    assert 14 * 60 < int(r["Retry-After"]) <= 15 * 60
    assert "Too many failed log-ins" in r.content.decode() and "15 minute(s)" in r.content.decode()
    assert "_auth_user_id" not in c.session
    # from another address the same account is locked too (per username), the name's case does not help
    r = login(Client(), "right-password-1", username="CAROL", REMOTE_ADDR="10.1.1.1")
    assert r.status_code == 429
    # another account from the first address still works (3 < 5 failures from it)
    User.objects.create_user("dave", password="right-password-2")
    r = login(c, "right-password-2", username="dave")
    assert r.status_code == 302 and c.session["_auth_user_id"]


def test_failed_logins_lock_the_address_across_usernames():
    c = Client()
    for i in range(5):  # one guess each for five names: no name reaches 3, the address reaches 5
        assert login(c, "x", username=f"user{i}").status_code == 200
    r = login(c, "right-password-1")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert login(Client(), "right-password-1", REMOTE_ADDR="10.2.2.2").status_code == 302  # other address


def test_forged_forwarded_for_does_not_escape_the_address_limit():
    c = Client()
    for i in range(5):
        assert login(c, "x", username=f"user{i}", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}").status_code == 200
    assert login(c, "x", username="user9", HTTP_X_FORWARDED_FOR="10.0.0.99").status_code == 429


def test_a_successful_login_clears_the_usernames_failures():
    c = Client()
    for guess in ("a", "b"):
        login(c, guess)
    assert login(c, "right-password-1").status_code == 302
    c = Client()
    for guess in ("a", "b"):
        assert login(c, guess).status_code == 200  # counting from zero again: not locked after 4 in all


def test_the_locked_message_is_translated():
    c = Client()
    for guess in ("a", "b", "c"):
        login(c, guess)
    for lang, text in (("ja", "ログインの失敗が多すぎます"), ("zh-hans", "登录失败次数过多")):
        r = login(c, "x", HTTP_ACCEPT_LANGUAGE=lang)
        assert r.status_code == 429 and text in r.content.decode(), r.content.decode()[:2000]


def test_the_token_endpoint_shares_the_per_username_count():
    c = Client()
    for guess in ("a", "b"):
        login(c, guess)
    api = APIClient(REMOTE_ADDR="10.3.3.3")
    r = api.post("/api/v1/auth/token/", {"username": "carol", "password": "c"}, format="json")
    assert r.status_code == 400  # the third failure, through the API
    r = api.post("/api/v1/auth/token/", {"username": "carol", "password": "right-password-1"}, format="json")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0 and "token" not in r.json()
    assert login(Client(), "right-password-1", REMOTE_ADDR="10.4.4.4").status_code == 429


def test_signups_are_limited_per_address():
    c = Client()
    for i in range(2):
        r = Client().post("/accounts/signup/", {"username": f"new{i}", "password1": "Zq8!long-pass",
                                                 "password2": "Zq8!long-pass"})
        assert r.status_code == 302, r.content.decode()[:500]
    r = c.post("/accounts/signup/", {"username": "new9", "password1": "Zq8!long-pass", "password2": "Zq8!long-pass"})
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert "Too many accounts" in r.content.decode()
    assert not User.objects.filter(username="new9").exists()
    r = Client(REMOTE_ADDR="10.5.5.5").post("/accounts/signup/", {"username": "new9", "password1": "Zq8!long-pass",
                                                                  "password2": "Zq8!long-pass"})
    assert r.status_code == 302


@pytest.mark.parametrize(("text", "number", "seconds"), [("5/15m", 5, 900), ("10/hour", 10, 3600), ("3/s", 3, 1)])
def test_rates_are_read(text, number, seconds):
    assert (parse_rate(text).number, parse_rate(text).seconds) == (number, seconds)


@pytest.mark.parametrize("text", ["", "5", "0/m", "five/m", "5/15x"])
def test_bad_rates_are_refused(text):
    with pytest.raises(ValueError, match="cannot read rate"):
        parse_rate(text)
