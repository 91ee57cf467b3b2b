"""API fuzzing with schemathesis against the project's own OpenAPI schema (/api/v1/schema/).

Every operation, anonymous and signed in with a token, a bounded number of generated requests each
(``FUZZ_EXAMPLES``, default 8; the whole file stays well under three minutes on two cores):
- never a 5xx;
- every status code, content type, header and body is the one the schema documents;
- every error (4xx) is the one error object ``{"error": {"code", "message", "params", ...}}``
  (config/errors.py; plain text for the text export);

- negative data (``test_api_rejects_invalid_input``): requests that break the schema (wrong types,
  values outside an enum or a range, missing required fields, empty typed parameters) must get a
  4xx, checked by schemathesis's ``negative_data_rejection``, with the token, as many examples. This
  was off while lists read ``mine=null`` as false, ``level=0.5`` as a number, ``page_size=abc`` as the
  default and form bodies dropped nested ``entries``; config/params.py made them 400s (415 for form
  bodies where JSON is needed).

The requests go straight into the WSGI application (no server), inside the test's transaction.
"""
from __future__ import annotations

import json
import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle
from schemathesis import checks as sc

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))


@pytest.fixture
def fuzz_app(db, monkeypatch, settings):
    """The WSGI app with seeded data, rates high enough not to throttle the fuzzer, and Django's
    per-request connection closing off (it would close the test's transaction, as the test client
    arranges too)."""
    from django.contrib.auth import get_user_model

    from config.wsgi import application  # noqa: F401 (the same object the schema calls)
    from decks.services import deck_create, share_link_create
    from decks.testing import cards_create, legal_deck

    for scope in ("anon", "user", "auth"):
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, "100000/minute")
    settings.PLAYTEST_CREATE_RATE_ANON = settings.PLAYTEST_CREATE_RATE_USER = "100000/hour"
    settings.PLAYTEST_EXECUTOR = "inline"  # jobs wait for a commit that never comes: nothing runs
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cards_create()
    user = get_user_model().objects.create_user("fuzz", password="fuzz-pass-123456")
    for vis in ("public", "unlisted"):
        deck = deck_create(owner=user, game="ws", name=f"fuzz {vis}", zones=legal_deck("ws"), visibility=vis)
        share_link_create(deck=deck, user=user)
    token = Token.objects.create(user=user)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield application, token.key
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _load_schema():
    """The schema as the running site serves it (read once, at collection)."""
    from config.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


schema = _load_schema()


def error_is_a_documented_object(ctx, response, case) -> bool | None:
    """Any 4xx is JSON: the one error object ``{"error": {"code", "message", "params"[, "fields"]
    [, "details"]}}`` (config/errors.py)."""
    if response.status_code < 400:
        return None
    ctype = response.headers.get("content-type", [""])
    ctype = ctype[0] if isinstance(ctype, list) else ctype
    if case.path.endswith("/export/") and "text/plain" in ctype:
        assert response.text.strip(), "empty text error"
        return None
    assert "application/json" in ctype, f"{response.status_code} answered with {ctype!r}: {response.text[:200]}"
    body = json.loads(response.text)
    assert isinstance(body, dict) and set(body) == {"error"}, f"not the error object: {response.text[:200]}"
    error = body["error"]
    assert {"code", "message", "params"} <= set(error) <= {"code", "message", "params", "fields", "details"}, error
    assert isinstance(error["code"], str) and error["code"] and isinstance(error["message"], str), error
    for field, messages in error.get("fields", {}).items():
        assert isinstance(field, str) and isinstance(messages, list), (field, messages)
    return None


CHECKS = [sc.not_a_server_error, sc.status_code_conformance, sc.content_type_conformance,
          sc.response_schema_conformance, sc.response_headers_conformance, error_is_a_documented_object]

FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck))


# The card list takes ~150 filter parameters and schemathesis spends minutes generating requests for
# it; it is fuzzed here on the parameters people type (q, order, paging, a few filters) instead.
rest = schema.exclude(path="/api/v1/cards/", method="GET")


@rest.parametrize()
@FUZZ
def test_api_anonymous(case, fuzz_app):
    case.call_and_validate(checks=CHECKS)


@rest.parametrize()
@FUZZ
def test_api_with_token(case, fuzz_app):
    _, key = fuzz_app
    case.call_and_validate(headers={"Authorization": f"Token {key}"}, checks=CHECKS)


card_params = st.fixed_dictionaries({}, optional={
    "q": st.text(max_size=80), "order": st.text(alphabet="-,namecodpwrtyl", max_size=20),
    "page": st.one_of(st.integers(-3, 10**12).map(str), st.text(max_size=5)),
    "page_size": st.one_of(st.integers(-3, 10**6).map(str), st.text(max_size=5)),
    "game": st.sampled_from(["ws", "pc", "chaos", "", "nope"]), "power__gte": st.text(max_size=8),
    "level": st.one_of(st.integers(-(10**20), 10**20).map(str), st.text(max_size=6)),
})


@given(params=card_params)
@settings(max_examples=EXAMPLES * 5, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_card_list(fuzz_app, params):
    from django.test import Client

    r = Client().get("/api/v1/cards/", params)
    assert r.status_code in (200, 400, 404), (params, r.status_code)
    body = r.json()
    if r.status_code == 200:
        assert {"count", "results"} <= set(body)
    else:
        assert set(body) == {"error"} and set(body["error"]) >= {"code", "message", "params"}, body


# -- negative data: requests that break the schema must be refused with a 4xx ---------------------
# The card list is left out here as above; its parameters get garbage in test_card_list and
# tests/test_api_params.py.
def _load_negative_schema():
    from schemathesis.generation import GenerationMode

    negative = _load_schema()
    negative.config.generation.update(modes=[GenerationMode.NEGATIVE])
    return negative.exclude(path="/api/v1/cards/", method="GET")


negative_schema = _load_negative_schema()
NEGATIVE_CHECKS = [sc.not_a_server_error, sc.negative_data_rejection, error_is_a_documented_object]


@negative_schema.parametrize()
@FUZZ
def test_api_rejects_invalid_input(case, fuzz_app):
    _, key = fuzz_app
    case.call_and_validate(headers={"Authorization": f"Token {key}"}, checks=NEGATIVE_CHECKS)
