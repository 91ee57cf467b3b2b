"""Deck pages without JavaScript: accounts, create/import, deck page, builder, edit conflicts, history,
share links, forks, export, permissions."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from decks.models import Deck, DeckVersion, ShareLink
from decks.services import deck_create, deck_update
from decks.testing import legal_deck
from rules import games as g
from tests.helpers import web_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_hasher")]


def text_of(zones):
    out = []
    for zone, cards in zones.items():
        out.append(f"# {zone}")
        out += [f"{n} {code}" for code, n in cards.items()]
    return "\n".join(out)


def test_signup_login_logout():
    c = Client()
    r = c.post("/accounts/signup/", {"username": "carol", "password1": "a-long-pass-987", "password2": "a-long-pass-987"})
    assert r.status_code == 302
    assert c.get("/decks/").context["user"].username == "carol"
    c.post("/accounts/logout/")
    assert not c.get("/decks/").context["user"].is_authenticated
    r = c.post("/accounts/login/", {"username": "carol", "password": "a-long-pass-987"})
    assert r.status_code == 302
    r = Client().post("/accounts/signup/", {"username": "carol", "password1": "x", "password2": "y"})
    assert r.status_code == 400
    assert get_user_model().objects.filter(username="carol").count() == 1


def test_create_requires_login():
    r = Client().get("/decks/new/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_create_from_text(cards, alice):
    c = web_client(alice)
    r = c.post("/decks/new/", {"name": "Idols", "game": "ws", "visibility": "private", "text": text_of(legal_deck(g.WS))})
    assert r.status_code == 302
    deck = Deck.objects.get()
    assert deck.zones == legal_deck(g.WS) and deck.version == 1
    page = c.get(r["Location"]).content.decode()
    assert "Legal Weiß Schwarz deck (50/50 cards)" in page
    listing = c.get("/decks/").content.decode()
    assert "Idols" in listing and "✓ legal" in listing


def test_create_with_bad_line_names_it_and_writes_nothing(cards, alice):
    r = web_client(alice).post("/decks/new/", {"name": "x", "game": "ws", "visibility": "private",
                                              "text": "4 WST/W01-001\nfour of them\n"})
    assert r.status_code == 400
    assert "line 2: expected" in r.content.decode()
    assert Deck.objects.count() == 0


def test_deck_page_groups_validation_charts_odds(cards, alice):
    zones = legal_deck(g.WS)
    zones["main"]["WST/W01-011"] = 3  # 51 cards
    deck = deck_create(owner=alice, game="ws", name="Idols", zones=zones, visibility="public")
    r = Client().get(f"/decks/{deck.pk}/?odds=type:climax&turns=3")
    assert r.status_code == 200
    html = r.content.decode()
    assert 'data-code="deck_size"' in html and "the main deck has 51 cards" in html
    # grouped by type
    assert re.search(r"<h3 class=\"group\">Characters <span class=\"muted\">\(43\)</span>", html)
    assert re.search(r"<h3 class=\"group\">Climaxes <span class=\"muted\">\(8\)</span>", html)
    # charts are SVG with title + desc naming the values
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img"') >= 4
    assert "<title id=" in html and "L0:" in html and "CX: 8 cards" in html
    assert "soul:" in html  # WS trigger chart
    # odds: 8 climaxes in 51 cards, opening hand of 5
    from rules.odds import p_at_least
    expected = f"{p_at_least(51, 8, 5) * 100:.1f}%"
    assert expected in html
    assert "opening hand" in html
    # several choices count any of them, each card once: climaxes + Finale 1 = still 8; + Idol 1 = 12
    html = Client().get(f"/decks/{deck.pk}/?odds=type:climax&odds=card:WST/W01-C1&odds=card:WST/W01-001").content.decode()
    assert f"{p_at_least(51, 12, 5) * 100:.1f}%" in html and "(12 in 51 cards)" in html


@pytest.mark.parametrize("game,chart", [
    (g.PC, "Bonus marks"), (g.PHANTASMA, "Average ability value per attribute"), (g.CHAOS, "ATK spread"),
    (g.LYCEE, "EX total per attribute"), (g.WS, "Trigger icons"),
])
def test_per_game_charts(cards, alice, game, chart):
    deck = deck_create(owner=alice, game=game, name="d", zones=legal_deck(game), visibility="public")
    html = Client().get(f"/decks/{deck.pk}/").content.decode()
    assert chart in html
    assert "✓" in html  # legal


def test_private_deck_is_404_for_others(cards, alice, bob):
    deck = deck_create(owner=alice, game="ws", name="d", zones=legal_deck(g.WS))
    for url in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/history/", f"/decks/{deck.pk}/export.txt",
                f"/decks/{deck.pk}/export.json", f"/d/{deck.slug}/"):
        assert Client().get(url).status_code == 404, url
        assert web_client(bob).get(url).status_code == 404, url
        assert web_client(alice).get(url).status_code == 200, url
    for url in (f"/decks/{deck.pk}/edit/", f"/decks/{deck.pk}/build/", f"/decks/{deck.pk}/delete/"):
        assert web_client(bob).get(url).status_code == 404
    assert web_client(bob).post(f"/decks/{deck.pk}/delete/").status_code == 404
    assert Deck.objects.filter(pk=deck.pk).exists()


def test_unlisted_only_by_link(cards, alice, bob):
    deck = deck_create(owner=alice, game="ws", name="Sneaky", zones=legal_deck(g.WS), visibility="unlisted")
    assert Client().get(f"/decks/{deck.pk}/").status_code == 404
    assert "Sneaky" not in Client().get("/decks/").content.decode()
    r = Client().get(f"/d/{deck.slug}/")
    assert r.status_code == 200 and "Sneaky" in r.content.decode()


# The builder's changes, working copy, undo and save: tests/test_decks_builder.py.


def test_builder_search_error_is_shown(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="d", zones={})
    r = web_client(alice).get(f"/decks/{deck.pk}/build/?q=cost%3C%3D")
    assert r.status_code == 200
    assert 'role="alert"' in r.content.decode()


def test_edit_conflict_shows_changes_and_keeps_text(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="d", zones=legal_deck(g.WS))
    c = web_client(alice)
    assert c.get(f"/decks/{deck.pk}/edit/").status_code == 200
    # another tab saves version 2
    zones = legal_deck(g.WS)
    zones["main"]["WST/W01-001"] = 3
    deck_update(deck=deck, user=alice, base_version=1, zones=zones)
    mine = text_of(legal_deck(g.WS)) + "\n1 WST/W01-C3"
    r = c.post(f"/decks/{deck.pk}/edit/", {"name": "d", "visibility": "private", "text": mine, "base_version": 1})
    assert r.status_code == 409
    html = r.content.decode()
    assert "The deck changed while you were editing" in html and "main: −1 WST/W01-001" in html
    assert "1 WST/W01-C3" in html and 'name="base_version" value="2"' in html
    assert Deck.objects.get(pk=deck.pk).version == 2
    r = c.post(f"/decks/{deck.pk}/edit/", {"name": "d", "visibility": "private", "text": mine, "base_version": 2})
    assert r.status_code == 302
    assert Deck.objects.get(pk=deck.pk).zones["main"]["WST/W01-C3"] == 1


def test_history_diff_page(cards, alice):
    deck = deck_create(owner=alice, game="ws", name="d", zones=legal_deck(g.WS))
    zones = legal_deck(g.WS)
    zones["main"]["WST/W01-C3"] = 1
    deck_update(deck=deck, user=alice, base_version=1, zones=zones, note="one more climax")
    html = web_client(alice).get(f"/decks/{deck.pk}/history/?from=1&to=2").content.decode()
    assert "one more climax" in html and "+1" in html and "WST/W01-C3" in html
    assert "Restore version 1" in html
    r = web_client(alice).post(f"/decks/{deck.pk}/restore/", {"version": 1, "base_version": 2})
    assert r.status_code == 302
    deck.refresh_from_db()
    assert deck.version == 3 and deck.zones == legal_deck(g.WS)
    r = web_client(alice).post(f"/decks/{deck.pk}/restore/", {"version": 2, "base_version": 2}, follow=True)
    assert "changed meanwhile" in r.content.decode()
    assert Deck.objects.get(pk=deck.pk).version == 3


def test_share_link_page_and_pinned_version(cards, alice, bob):
    deck = deck_create(owner=alice, game="ws", name="d", zones=legal_deck(g.WS))
    c = web_client(alice)
    r = c.post(f"/decks/{deck.pk}/share/", {"pin": "1", "version": 1}, follow=True)
    assert "now unlisted" in r.content.decode()
    link = ShareLink.objects.get()
    assert link.version == 1
    # the new link was saved as version 2; an edit based on version 1 would now conflict (issue 19)
    deck_update(deck=deck, user=alice, base_version=2, zones={"main": {"WST/W01-001": 4}},
                description="the newer plan")
    html = Client().get(f"/d/{link.slug}/").content.decode()
    # the link shows version 1 and nothing newer (issue 19): no "latest is 3", no newer description
    assert "latest is" not in html and "the newer plan" not in html and "Legal Weiß Schwarz deck" in html
    assert "pinned by the link; latest is 3" in c.get(f"/d/{link.slug}/").content.decode()  # the owner knows
    assert f"/playtests/new/?share={link.slug}" in html
    # exports through the link give the pinned version, whatever ?version says
    text = Client().get(f"/d/{link.slug}/export.txt?version=2").content.decode()
    assert "version 1" in text.splitlines()[0] and "4 WST/W01-C1" in text
    assert Client().get(f"/d/{link.slug}/export.json").json()["version"] == 1
    assert Client().get(f"/d/{deck.slug}/export.json").json()["version"] == 3
    r = web_client(bob).post(f"/d/{link.slug}/fork/")
    fork = Deck.objects.get(owner=bob)
    assert r.status_code == 302 and fork.forked_from_id == deck.pk and fork.forked_from_version == 1
    assert fork.zones == legal_deck(g.WS)
    assert c.post(f"/decks/{deck.pk}/share/", {"pin": "1", "version": 99}).status_code == 302
    assert ShareLink.objects.count() == 1


def test_fork_public_deck_from_page(cards, alice, bob):
    deck = deck_create(owner=alice, game="pc", name="Relay", zones=legal_deck(g.PC), visibility="public")
    r = web_client(bob).post(f"/decks/{deck.pk}/fork/")
    fork = Deck.objects.get(owner=bob)
    assert r["Location"] == f"/decks/{fork.pk}/"
    assert "forked from" in web_client(bob).get(r["Location"]).content.decode()
    assert Client().post(f"/decks/{deck.pk}/fork/").status_code == 302  # to log in
    assert Deck.objects.count() == 2


def test_export_views(cards, alice):
    deck = deck_create(owner=alice, game="phantasma", name="Shrine", zones=legal_deck(g.PHANTASMA), visibility="public")
    text = Client().get(f"/decks/{deck.pk}/export.txt").content.decode()
    assert text.startswith("// Shrine — Phantasmagoria — version 1")
    assert "# ace\n1 PHT-016 Phantom 16" in text and "# ex\n1 PHT-X1 Secret Art 1" in text
    j = Client().get(f"/decks/{deck.pk}/export.json").json()
    assert j["zones"] == legal_deck(g.PHANTASMA) and j["owner"] == "alice"
    assert Client().get(f"/decks/{deck.pk}/export.json?version=5").status_code == 404


def test_delete(cards, alice):
    deck = deck_create(owner=alice, game="pc", name="Gone", zones={})
    c = web_client(alice)
    assert c.get(f"/decks/{deck.pk}/delete/").status_code == 200
    assert c.post(f"/decks/{deck.pk}/delete/").status_code == 302
    assert not Deck.objects.exists() and not DeckVersion.objects.exists()


def test_import_deck_file_formats(cards, alice):
    from django.core.files.uploadedfile import SimpleUploadedFile

    c = web_client(alice)
    main = legal_deck(g.WS)["main"]
    # AlphaC2 XML, uploaded
    xml = "<deck>" + "".join(f"<Card><ID>{code}</ID><Quantity>{n}</Quantity></Card>" for code, n in main.items()) + "</deck>"
    r = c.post("/decks/new/", {"name": "From XML", "game": "ws", "visibility": "private", "text": "",
                               "deck_file": SimpleUploadedFile("Kanade.xml", xml.encode(), "text/xml")})
    assert r.status_code == 302, r.content.decode()[:2000]
    deck = Deck.objects.get(name="From XML")
    assert deck.zones == {"main": main}
    assert deck.versions.get().note == "imported (ws-xml)"
    # CODE RARITY lines pasted into the text box
    lines = "\n".join(f"{code} C" for code, n in main.items() for _ in range(n))
    r = c.post("/decks/new/", {"name": "From lines", "game": "ws", "visibility": "private", "text": lines})
    assert r.status_code == 302
    assert Deck.objects.get(name="From lines").zones == {"main": main}
    # a broken file names the line and writes nothing
    r = c.post("/decks/new/", {"name": "Broken", "game": "ws", "visibility": "private", "text": "",
                               "deck_file": SimpleUploadedFile("x.xml", b"<deck><Card><ID>WST/W01-001</ID>"
                                                               b"<Quantity>many</Quantity></Card></deck>")})
    assert r.status_code == 400 and "line 1:" in r.content.decode() and "quantity" in r.content.decode()
    r = c.post("/decks/new/", {"name": "Binary", "game": "ws", "visibility": "private", "text": "",
                               "deck_file": SimpleUploadedFile("x.bin", b"\xff\xfe\x00bad")})
    assert r.status_code == 400 and "not UTF-8" in r.content.decode()
    assert not Deck.objects.filter(name__in=["Broken", "Binary"]).exists()
