"""Playtest API: create (202), read with progress and statistics, cancel, list, replay one game, compare."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, PermissionDenied, Throttled
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import AppError, InvalidInput
from config.params import INT_MAX, StrictPageNumberPagination, reject_empty
from config.parsers import StrictJSONParser
from config.schema import error_response
from rules import games as g

from .. import reports, services
from ..models import PlaytestJob
from ..selectors import playtest_get, playtest_is_mine, playtest_list
from ..stats import compare_results
from ..throttles import PlaytestCreateThrottle
from ..web import client_ip, session_key
from .serializers import (
    GameLogSerializer,
    PlaytestCreateSerializer,
    PlaytestJobSerializer,
    PlaytestListSerializer,
)

KEY_PARAM = OpenApiParameter("key", OpenApiTypes.STR, OpenApiParameter.PATH,
                             description="the job's id (owner or creating session) or its share slug (anyone)")


class PlaytestListCreateView(ListAPIView):
    serializer_class = PlaytestListSerializer
    pagination_class = StrictPageNumberPagination  # page / page_size: a bad value is a 400, not ignored
    parser_classes = [StrictJSONParser]  # nested entries/options: a form body would silently lose them (415)

    def get_queryset(self):
        reject_empty(self.request.query_params, ("status", "game", "deck_id"))
        # PlaytestFilterError: a 400 naming the parameter
        return playtest_list(user=self.request.user, session_key=session_key(self.request),
                             filters=self.request.query_params)

    def get_throttles(self):
        # Listing counts against the general API rates like every other endpoint (it had none).
        return [PlaytestCreateThrottle()] if self.request.method == "POST" else super().get_throttles()

    def throttled(self, request: Request, wait: float | None) -> None:
        if wait:
            detail = gettext("too many playtest jobs started recently; try again in %(s)s seconds") % {"s": int(wait) + 1}
        else:
            detail = gettext("too many playtest jobs started recently")
        raise Throttled(wait, detail=detail)

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
        responses={202: PlaytestJobSerializer, 400: error_response("invalid input or deck (every problem in details)"),
                   404: error_response("no such deck, version or share link"),
                   503: error_response("the job queue is unreachable; the job failed (params.job is the job)"),
                   429: error_response("too many active jobs, or started too often "
                                       "(Retry-After says when to try again)")},
    )
    def post(self, request: Request) -> Response:
        ser = PlaytestCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        # PlaytestError (400/404/429, every problem in details) is answered by config.errors
        job = services.playtest_start(
            data=ser.validated_data, owner=request.user if request.user.is_authenticated else None,
            session_key=lambda: session_key(request, create=True), client_ip=client_ip(request))
        job.refresh_from_db()
        data = PlaytestJobSerializer(job, context={"request": request}).data
        if job.status == PlaytestJob.Status.FAILED and job.error.startswith(services.QUEUE_DOWN):
            raise AppError(job.error, code="queue_unavailable", status=503, params={"job": data},
                           headers={"Retry-After": "60"})
        return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["url"]})


def _get_job(request: Request, key: str) -> PlaytestJob | None:
    return playtest_get(key=key, user=request.user, session_key=session_key(request))


def _not_found() -> str:
    return gettext("no such playtest job (or it is not yours: use its share link)")


def _job_or_404(request: Request, key: str) -> PlaytestJob:
    job = _get_job(request, key)
    if job is None:
        raise NotFound(_not_found())
    return job


class PlaytestDetailView(APIView):
    @extend_schema(summary="A playtest job: status, progress and, when done, its statistics",
                   parameters=[KEY_PARAM], responses={200: PlaytestJobSerializer, 404: error_response("no such job")})
    def get(self, request: Request, key: str) -> Response:
        job = _job_or_404(request, key)
        return Response(PlaytestJobSerializer(job, context={"request": request}).data)

    @extend_schema(summary="Delete a finished job (owner or creating session only)", parameters=[KEY_PARAM],
                   responses={204: None, 403: error_response("not the job's owner"), 404: error_response("no such job"),
                              409: error_response("the job is still queued or running (code job_active)")})
    def delete(self, request: Request, key: str) -> Response:
        job = _job_or_404(request, key)
        if not playtest_is_mine(job, user=request.user, session_key=session_key(request)):
            raise PermissionDenied(gettext("only the job's owner can delete it"))
        services.playtest_delete(job=job)  # PlaytestError job_active (409) while it runs
        return Response(status=204)


class PlaytestCancelView(APIView):
    @extend_schema(summary="Cancel a queued or running job (owner or creating session only)", request=None,
                   parameters=[KEY_PARAM], responses={200: PlaytestJobSerializer, 403: error_response("not the job's owner"),
                                                      404: error_response("no such job"),
                                                      409: error_response("the job already ended (code job_ended)")})
    def post(self, request: Request, key: str) -> Response:
        job = _job_or_404(request, key)
        if not playtest_is_mine(job, user=request.user, session_key=session_key(request)):
            raise PermissionDenied(gettext("only the job's owner can cancel it"))
        if not services.playtest_cancel(job=job):
            raise AppError(gettext("the job already ended (%(status)s)") % {"status": job.status}, code="job_ended",
                           status=409, params={"status": job.status})
        return Response(PlaytestJobSerializer(job, context={"request": request}).data)


class PlaytestGameLogView(APIView):
    @extend_schema(summary="Replay one game of a job from its seed, with the full event log",
                   parameters=[KEY_PARAM, OpenApiParameter("index", OpenApiTypes.INT, OpenApiParameter.PATH,
                                                           description="game index, 0 to games-1")],
                   responses={200: GameLogSerializer, 404: error_response("no such job or game")})
    def get(self, request: Request, key: str, index: int) -> Response:
        job = _job_or_404(request, key)
        try:
            replay = reports.game_replay(job, index)
        except IndexError as exc:
            raise NotFound(str(exc)) from None
        replay.pop("turns", None)
        return Response(replay)


class PlaytestCompareView(APIView):
    @extend_schema(
        summary="Compare two finished jobs (b relative to a): win rate and turn of win, with tests",
        parameters=[OpenApiParameter("a", OpenApiTypes.STR, required=True, description="id or share slug"),
                    OpenApiParameter("b", OpenApiTypes.STR, required=True, description="id or share slug")],
        responses={200: OpenApiTypes.OBJECT, 400: error_response("a or b missing (invalid), or a job not done "
                                                                 "(job_not_done)"),
                   404: error_response("no such job")},
    )
    def get(self, request: Request) -> Response:
        keys = [request.query_params.get("a"), request.query_params.get("b")]
        if not all(keys):
            message = gettext("give two jobs: ?a=<id or slug>&b=<id or slug>")
            raise InvalidInput({k: [message] for k, v in zip("ab", keys, strict=True) if not v}, message=message)
        jobs = [_get_job(request, k) for k in keys]
        for k, job in zip("ab", jobs, strict=True):
            if job is None:
                raise NotFound(f"{k}: " + _not_found())
            if job.status != PlaytestJob.Status.DONE:
                raise AppError(gettext("%(key)s: job %(id)s is %(status)s, not done") % {
                    "key": k, "id": job.pk, "status": job.status},
                    code="job_not_done", status=400, params={"key": k, "id": job.pk, "status": job.status})
        return Response({"a": PlaytestListSerializer(jobs[0], context={"request": request}).data,
                         "b": PlaytestListSerializer(jobs[1], context={"request": request}).data,
                         **compare_results(jobs[0].result, jobs[1].result)})
