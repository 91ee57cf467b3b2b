"""Access control: who may read and change decks, versions, share links, playtest jobs and reports.

The rule the apps chose (decks/selectors.py, playtest/selectors.py), checked here endpoint by endpoint:
- a deck nobody may see answers **404** (its existence is not revealed), on pages and in the API;
- a deck one may see but not change answers **403** in the API (pages answer 404 for owner-only
  pages), and anonymous writes are refused (401/403 in the API, a redirect to the login page);
- ``unlisted`` decks are reachable only through their unguessable slug, never by id;
- playtest jobs are reachable by their random id only by the owner/creating session, by share slug
  by anyone (read only); only the owner cancels or deletes.
"""
from __future__ import annotations

import math
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from decks.models import Deck, DeckVersion, ShareLink
from decks.services import deck_create, deck_update, share_link_create
from playtest.models import PlaytestJob
from tests import test_playtest_toy as toy
from tests.test_playtest_toy import GAME, toy_text, toy_zones

toy_engine, toy_cards, inline_jobs = toy.toy_engine, toy.toy_cards, toy.inline_jobs
pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture(autouse=True)
def fast_hasher(settings, request):
    if not request.node.name.startswith("test_passwords"):  # that test needs the real default
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def people(db):
    alice = User.objects.create_user("alice", password="pw-alice-123456")
    bob = User.objects.create_user("bob", password="pw-bob-123456")
    return alice, bob


@pytest.fixture
def decks(people, toy_cards):
    alice, _ = people
    out = {}
    for vis in ("private", "unlisted", "public"):
        d = deck_create(owner=alice, game=GAME, name=f"{vis} deck", zones=toy_zones(), visibility=vis)
        deck_update(deck=d, user=alice, base_version=1, name=f"{vis} deck v2", zones=toy_zones())
        out[vis] = Deck.objects.get(pk=d.pk)
    return out


def api(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def read_urls(pk: int) -> list[str]:
    return [f"/api/v1/decks/{pk}/", f"/api/v1/decks/{pk}/versions/", f"/api/v1/decks/{pk}/versions/1/",
            f"/api/v1/decks/{pk}/diff/?from=1&to=2", f"/api/v1/decks/{pk}/export/?format=json",
            f"/decks/{pk}/", f"/decks/{pk}/history/", f"/decks/{pk}/export.txt", f"/decks/{pk}/export.json"]


def test_private_and_unlisted_decks_are_invisible_by_id_to_others(people, decks):
    alice, bob = people
    for vis in ("private", "unlisted"):
        pk = decks[vis].pk
        for who, client in (("bob", api(bob)), ("anonymous", api())):
            for url in read_urls(pk):
                r = client.get(url)
                assert r.status_code == 404, (vis, who, url, r.status_code)
                assert f"{vis} deck" not in r.content.decode(), (vis, who, url)
        owner = Client()
        owner.force_login(alice)
        for url in read_urls(pk):
            assert owner.get(url).status_code == 200, (vis, url)
    for url in read_urls(decks["public"].pk):  # public decks are readable by anyone
        assert Client().get(url).status_code == 200, url


def test_lists_and_filters_never_leak_others_private_decks(people, decks):
    _, bob = people
    for client in (api(bob), api()):
        for query in ("", "?owner=alice", "?visibility=private", "?visibility=unlisted", "?q=deck", "?mine=1"):
            r = client.get(f"/api/v1/decks/{query}")
            if r.status_code == 400:
                continue
            names = {d["name"] for d in r.json()["results"]}
            assert not names & {"private deck v2", "unlisted deck v2"}, (query, names)
        page = client.get("/decks/?owner=alice").content.decode()
        assert "private deck" not in page and "unlisted deck" not in page


def test_writes_by_others_are_refused_and_change_nothing(people, decks):
    alice, bob = people
    body = {"name": "pwned", "base_version": 2}
    for vis, expect_bob in (("private", 404), ("unlisted", 404), ("public", 403)):
        pk = decks[vis].pk
        calls = [("patch", f"/api/v1/decks/{pk}/", body), ("put", f"/api/v1/decks/{pk}/", body),
                 ("delete", f"/api/v1/decks/{pk}/", None),
                 ("post", f"/api/v1/decks/{pk}/versions/1/restore/", {"base_version": 2}),
                 ("post", f"/api/v1/decks/{pk}/shares/", {}), ("get", f"/api/v1/decks/{pk}/shares/", None)]
        for method, url, data in calls:
            r = getattr(api(bob), method)(url, data, format="json")
            assert r.status_code == expect_bob, (vis, method, url, r.status_code)
            r = getattr(api(), method)(url, data, format="json")
            assert r.status_code in (401, 403), ("anonymous", vis, method, url, r.status_code)
        fork = api(bob).post(f"/api/v1/decks/{pk}/fork/", {}, format="json")
        assert fork.status_code == (201 if vis == "public" else 404), (vis, fork.status_code)
        assert api().post(f"/api/v1/decks/{pk}/fork/", {}, format="json").status_code in (401, 403)
        deck = Deck.objects.get(pk=pk)
        assert deck.name == f"{vis} deck v2" and deck.version == 2 and deck.visibility == vis
        assert DeckVersion.objects.filter(deck=deck).count() == 2
        assert not ShareLink.objects.filter(deck=deck).exists()


def test_owner_only_pages_refuse_others(people, decks):
    alice, bob = people
    pk = decks["public"].pk
    b = Client()
    b.force_login(bob)
    anon = Client()
    for url in (f"/decks/{pk}/edit/", f"/decks/{pk}/build/", f"/decks/{pk}/delete/"):
        assert b.get(url).status_code == 404, url
        r = anon.get(url)
        assert r.status_code == 302 and r["Location"].startswith("/accounts/login/"), url
    for url in (f"/decks/{pk}/restore/", f"/decks/{pk}/share/", f"/decks/{pk}/delete/"):
        assert b.post(url, {"version": 1, "base_version": 2, "name": "x"}).status_code == 404, url
        assert anon.post(url, {"version": 1}).status_code == 302, url
    assert Deck.objects.filter(pk=pk, version=2).exists()
    assert not ShareLink.objects.exists()


def test_share_slugs_are_random_long_and_not_derived_from_ids(people, decks):
    alice, _ = people
    links = [share_link_create(deck=decks["private" if i % 2 else "unlisted"], user=alice, version=None)
             for i in range(6)]
    slugs = [d.slug for d in Deck.objects.all()] + [link.slug for link in links]
    assert len(set(slugs)) == len(slugs)
    for slug in slugs:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", slug)
        assert len(slug) * 6 >= 64, f"{slug!r} carries fewer than 64 random bits"
        assert not slug.isdigit()
    # Sharing made the private deck unlisted; made private again, its links stop working.
    priv = ShareLink.objects.filter(deck=decks["private"]).first()
    unl = ShareLink.objects.filter(deck=decks["unlisted"]).first()
    assert api().get(f"/api/v1/shared/{priv.slug}/").status_code == 200
    made_private = Deck.objects.get(pk=decks["private"].pk)  # each new link was a new version (issue 19)
    deck_update(deck=made_private, user=alice, base_version=made_private.version, visibility="private")
    assert api().get(f"/api/v1/shared/{priv.slug}/").status_code == 404
    assert api().get(f"/api/v1/shared/{decks['private'].slug}/").status_code == 404
    assert Client().get(f"/d/{priv.slug}/").status_code == 404
    assert api().get(f"/api/v1/shared/{unl.slug}/").status_code == 200
    assert api().get(f"/api/v1/shared/{decks['unlisted'].slug}/").status_code == 200
    # Neighbouring or guessed slugs find nothing, and the answer does not say how close they were.
    s = decks["unlisted"].slug
    for guess in (s[:-1] + ("A" if s[-1] != "A" else "B"), s[:8], str(decks["unlisted"].pk), "1", "a" * 16, "a" * 33):
        r = api().get(f"/api/v1/shared/{guess}/")
        assert r.status_code == 404 and r.json() == {
            "error": {"code": "not_found", "message": "no deck behind this link", "params": {}}}, guess
    # The entropy figure itself: token_urlsafe(12) = 16 characters of 6 bits.
    assert math.log2(64) * len(s) >= 96


def test_playtest_jobs_are_private_by_id_and_read_only_by_slug(people, toy_engine, toy_cards, inline_jobs,
                                                               django_capture_on_commit_callbacks, decks):
    alice, bob = people
    with django_capture_on_commit_callbacks(execute=True):
        r = api(alice).post("/api/v1/playtests/", {"deck": decks["private"].pk, "games": 5}, format="json")
    assert r.status_code == 202, r.content
    job = r.json()
    jid, slug = job["id"], job["share_slug"]
    # Job ids are sequential, so by id a job opens only for its owner; others need the random slug.
    assert len(slug) * 6 >= 64 and not slug.isdigit()
    for client in (api(bob), api()):
        assert client.get(f"/api/v1/playtests/{jid}/").status_code == 404
        assert client.get(f"/api/v1/playtests/{jid}/games/0/log/").status_code == 404
        assert client.get(f"/api/v1/playtests/compare/?a={jid}&b={jid}").status_code == 404
        assert jid not in [j["id"] for j in client.get("/api/v1/playtests/").json()["results"]]
        assert client.get(f"/api/v1/playtests/{slug}/").status_code == 200  # the share link is for sharing
        assert client.post(f"/api/v1/playtests/{slug}/cancel/").status_code == 403
        assert client.delete(f"/api/v1/playtests/{slug}/").status_code == 403
        assert client.delete(f"/api/v1/playtests/{jid}/").status_code == 404
    b = Client()
    b.force_login(bob)
    for c in (b, Client()):
        assert c.post(f"/p/{slug}/delete/").status_code == 403
        assert c.post(f"/p/{slug}/cancel/").status_code == 403
    assert PlaytestJob.objects.filter(pk=jid).exists()


def test_nobody_playtests_a_deck_they_may_not_see(people, toy_engine, toy_cards, inline_jobs, decks,
                                                   django_capture_on_commit_callbacks):
    _, bob = people
    priv, unl = decks["private"], decks["unlisted"]
    with django_capture_on_commit_callbacks(execute=True):
        for client in (api(bob), api()):
            for body in ({"deck": priv.pk}, {"deck": unl.pk}, {"share": priv.slug}):
                r = client.post("/api/v1/playtests/", {**body, "games": 5}, format="json")
                assert r.status_code == 404, (body, r.status_code, r.content)
            r = client.post("/api/v1/playtests/", {"share": unl.slug, "games": 5}, format="json")
            assert r.status_code == 202  # the unlisted deck's link works for anyone
    assert PlaytestJob.objects.count() == 2


CSRF_FORMS = [
    "/accounts/signup/", "/accounts/login/", "/accounts/logout/", "/decks/new/", "/decks/{pk}/edit/",
    "/decks/{pk}/build/", "/decks/{pk}/restore/", "/decks/{pk}/fork/", "/decks/{pk}/share/", "/decks/{pk}/delete/",
    "/d/{slug}/fork/", "/playtests/new/", "/p/{job}/cancel/", "/p/{job}/delete/", "/i18n/setlang/",
    "/api/v1/decks/", "/api/v1/decks/validate/", "/api/v1/playtests/",
]


def test_every_form_needs_a_csrf_token(people, decks, toy_engine, toy_cards, inline_jobs,
                                      django_capture_on_commit_callbacks):
    """A signed-in browser session posting any form (or the session-authenticated API) without the
    CSRF token gets 403 and nothing changes; with the token the same form works."""
    alice, _ = people
    with django_capture_on_commit_callbacks(execute=True):
        job = api(alice).post("/api/v1/playtests/", {"game": GAME, "text": toy_text(), "games": 5}, format="json").json()
    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    before = (Deck.objects.count(), DeckVersion.objects.count(), ShareLink.objects.count(), PlaytestJob.objects.count())
    data = {"name": "csrf", "game": GAME, "text": toy_text(), "version": 1, "base_version": 2, "language": "ja",
            "username": "mallory", "password1": "a-Long-pass-123", "password2": "a-Long-pass-123", "games": 5}
    for url in CSRF_FORMS:
        url = url.format(pk=decks["public"].pk, slug=decks["unlisted"].slug, job=job["share_slug"])
        r = c.post(url, data)
        assert r.status_code == 403, (url, r.status_code)
    assert (Deck.objects.count(), DeckVersion.objects.count(), ShareLink.objects.count(),
            PlaytestJob.objects.count()) == before
    assert not User.objects.filter(username="mallory").exists()
    # With the token, a form goes through (the check is a token check, not a blanket refusal).
    page = c.get("/decks/new/")
    token = page.cookies["csrftoken"].value
    r = c.post("/decks/new/", {"name": "with token", "game": GAME, "text": toy_text(), "visibility": "private",
                               "csrfmiddlewaretoken": token})
    assert r.status_code in (200, 302) and Deck.objects.filter(name="with token").exists()


def test_passwords_are_stored_with_djangos_default_hasher(settings):
    from django.conf import global_settings
    from django.contrib.auth.hashers import get_hasher

    assert settings.PASSWORD_HASHERS == global_settings.PASSWORD_HASHERS  # Django's defaults, not overridden
    c = Client()
    r = c.post("/accounts/signup/", {"username": "dora", "password1": "Correct-Horse-93", "password2": "Correct-Horse-93"})
    assert r.status_code in (200, 302)
    user = User.objects.get(username="dora")
    algorithm, iterations, salt, digest = user.password.split("$")
    assert algorithm == get_hasher("default").algorithm == "pbkdf2_sha256"
    assert int(iterations) >= 600_000 and len(salt) >= 16
    assert "Correct-Horse-93" not in user.password
    assert user.check_password("Correct-Horse-93")
