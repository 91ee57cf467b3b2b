"""Uploaded files (card images and their thumbnails) served by the site itself when
``settings.SERVE_MEDIA`` is on: development and tests. In production a web server or another
storage serves ``MEDIA_URL`` and this answers 404."""
from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.static import serve


def media_view(request: HttpRequest, path: str) -> HttpResponse:
    if not settings.SERVE_MEDIA:
        raise Http404("media files are not served here")
    response = serve(request, path, document_root=settings.MEDIA_ROOT)
    response["Cache-Control"] = "public, max-age=86400"
    return response
