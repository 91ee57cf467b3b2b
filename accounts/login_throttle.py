"""Password guessing and mass sign-ups through the HTML forms (docs/security.md).

Failed logins are counted per client address and per username in the default cache (the same
Redis / local-memory cache that counts the API's DRF throttles). Above either limit the login form
answers **429** with ``Retry-After`` and a message saying how long to wait, without checking the
password at all. The token endpoint of the API shares the per-username count, so spreading guesses
over the form and the API gains nothing. Account creation is limited per client address.

The client address is ``REMOTE_ADDR`` unless ``DJANGO_NUM_PROXIES`` trusted proxies are declared
(DRF's ``get_ident``, the same rule as the API throttles).

Limits (settings or environment, ``N/period`` with period ``s``/``m``/``h``/``d``, e.g. ``15m``,
or ``second``/``minute``/``hour``/``day``):
``LOGIN_FAILURES_USER`` (default ``5/15m``), ``LOGIN_FAILURES_IP`` (``30/15m``),
``SIGNUP_RATE_IP`` (``10/h``).
"""
from __future__ import annotations

import hashlib
import math
import os
import re
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from rest_framework.throttling import BaseThrottle

DEFAULTS = {"LOGIN_FAILURES_USER": "5/15m", "LOGIN_FAILURES_IP": "30/15m", "SIGNUP_RATE_IP": "10/h",
            "PASSWORD_RESET_RATE_IP": "5/h"}
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*$")


@dataclass(frozen=True)
class Rate:
    number: int
    seconds: int


def parse_rate(text: str) -> Rate:
    """``"5/15m"`` → 5 per 900 seconds; ``"10/hour"`` → 10 per 3600. A bad value is a startup error."""
    m = _RATE.match(text.lower())
    if not m or m.group(3)[0] not in _UNITS or int(m.group(1)) < 1:
        raise ValueError(f"cannot read rate {text!r}; expected e.g. '5/15m' or '10/hour'")
    return Rate(int(m.group(1)), int(m.group(2) or 1) * _UNITS[m.group(3)[0]])


def rate(name: str) -> Rate:
    return parse_rate(str(getattr(settings, name, None) or os.environ.get(name) or DEFAULTS[name]))


def client_ident(request: HttpRequest) -> str:
    return BaseThrottle().get_ident(request) or "unknown"


def _key(kind: str, ident: str) -> str:
    # Usernames are case-insensitive here (Alice and alice share one budget) and hashed into the key.
    return f"authfail:{kind}:{hashlib.sha256(ident.strip().lower().encode()).hexdigest()[:32]}"


def _history(key: str, window: int, now: float) -> list[float]:
    return [t for t in cache.get(key, []) if t > now - window]


def _wait(key: str, r: Rate, now: float) -> int:
    """Seconds until the count under ``key`` drops below the limit (0: not limited)."""
    history = _history(key, r.seconds, now)
    if len(history) < r.number:
        return 0
    oldest_counted = sorted(history)[-r.number]
    return max(1, math.ceil(oldest_counted + r.seconds - now))


def _add(key: str, r: Rate, now: float) -> None:
    history = _history(key, r.seconds, now)
    history.append(now)
    cache.set(key, history[-r.number:], r.seconds)


def login_wait(request: HttpRequest, username: str | None) -> int:
    """Seconds this address / username must wait before the next login attempt (0: go ahead)."""
    now = time.time()
    waits = [_wait(_key("ip", client_ident(request)), rate("LOGIN_FAILURES_IP"), now)]
    if username:
        waits.append(_wait(_key("user", username), rate("LOGIN_FAILURES_USER"), now))
    return max(waits)


def login_failed(request: HttpRequest, username: str | None, *, count_ip: bool = True) -> None:
    now = time.time()
    if count_ip:
        _add(_key("ip", client_ident(request)), rate("LOGIN_FAILURES_IP"), now)
    if username:
        _add(_key("user", username), rate("LOGIN_FAILURES_USER"), now)


def login_succeeded(username: str) -> None:
    """The right password clears that username's failures (not the address's: one own account must
    not reset the budget for guessing others')."""
    cache.delete(_key("user", username))


def locked_message(wait: int) -> str:
    return gettext("Too many failed log-ins for this account or from your address. "
                   "Please wait %(minutes)s minute(s) and try again.") % {"minutes": max(1, math.ceil(wait / 60))}


def signup_wait(request: HttpRequest) -> int:
    return _wait(_key("signup", client_ident(request)), rate("SIGNUP_RATE_IP"), time.time())


def signup_done(request: HttpRequest) -> None:
    _add(_key("signup", client_ident(request)), rate("SIGNUP_RATE_IP"), time.time())


def signup_limited_message(wait: int) -> str:
    return gettext("Too many accounts were created from your address. "
                   "Please wait %(minutes)s minute(s) and try again.") % {"minutes": max(1, math.ceil(wait / 60))}


def reset_wait(request: HttpRequest) -> int:
    return _wait(_key("reset", client_ident(request)), rate("PASSWORD_RESET_RATE_IP"), time.time())


def reset_done(request: HttpRequest) -> None:
    _add(_key("reset", client_ident(request)), rate("PASSWORD_RESET_RATE_IP"), time.time())


def reset_limited_message(wait: int) -> str:
    return gettext("Too many password reset requests from your address. "
                   "Please wait %(minutes)s minute(s) and try again.") % {"minutes": max(1, math.ceil(wait / 60))}


def refused(form: Any, message: str) -> Any:
    """The bound ``form`` with ``message`` as its only error, never validated (no password check,
    no account created); the fields keep what was typed."""
    form.cleaned_data, form._errors = {}, ErrorDict()
    form.add_error(None, message)
    return form


class ThrottledLoginView(auth_views.LoginView):
    """Django's login view; failed attempts counted, a locked-out attempt answered 429 unchecked."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = (request.POST.get("username") or "")[:150]
        wait = login_wait(request, username)
        if wait:
            form = refused(self.get_form(), locked_message(wait))  # the password is not checked
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        login_succeeded(form.get_user().get_username())
        return super().form_valid(form)

    def form_invalid(self, form: Any) -> HttpResponse:
        username = (self.request.POST.get("username") or "")[:150]
        login_failed(self.request, username)
        return super().form_invalid(form)


def admin_login_view(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """``/admin/login/``: Django admin's own login, counted in the same per-username and per-address
    budgets as the site's login form (issue 19: 40 wrong passwords there, then the right one, worked).
    Locked out: **429** with ``Retry-After`` and the password is not checked; a successful staff login
    clears that username's failures."""
    from django.contrib import admin
    from django.contrib.admin.forms import AdminAuthenticationForm
    from django.contrib.auth import REDIRECT_FIELD_NAME
    from django.shortcuts import render

    if request.method != "POST":
        return admin.site.login(request, extra_context)
    username = (request.POST.get("username") or "")[:150]
    wait = login_wait(request, username)
    if wait:
        form = refused(AdminAuthenticationForm(request, data=request.POST), locked_message(wait))
        context = {**admin.site.each_context(request), "title": gettext("Log in"), "subtitle": None,
                   "app_path": request.get_full_path(), "form": form, "username": username,
                   REDIRECT_FIELD_NAME: request.GET.get(REDIRECT_FIELD_NAME, "")}
        response = render(request, admin.site.login_template or "admin/login.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response
    response = admin.site.login(request, extra_context)
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_staff:
        login_succeeded(username)
    else:
        login_failed(request, username)
    return response
