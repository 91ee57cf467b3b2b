"""Reports and lists that lead with what matters (issue 18, item 7): the report opens with the turn of
win, counters once each, every card in the first-playable table, deck name and version in the list
and on the compare page."""
from __future__ import annotations

import re

import pytest

from playtest.models import PlaytestJob
from rules.decktext import parse_deck_text
from tests.test_playtest_pages import _jobs_inline, deck_text, ws_catalog  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_jobs(client, ws_catalog, django_user_model, django_capture_on_commit_callbacks):  # noqa: F811
    from decks.services import deck_create, deck_update

    user = django_user_model.objects.create_user("lead", password="pw-12345-long")
    zones = {"main": parse_deck_text(deck_text("ws-skylark")).counts("main")}
    deck = deck_create(owner=user, game="ws", name="Skylark", zones=zones)
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/playtests/new/", {"deck": deck.pk, "games": 40, "turn_cap": 3})
    deck = deck_update(deck=deck, user=user, base_version=deck.version, note="v2", name="Skylark 2")
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/playtests/new/", {"deck": deck.pk, "games": 40, "turn_cap": 3})
    return list(PlaytestJob.objects.order_by("id"))


def test_report_leads_with_turn_of_win_and_keeps_every_card(client, two_jobs):
    job = two_jobs[0]
    page = client.get(f"/p/{job.share_slug}/").content.decode()
    summary = page[page.index('id="summary-heading"'):]
    assert summary.index("Mean turn of win") < summary.index("Win rate within")
    fp = page[page.index('id="fp-heading"'):]
    fp = fp[:fp.index("</section>")]
    codes = set(job.deck_counts()["main"])
    assert all(code in fp for code in codes)
    # with a 3-turn cap a WS deck's level 3 cards never come down: they say so instead of vanishing
    assert "not playable within the turn cap" in fp
    extras = page[page.index('id="extras-heading"'):] if 'id="extras-heading"' in page else ""
    names = re.findall(r'<tr><th scope="row">([^<]+)', extras.split("</table>")[1] if extras.count("</table>") > 1 else "")
    assert len(names) == len(set(names))


def test_list_and_compare_show_deck_name_and_version(client, two_jobs):
    a, b = two_jobs
    page = client.get("/playtests/").content.decode()
    assert "Skylark" in page and "version 1" in page and "version 2" in page
    page = client.get(f"/playtests/compare/?a={a.share_slug}&b={b.share_slug}").content.decode()
    assert "A: Skylark" in page and "version 1" in page and "B: Skylark 2" in page and "version 2" in page
