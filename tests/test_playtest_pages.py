"""Playtest pages on the real Weiß Schwarz engine with the sample catalog: the form, the report
(progress, SVG charts with table fallbacks, odds, extras, coverage block, share link), replays,
cancel and the comparison page."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings as dj_settings
from django.core.cache import cache

from playtest.models import PlaytestJob
from playtest.services import deck_from_snapshot, playtest_create
from rules.decktext import parse_deck_text
from rules.engine.core import run_games

pytestmark = pytest.mark.django_db
FIXTURES = Path(dj_settings.BASE_DIR) / "fixtures"


def load_catalog(game: str) -> None:
    from catalog.models import Card

    data = json.loads((FIXTURES / "cards" / f"{game}.json").read_text())
    Card.objects.bulk_create([Card(game=game, **c) for c in data["cards"]])


def deck_text(name: str) -> str:
    return (FIXTURES / "decks" / f"{name}.txt").read_text()


@pytest.fixture
def ws_catalog(db):
    load_catalog("ws")


@pytest.fixture(autouse=True)
def _jobs_inline(settings):
    settings.PLAYTEST_EXECUTOR = "inline"
    settings.PLAYTEST_CHUNK_SIZE = 40
    cache.clear()


def start(client, text="ws-skylark", games=120, **extra):
    data = {"game": "ws", "text": deck_text(text), "games": games, "name": text, **extra}
    return client.post("/playtests/new/", data)


def test_ws_job_equals_one_in_process_run(ws_catalog, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        zones = {"main": parse_deck_text(deck_text("ws-nocturne")).counts("main")}
        job = playtest_create(game="ws", zones=zones, games=130, seed=2026, session_key="x")
    job.refresh_from_db()
    assert job.status == "done" and job.chunks.count() == 4
    deck = deck_from_snapshot("ws", job.snapshot)
    assert job.result == run_games(deck, 2026, range(130), options=job.options, pilot=job.pilot).to_dict()


def test_form_runs_job_and_report_shows_charts_odds_and_replays(client, ws_catalog, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        r = start(client, seed=11)
    assert r.status_code == 302
    url = r["Location"]
    assert re.fullmatch(r"/p/[\w-]{16,}/", url)
    page = client.get(url).content.decode()
    job = PlaytestJob.objects.get()
    assert job.status == "done"
    # charts: server-side SVG with title/desc, and a data table
    assert page.count('<svg class="chart') == 2
    assert 'role="img"' in page and "<title id=" in page and "<desc id=" in page
    assert "Turn of win: ws-skylark" in page and "Cumulative win probability" in page
    wins = job.summary["win_histogram"]
    first_turn = min(wins, key=int)
    assert re.search(rf'<th scope="row">{first_turn}</th><td class="num">{wins[first_turn]}</td>', page)
    # summary numbers, extras with the engine's ratios, exact vs simulated odds
    assert f"{job.summary['win_rate'] * 100:.1f}%" in page
    assert "damage per attack" in page and "cancel rate" in page
    assert "Opening hand (exact)" in page and "Opening hand (simulated)" in page
    assert "opening hands (before any mulligan) of 120" in page
    # what the engine models: one block, right after the summary numbers; share link, replay links
    cov = job.summary["coverage"]
    assert "Effects the engine did not play" not in page and page.count("data-coverage") == 1
    assert page.index('id="summary-heading"') < page.index("data-coverage") < page.index('id="hist-heading"')
    assert f"{cov['cards_modelled']} of {cov['cards']} cards fully modelled" in page
    assert all(c["code"] in page for c in cov["not_modelled"])
    assert f'value="http://testserver{url}"' in page
    assert f'href="{url}games/0/"' in page
    replay = client.get(f"{url}games/0/").content.decode()
    assert "Game 0 of ws-skylark" in replay and "Turn 1" in replay and "opening hand" in replay
    assert "Result: <strong>" in replay
    # example games per outcome and turn: really that outcome, and the first such game
    from playtest.reports import game_replay

    turn, index = min((int(t), i) for t, i in job.summary["examples"]["win"].items())
    assert f"Game {index}: fastest win (turn {turn})" in page
    assert f'href="{url}games/{index}/">a win on turn {turn}</a>' in page
    replay_ex = game_replay(job, index)
    assert (replay_ex["outcome"], replay_ex["turn"]) == ("win", turn)
    assert all((game_replay(job, i)["outcome"], game_replay(job, i)["turn"]) != ("win", turn) for i in range(index))
    # jump form without JavaScript
    r = client.get(f"{url}games/?index=7")
    assert r.status_code == 302 and r["Location"] == f"{url}games/7/"
    assert client.get(f"{url}games/120/").status_code == 404


def test_exact_and_simulated_opening_odds_agree(ws_catalog, django_capture_on_commit_callbacks):
    from playtest.reports import opening_odds

    with django_capture_on_commit_callbacks(execute=True):
        zones = {"main": parse_deck_text(deck_text("ws-skylark")).counts("main")}
        job = playtest_create(game="ws", zones=zones, games=2000, seed=5, session_key="odds")
    job.refresh_from_db()
    rows = opening_odds(job)
    assert rows and all(r["sample"] == 2000 for r in rows)
    for r in rows:  # 2000 deals: within 4 standard errors of the hypergeometric value
        se = (r["exact"] * (1 - r["exact"]) / 2000) ** 0.5
        assert abs(r["simulated"] - r["exact"]) < 4 * se + 1e-9, r


def test_running_job_page_refreshes_without_js_and_polls_with_js(client, ws_catalog, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        r = start(client)
    page = client.get(r["Location"]).content.decode()
    assert '<noscript><meta http-equiv="refresh" content="3"></noscript>' in page
    assert "<progress" in page and "0 / 120 (0%)" in page
    assert "playtest/progress.js" in page and 'data-api="/api/v1/playtests/' in page
    assert "Cancel this job" in page
    from playtest.runner import playtest_chunk_run

    job = PlaytestJob.objects.get()
    playtest_chunk_run(job_id=job.pk, index=0)
    page = client.get(r["Location"]).content.decode()
    assert "40 / 120 (33%)" in page and "So far: " in page and "wins over 40 games" in page
    r = client.post(f"{r['Location']}cancel/")
    assert r.status_code == 302
    job = PlaytestJob.objects.get()
    assert job.status == "cancelled"
    page = client.get(job.get_absolute_url()).content.decode()
    assert "cancelled by its owner" in page and "http-equiv" not in page
    assert "Delete this report" in page
    from django.test import Client

    assert Client().post(f"{job.get_absolute_url()}delete/").status_code == 403
    r = client.post(f"{job.get_absolute_url()}delete/")
    assert r.status_code == 302 and r["Location"] == "/playtests/" and not PlaytestJob.objects.exists()


def test_only_owner_can_cancel_from_page(client, ws_catalog, django_capture_on_commit_callbacks):
    from django.test import Client

    with django_capture_on_commit_callbacks(execute=False):
        r = start(client)
    other = Client()
    page = other.get(r["Location"]).content.decode()
    assert "Cancel this job" not in page
    assert other.post(f"{r['Location']}cancel/").status_code == 403
    assert PlaytestJob.objects.get().status == "queued"


def test_form_errors_are_shown_with_4xx(client, ws_catalog, settings, django_capture_on_commit_callbacks):
    r = client.post("/playtests/new/", {"game": "ws", "text": "4 SKY/W90-001\n2 NOPE-1\nbad line\n", "games": 10})
    assert r.status_code == 400
    page = r.content.decode()
    assert "line 3" in page
    r = client.post("/playtests/new/", {"game": "ws", "text": deck_text("ws-skylark") + "1 NOPE-1\n", "games": 10})
    assert r.status_code == 400 and "NOPE-1" in r.content.decode()
    settings.PLAYTEST_MAX_GAMES_ANON = 100
    r = start(client, games=101)
    assert r.status_code == 400 and "at most 100 games per job for anonymous use" in r.content.decode()
    r = client.post("/playtests/new/", {"game": "ws", "text": "", "games": 10})
    assert r.status_code == 400 and "Paste a deck list" in r.content.decode()
    assert PlaytestJob.objects.count() == 0


def test_list_page_shows_my_jobs_and_form(client, ws_catalog, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        start(client, games=40)
    page = client.get("/playtests/").content.decode()
    assert "ws-skylark" in page and "done" in page and "Goldfish a deck list" in page
    assert 'name="text"' in page


def test_deck_page_link_prefills_saved_deck(client, ws_catalog, django_user_model, django_capture_on_commit_callbacks):
    from decks.services import deck_create

    user = django_user_model.objects.create_user("wsfan", password="pw-12345-long")
    zones = {"main": parse_deck_text(deck_text("ws-skylark")).counts("main")}
    deck = deck_create(owner=user, game="ws", name="Skylark", zones=zones, visibility="public")
    client.force_login(user)
    page = client.get(f"/playtests/new/?deck={deck.pk}").content.decode()
    assert "Skylark" in page and f'name="deck" value="{deck.pk}"' in page and 'name="text"' not in page
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/playtests/new/", {"deck": deck.pk, "games": 40})
    assert r.status_code == 302
    job = PlaytestJob.objects.get()
    assert (job.owner, job.source, job.deck_id, job.name, job.status) == (user, "deck", deck.pk, "Skylark", "done")
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/playtests/new/", {"deck": deck.pk, "games": 40})
    page = client.get(r["Location"]).content.decode()
    assert f"/playtests/compare/?a={job.share_slug}&amp;b=" in page and "Compare with version 1 of this deck" in page


def test_compare_page_two_decks(client, ws_catalog, settings, django_capture_on_commit_callbacks):
    settings.PLAYTEST_MAX_ACTIVE_ANON = 5
    with django_capture_on_commit_callbacks(execute=True):
        a = start(client, "ws-skylark", games=200, seed=1)["Location"].split("/")[2]
        b = start(client, "ws-nocturne", games=200, seed=1)["Location"].split("/")[2]
    page = client.get(f"/playtests/compare/?a={a}&b=http://testserver/p/{b}/").content.decode()
    assert "two-proportion z" in page and "Welch t" in page and "Mann-Whitney" in page
    assert page.count('<svg class="chart') == 2
    assert "Deck differences" in page and "SKY/W90-001" in page
    assert "statistically meaningful" in page or "differ meaningfully" in page
    r = client.get(f"/playtests/compare/?a={a}&b=nope")
    assert r.status_code == 400 and "no playtest report nope" in r.content.decode()


def test_report_unknown_slug_is_404(client, db):
    assert client.get("/p/doesnotexist/").status_code == 404


def test_options_from_the_form_and_run_again(client, ws_catalog, settings, django_capture_on_commit_callbacks):
    settings.PLAYTEST_MAX_ACTIVE_ANON = 5
    with django_capture_on_commit_callbacks(execute=True):
        r = start(client, games=40, options="dummy_climaxes = 6\nfirst: me\n", turn_cap=30)
    assert r.status_code == 302, r.content.decode()[:3000]
    job = PlaytestJob.objects.get()
    assert job.options["dummy_climaxes"] == 6 and job.options["first"] == "me" and job.turn_cap == 30
    r = client.post("/playtests/new/", {"game": "ws", "text": deck_text("ws-skylark"), "games": 10,
                                        "options": "dummy_climaxes = 99"})
    assert r.status_code == 400 and "dummy_climaxes must be between 0 and 50" in r.content.decode()
    r = client.post("/playtests/new/", {"game": "ws", "text": deck_text("ws-skylark"), "games": 10, "options": "oops"})
    assert r.status_code == 400 and "line 1: expected" in r.content.decode()
    page = client.get("/playtests/new/").content.decode()
    assert "dummy_climaxes = 8" in page and "<code>greedy</code>" in page
    # run again: the form comes back filled with the same deck and settings
    report = client.get(job.get_absolute_url()).content.decode()
    assert f"/playtests/new/?from={job.share_slug}" in report
    page = client.get(f"/playtests/new/?from={job.share_slug}").content.decode()
    assert "4 SKY/W90-001 Piccolo Prodigy Fuuka" in page and "dummy_climaxes = 6" in page and "first = me" in page
    assert 'name="turn_cap" value="30"' in page


@pytest.mark.parametrize("game", ["pc", "phantasma", "ws", "chaos", "lycee"])
def test_every_game_sample_deck_runs_as_a_job(game, client, db, django_capture_on_commit_callbacks):
    """Each engine, each game's first sample deck: a job through the API, identical to one in-process run,
    and a report page with charts and a replayable game."""
    from rules.engine.core import get_engine

    load_catalog(game)
    deck = sorted((FIXTURES / "decks").glob(f"{game}-*.txt"))[0].stem
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/api/v1/playtests/", {"game": game, "text": deck_text(deck), "games": 60, "seed": 8},
                        content_type="application/json")
    assert r.status_code == 202, r.content
    job = PlaytestJob.objects.get(pk=r.json()["id"])
    assert job.status == "done", job.error
    engine = get_engine(game)
    assert set(engine.default_options) <= set(job.options)
    d = deck_from_snapshot(game, job.snapshot)
    assert job.result == run_games(d, 8, range(60), options=job.options, pilot=job.pilot).to_dict()
    page = client.get(job.get_absolute_url()).content.decode()
    assert page.count('<svg class="chart') == 2
    replay = client.get(f"{job.get_absolute_url()}games/0/")
    assert replay.status_code == 200 and "Result: <strong>" in replay.content.decode()


def test_form_page_is_rate_limited(client, ws_catalog, settings, django_capture_on_commit_callbacks):
    settings.PLAYTEST_CREATE_RATE_ANON = "1/hour"
    settings.PLAYTEST_MAX_ACTIVE_ANON = 5
    with django_capture_on_commit_callbacks(execute=True):
        assert start(client, games=20).status_code == 302
        r = start(client, games=20)
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert "Too many playtest jobs started recently" in r.content.decode()
    assert PlaytestJob.objects.count() == 1
