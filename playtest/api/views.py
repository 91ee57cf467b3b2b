"""Playtest API: create (202), read with progress and statistics, cancel, list, replay one game, compare."""
from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.params import INT_MAX, StrictPageNumberPagination, reject_empty
from rules import games as g

from .. import reports, services
from ..models import PlaytestJob
from ..selectors import PlaytestFilterError, playtest_get, playtest_is_mine, playtest_list
from ..stats import compare_results
from ..throttles import PlaytestCreateThrottle
from ..web import client_ip, session_key
from .serializers import (
    ErrorSerializer,
    GameLogSerializer,
    PlaytestCreateSerializer,
    PlaytestJobSerializer,
    PlaytestListSerializer,
)

KEY_PARAM = OpenApiParameter("key", OpenApiTypes.STR, OpenApiParameter.PATH,
                             description="the job's id (owner or creating session) or its share slug (anyone)")


def error_response(exc: services.PlaytestError) -> Response:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
    return Response({"errors": exc.errors, "detail": str(exc)}, status=exc.status, headers=headers)


class PlaytestListCreateView(ListAPIView):
    serializer_class = PlaytestListSerializer
    pagination_class = StrictPageNumberPagination  # page / page_size: a bad value is a 400, not ignored
    parser_classes = [JSONParser]  # nested entries/options: a form body would silently lose them (415)

    def get_queryset(self):
        reject_empty(self.request.query_params, ("status", "game", "deck_id"))
        try:
            return playtest_list(user=self.request.user, session_key=session_key(self.request),
                                 filters=self.request.query_params)
        except PlaytestFilterError as exc:
            raise ValidationError(exc.errors) from None

    def get_throttles(self):
        # Listing counts against the general API rates like every other endpoint (it had none).
        return [PlaytestCreateThrottle()] if self.request.method == "POST" else super().get_throttles()

    def throttled(self, request: Request, wait: float | None) -> None:
        raise Throttled(wait, detail="too many playtest jobs started recently"
                        + (f"; try again in {int(wait or 0) + 1} seconds" if wait else ""))

    @extend_schema(summary="My playtest jobs (signed-in user, or this browser session)", parameters=[
        OpenApiParameter("status", {"type": "array", "items": {"type": "string", "enum": list(PlaytestJob.Status.values)}},
                         explode=True, description="one or more statuses (repeat the parameter)"),
        OpenApiParameter("game", {"type": "string", "enum": list(g.GAMES)}),
        OpenApiParameter("deck_id", {"type": "integer", "minimum": 1, "maximum": INT_MAX},
                         description="jobs of this saved deck"),
    ])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Start a goldfish playtest job",
        request=PlaytestCreateSerializer,
        responses={202: PlaytestJobSerializer, 400: ErrorSerializer, 404: ErrorSerializer,
                   503: OpenApiResponse(PlaytestJobSerializer, description="the job queue is unreachable; the job failed"),
                   429: OpenApiResponse(ErrorSerializer, description="too many active jobs, or started too often "
                                        "(Retry-After says when to try again)")},
    )
    def post(self, request: Request) -> Response:
        ser = PlaytestCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        try:
            job = services.playtest_start(
                data=ser.validated_data, owner=request.user if request.user.is_authenticated else None,
                session_key=lambda: session_key(request, create=True), client_ip=client_ip(request))
        except services.PlaytestError as exc:
            return error_response(exc)
        job.refresh_from_db()
        data = PlaytestJobSerializer(job, context={"request": request}).data
        if job.status == PlaytestJob.Status.FAILED and job.error.startswith(services.QUEUE_DOWN):
            return Response({**data, "detail": job.error}, status=503, headers={"Retry-After": "60"})
        return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["url"]})


def _get_job(request: Request, key: str) -> PlaytestJob | None:
    return playtest_get(key=key, user=request.user, session_key=session_key(request))


NOT_FOUND = {"detail": "no such playtest job (or it is not yours: use its share link)"}


class PlaytestDetailView(APIView):
    @extend_schema(summary="A playtest job: status, progress and, when done, its statistics",
                   parameters=[KEY_PARAM], responses={200: PlaytestJobSerializer, 404: ErrorSerializer})
    def get(self, request: Request, key: str) -> Response:
        job = _get_job(request, key)
        if job is None:
            return Response(NOT_FOUND, status=404)
        return Response(PlaytestJobSerializer(job, context={"request": request}).data)

    @extend_schema(summary="Delete a finished job (owner or creating session only)", parameters=[KEY_PARAM],
                   responses={204: None, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer})
    def delete(self, request: Request, key: str) -> Response:
        job = _get_job(request, key)
        if job is None:
            return Response(NOT_FOUND, status=404)
        if not playtest_is_mine(job, user=request.user, session_key=session_key(request)):
            return Response({"detail": "only the job's owner can delete it"}, status=403)
        try:
            services.playtest_delete(job=job)
        except services.PlaytestError as exc:
            return error_response(exc)
        return Response(status=204)


class PlaytestCancelView(APIView):
    @extend_schema(summary="Cancel a queued or running job (owner or creating session only)", request=None,
                   parameters=[KEY_PARAM], responses={200: PlaytestJobSerializer, 403: ErrorSerializer,
                                                      404: ErrorSerializer, 409: ErrorSerializer})
    def post(self, request: Request, key: str) -> Response:
        job = _get_job(request, key)
        if job is None:
            return Response(NOT_FOUND, status=404)
        if not playtest_is_mine(job, user=request.user, session_key=session_key(request)):
            return Response({"detail": "only the job's owner can cancel it"}, status=403)
        if not services.playtest_cancel(job=job):
            return Response({"detail": f"the job already ended ({job.status})"}, status=409)
        return Response(PlaytestJobSerializer(job, context={"request": request}).data)


class PlaytestGameLogView(APIView):
    @extend_schema(summary="Replay one game of a job from its seed, with the full event log",
                   parameters=[KEY_PARAM, OpenApiParameter("index", OpenApiTypes.INT, OpenApiParameter.PATH,
                                                           description="game index, 0 to games-1")],
                   responses={200: GameLogSerializer, 404: ErrorSerializer})
    def get(self, request: Request, key: str, index: int) -> Response:
        job = _get_job(request, key)
        if job is None:
            return Response(NOT_FOUND, status=404)
        try:
            replay = reports.game_replay(job, index)
        except IndexError as exc:
            return Response({"detail": str(exc)}, status=404)
        replay.pop("turns", None)
        return Response(replay)


class PlaytestCompareView(APIView):
    @extend_schema(
        summary="Compare two finished jobs (b relative to a): win rate and turn of win, with tests",
        parameters=[OpenApiParameter("a", OpenApiTypes.STR, required=True, description="id or share slug"),
                    OpenApiParameter("b", OpenApiTypes.STR, required=True, description="id or share slug")],
        responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        keys = [request.query_params.get("a"), request.query_params.get("b")]
        if not all(keys):
            return Response({"detail": "give two jobs: ?a=<id or slug>&b=<id or slug>"}, status=400)
        jobs = [_get_job(request, k) for k in keys]
        for k, job in zip("ab", jobs, strict=True):
            if job is None:
                return Response({"detail": f"{k}: " + NOT_FOUND["detail"]}, status=404)
            if job.status != PlaytestJob.Status.DONE:
                return Response({"detail": f"{k}: job {job.pk} is {job.status}, not done"}, status=400)
        return Response({"a": PlaytestListSerializer(jobs[0], context={"request": request}).data,
                         "b": PlaytestListSerializer(jobs[1], context={"request": request}).data,
                         **compare_results(jobs[0].result, jobs[1].result)})
