"""The playtest REST API: create (202) from each deck source, read, cancel, replay a game's log,
compare, access rules, limits and throttling (toy engine, jobs run inline on commit)."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from playtest.models import PlaytestJob
from tests import test_playtest_toy as toy
from tests.test_playtest_toy import GAME, toy_text, toy_zones

toy_engine, toy_cards, inline_jobs = toy.toy_engine, toy.toy_cards, toy.inline_jobs
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_throttle_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def client():
    return APIClient()


def post(client, data, capture, execute=True):
    with capture(execute=execute):
        return client.post("/api/v1/playtests/", data, format="json")


def test_create_from_text_returns_202_then_statistics(client, toy_engine, toy_cards, inline_jobs,
                                                      django_capture_on_commit_callbacks):
    r = post(client, {"game": GAME, "text": toy_text(), "games": 30, "seed": 7, "name": "Toy"},
             django_capture_on_commit_callbacks, execute=False)
    assert r.status_code == 202, r.content
    body = r.json()
    assert body["status"] == "queued" and body["progress"] == 0 and body["statistics"] is None
    assert r["Location"].endswith(f"/api/v1/playtests/{body['id']}/")
    assert body["report_url"].endswith(f"/p/{body['share_slug']}/")
    assert body["deck"] == toy_zones()
    # what the engine models (the toy engine has no classifier: a card with free text is not modelled)
    cov = body["coverage"]
    assert "unmodelled" not in body and sorted(c["code"] for c in cov["not_modelled"]) == ["TOY-003", "TOY-007"]
    assert cov["cards_modelled"] == cov["cards"] - 2 and 0 < cov["copies_share"] < 1
    # run it
    from playtest.services import playtest_run_all

    playtest_run_all(job_id=body["id"])
    r = client.get(f"/api/v1/playtests/{body['id']}/")
    assert r.status_code == 200
    job = r.json()
    assert job["status"] == "done" and job["progress"] == 30 and job["percent"] == 100
    assert job["chunks_done"] == job["chunks_total"] == 5 and job["partial"] is None
    stats = job["statistics"]
    assert stats["games"] == 30
    assert stats["wins"] + stats["losses"] + stats["capped"] + stats["draws"] == 30
    assert sum(stats["win_histogram"].values()) == stats["wins"]


def test_create_from_entries(client, toy_engine, toy_cards, inline_jobs, django_capture_on_commit_callbacks):
    entries = [{"code": c, "count": n} for c, n in toy_zones()["main"].items()]
    entries.append({"code": "TOY-001", "count": 1, "zone": "partner"})
    r = post(client, {"game": GAME, "entries": entries, "games": 10, "seed": 3}, django_capture_on_commit_callbacks)
    assert r.status_code == 202, r.content
    job = PlaytestJob.objects.get(pk=r.json()["id"])
    assert job.status == "done" and job.deck_counts() == toy_zones() and job.owner is None and job.session_key


def test_text_errors_name_the_lines_and_codes(client, toy_engine, toy_cards, inline_jobs,
                                              django_capture_on_commit_callbacks):
    r = post(client, {"game": GAME, "text": "4 TOY-001\nfour TOY-002\n", "games": 5}, django_capture_on_commit_callbacks)
    assert r.status_code == 400
    details = r.json()["error"]["details"]
    assert r.json()["error"]["code"] == "invalid"
    assert details[0]["line"] == 2 and "line 2" in details[0]["message"]
    r = post(client, {"game": GAME, "text": toy_text() + "2 TOY-999\n", "games": 5}, django_capture_on_commit_callbacks)
    assert r.status_code == 400
    err = next(e for e in r.json()["error"]["details"] if e["code"] == "unknown_card")
    assert err["codes"] == ["TOY-999"] and "TOY-999" in err["message"]
    r = post(client, {"game": GAME, "text": "4 TOY-001\n", "games": 5}, django_capture_on_commit_callbacks)
    assert r.status_code == 400
    assert any(e["code"] == "deck_size" for e in r.json()["error"]["details"])  # construction rules apply
    r = post(client, {"text": toy_text(), "games": 5}, django_capture_on_commit_callbacks)
    assert r.status_code == 400 and "game" in r.json()["error"]["fields"]
    r = post(client, {"game": GAME, "text": toy_text(), "deck": 4, "games": 5}, django_capture_on_commit_callbacks)
    assert r.status_code == 400 and "exactly one deck source" in str(r.json())
    assert PlaytestJob.objects.count() == 0


def _make_deck(owner, visibility="private"):
    from decks.services import deck_create

    return deck_create(owner=owner, game=GAME, name="Saved toy", zones=toy_zones(), visibility=visibility)


def test_create_from_saved_deck_and_versions(client, toy_engine, toy_cards, inline_jobs, django_user_model,
                                             django_capture_on_commit_callbacks):
    from decks.services import deck_update

    user = django_user_model.objects.create_user("owner", password="pw-12345-long")
    deck = _make_deck(user)
    zones2 = toy_zones()
    zones2["main"]["TOY-013"] = 4
    zones2["main"]["TOY-012"] = 2
    deck_update(deck=deck, user=user, base_version=deck.version, zones=zones2)
    client.force_authenticate(user)
    r = post(client, {"deck": deck.pk, "games": 10, "version": 1}, django_capture_on_commit_callbacks)
    assert r.status_code == 202, r.content
    v1 = PlaytestJob.objects.get(pk=r.json()["id"])
    assert (v1.source, v1.deck_id, v1.deck_version, v1.name, v1.owner) == ("deck", deck.pk, 1, "Saved toy", user)
    assert v1.deck_counts() == toy_zones()
    r = post(client, {"deck": deck.pk, "games": 10}, django_capture_on_commit_callbacks)
    latest = PlaytestJob.objects.get(pk=r.json()["id"])
    assert latest.deck_version == 2 and latest.deck_counts()["main"]["TOY-013"] == 4
    r = post(client, {"deck": deck.pk, "games": 10, "version": 9}, django_capture_on_commit_callbacks)
    assert r.status_code == 400 and "no version 9" in str(r.json())
    # somebody else cannot run a private deck by id
    other = APIClient()
    other.force_authenticate(django_user_model.objects.create_user("other", password="pw-12345-long"))
    r = post(other, {"deck": deck.pk, "games": 10}, django_capture_on_commit_callbacks)
    assert r.status_code == 404


def test_create_from_shared_link_pins_version(client, toy_engine, toy_cards, inline_jobs, django_user_model,
                                              django_capture_on_commit_callbacks):
    from decks.services import deck_update, share_link_create

    user = django_user_model.objects.create_user("sharer", password="pw-12345-long")
    deck = _make_deck(user, visibility="unlisted")
    link = share_link_create(deck=deck, user=user, version=1)
    zones2 = toy_zones()
    zones2["main"]["TOY-013"] = 4
    zones2["main"]["TOY-012"] = 2
    deck_update(deck=deck, user=user, base_version=deck.version, zones=zones2)
    r = post(client, {"share": link.slug, "games": 12}, django_capture_on_commit_callbacks)  # anonymous
    assert r.status_code == 202, r.content
    job = PlaytestJob.objects.get(pk=r.json()["id"])
    assert job.source == "share" and job.deck_version == 1 and job.deck_counts() == toy_zones() and job.owner is None
    r = post(client, {"share": deck.slug, "games": 12}, django_capture_on_commit_callbacks)
    # the latest version: 3 (the share link was saved as version 2, issue 19)
    assert r.status_code == 202 and PlaytestJob.objects.get(pk=r.json()["id"]).deck_version == 3
    # a link shows one version: another one cannot be played through it (issue 19)
    r = post(client, {"share": deck.slug, "version": 1, "games": 12}, django_capture_on_commit_callbacks)
    assert r.status_code == 400 and r.json()["error"]["fields"]["version"], r.content
    r = post(client, {"share": "no-such-link", "games": 12}, django_capture_on_commit_callbacks)
    assert r.status_code == 404 and "no-such-link" in str(r.json())


def test_access_owner_session_and_share_slug(client, toy_engine, toy_cards, inline_jobs, django_user_model,
                                             django_capture_on_commit_callbacks):
    user = django_user_model.objects.create_user("alice", password="pw-12345-long")
    client.force_authenticate(user)
    r = post(client, {"game": GAME, "text": toy_text(), "games": 10}, django_capture_on_commit_callbacks)
    job = r.json()
    stranger = APIClient()
    assert stranger.get(f"/api/v1/playtests/{job['id']}/").status_code == 404
    assert stranger.get(f"/api/v1/playtests/{job['share_slug']}/").status_code == 200
    assert stranger.get(f"/api/v1/playtests/{job['share_slug']}/games/3/log/").status_code == 200
    assert stranger.post(f"/api/v1/playtests/{job['share_slug']}/cancel/").status_code == 403
    assert client.get("/api/v1/playtests/").json()["count"] == 1
    assert stranger.get("/api/v1/playtests/").json()["count"] == 0
    # anonymous jobs belong to their session
    anon = APIClient()
    r = post(anon, {"game": GAME, "text": toy_text(), "games": 10}, django_capture_on_commit_callbacks)
    anon_job = r.json()
    assert anon.get(f"/api/v1/playtests/{anon_job['id']}/").status_code == 200
    assert stranger.get(f"/api/v1/playtests/{anon_job['id']}/").status_code == 404
    assert [j["id"] for j in anon.get("/api/v1/playtests/").json()["results"]] == [anon_job["id"]]


def test_cancel_via_api(client, toy_engine, toy_cards, inline_jobs, django_capture_on_commit_callbacks):
    r = post(client, {"game": GAME, "text": toy_text(), "games": 20}, django_capture_on_commit_callbacks, execute=False)
    key = r.json()["id"]
    r = client.post(f"/api/v1/playtests/{key}/cancel/")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert client.post(f"/api/v1/playtests/{key}/cancel/").status_code == 409
    from playtest.services import playtest_run_all

    playtest_run_all(job_id=key)
    assert PlaytestJob.objects.get(pk=key).progress == 0


def test_game_log_replays_from_seed(client, toy_engine, toy_cards, inline_jobs, django_capture_on_commit_callbacks):
    r = post(client, {"game": GAME, "text": toy_text(), "games": 20, "seed": 99}, django_capture_on_commit_callbacks)
    key = r.json()["share_slug"]
    log1 = client.get(f"/api/v1/playtests/{key}/games/5/log/").json()
    log2 = client.get(f"/api/v1/playtests/{key}/games/5/log/").json()
    assert log1 == log2
    assert log1["index"] == 5 and log1["seed"] == 99 and log1["outcome"] in ("win", "loss", "capped")
    assert log1["events"][0]["kind"] == "draw" and "opening hand" in log1["events"][0]["text"]
    assert any(e["kind"] == "attack" for e in log1["events"])
    assert "T 1 me " in log1["text"]
    other = client.get(f"/api/v1/playtests/{key}/games/6/log/").json()
    assert other["events"] != log1["events"]
    assert client.get(f"/api/v1/playtests/{key}/games/20/log/").status_code == 404


def test_limits_over_the_api(client, toy_engine, toy_cards, inline_jobs, settings, django_capture_on_commit_callbacks):
    settings.PLAYTEST_MAX_GAMES_ANON = 50
    settings.PLAYTEST_MAX_ACTIVE_ANON = 1
    r = post(client, {"game": GAME, "text": toy_text(), "games": 51}, django_capture_on_commit_callbacks)
    assert r.status_code == 400
    assert r.json()["error"]["details"][0]["field"] == "games" and "at most 50 games" in r.json()["error"]["message"]
    r = post(client, {"game": GAME, "text": toy_text(), "games": 10, "turn_cap": 500}, django_capture_on_commit_callbacks)
    assert r.status_code == 400 and "turn_cap" in r.json()["error"]["message"]
    r = post(client, {"game": GAME, "text": toy_text(), "games": 10}, django_capture_on_commit_callbacks, execute=False)
    assert r.status_code == 202
    r = post(client, {"game": GAME, "text": toy_text(), "games": 10}, django_capture_on_commit_callbacks, execute=False)
    assert r.status_code == 429 and r["Retry-After"]
    assert r.json()["error"]["code"] == "too_many_active_jobs" and "limit is 1" in r.json()["error"]["message"]


def test_creation_is_rate_limited_with_retry_after(client, toy_engine, toy_cards, inline_jobs, settings,
                                                   django_capture_on_commit_callbacks):
    settings.PLAYTEST_CREATE_RATE_ANON = "2/hour"
    for _ in range(2):
        assert post(client, {"game": GAME, "text": toy_text(), "games": 5}, django_capture_on_commit_callbacks).status_code == 202
    r = post(client, {"game": GAME, "text": toy_text(), "games": 5}, django_capture_on_commit_callbacks)
    assert r.status_code == 429
    assert int(r["Retry-After"]) > 0 and "too many playtest jobs" in r.json()["error"]["message"]
    assert r.json()["error"]["code"] == "throttled" and r.json()["error"]["params"]["wait"] > 0


def test_compare_api(client, toy_engine, toy_cards, inline_jobs, settings, django_capture_on_commit_callbacks):
    settings.PLAYTEST_MAX_GAMES_ANON = 5000
    settings.PLAYTEST_CHUNK_SIZE = 500
    a = post(client, {"game": GAME, "text": toy_text(), "games": 600, "seed": 1}, django_capture_on_commit_callbacks).json()
    b = post(client, {"game": GAME, "text": toy_text(), "games": 600, "seed": 2, "pilot": "patient"},
             django_capture_on_commit_callbacks).json()
    r = client.get(f"/api/v1/playtests/compare/?a={a['share_slug']}&b={b['share_slug']}")
    assert r.status_code == 200, r.content
    cmp = r.json()
    assert cmp["turn_of_win_welch"]["diff"] > 0  # the patient pilot wins later
    assert cmp["turn_of_win_welch"]["significant"] and cmp["turn_of_win_mann_whitney"]["significant"]
    assert any("B" in v or "A" in v for v in cmp["verdicts"])
    assert client.get(f"/api/v1/playtests/compare/?a={a['share_slug']}").status_code == 400


def test_openapi_schema_lists_playtest_endpoints(client):
    r = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    assert r.status_code == 200
    paths = r.json()["paths"] if r["Content-Type"].startswith("application/json") else r.content.decode()
    for p in ("/api/v1/playtests/", "/api/v1/playtests/{key}/", "/api/v1/playtests/{key}/cancel/",
              "/api/v1/playtests/{key}/games/{index}/log/"):
        assert p in paths


def test_delete_finished_job_only_by_owner(client, toy_engine, toy_cards, inline_jobs, django_capture_on_commit_callbacks):
    running = post(client, {"game": GAME, "text": toy_text(), "games": 10}, django_capture_on_commit_callbacks,
                   execute=False).json()
    r = client.delete(f"/api/v1/playtests/{running['id']}/")
    assert r.status_code == 409 and "cancel it before deleting" in r.json()["error"]["message"]
    assert r.json()["error"]["code"] == "job_active"
    client.post(f"/api/v1/playtests/{running['id']}/cancel/")
    stranger = APIClient()
    assert stranger.delete(f"/api/v1/playtests/{running['share_slug']}/").status_code == 403
    assert client.delete(f"/api/v1/playtests/{running['id']}/").status_code == 204
    assert not PlaytestJob.objects.exists()
    assert client.get(f"/api/v1/playtests/{running['share_slug']}/").status_code == 404


def test_job_list_query_count_does_not_grow(client, toy_engine, toy_cards, inline_jobs, settings,
                                            django_capture_on_commit_callbacks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.PLAYTEST_MAX_ACTIVE_ANON = 50
    post(client, {"game": GAME, "text": toy_text(), "games": 5}, django_capture_on_commit_callbacks)
    with CaptureQueriesContext(connection) as one:
        assert client.get("/api/v1/playtests/").json()["count"] == 1
    for _ in range(5):
        post(client, {"game": GAME, "text": toy_text(), "games": 5}, django_capture_on_commit_callbacks)
    with CaptureQueriesContext(connection) as six:
        assert client.get("/api/v1/playtests/").json()["count"] == 6
    assert 0 < len(six.captured_queries) == len(one.captured_queries) <= 4
