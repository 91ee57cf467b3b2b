"""Who is asking, for the playtest pages (``views.py``) and API (``api/views.py``) alike: the browser
session key (anonymous jobs belong to a session) and the client address (the active-job limit)."""
from __future__ import annotations

from typing import Any


def session_key(request: Any, *, create: bool = False) -> str:
    """The request's session key ("" without one); ``create`` saves a new session first."""
    session = getattr(request, "session", None)
    if session is None:
        return ""
    if create and not session.session_key:
        session.save()
    return session.session_key or ""


def client_ip(request: Any) -> str | None:
    return request.META.get("REMOTE_ADDR") or None
