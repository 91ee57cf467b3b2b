"""The one error model: ``AppError``, the API's exception handler and the site-wide error views.

Every error the API answers, from any endpoint, is one JSON object (docs/api-errors.md)::

    {"error": {"code": "not_found", "message": "no such deck (or it is not shared with you)", "params": {},
               "fields": {...}, "details": [...]}}

- ``code``: a stable snake_case word a client can switch on (never translated);
- ``message``: what is wrong, in the request's language;
- ``params``: the values the message is about (``current_version``, ``wait``, ``position`` ...);
- ``fields`` (invalid input only): each offending field or parameter -> its messages;
- ``details`` (several problems, each with its own code: playtest input): ``field``, ``code``,
  ``message`` and that problem's own values.

An error of the application is a subclass of ``AppError`` with a ``code`` and an HTTP ``status``;
``api_exception_handler`` (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``) turns it, DRF's exceptions and
Django's ``Http404``/``PermissionDenied`` into that object. Under ``/api/`` the views below answer
the same object for addresses no route matches, refused requests and crashes (elsewhere the usual
HTML pages). Pages that catch an ``AppError`` show its ``message``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy
from django.views import defaults

NON_FIELD = "non_field_errors"


class AppError(Exception):
    """An error of the application: a stable ``code``, a translated ``message``, ``params`` (the
    values the message is about), the HTTP ``status`` the API answers with and, for invalid input,
    ``fields`` (field -> messages) and ``details`` (one dict per problem).

    ``message`` may be a lazy translation with ``%(name)s`` placeholders filled from ``params`` when
    it is read, so it comes out in the language of the request that shows it; a string already
    translated and filled is kept as it is. ``headers`` go onto the API response (``Retry-After``,
    ``ETag``).
    """

    code: str = "error"
    status: int = 400
    default_message: Any = gettext_lazy("the request cannot be carried out")

    def __init__(self, message: Any = None, *, code: str | None = None, params: Mapping[str, Any] | None = None,
                 status: int | None = None, fields: Mapping[str, list[Any]] | None = None,
                 details: list[dict[str, Any]] | None = None, headers: Mapping[str, str] | None = None) -> None:
        self._message = self.default_message if message is None else message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.params: dict[str, Any] = dict(params or {})
        self.fields: dict[str, list[str]] = {str(k): [str(m) for m in v] for k, v in (fields or {}).items()}
        self.details: list[dict[str, Any]] = list(details or [])
        self.headers: dict[str, str] = dict(headers or {})
        super().__init__(self._message)

    @property
    def message(self) -> str:
        """The message in the active language."""
        text = str(self._message)
        if self.params and isinstance(self._message, Promise):
            try:
                return text % self.params
            except (KeyError, TypeError, ValueError):  # a broken translation never hides the error
                return text
        return text

    @message.setter
    def message(self, value: Any) -> None:
        self._message = value

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        """The API's error object."""
        return error_body(self.code, self.message, params=self.params, fields=self.fields, details=self.details)


class InvalidInput(AppError):
    """Input that cannot be read: ``fields`` maps each parameter or field to its messages; the
    message names them (``level: must be a whole number ...``)."""

    code = "invalid"
    status = 400

    def __init__(self, fields: Mapping[str, Any], message: Any = None, **kwargs: Any) -> None:
        clean = {str(k): [str(m) for m in (v if isinstance(v, list | tuple) else [v])] for k, v in dict(fields).items()}
        super().__init__(fields_message(clean) if message is None else message, fields=clean, **kwargs)


def fields_message(fields: Mapping[str, list[str]]) -> str:
    """``name: message`` for each field (``; `` between them; no name for ``non_field_errors``)."""
    parts = [" ".join(msgs) if name == NON_FIELD else f"{name}: {' '.join(msgs)}" for name, msgs in fields.items()]
    return "; ".join(parts) or gettext("the input is not valid")


def error_body(code: str, message: Any, *, params: Mapping[str, Any] | None = None,
               fields: Mapping[str, list[str]] | None = None,
               details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """``{"error": {"code", "message", "params"[, "fields"][, "details"]}}``."""
    body: dict[str, Any] = {"code": code, "message": str(message), "params": dict(params or {})}
    if fields:
        body["fields"] = {k: [str(m) for m in v] for k, v in fields.items()}
    if details:
        body["details"] = details
    return {"error": body}


# -- DRF ------------------------------------------------------------------------------------------
def flatten_detail(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation errors as ``{"entries.0.count": [messages]}`` (dotted paths)."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            path = prefix if prefix and key == NON_FIELD else f"{prefix}.{key}" if prefix else str(key)
            for name, msgs in flatten_detail(value, path).items():
                out.setdefault(name, []).extend(msgs)
    elif isinstance(detail, list | tuple):
        for i, item in enumerate(detail):
            if isinstance(item, Mapping | list | tuple):
                for name, msgs in flatten_detail(item, f"{prefix}.{i}" if prefix else str(i)).items():
                    out.setdefault(name, []).extend(msgs)
            else:
                out.setdefault(prefix or NON_FIELD, []).append(str(item))
    elif detail is not None:
        out.setdefault(prefix or NON_FIELD, []).append(str(detail))
    return out


def drf_error_body(exc: Any) -> dict[str, Any]:
    """The error object of one of DRF's exceptions (``APIException`` and subclasses)."""
    from rest_framework import exceptions

    if isinstance(exc, exceptions.ValidationError):
        fields = flatten_detail(exc.detail) or {NON_FIELD: [gettext("the input is not valid")]}
        return error_body("invalid", fields_message(fields), fields=fields)
    detail = exc.detail
    message = " ".join(flatten_detail(detail).get(NON_FIELD, [])) if isinstance(detail, list | dict) else str(detail)
    params: dict[str, Any] = {}
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        params["wait"] = int(exc.wait)
    return error_body(exc.default_code, message, params=params)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Any:
    """``REST_FRAMEWORK["EXCEPTION_HANDLER"]``: every handled error as the one error object.

    ``AppError`` answers its own status and headers; DRF's exceptions keep DRF's status and headers
    (``Retry-After``, ``WWW-Authenticate``); Django's ``Http404``/``PermissionDenied`` are 404/403.
    Anything else is left to Django (a 500, answered by ``server_error`` below).
    """
    from rest_framework import exceptions
    from rest_framework.response import Response
    from rest_framework.views import exception_handler, set_rollback

    if isinstance(exc, AppError):
        set_rollback()
        return Response(exc.as_dict(), status=exc.status, headers=exc.headers or None)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = exception_handler(exc, context)
    if response is not None:
        response.data = drf_error_body(exc)
    return response


# -- Django's error views (handler400/403/404/500) -------------------------------------------------
def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _json(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse(error_body(code, message), status=status, json_dumps_params={"ensure_ascii": False})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _json("not_found", gettext("no such API address or object"), 404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _json("server_error", gettext("internal error; it has been logged"), 500)
    return defaults.server_error(request)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _json("bad_request", gettext("bad request"), 400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _json("permission_denied", str(exception or "") or gettext("permission denied"), 403)
    return defaults.permission_denied(request, exception)
