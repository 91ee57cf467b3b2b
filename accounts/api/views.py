"""The API token endpoint (DRF authtoken), throttled like the log-in form."""
from __future__ import annotations

from typing import Any

from django.contrib.auth import logout
from django.utils import timezone
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from config.parsers import StrictFormParser, StrictJSONParser

from .. import login_throttle
from ..tokens import token_expires, tokens_revoke


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
        token = Token.objects.get(key=response.data["token"])
        if timezone.now() >= token_expires(token):  # an expired token is replaced, never handed out again
            user = token.user
            token.delete()
            token = Token.objects.create(user=user)
            response.data["token"] = token.key
        response.data["expires"] = token_expires(token)
        return response


_TOKEN_INFO = inline_serializer("ApiTokenInfo", {
    "key_prefix": serializers.CharField(), "created": serializers.DateTimeField(),
    "expires": serializers.DateTimeField()}, many=True)


class TokenListView(APIView):
    """The signed-in user's API token (at most one): see it, revoke it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: _TOKEN_INFO}, operation_id="auth_tokens_list")
    def get(self, request: Request) -> Response:
        return Response([{"key_prefix": t.key[:6], "created": t.created, "expires": token_expires(t)}
                         for t in Token.objects.filter(user=request.user)])

    @extend_schema(responses={204: None}, operation_id="auth_tokens_revoke")
    def delete(self, request: Request) -> Response:
        tokens_revoke(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutView(APIView):
    """Revoke the user's API token and end the session (if any)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, operation_id="auth_logout")
    def post(self, request: Request) -> Response:
        tokens_revoke(request.user)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
