"""Content-Security-Policy on every answer (issue 19, finding 11; docs/security.md).

Scripts run only from this site's own files, or inline when they carry the request's nonce
(``request.csp_nonce``, 128 random bits, new for every request: the Swagger UI and Redoc pages' one
inline script each, in ``templates/drf_spectacular/``; htmx's indicator style). No plugins, no
``<base>`` tag, no framing, forms post to this site only. Pictures may come from https (card images
given as ``image_url``). The admin, DRF's browsable API and the API docs keep the inline styles
their packages set (and Redoc its fonts); their scripts need the nonce all the same.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"
POLICY: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self' 'nonce-{nonce}'",
    "style-src": "'self' 'nonce-{nonce}'",
    "img-src": "'self' data: https:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}
# Pages of packages that set styles inline (never the site's own pages).
LOOSER: dict[str, dict[str, str]] = {
    "/admin/": {"style-src": "'self' 'unsafe-inline'"},
    "/api/v1/redoc/": {"style-src": "'self' 'unsafe-inline' https://fonts.googleapis.com",
                       "font-src": "'self' https://fonts.gstatic.com", "worker-src": "'self' blob:"},
    "/api/v1/docs/": {"style-src": "'self' 'unsafe-inline'"},
    "/api/": {"style-src": "'self' 'unsafe-inline'"},  # DRF's browsable API pages
}


def policy_for(path: str, nonce: str) -> str:
    policy = dict(POLICY)
    for prefix, changes in LOOSER.items():
        if path.startswith(prefix):
            policy.update(changes)
            break
    return "; ".join(f"{name} {value.format(nonce=nonce)}" for name, value in policy.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.csp_nonce = secrets.token_urlsafe(16)  # type: ignore[attr-defined]
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = policy_for(request.path, request.csp_nonce)  # type: ignore[attr-defined]
        return response
