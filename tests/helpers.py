"""Clients for the tests: the API's (token-less, authenticated as a user) and the site's (signed in
through the session), each anonymous when no user is given."""
from __future__ import annotations

import time
from typing import Any

from django.test import Client
from rest_framework.test import APIClient


def api_client(user: Any = None) -> APIClient:
    """An API client authenticated as ``user`` (anonymous for None)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def web_client(user: Any = None, **defaults: Any) -> Client:
    """A browser-like client signed in as ``user`` (anonymous for None); ``defaults`` are its
    default request headers/environ, e.g. ``HTTP_HX_REQUEST="true"``."""
    client = Client(**defaults)
    if user is not None:
        client.force_login(user)
    return client


def wait_until(page: Any, script: str, timeout: float = 30.0) -> None:
    """Poll ``script`` (a JavaScript function, evaluated by Playwright's protocol) in a Playwright
    ``page`` until it returns true. ``page.wait_for_function`` evaluates its predicate with eval
    inside the page, which the site's Content-Security-Policy refuses (``'unsafe-eval'`` is not
    allowed): it fails whenever the predicate is not already true on its first check."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout:g} s: {script}")
        time.sleep(0.05)
