"""Rate limits on job creation (a 429 with Retry-After above them), shared by the API and the pages."""
from __future__ import annotations

from rest_framework.throttling import SimpleRateThrottle

from . import conf


class PlaytestCreateThrottle(SimpleRateThrottle):
    """Job creations per user (signed in) or per client address (anonymous)."""

    scope = "playtest_create"

    def get_rate(self) -> str | None:  # chosen per request in allow_request (user or anonymous)
        return None

    def allow_request(self, request, view) -> bool:
        user = getattr(request, "user", None)
        authed = bool(user is not None and user.is_authenticated)
        self.rate = conf.get("PLAYTEST_CREATE_RATE_USER" if authed else "PLAYTEST_CREATE_RATE_ANON")
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view) -> str:
        user = getattr(request, "user", None)
        ident = f"user-{user.pk}" if user is not None and user.is_authenticated else f"ip-{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
