"""Request checks that every view would otherwise have to repeat (issue 19, finding 5).

``RejectNulMiddleware``: a NUL character (``%00``) in the address, a query parameter or a form field
is a **400** naming where it is, before any view runs. PostgreSQL refuses NUL in text, so ``/d/%00/``,
``/p/%00/``, ``/api/v1/shared/%00/``, ``/decks/?q=%00`` and the playtest forms answered 500 when the
value reached a query. (Unpaired surrogates cannot arrive this way: Django decodes addresses and
forms with replacement; JSON bodies are checked by ``config.parsers.StrictJSONParser``.)
"""
from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext

from .errors import InvalidInput

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def nul_problem(request: HttpRequest) -> InvalidInput | None:
    """The request's first NUL character (address, query parameter, form field) as an error, or None."""
    if "\x00" in request.path:
        return InvalidInput({"path": [gettext("the address contains a NUL character")]})
    sources = [request.GET]
    # Page forms only: the API reads its bodies with its own parsers (config/parsers.py), and reading
    # request.POST here would use up a multipart body before DRF could answer 415 for it.
    if request.method == "POST" and request.content_type in FORM_TYPES and not request.path.startswith("/api/"):
        sources.append(request.POST)
    for params in sources:
        for key, values in params.lists():
            if "\x00" in key or any("\x00" in v for v in values):
                name = key.replace("\x00", "\\x00")
                return InvalidInput({name: [gettext("contains a NUL character")]})
    return None


class RejectNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = nul_problem(request)
        if problem is None:
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse(problem.as_dict(), status=400, json_dumps_params={"ensure_ascii": False})
        return HttpResponseBadRequest(
            f"<!doctype html><title>{escape(gettext('Bad request'))}</title>"
            f"<h1>{escape(gettext('Bad request'))}</h1><p>{escape(problem.message)}</p>",
            content_type="text/html; charset=utf-8")
