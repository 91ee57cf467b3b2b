"""API tokens that expire, and that their owner can see and revoke (issue 19, finding 10).

DRF's authtoken keeps one token per user. ``ExpiringTokenAuthentication`` refuses (and deletes) a
token older than ``API_TOKEN_TTL`` seconds (default 30 days): the client asks for a new one at
``POST /api/v1/auth/token/``. ``GET /api/v1/auth/tokens/`` shows the user's token (its first 6
characters, when it was made, when it expires); ``DELETE`` revokes it; ``POST /api/v1/auth/logout/``
revokes the token the request came with and ends the session. Changing or resetting the password
revokes it too.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

DEFAULT_TTL = 30 * 24 * 3600


def token_ttl() -> int:
    return int(getattr(settings, "API_TOKEN_TTL", DEFAULT_TTL))


def token_expires(token: Token) -> datetime:
    return token.created + timedelta(seconds=token_ttl())


def tokens_revoke(user: Any) -> int:
    """Delete ``user``'s API token(s); how many there were."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's token authentication; a token past ``API_TOKEN_TTL`` is refused and deleted."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user, token = super().authenticate_credentials(key)
        if timezone.now() >= token_expires(token):
            token.delete()
            raise AuthenticationFailed(gettext("this token has expired; ask for a new one at /api/v1/auth/token/"))
        return user, token
