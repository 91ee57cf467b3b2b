"""OpenAPI post-processing: document the errors every API operation can answer, in the one error
shape (``ApiError``, config/errors.py, docs/api-errors.md).

The views document their own success responses and the errors special to them (with
``error_response``); errors that come from the framework for any operation (bad token → 401,
refused → 403, no such object → 404, an ``Accept`` that cannot be served → 406, unsupported body
type → 415, rate limit → 429 with ``Retry-After``, invalid input → 400) are added here where a view
did not document them (checked by tests/test_fuzz_api.py).
"""
from __future__ import annotations

from typing import Any

ERROR_REF = {"$ref": "#/components/schemas/ApiError"}
API_ERROR_BODY = {
    "type": "object",
    "description": "What went wrong (docs/api-errors.md).",
    "required": ["code", "message", "params"],
    "properties": {
        "code": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                 "description": "stable machine-readable kind: invalid, not_found, throttled, conflict, "
                                "unknown_field ... (never translated)"},
        "message": {"type": "string", "description": "what is wrong, in the request's language"},
        "params": {"type": "object", "additionalProperties": {},
                   "description": "the values the message is about (current_version, wait, position, query ...)"},
        "fields": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}},
                   "description": "invalid input only: each offending field or parameter (dotted path for "
                                  "nested ones, non_field_errors for the whole input) -> its messages"},
        "details": {"type": "array", "description": "several problems, each with its own code (playtest input)",
                    "items": {"type": "object", "required": ["field", "code", "message"],
                              "properties": {"field": {"type": "string"}, "code": {"type": "string"},
                                             "message": {"type": "string"}},
                              "additionalProperties": {}}},
    },
    "additionalProperties": False,
}
API_ERROR = {
    "type": "object",
    "description": "Every error of the API: `{\"error\": {\"code\", \"message\", \"params\"[, \"fields\"][, \"details\"]}}`.",
    "required": ["error"],
    "properties": {"error": {"$ref": "#/components/schemas/ApiErrorBody"}},
    "additionalProperties": False,
}


def error_response(description: str) -> Any:
    """An ``OpenApiResponse`` in the one error shape, for a view's ``extend_schema(responses=...)``."""
    from drf_spectacular.utils import OpenApiResponse

    return OpenApiResponse(ERROR_REF, description=description)


RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds to wait"}}
DESCRIPTIONS = {
    "400": "invalid input (each bad field named)",
    "401": "the token or session is invalid",
    "403": "not allowed (signed out, or not the owner)",
    "404": "no such object, or not visible to you",
    "406": "cannot answer in the requested media type",
    "409": "edited meanwhile: the deck changed since base_version",
    "412": "edited meanwhile: If-Match does not match the current version",
    "415": "unsupported request media type",
    "428": "say which version the edit is based on (If-Match or base_version)",
    "429": "too many requests; Retry-After says when to try again",
}
DECK_WRITE = ("/api/v1/decks/{id}/", "/api/v1/decks/{id}/versions/{number}/restore/")


def _statuses(path: str, method: str, op: dict[str, Any]) -> list[str]:
    codes = ["401", "403", "406", "429"]
    if op.get("parameters") or op.get("requestBody") or method in ("post", "put", "patch"):
        codes.append("400")
    if "{" in path or any(p.get("name") == "page" for p in op.get("parameters", [])):
        codes.append("404")  # no such object, or no such page of a list
    if op.get("requestBody") or method in ("post", "put", "patch"):
        codes.append("415")
    if path in DECK_WRITE and method in ("put", "patch", "post"):
        codes += ["409", "412", "428"]
    return codes


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["ApiError"] = API_ERROR
    schemas["ApiErrorBody"] = API_ERROR_BODY
    for path, ops in result.get("paths", {}).items():
        for method, op in ops.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            ok = next((r for c, r in op["responses"].items() if c.startswith("2")), {}) or {}
            as_text = "text/plain" in (ok.get("content") or {})  # plain-text downloads say errors in text too
            for code in _statuses(path, method, op):
                if code in op["responses"]:
                    continue
                response: dict[str, Any] = {"description": DESCRIPTIONS[code],
                                            "content": {"application/json": {"schema": dict(ERROR_REF)}}}
                if as_text:
                    response["content"]["text/plain"] = {"schema": {"type": "string"}}
                if code == "429":
                    response["headers"] = RETRY_AFTER
                op["responses"][code] = response
    return result
