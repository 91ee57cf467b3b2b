"""Issue 19, findings 10 and 12: API tokens that expire and that their owner lists and revokes
(logout and a new password revoke them too), password change and reset by e-mail, and look-alike
usernames refused (accounts/tokens.py, accounts/views.py, accounts/usernames.py)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
PASSWORD = "Old-Pass-word-19"


@pytest.fixture(autouse=True)
def fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def erin():
    return User.objects.create_user("erin", email="erin@example.org", password=PASSWORD)


def _token(username: str = "erin", password: str = PASSWORD) -> str:
    r = APIClient().post("/api/v1/auth/token/", {"username": username, "password": password}, format="json")
    assert r.status_code == 200, r.content
    return r.json()["token"]


def _with(token: str) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return c


def _authenticated(token: str) -> bool:
    return _with(token).get("/api/v1/auth/tokens/").status_code == 200


# -- 10. tokens ------------------------------------------------------------------------------------
def test_a_user_lists_and_revokes_their_token(erin):
    token = _token()
    listed = _with(token).get("/api/v1/auth/tokens/").json()
    assert len(listed) == 1 and listed[0]["key_prefix"] == token[:6] and token not in str(listed)
    assert listed[0]["expires"] > listed[0]["created"]
    assert _with(token).delete("/api/v1/auth/tokens/").status_code == 204
    assert not _authenticated(token) and not Token.objects.exists()


def test_tokens_expire(erin, settings):
    settings.API_TOKEN_TTL = 3600
    token = _token()
    Token.objects.filter(key=token).update(created=timezone.now() - timedelta(seconds=3601))
    r = _with(token).get("/api/v1/auth/tokens/")
    assert r.status_code in (401, 403) and r.json()["error"]["code"] == "authentication_failed"
    assert "expired" in r.json()["error"]["message"]
    assert not Token.objects.filter(key=token).exists()
    fresh = _token()  # a new one is handed out, never the expired one again
    assert fresh != token and _authenticated(fresh)


def test_logout_revokes_the_token(erin):
    token = _token()
    assert _with(token).post("/api/v1/auth/logout/").status_code == 204
    assert not _authenticated(token)


def test_password_change_revokes_the_token(erin):
    token = _token()
    c = Client()
    c.force_login(erin)
    r = c.post("/accounts/password/change/", {"old_password": PASSWORD, "new_password1": "New-Pass-word-20",
                                               "new_password2": "New-Pass-word-20"})
    assert r.status_code == 302 and r["Location"] == "/accounts/password/change/done/"
    assert not _authenticated(token)
    assert Client().login(username="erin", password="New-Pass-word-20")
    assert not Client().login(username="erin", password=PASSWORD)


def test_password_reset_by_email_with_the_console_backend(erin, settings):
    token = _token()
    c = Client()
    r = c.post("/accounts/password/reset/", {"email": "erin@example.org"})
    assert r.status_code == 302 and len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)", mail.outbox[0].body).group(1)
    r = c.get(link, follow=True)
    assert r.status_code == 200
    r = c.post(r.redirect_chain[-1][0], {"new_password1": "Reset-Pass-word-21", "new_password2": "Reset-Pass-word-21"})
    assert r.status_code == 302 and r["Location"] == "/accounts/password/reset/done/"
    assert Client().login(username="erin", password="Reset-Pass-word-21")
    assert not _authenticated(token)
    # an unknown address gets the same answer and no mail (nothing to learn about accounts)
    r = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert r.status_code == 302 and len(mail.outbox) == 1
    assert settings.EMAIL_BACKEND.endswith("locmem.EmailBackend")


def test_password_reset_requests_are_limited_per_address(erin, settings):
    settings.PASSWORD_RESET_RATE_IP = "2/h"
    for _ in range(2):
        assert Client().post("/accounts/password/reset/", {"email": "erin@example.org"}).status_code == 302
    r = Client().post("/accounts/password/reset/", {"email": "erin@example.org"})
    assert r.status_code == 429 and int(r["Retry-After"]) > 0 and len(mail.outbox) == 2


def test_the_console_email_backend_is_the_default():
    from importlib import reload

    import config.settings as s

    reload(s)
    assert s.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"


# -- 12. look-alike usernames ------------------------------------------------------------------------
def _signup(username: str):
    return Client().post("/accounts/signup/", {"username": username, "password1": "Sign-Up-Pass-77",
                                                "password2": "Sign-Up-Pass-77"})


@pytest.mark.parametrize(("existing", "look_alike"), [
    ("alice", "\u0430lice"),       # Cyrillic а
    ("bob", "b\u03bfb"),           # Greek ο
    ("alice", "ALICE"),            # another case
    ("scope", "\u0455\u0441\u043e\u0440\u0435"),  # wholly Cyrillic ѕсоре
])
def test_look_alike_usernames_are_refused(existing, look_alike, settings):
    settings.SIGNUP_RATE_IP = "100/h"
    User.objects.create_user(existing, password="pw-existing-123")
    r = _signup(look_alike)
    assert r.status_code == 400, r.content.decode()[:300]
    text = r.content.decode()
    assert "looks like one that is already taken" in text or "mixes letters" in text or "already exists" in text
    assert not User.objects.filter(username=look_alike).exists()


@pytest.mark.parametrize("name", ["\u0430lice", "b\u03bfb", "pa\u0443pal"])
def test_mixed_script_look_alikes_are_refused_even_without_the_original(name, settings):
    settings.SIGNUP_RATE_IP = "100/h"
    assert _signup(name).status_code == 400 and not User.objects.exists()


@pytest.mark.parametrize("name", ["\u0430\u043b\u0438\u0441\u0430", "\u305f\u308d\u3046", "Zo\u00eb", "dave_2"])
def test_names_in_one_script_are_welcome(name, settings):
    settings.SIGNUP_RATE_IP = "100/h"
    r = _signup(name)
    assert r.status_code == 302, r.content.decode()[:500]
    assert User.objects.filter(username=name).exists()
