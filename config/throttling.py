"""The API's rate limits for HTML pages (docs/security.md, issue 19 finding 1).

``page_throttle_wait(request)`` counts a page request against the same DRF throttles as the API
(``AnonRateThrottle`` per client address, ``UserRateThrottle`` per signed-in user, in the same cache
and under the same keys), so the card search page and the deck builder's search share one budget
with ``/api/v1/cards/``: alternating between the page and the API gains nothing. It returns the
seconds to wait (0: go ahead); the page then answers **429** with ``Retry-After``.
"""
from __future__ import annotations

import math
from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from .errors import AppError


class PageThrottled(AppError):
    """Too many requests for a page (code ``throttled``, 429, ``Retry-After``)."""

    code = "throttled"
    status = 429
    default_message = gettext_lazy("Too many searches from your address or account. "
                                   "Please wait %(wait)s seconds and try again.")


def page_throttle_wait(request: Any) -> int:
    """Count this request against the API's anonymous/user rates; seconds to wait (0: allowed)."""
    waits = []
    for throttle_class in (AnonRateThrottle, UserRateThrottle):
        throttle = throttle_class()
        if not throttle.allow_request(request, None):
            waits.append(throttle.wait() or 1)
    return max(1, math.ceil(max(waits))) if waits else 0


def page_throttle(request: Any) -> None:
    """Raise ``PageThrottled`` when this request is over the rate (see ``page_throttle_wait``)."""
    wait = page_throttle_wait(request)
    if wait:
        raise PageThrottled(params={"wait": wait}, headers={"Retry-After": str(wait)})
