"""``GET /api/v1/``: the index of the API — every resource with its address, what it is for and the
methods it answers, and where the schema and documentation are (docs/api.md). A DRF view, so it
answers in the one error model and with the usual renderers (JSON, or the browsable page)."""
from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

# (name, URL name, URL arguments as shown, methods, description)
RESOURCES: tuple[tuple[str, str, dict[str, str], str, Any], ...] = (
    ("cards", "catalog-api:card-list", {}, "GET", _("Card search: q (the search language), game, order, filters; paged")),
    ("card", "catalog-api:card-detail", {"game": "{game}", "code": "{code}"}, "GET", _("One card by game and code")),
    ("decks", "api-deck-list", {}, "GET POST", _("Your decks and public decks; create a deck")),
    ("deck", "api-deck-detail", {"pk": "{id}"}, "GET PUT PATCH DELETE", _("One deck (ETag / If-Match for edits)")),
    ("deck_validate", "api-deck-validate", {}, "POST", _("Check a deck against its game's construction rules")),
    ("deck_import", "api-deck-import", {}, "POST", _("Read deck text or an exchange format into a deck")),
    ("formats", "api-format-list", {}, "GET", _("Formats a deck may name, with their banned and restricted lists; ?game=")),
    ("shared_deck", "api-shared-deck", {"slug": "{slug}"}, "GET", _("A deck behind a share link")),
    ("playtests", "api-playtest-list", {}, "GET POST", _("Goldfish playtests: start one, list yours")),
    ("playtest_compare", "api-playtest-compare", {}, "GET", _("Compare the reports of playtests")),
    ("token", "api-token", {}, "POST", _("An API token for your account")),
)


def _url(request: Request, name: str, kwargs: dict[str, str]) -> str:
    real = {k: ("0" if v.startswith("{") else v) for k, v in kwargs.items()}
    url = request.build_absolute_uri(reverse(name, kwargs=real) if real else reverse(name))
    for shown in kwargs.values():  # put the placeholders back where the sample values went
        if shown.startswith("{"):
            url = url.replace("/0/", f"/{shown}/", 1)
    return url


class ApiIndexView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        resources = {
            name: {"url": _url(request, url_name, kwargs), "methods": methods.split(), "description": str(text)}
            for name, url_name, kwargs, methods, text in RESOURCES
        }
        return Response({
            "version": "1",
            "resources": resources,
            "schema": request.build_absolute_uri(reverse("api-schema")),
            "docs": request.build_absolute_uri(reverse("api-docs")),
            "redoc": request.build_absolute_uri(reverse("api-redoc")),
            "errors": str(_("Every error is one object: {\"error\": {\"code\", \"message\", \"params\"}}")),
        })
