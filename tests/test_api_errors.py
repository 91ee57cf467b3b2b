"""The one error model (config/errors.py, docs/api-errors.md): every error of every endpoint is
``{"error": {"code", "message", "params"[, "fields"][, "details"]}}`` with the status and headers it
had before; application errors are ``AppError`` subclasses whose message follows the language."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.test import RequestFactory
from django.utils import translation
from django.utils.translation import gettext_lazy
from rest_framework import exceptions
from rest_framework.test import APIClient

from config import errors
from config.errors import AppError, InvalidInput, api_exception_handler, flatten_detail

KEYS = {"code", "message", "params", "fields", "details"}


def body_of(response) -> dict:
    if hasattr(response, "data"):  # a DRF Response from the handler
        data = response.data
    elif hasattr(response, "json"):  # a test client's answer
        data = response.json()
    else:  # Django's JsonResponse from the error views
        data = json.loads(response.content)
    assert set(data) == {"error"}, data
    error = data["error"]
    assert {"code", "message", "params"} <= set(error) <= KEYS, error
    return error


class DeckArchived(AppError):  # the example of docs/api-errors.md, "Adding an error"
    code = "deck_archived"
    status = 409
    default_message = gettext_lazy("deck has no version %(version)s (latest is %(latest)s)")


def test_app_error_fills_a_lazy_message_in_the_active_language():
    exc = DeckArchived(params={"version": 5, "latest": 3})
    assert exc.message == str(exc) == "deck has no version 5 (latest is 3)"
    with translation.override("ja"):
        assert exc.message == "デッキにバージョン 5 はありません(最新は 3)"
    with translation.override("zh-hans"):
        assert exc.message == "卡组没有版本 5(最新为 3)"
    assert exc.as_dict() == {"error": {"code": "deck_archived", "message": "deck has no version 5 (latest is 3)",
                                       "params": {"version": 5, "latest": 3}}}
    response = api_exception_handler(exc, {})
    assert response.status_code == 409 and body_of(response)["code"] == "deck_archived"


def test_a_ready_message_is_kept_and_headers_go_on_the_response():
    exc = AppError("100% sure", code="x_y", status=503, params={"a": 1}, headers={"Retry-After": "60"})
    assert exc.message == "100% sure"
    response = api_exception_handler(exc, {})
    assert (response.status_code, response["Retry-After"]) == (503, "60")
    assert body_of(response) == {"code": "x_y", "message": "100% sure", "params": {"a": 1}}


def test_invalid_input_names_its_fields():
    exc = InvalidInput({"level": ["must be a number"], "non_field_errors": ["both given"]})
    assert exc.code == "invalid" and exc.status == 400
    assert exc.message == "level: must be a number; both given"
    assert exc.as_dict()["error"]["fields"] == {"level": ["must be a number"], "non_field_errors": ["both given"]}


def test_nested_validation_errors_are_flattened_to_dotted_paths():
    detail = {"entries": [{"count": ["too small"]}, {}], "zones": {"main": {"A": ["not a number"]}},
              "text": {"non_field_errors": ["not a list"]}, "non_field_errors": ["whole input"]}
    assert flatten_detail(detail) == {"entries.0.count": ["too small"], "zones.main.A": ["not a number"],
                                      "text": ["not a list"], "non_field_errors": ["whole input"]}


@pytest.mark.parametrize(("exc", "status", "code"), [
    (exceptions.ValidationError({"name": ["required"]}), 400, "invalid"),
    (exceptions.ValidationError("bad"), 400, "invalid"),
    (exceptions.ParseError(), 400, "parse_error"),
    (exceptions.NotAuthenticated(), 401, "not_authenticated"),
    (exceptions.AuthenticationFailed(), 401, "authentication_failed"),
    (exceptions.PermissionDenied(), 403, "permission_denied"),
    (exceptions.NotFound("no such deck"), 404, "not_found"),
    (exceptions.MethodNotAllowed("DELETE"), 405, "method_not_allowed"),
    (exceptions.NotAcceptable(), 406, "not_acceptable"),
    (exceptions.UnsupportedMediaType("text/xml"), 415, "unsupported_media_type"),
    (exceptions.Throttled(12), 429, "throttled"),
    (Http404("no such card"), 404, "not_found"),
    (DjangoPermissionDenied("not yours"), 403, "permission_denied"),
])
def test_every_framework_error_is_the_one_object(exc, status, code):
    response = api_exception_handler(exc, {})
    error = body_of(response)
    assert (response.status_code, error["code"]) == (status, code)
    assert error["message"]
    if code == "invalid":
        assert error["fields"]
    if code == "throttled":
        assert response["Retry-After"] == "12" and error["params"] == {"wait": 12}
    if isinstance(exc, Http404 | DjangoPermissionDenied):
        assert error["message"] == str(exc)


def test_other_exceptions_are_left_to_django():
    assert api_exception_handler(ValueError("boom"), {}) is None


@pytest.mark.parametrize(("view", "status", "code"), [
    (errors.not_found, 404, "not_found"), (errors.bad_request, 400, "bad_request"),
    (errors.permission_denied, 403, "permission_denied"),
])
def test_django_error_views_answer_the_object_under_api_and_pages_elsewhere(view, status, code):
    rf = RequestFactory()
    response = view(rf.get("/api/v1/whatever/"), Exception(""))
    assert response.status_code == status and response["Content-Type"] == "application/json"
    assert body_of(response)["code"] == code
    page = view(rf.get("/cards/whatever/"), Exception(""))
    assert page.status_code == status and "text/html" in page["Content-Type"]
    response = errors.server_error(rf.get("/api/v1/x/"))
    assert response.status_code == 500 and body_of(response)["code"] == "server_error"


@pytest.mark.django_db
def test_one_shape_on_every_app_with_messages_in_the_requests_language():
    from decks.services import deck_create
    from decks.testing import cards_create, legal_deck

    cards_create()
    alice = get_user_model().objects.create_user("alice", password="pw-alice-123456")
    deck = deck_create(owner=alice, game="ws", name="Idols", zones=legal_deck("ws"))
    c = APIClient()
    c.force_authenticate(alice)
    answers = {
        "cards": APIClient().get("/api/v1/cards/", {"q": "foo:1"}),
        "no route": APIClient().get("/api/v1/no-such-thing/"),
        "deck": APIClient().get("/api/v1/decks/99999/"),
        "deck field": c.post("/api/v1/decks/", {"game": "ws"}, format="json"),
        "deck version": c.patch(f"/api/v1/decks/{deck.pk}/", {"name": "x"}, format="json"),
        "playtest": c.post("/api/v1/playtests/", {"game": "ws", "text": "4 NOPE-1\n", "games": 0}, format="json"),
        "playtest job": APIClient().get("/api/v1/playtests/99999/"),
        "token": APIClient().post("/api/v1/auth/token/", {"username": "alice", "password": "no"}, format="json"),
    }
    expected = {"cards": (400, "unknown_field"), "no route": (404, "not_found"), "deck": (404, "not_found"),
                "deck field": (400, "invalid"), "deck version": (428, "precondition_required"),
                "playtest": (400, "invalid"), "playtest job": (404, "not_found"), "token": (400, "invalid")}
    for name, r in answers.items():
        assert (r.status_code, body_of(r)["code"]) == expected[name], (name, r.content)
    assert body_of(answers["deck field"])["fields"] == {"name": ["this field is required"]}
    assert body_of(answers["deck version"])["params"] == {"current_version": 1}
    assert {d["code"] for d in body_of(answers["playtest"])["details"]} >= {"min_value"}
    # the same errors in Japanese: same codes, params and field names; the message translated
    ja = APIClient(HTTP_ACCEPT_LANGUAGE="ja")
    ja.force_authenticate(alice)
    for url, en in (("/api/v1/decks/99999/", answers["deck"]), ("/api/v1/playtests/99999/", answers["playtest job"]),
                    ("/api/v1/no-such-thing/", answers["no route"])):
        error = body_of(ja.get(url))
        assert error["code"] == body_of(en)["code"] and error["message"] != body_of(en)["message"], url
        assert not error["message"].isascii(), error
    error = body_of(ja.post("/api/v1/decks/", {"game": "ws"}, format="json"))
    assert error["fields"] == {"name": ["この項目は必須です"]}


@pytest.mark.django_db
def test_pages_show_the_errors_message():
    """A page that catches an AppError shows its message, in the reader's language."""
    from django.test import Client

    from decks.services import deck_create
    from decks.testing import cards_create, legal_deck

    cards_create()
    alice = get_user_model().objects.create_user("alice", password="pw-alice-123456")
    deck = deck_create(owner=alice, game="ws", name="Idols", zones=legal_deck("ws"))
    page = Client(HTTP_ACCEPT_LANGUAGE="ja")
    page.force_login(alice)
    r = page.post(f"/decks/{deck.pk}/restore/", {"version": 9, "base_version": 1}, follow=True)
    assert "デッキにバージョン 9 はありません(最新は 1)" in r.content.decode()
    r = page.get(f"/decks/{deck.pk}/build/", {"q": "foo:1"})
    assert "不明なフィールド「foo」です。フィールドの一覧は検索ヘルプを参照してください (1 文字目)" in r.content.decode()
