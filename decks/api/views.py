"""Decks API: validation (anonymous), deck CRUD with versions, diffs, forks, share links, export."""
from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import AppError
from config.params import PAGE_PARAMETERS, StrictPageNumberPagination, bool_param, reject_empty
from config.parsers import StrictJSONParser
from rules import games as g

from ..models import Deck, DeckVersion, Visibility
from ..selectors import (
    deck_can_edit,
    deck_diff,
    deck_export_text,
    deck_get,
    deck_get_by_slug,
    deck_list,
    deck_snapshot,
    deck_validate,
    deck_version_get,
    deck_version_list,
    format_list,
)
from ..services import (
    DeckConflict,
    DeckInputError,
    DeckPermissionDenied,
    DeckVersionRequired,
    deck_create,
    deck_delete,
    deck_fork,
    deck_restore,
    deck_update,
    share_link_create,
)
from .serializers import (
    DeckDetailSerializer,
    DeckReplaceSerializer,
    DeckSerializer,
    DeckVersionDetailSerializer,
    DeckVersionSerializer,
    DeckWriteSerializer,
    ShareLinkSerializer,
    ValidateSerializer,
    VersionRefSerializer,
)

_ETAG = re.compile(r'^(?:W/)?"?(?:deck-(\d{1,18})-)?v?(\d{1,9})"?$')


class DeckEtagMismatch(AppError):
    """An ``If-Match`` ETag of another deck (code ``precondition_failed``, 412; the answer carries
    this deck's ``ETag``): ``"deck-7-v3"`` sent to deck 8 is not "version 3 of deck 8"."""

    code = "precondition_failed"
    status = 412
    default_message = gettext_lazy("the ETag %(etag)s is of deck %(other)s, not of deck %(id)s; "
                                   "send this deck's ETag (%(current)s)")


def _if_match_version(if_match: str, deck: Deck) -> int:
    """The version an ``If-Match`` header names; a 400 when it cannot be read, a 412 when it names
    another deck (issue 19: the deck id in the ETag used to be ignored)."""
    m = _ETAG.match(if_match.strip())
    if not m:
        raise ValidationError({"If-Match": [gettext("cannot read %(value)s; send the ETag of GET (e.g. %(etag)s)") % {"value": repr(if_match), "etag": deck.etag}]})
    if m.group(1) is not None and int(m.group(1)) != deck.pk:
        raise DeckEtagMismatch(params={"etag": if_match.strip(), "other": int(m.group(1)), "id": deck.pk,
                                       "current": deck.etag, "current_version": deck.version},
                               headers={"ETag": deck.etag})
    return int(m.group(2))


class PlainTextRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "text"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        if isinstance(data, str):
            return data.encode()
        error = data.get("error") if isinstance(data, dict) else None
        if isinstance(error, dict):  # the error object: its message, or one "field: message" line per field
            fields = error.get("fields") or {}
            if fields:
                return "\n".join(f"{k}: {' '.join(map(str, v))}" for k, v in fields.items()).encode()
            return str(error.get("message", "")).encode()
        return str(data).encode()


def _with_etag(response: Response, deck: Deck) -> Response:
    response["ETag"] = deck.etag
    return response


def _detail(deck: Deck, request: Request, *, with_validation: bool = True) -> dict[str, Any]:
    data = DeckDetailSerializer(deck, context={"request": request}).data
    if with_validation:
        data["validation"] = deck_validate(game=deck.game, zones=deck.zones or {}, fmt=deck.format)
    return data


# Bodies with nested cards (``entries``, ``zones``) are JSON only: a form or multipart body cannot carry
# them and DRF would silently drop them (an accepted request that ignored the cards). Others get 415.
JSON_ONLY = [StrictJSONParser]  # depth, NUL and unpaired surrogates checked too (config/parsers.py)


class FormatListView(APIView):
    """``GET /formats/``: the formats a deck may name (``?game=`` one game's), with their lists."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("game", {"type": "string", "enum": list(g.GAMES)})],
        responses=inline_serializer("FormatList", {"formats": serializers.ListField(child=serializers.DictField())}),
        operation_id="formats_list")
    def get(self, request: Request) -> Response:
        reject_empty(request.query_params, ("game",))
        game = request.query_params.get("game", "")
        if game and game not in g.GAMES:
            raise ValidationError({"game": [gettext("unknown game %(game)s; expected one of %(games)s")
                                            % {"game": repr(game[:20]), "games": ", ".join(g.GAMES)}]})
        return Response({"formats": [
            {"game": f.game, "code": f.code, "name": f.name, "series": f.series, "groups": f.groups,
             "single_series": f.single_series, "banned": f.banned, "restricted": f.restricted, "notes": f.notes}
            for f in format_list(game=game)]})


class ValidateView(APIView):
    """Check a deck against its game's construction rules (anonymous use allowed)."""

    permission_classes = [permissions.AllowAny]
    parser_classes = JSON_ONLY

    @extend_schema(request=ValidateSerializer, responses=OpenApiTypes.OBJECT, operation_id="decks_validate",
                   description="Validate a deck given as entries or deck text; anonymous use allowed.")
    def post(self, request: Request) -> Response:
        s = ValidateSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        d = s.validated_data
        from ..services import zones_normalize

        zones = zones_normalize(d["parsed_zones"])  # DeckInputError: a 400 naming the field
        report = deck_validate(game=d["game"], zones=zones, partner=d.get("partner"))
        if d["parse_errors"]:
            report["errors"] = d["parse_errors"] + report["errors"]
            report["valid"] = False
        report["zones"] = zones
        return Response(report)


class DeckListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = JSON_ONLY

    @extend_schema(responses=inline_serializer("PaginatedDeckList", {
        "count": serializers.IntegerField(), "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True), "results": DeckSerializer(many=True)}),
        operation_id="decks_list", parameters=[
        OpenApiParameter("game", {"type": "string", "enum": list(g.GAMES)}),
        OpenApiParameter("owner", str, description="username"),
        OpenApiParameter("mine", bool, description="true: only your own decks"),
        OpenApiParameter("q", {"type": "string", "maxLength": 100}, description="name contains"),
        OpenApiParameter("visibility", {"type": "string", "enum": list(Visibility.values)}),
        *PAGE_PARAMETERS])
    def get(self, request: Request) -> Response:
        params = request.query_params
        reject_empty(params, ("game", "visibility", "owner"))
        filters = {k: params.get(k) for k in ("game", "owner", "q", "visibility")}
        filters["mine"] = bool_param(params, "mine")  # 400 for maybe/null, not "false"
        paginator = StrictPageNumberPagination()
        paginator.get_page_size(request)  # bad paging parameters are a 400 before any query
        paginator.get_page_number(request, None)
        qs = deck_list(user=request.user, filters=filters)  # DeckFilterError: a 400 naming the parameter
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response(DeckSerializer(page, many=True, context={"request": request}).data)

    @extend_schema(request=DeckWriteSerializer, responses={201: DeckDetailSerializer}, operation_id="decks_create")
    def post(self, request: Request) -> Response:
        s = DeckWriteSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        d = s.validated_data
        missing = {f: [gettext("this field is required")] for f in ("name", "game") if f not in d}
        if missing:
            raise ValidationError(missing)
        deck = deck_create(owner=request.user, game=d["game"], name=d["name"], zones=d["parsed_zones"] or {},
                           description=d.get("description", ""), visibility=d.get("visibility", "private"),
                           note=d.get("note", ""), format_code=d.get("format"))
        return _with_etag(Response(_detail(deck, request), status=status.HTTP_201_CREATED), deck)


class DeckImportView(DeckListView):
    """``POST /decks/import/``: the same as creating a deck (a name for clients that import deck text)."""

    http_method_names = ["post", "options"]

    @extend_schema(request=DeckWriteSerializer, responses={201: DeckDetailSerializer}, operation_id="decks_import",
                   summary="Import a deck (same as POST /decks/)")
    def post(self, request: Request) -> Response:
        return super().post(request)


class DeckObjectMixin:
    def get_deck(self, request: Request, pk: int) -> Deck:
        deck = deck_get(deck_id=pk, user=request.user)
        if deck is None:
            raise NotFound(gettext("no such deck (or it is not shared with you)"))
        return deck

    def get_own_deck(self, request: Request, pk: int) -> Deck:
        deck = self.get_deck(request, pk)
        if not deck_can_edit(deck=deck, user=request.user):
            raise PermissionDenied(gettext("only the owner can change this deck"))
        return deck


class DeckDetailView(DeckObjectMixin, APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = JSON_ONLY

    @extend_schema(responses=DeckDetailSerializer, operation_id="decks_retrieve")
    def get(self, request: Request, pk: int) -> Response:
        deck = self.get_deck(request, pk)
        if deck.etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
            return _with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), deck)
        return _with_etag(Response(_detail(deck, request)), deck)

    @extend_schema(request=DeckReplaceSerializer, responses=DeckDetailSerializer, operation_id="decks_update",
                   summary="Replace a deck (every field required; a new version)",
                   parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER)])
    def put(self, request: Request, pk: int) -> Response:
        return self._save(request, pk, DeckReplaceSerializer)

    @extend_schema(request=DeckWriteSerializer, responses=DeckDetailSerializer, operation_id="decks_partial_update",
                   summary="Change some fields of a deck (a new version)",
                   parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER)])
    def patch(self, request: Request, pk: int) -> Response:
        return self._save(request, pk, DeckWriteSerializer)

    def _save(self, request: Request, pk: int, serializer_class: type[DeckWriteSerializer]) -> Response:
        deck = self.get_own_deck(request, pk)
        s = serializer_class(data=request.data, context={"game": deck.game})
        s.is_valid(raise_exception=True)
        d = s.validated_data
        if "game" in d and d["game"] != deck.game:
            raise ValidationError({"game": [gettext("a deck's game cannot change (this is a %(game)s deck); fork it instead") % {"game": deck.game}]})
        if_match = request.headers.get("If-Match")
        base: int | None = None
        precondition = "body"
        if if_match is not None and if_match.strip() != "*":
            base, precondition = _if_match_version(if_match, deck), "header"
            if "base_version" in d and d["base_version"] != base:
                raise ValidationError({"base_version": [gettext("differs from the If-Match header; send one of them")]})
        elif "base_version" in d:
            base = d["base_version"]
        elif if_match is None:
            raise DeckVersionRequired(
                gettext("say which version your edit is based on: send If-Match (the ETag) or base_version"),
                params={"current_version": deck.version})
        try:
            deck = deck_update(deck=deck, user=request.user, base_version=base, name=d.get("name"),
                               description=d.get("description"), visibility=d.get("visibility"),
                               zones=d["parsed_zones"], note=d.get("note", ""),
                               publish_history=bool(d.get("publish_history")), format_code=d.get("format"))
        except DeckConflict as exc:  # 409, or 412 when the base came from If-Match
            if precondition == "header":
                exc.precondition_failed()
            raise
        return _with_etag(Response(_detail(deck, request)), deck)

    @extend_schema(responses={204: None}, operation_id="decks_destroy")
    def delete(self, request: Request, pk: int) -> Response:
        deck = self.get_own_deck(request, pk)
        deck_delete(deck=deck, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckVersionListView(DeckObjectMixin, APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=DeckVersionSerializer(many=True), operation_id="decks_versions_list")
    def get(self, request: Request, pk: int) -> Response:
        deck = self.get_deck(request, pk)
        return Response(DeckVersionSerializer(deck_version_list(deck=deck), many=True).data)


class DeckVersionDetailView(DeckObjectMixin, APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=DeckVersionDetailSerializer, operation_id="decks_versions_retrieve")
    def get(self, request: Request, pk: int, number: int) -> Response:
        deck = self.get_deck(request, pk)
        v = deck_version_get(deck=deck, number=number)
        if v is None:
            raise NotFound(gettext("deck has no version %(version)s (latest is %(latest)s)") % {
                "version": number, "latest": deck.version})
        return Response(DeckVersionDetailSerializer(v).data)


class DeckVersionRestoreView(DeckObjectMixin, APIView):
    """Save an old version's content as a new version (``base_version`` or ``If-Match`` as for updates)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=VersionRefSerializer, responses=DeckDetailSerializer, operation_id="decks_versions_restore")
    def post(self, request: Request, pk: int, number: int) -> Response:
        deck = self.get_own_deck(request, pk)
        base = request.data.get("base_version") if hasattr(request.data, "get") else None
        if_match = request.headers.get("If-Match")
        if if_match:
            base = _if_match_version(if_match, deck)
        if base is None:
            raise DeckVersionRequired(gettext("send base_version or If-Match"), params={"current_version": deck.version})
        if isinstance(base, bool) or not str(base).isdigit():
            raise ValidationError({"base_version": [gettext("must be a version number")]})
        try:
            deck = deck_restore(deck=deck, user=request.user, version=number, base_version=int(base))
        except DeckInputError as exc:  # no such version: 404
            raise NotFound(exc.message) from None
        except DeckConflict as exc:  # 409, or 412 when the base came from If-Match
            if if_match:
                exc.precondition_failed()
            raise
        return _with_etag(Response(_detail(deck, request)), deck)


def _int_param(request: Request, name: str, default: int | None = None) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        if default is None:
            raise ValidationError({name: [gettext("this parameter is required (a version number)")]})
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9 or int(raw) < 1:  # "²" is a digit too
        raise ValidationError({name: [gettext("must be a version number, got %(value)s") % {"value": repr(raw[:20])}]})
    return int(raw)


class DeckDiffView(DeckObjectMixin, APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="decks_diff", parameters=[
        OpenApiParameter("from", {"type": "integer", "minimum": 1, "maximum": 999999999}),
        OpenApiParameter("to", {"type": "integer", "minimum": 1, "maximum": 999999999})])
    def get(self, request: Request, pk: int) -> Response:
        deck = self.get_deck(request, pk)
        a = _int_param(request, "from", max(1, deck.version - 1))
        b = _int_param(request, "to", deck.version)
        try:
            return Response(deck_diff(deck=deck, from_version=a, to_version=b))
        except DeckVersion.DoesNotExist as exc:
            raise NotFound(str(exc)) from None


def _fork(request: Request, deck: Deck, *, via_link: bool) -> Response:
    s = VersionRefSerializer(data=request.data)
    s.is_valid(raise_exception=True)
    version = s.validated_data.get("version")
    if version is None and via_link:
        version = getattr(deck, "shared_version", None)
    try:
        fork = deck_fork(deck=deck, user=request.user, version=version, name=s.validated_data.get("name"),
                         via_link=via_link)
    except DeckPermissionDenied:
        raise NotFound(gettext("no such deck (or it is not shared with you)")) from None
    return _with_etag(Response(_detail(fork, request), status=status.HTTP_201_CREATED), fork)


class DeckForkView(DeckObjectMixin, APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=VersionRefSerializer, responses={201: DeckDetailSerializer}, operation_id="decks_fork")
    def post(self, request: Request, pk: int) -> Response:
        return _fork(request, self.get_deck(request, pk), via_link=False)


class DeckShareView(DeckObjectMixin, APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ShareLinkSerializer(many=True), operation_id="decks_shares_list")
    def get(self, request: Request, pk: int) -> Response:
        deck = self.get_own_deck(request, pk)
        return Response(ShareLinkSerializer(deck.share_links.all(), many=True, context={"request": request}).data)

    @extend_schema(request=VersionRefSerializer, responses={201: ShareLinkSerializer}, operation_id="decks_shares_create")
    def post(self, request: Request, pk: int) -> Response:
        deck = self.get_own_deck(request, pk)
        s = VersionRefSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        link = share_link_create(deck=deck, user=request.user, version=s.validated_data.get("version"))
        # a new link is a new version of the deck (the ETag moves on: an edit based on the old one conflicts)
        return _with_etag(Response(ShareLinkSerializer(link, context={"request": request}).data,
                                   status=status.HTTP_201_CREATED), deck)


class DeckExportView(DeckObjectMixin, APIView):
    """``?format=text`` (deck text, default) or ``?format=json`` (the snapshot); ``version`` optional."""

    permission_classes = [permissions.AllowAny]
    renderer_classes = [PlainTextRenderer, JSONRenderer, BrowsableAPIRenderer]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        try:
            return super().perform_content_negotiation(request, force=force)
        except (Http404, NotFound):  # ?format=xml: DRF answers a bare 404 "Not found."
            raise ValidationError({"format": [gettext("unknown format %(value)s; expected text or json") % {
                "value": repr(request.query_params.get("format", "")[:20])}]}) from None

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR, (200, "application/json"): OpenApiTypes.OBJECT},
                   operation_id="decks_export", parameters=[
                       OpenApiParameter("version", {"type": "integer", "minimum": 1, "maximum": 999999999}),
                       OpenApiParameter("format", {"type": "string", "enum": ["text", "json"]},
                                        description="text (default) or json; or send an Accept header")])
    def get(self, request: Request, pk: int) -> Response:
        deck = self.get_deck(request, pk)
        return _export(request, deck)


def _export(request: Request, deck: Deck) -> Response:
    version = _int_param(request, "version", deck.version)
    try:
        snap = deck_snapshot(deck=deck, version=version)
    except DeckVersion.DoesNotExist:
        raise NotFound(gettext("deck has no version %(version)s (latest is %(latest)s)") % {
            "version": version, "latest": deck.version}) from None
    if request.accepted_renderer.format == "text":
        resp = Response(deck_export_text(deck=deck, snapshot=snap))
        resp["Content-Disposition"] = f'attachment; filename="deck-{deck.pk}-v{snap["version"]}.txt"'
        return resp
    return Response({"id": deck.pk, "owner": deck.owner.username, **snap})


class SharedDeckView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=DeckDetailSerializer, operation_id="shared_deck_retrieve")
    def get(self, request: Request, slug: str) -> Response:
        deck = deck_get_by_slug(slug, user=request.user)
        if deck is None:
            raise NotFound(gettext("no deck behind this link"))
        pinned = deck.shared_version
        # Others get the deck as the link shows it (deck_get_by_slug: a pinned link's version, its
        # description and counts, the link's own address); the owner sees the pinned cards on the latest.
        data = _detail(deck, request)
        if pinned is not None and pinned != deck.version:
            snap = deck_snapshot(deck=deck, version=pinned)
            data.update({"zones": snap["zones"], "text": snap["text"], "name": snap["name"],
                         "validation": deck_validate(game=deck.game, zones=snap["zones"], fmt=deck.format)})
        data["shown_version"] = pinned or deck.version
        return Response(data)


class SharedDeckForkView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=VersionRefSerializer, responses={201: DeckDetailSerializer}, operation_id="shared_deck_fork")
    def post(self, request: Request, slug: str) -> Response:
        deck = deck_get_by_slug(slug, user=request.user)
        if deck is None:
            raise NotFound(gettext("no deck behind this link"))
        with transaction.atomic():
            return _fork(request, deck, via_link=True)
