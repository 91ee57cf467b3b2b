"""The API token endpoint (DRF authtoken), throttled like the log-in form."""
from __future__ import annotations

from typing import Any

from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from config.parsers import StrictFormParser, StrictJSONParser

from .. import login_throttle


class TokenView(ObtainAuthToken):
    """Password guessing through the token endpoint is throttled per client address ("auth" rate)
    and shares the login form's failed-login counts per username and address (accounts/login_throttle.py)."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"
    # DRF's view lists its own parsers: these refuse NUL characters and unpaired surrogates (a 400
    # naming the field; a lone surrogate in the username was a 500) and JSON nested too deep.
    parser_classes = [StrictFormParser, MultiPartParser, StrictJSONParser]

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = request.data.get("username") if hasattr(request.data, "get") else None
        username = username[:150] if isinstance(username, str) else ""
        wait = login_throttle.login_wait(request, username)
        if wait:
            raise Throttled(wait, detail=login_throttle.locked_message(wait))
        try:
            response = super().post(request, *args, **kwargs)
        except ValidationError:
            login_throttle.login_failed(request, username)
            raise
        if username:
            login_throttle.login_succeeded(username)
        return response
