"""The API's rate limits (DRF throttles with a compact history) and the same limits for HTML pages
(docs/security.md, issue 19 finding 1).

``AnonRateThrottle`` and ``UserRateThrottle`` are DRF's, with the same scopes, cache keys, sliding
window and ``wait()``, but the history of a client's requests is kept in the cache as the bytes of
an ``array('d')`` (oldest first) instead of a pickled list of floats (newest first). DRF's list is
pickled, unpickled and shifted (``insert(0, ...)``) on every request, a cost that grows with the
number of requests in the window: a client near a high rate (the benchmarks raise the rates to
10,000,000/minute, a signed-in client may make 1,200 a minute) paid up to a millisecond of Python
per request for it. Here the history is a ``memcpy`` in and out of the cache, expired entries cut
with one binary search, and the new one appended. A history stored in DRF's form (a list) is read too.

``page_throttle_wait(request)`` counts a page request against the same DRF throttles as the API
(``AnonRateThrottle`` per client address, ``UserRateThrottle`` per signed-in user, in the same cache
and under the same keys), so the card search page and the deck builder's search share one budget
with ``/api/v1/cards/``: alternating between the page and the API gains nothing. It returns the
seconds to wait (0: go ahead); the page then answers **429** with ``Retry-After``.
"""
from __future__ import annotations

import math
from array import array
from bisect import bisect_right
from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework import throttling

from .errors import AppError


class CompactHistoryThrottle(throttling.SimpleRateThrottle):
    """DRF's sliding-window throttle with the history stored as ``array('d')`` bytes, oldest first."""

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        stored = self.cache.get(self.key)
        self.now = now = self.timer()
        times = array("d")
        if isinstance(stored, bytes):
            times.frombytes(stored)
        elif stored:  # DRF's list, newest first
            times.extend(reversed(stored))
        expired = bisect_right(times, now - self.duration)  # DRF drops times <= now - duration
        if expired:
            del times[:expired]
        self.history = times
        if len(times) >= self.num_requests:
            return self.throttle_failure()
        times.append(now)
        self.cache.set(self.key, times.tobytes(), self.duration)
        return True

    def wait(self) -> float | None:
        """DRF's ``wait()``: the rest of the oldest request's window over the requests still available."""
        times = self.history
        remaining = self.duration - (self.now - times[0]) if times else self.duration
        available = self.num_requests - len(times) + 1
        if available <= 0:
            return None
        return remaining / float(available)


class AnonRateThrottle(CompactHistoryThrottle, throttling.AnonRateThrottle):
    """Anonymous clients per address (scope ``anon``), as DRF's."""


class UserRateThrottle(CompactHistoryThrottle, throttling.UserRateThrottle):
    """Signed-in clients per user, anonymous ones per address (scope ``user``), as DRF's."""


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
