"""OpenAPI post-processing: document the errors every API operation can answer.

The views document their own success responses and the errors special to them; errors that come
from the framework for any operation (bad token → 401, refused → 403, no such object → 404, an
``Accept`` that cannot be served → 406, unsupported body type → 415, rate limit → 429 with
``Retry-After``, invalid input → 400) are added here where a view did not document them, in the
error shape that part of the API really answers (checked by tests/test_fuzz_api.py).
"""
from __future__ import annotations

from typing import Any

API_ERROR = {
    "type": "object",
    "minProperties": 1,
    "description": (
        "An error. `detail` says what is wrong; invalid input names each offending field (or "
        "`non_field_errors`) with its messages; playtest errors also list `errors` "
        "(`field`, `code`, `message`)."
    ),
    "properties": {
        "detail": {"type": "string"},
        "errors": {"type": "array", "items": {"type": "object", "additionalProperties": {}}},
    },
    "additionalProperties": {},
}
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
    schemas.setdefault("ApiError", API_ERROR)
    for path, ops in result.get("paths", {}).items():
        ref = "#/components/schemas/CardError" if path.startswith("/api/v1/cards/") else "#/components/schemas/ApiError"
        for method, op in ops.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            ok = next((r for c, r in op["responses"].items() if c.startswith("2")), {}) or {}
            as_text = "text/plain" in (ok.get("content") or {})  # plain-text downloads say errors in text too
            for code in _statuses(path, method, op):
                if code in op["responses"]:
                    continue
                response: dict[str, Any] = {"description": DESCRIPTIONS[code],
                                            "content": {"application/json": {"schema": {"$ref": ref}}}}
                if as_text:
                    response["content"]["text/plain"] = {"schema": {"type": "string"}}
                if code == "429":
                    response["headers"] = RETRY_AFTER
                op["responses"][code] = response
    return result
