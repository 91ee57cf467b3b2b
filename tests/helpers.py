"""Clients for the tests: the API's (token-less, authenticated as a user) and the site's (signed in
through the session), each anonymous when no user is given."""
from __future__ import annotations

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
