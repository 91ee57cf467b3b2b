"""The pages' service time (issue 18: ``bench/load.py`` at 50 users, p95 < 100 ms): what made the card
page, the deck page and the public deck list slow, each pinned by a test.

- The card pictures, the card links and the deck page's card rows are built in Python, not by a
  template include or loop per card: the markup must stay the one the templates wrote, byte for byte
  (the templates are kept here as the reference and rendered side by side with the new code).
- "The same card elsewhere" on the card page reads an index (same name, or same work and number).
- The card page's small pictures do not fetch a card's text, abilities... (nor one query per card).
- The public deck list reads the catalog three times for decks of any number of games.
"""
from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.template import engines
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from catalog.labels import type_label
from catalog.links import card_url
from catalog.models import Card, CardPrinting
from catalog.pictures import Picture, card_face
from catalog.selectors import card_same_identity
from catalog.templatetags.card_pictures import peek_html, picture_html
from catalog.textnorm import script_language
from decks.models import Visibility
from decks.services import deck_create
from decks.templatetags.deck_page import deck_table_rows, deck_visual_cards, odds_choices
from decks.testing import cards_create, legal_deck
from rules import games as g

pytestmark = pytest.mark.django_db

# -- the templates the Python code replaced (as they were at 8ab7e07) ---------------------------------
OLD_PICTURE = (
    '<span class="pic pic-{{ size }}{% if src %} has-img{% endif %}" data-pic>{# A card drawn from its data (rules/<game>/display.py face): the game\'s frame is static/pictures.css .face-<game>. #}\n'
    '<span class="face face-{{ card.game }}{% for t in face.tones %} tone-{{ t }}{% endfor %} type-{{ card.card_type }}"{% if src %} aria-hidden="true"{% else %} role="img" aria-label="{{ name }}"{% endif %} data-face>\n'
    '  <span class="f-top">\n'
    '    <span class="f-corner">{% for s in face.corner %}<span class="f-stat{% if s.big %} f-big{% endif %}"><span class="f-l">{{ s.label }}</span> <span class="f-v">{{ s.value }}</span></span>{% endfor %}</span>\n'
    '    {% if face.marks %}<span class="f-marks">{% for m in face.marks %}<span class="f-mark">{{ m }}</span>{% endfor %}</span>{% endif %}\n'
    '  </span>\n'
    '  <span class="f-art"><span class="f-game">{{ game_name }}</span></span>\n'
    '  <span class="f-name"{% if name_lang %} lang="{{ name_lang }}"{% endif %}>{{ name }}</span>\n'
    '  <span class="f-type">{{ type_label }}{% if card.traits %} · {{ card.traits|slice:":3"|join:" · " }}{% endif %}</span>\n'
    '  {% if face.row %}<span class="f-row">{% for s in face.row %}<span class="f-cell{% if s.big %} f-big{% endif %}"><span class="f-l">{{ s.label }}</span><span class="f-v">{{ s.value }}</span></span>{% endfor %}</span>{% endif %}\n'
    '  {% if large and card.text %}<span class="f-text">{{ card.text|truncatechars:220 }}</span>{% endif %}\n'
    '  <span class="f-bottom">{% for s in face.bottom %}<span class="f-stat{% if s.big %} f-big{% endif %}"><span class="f-l">{{ s.label }}</span> <span class="f-v">{{ s.value }}</span></span>{% endfor %}</span>\n'
    '  <span class="f-code">{{ card.code }}</span>\n'
    '</span>\n'
    '{% if src %}<img class="pic-img" src="{{ src }}" width="{{ width }}" height="{{ height }}" alt="{{ name }}" {% if eager %}fetchpriority="high"{% else %}loading="lazy"{% endif %} decoding="async" referrerpolicy="no-referrer">{% endif %}</span>\n'
)

OLD_PEEK = (
    '{% load i18n %}<a class="peek" href="{{ href }}" data-preview="{{ preview }}" aria-label="{% blocktranslate %}Picture of {{ name }}{% endblocktranslate %}" title="{% translate \'Show the card\' %}"><svg aria-hidden="true" focusable="false" width="16" height="20" viewBox="0 0 16 20"><rect x="1" y="1" width="14" height="18" rx="2" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M4 13l3-4 2 3 1.5-2L13 13z" fill="currentColor"/></svg></a>\n'
)

OLD_TABLE_ROWS = (
    '{% for row in group.rows %}\n'
    '    <tr{% if row.problem %} class="problem"{% endif %} data-code="{{ row.code }}">\n'
    '      <td class="count">{{ row.count }}×</td>\n'
    '      <th scope="row">{% if row.card %}<a href="{% url \'card-detail\' row.card.game row.code %}">{{ row.card.name }}</a> {% card_peek row.card row.code %}{% else %}<span class="error">{% translate "unknown card" %}</span>{% endif %}{% if row.problem %} <span class="error" title="{% translate \'see the validation problems\' %}">⚠</span>{% endif %}</th>\n'
    '      <td>{{ row.stats }}</td>\n'
    '      <td><code>{{ row.code }}</code></td>\n'
    '      {% if builder %}<td class="ops">\n'
    '        <form method="post" class="js-builder-op inline" action="{% url \'deck-build\' deck.pk %}{% if q %}?q={{ q|urlencode }}{% endif %}">{% csrf_token %}\n'
    '          <input type="hidden" name="op" value="add"><input type="hidden" name="code" value="{{ row.code }}"><input type="hidden" name="count" value="1"><input type="hidden" name="zone" value="{{ section.zone }}"><input type="hidden" name="base_version" value="{{ deck.version }}">\n'
    '          <button type="submit" aria-label="{% blocktranslate with name=row.card.name|default:row.code %}Add one {{ name }}{% endblocktranslate %}">+</button>\n'
    '        </form>\n'
    '        <form method="post" class="js-builder-op inline" action="{% url \'deck-build\' deck.pk %}{% if q %}?q={{ q|urlencode }}{% endif %}">{% csrf_token %}\n'
    '          <input type="hidden" name="op" value="remove"><input type="hidden" name="code" value="{{ row.code }}"><input type="hidden" name="count" value="1"><input type="hidden" name="zone" value="{{ section.zone }}"><input type="hidden" name="base_version" value="{{ deck.version }}">\n'
    '          <button type="submit" aria-label="{% blocktranslate with name=row.card.name|default:row.code %}Remove one {{ name }}{% endblocktranslate %}">−</button>\n'
    '        </form>\n'
    '      </td>{% endif %}\n'
    '    </tr>\n'
    '    {% endfor %}'
)

OLD_VISUAL_CARDS = (
    '{% for row in group.rows %}\n'
    '    <li class="visual-card{% if row.problem %} problem{% endif %}" data-code="{{ row.code }}">\n'
    '      {% if row.card %}<a href="{% url \'card-detail\' row.card.game row.card.code %}">{% card_picture row.card row.picture name=row.card.name %}<span class="visual-count" aria-label="{% blocktranslate count n=row.count %}{{ n }} copy{% plural %}{{ n }} copies{% endblocktranslate %}">×{{ row.count }}</span></a>\n'
    '      {% else %}<span class="visual-unknown"><code class="code">{{ row.code }}</code><span class="visual-count">×{{ row.count }}</span></span>{% endif %}\n'
    '    </li>\n'
    '    {% endfor %}'
)

OLD_ODDS_CARDS = (
    '{% for grp in odds_groups %}{% if grp.key|slice:":5" == "card:" %}\n'
    '          <label><input type="checkbox" name="odds" value="{{ grp.key }}"{% if odds and grp.key in odds.group.keys %} checked{% endif %}> {{ grp.label }} <span class="muted">– {{ grp.copies }}</span></label>{% endif %}{% endfor %}'
)

OLD_ODDS_GROUPS = (
    '{% for grp in odds_groups %}{% if grp.key|slice:":5" != "card:" %}\n'
    '          <label><input type="checkbox" name="odds" value="{{ grp.key }}"{% if odds and grp.key in odds.group.keys %} checked{% endif %}> {{ grp.label }} <span class="muted">– {{ grp.copies }}</span></label>{% endif %}{% endfor %}'
)


def _render(source: str, context: dict) -> str:
    return engines["django"].from_string(source).render(context)


def _old_picture(card, picture=None, size="thumb", name="", eager=False) -> str:
    """What ``{% card_picture %}`` rendered (its inclusion tag's context, then the template)."""
    if picture is None:
        picture = getattr(card, "picture", None)
    large = size == "large"
    return _render(OLD_PICTURE, {
        "card": card, "picture": picture, "size": size, "large": large, "name": name or card.name,
        "face": card_face(card), "type_label": type_label(card.card_type), "game_name": g.GAME_NAMES.get(card.game, ""),
        "src": (picture.large if large else picture.src) if picture else "",
        "width": (picture.large_width if large else picture.width) if picture else 0,
        "height": (picture.large_height if large else picture.height) if picture else 0,
        "eager": eager, "name_lang": script_language(name or card.name),
    })


def _old_peek(card, code="", name="") -> str:
    return _render(OLD_PEEK, {"href": reverse("card-detail", args=[card.game, card.code]) + "#picture",
                              "preview": reverse("card-picture", args=[card.game, code or card.code]),
                              "name": name or card.name})


@pytest.fixture
def pool():
    cards_create()
    # names and codes a page must escape, a long text (the large picture cuts it), a kana name
    Card.objects.create(game="ws", code="WST/W01-<&>", name='Idol "A" & <B>', card_type="character",
                        level=1, cost=0, power=3000, soul=1, traits=["音楽", "<x>", "a&b", "4th"],
                        text="【自】" + "x" * 300, colors=["red"])
    Card.objects.create(game="ws", code="WST/W01-K01", name="ゆきの", card_type="event", level=0, colors=["blue"])
    return list(Card.objects.order_by("game", "code"))


@pytest.fixture
def owner():
    return get_user_model().objects.create_user("owner", password="x-long-pass-1")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_card_picture_and_peek_write_what_the_templates_wrote(pool, language):
    image = Picture("https://img.example/a.jpg?x=1&y=<2>", "https://img.example/L.jpg", "C", "R")
    cases = [(None, "thumb", "", False), (image, "thumb", "", False), (image, "large", 'N<&>"', True),
             (None, "large", "", True), (image, "large", "", False)]
    with translation.override(language):
        for card in pool:
            for record in (card, card.to_record()):
                for args in cases:
                    assert picture_html(record, *args) == _old_picture(record, *args), (card.code, args)
                for args in (("", ""), ("WST/W01-001 &x", "a<b")):
                    assert peek_html(record, *args) == _old_peek(record, *args), (card.code, args)
            card.picture = image  # a list's attached picture (catalog.pictures.attach_pictures)
            assert picture_html(card) == _old_picture(card)


def test_card_url_is_reverse(pool):
    for code in ["WST/W01-001", "a b", "ゆき/の", "x%20y", "?#&", "100%", "WST/W01-<&>"]:
        for name in ("card-detail", "card-picture"):
            assert card_url("ws", code, name) == reverse(name, args=["ws", code])
            assert card_url("ws", code, name) == reverse(name, args=["ws", code])  # cached: the same


def _deck_rows(pool, owner):
    zones = {"main": {**legal_deck("ws")["main"], "WST/W01-<&>": 9, "NOPE-001": 2, "WST/W01-K01": 1}}
    deck = deck_create(owner=owner, game="ws", name="Rows", zones=zones, visibility=Visibility.PUBLIC)
    from django.test import RequestFactory

    from decks.views import deck_view_context

    request = RequestFactory().get("/", {"odds": ["level:1", "card:WST/W01-002"]})
    request.user = owner
    return deck, deck_view_context(request, deck, deck.zones)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_deck_rows_write_what_the_template_loops_wrote(pool, owner, language):
    from decks.templatetags.deck_pictures import deck_card_pictures, deck_visual

    with translation.override(language):
        deck, ctx = _deck_rows(pool, owner)
        groups = [grp for s in ctx["sections"] for grp in s["groups"]]
        assert any(r["card"] is None for grp in groups for r in grp["rows"])  # an unknown card
        assert any(r["problem"] for grp in groups for r in grp["rows"])  # a problem (9 copies)
        for section in ctx["sections"]:
            for grp in section["groups"]:
                old = _render("{% load i18n card_pictures %}" + OLD_TABLE_ROWS,
                              {"group": grp, "section": section, "deck": deck, "builder": False})
                assert deck_table_rows(grp) == old
        pictures = deck_card_pictures(deck, ctx["sections"])
        for zone in deck_visual(deck, ctx["sections"], pictures)["zones"]:
            for grp in zone["groups"]:
                assert deck_visual_cards(grp) == _render("{% load i18n card_pictures %}" + OLD_VISUAL_CARDS, {"group": grp})
        for odds in (ctx["odds"], None):
            context = {"odds_groups": ctx["odds_groups"], "odds": odds}
            assert odds_choices(ctx["odds_groups"], odds, "cards") == _render(OLD_ODDS_CARDS, context)
            assert odds_choices(ctx["odds_groups"], odds, "groups") == _render(OLD_ODDS_GROUPS, context)
        assert " checked" in odds_choices(ctx["odds_groups"], ctx["odds"], "cards")


# -- the card page ------------------------------------------------------------------------------------
def _plan(sql: str, params: tuple) -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")  # the test table is tiny: ask for the indexes
            cursor.execute("EXPLAIN " + sql, params)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return "\n".join(" ".join(str(x) for x in row) for row in cursor.fetchall())


def test_same_card_elsewhere_reads_an_index(pool):
    """The OR of "same name" and "same work and number" had no index for its second half: PostgreSQL
    read every card of the game for each card page (70 ms at 20,000 cards of a game)."""
    card = Card.objects.get(game="pc", code="PCT-001")
    with CaptureQueriesContext(connection) as captured:
        card_same_identity(card=card)
    sql = captured[0]["sql"]  # the cards (then their printings): name = ... OR (work = ... AND number = ...)
    assert re.search(r'"name" = .*\bOR\b.*"number" = ', sql) or re.search(r'"name" = .*\bOR\b.*"work" = ', sql)
    # the second half alone, as the database plans it within the OR (a bitmap OR of two index scans)
    sql, params = Card.objects.filter(game="pc", work=card.work, number=card.number).values("id").order_by().query.sql_with_params()
    assert "card_game_work_number_idx" in _plan(sql, params)


def test_card_page_queries_do_not_grow_with_the_same_card_elsewhere(client, pool):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse("card-detail", args=["pc", "PCT-002"]))
        assert response.status_code == 200
        return len(captured)

    base = Card.objects.get(game="pc", code="PCT-002")

    def reprint(i: int) -> None:  # the same work and number in another set, with a picture
        card = Card.objects.create(game="pc", code=f"PCR{i}-002", name=f"PC Hero 2 reprint {i}", card_type="character",
                                   work=base.work, number=base.number, set_code=f"PCR{i}", cost=1, cp=3000, rank=1,
                                   colors=["red"], traits=["t"], text="long text", translations={"ja": {"name": "ヒーロー"}})
        CardPrinting.objects.create(card=card, game="pc", code=card.code, rarity="R", image_url=f"https://img.example/{i}.jpg")

    reprint(0)
    few = queries()
    for i in range(1, 8):
        reprint(i)
    assert len(card_same_identity(card=base)) == 8
    html = client.get(reverse("card-detail", args=["pc", "PCT-002"])).content.decode()
    assert html.count("PC Hero 2 reprint") >= 8 and "https://img.example/7.jpg" in html
    assert queries() == few


# -- the public deck list -------------------------------------------------------------------------------
def test_public_list_queries_do_not_grow_with_games(client, owner, pool):
    """One catalog read per game of the listed decks (names, covers, pictures) made 15 queries for a
    page with five games; the reads now take every game at once."""
    deck_create(owner=owner, game="ws", name="WS deck", zones=legal_deck("ws"), visibility=Visibility.PUBLIC)

    def queries() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse("deck-public"))
        assert response.status_code == 200
        return len(captured), response.content.decode()

    one, _ = queries()
    for game in g.GAMES:
        if game != "ws":
            deck_create(owner=owner, game=game, name=f"{game} deck", zones=legal_deck(game), visibility=Visibility.PUBLIC)
    many, html = queries()
    assert many == one
    covers = re.findall(r'<a class="deck-cover"[^>]*>(.*?)</a>', html, re.S)
    assert len(covers) == len(g.GAMES) and all('class="pic pic-thumb' in c for c in covers)
    for game in g.GAMES:
        assert f"face-{game}" in html


def test_deck_page_queries_do_not_grow_with_cards(client, owner, pool):
    small = deck_create(owner=owner, game="ws", name="Small", zones={"main": {"WST/W01-001": 4}}, visibility=Visibility.PUBLIC)
    big = deck_create(owner=owner, game="ws", name="Big", zones=legal_deck("ws"), visibility=Visibility.PUBLIC)
    counts = []
    for deck in (small, big):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("deck-detail", args=[deck.pk])).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_card_page_reads_the_printings_once(pool):
    """"Decks using this card" needs the card's codes (its own and its printings'): the card page's
    card has its printings already (``card_get``), which it read a second time."""
    from catalog.selectors import card_all_codes, card_get

    card = Card.objects.get(game="pc", code="PCT-001")
    CardPrinting.objects.create(card=card, game="pc", code="PCT-001P", rarity="P")
    fetched = card_get(game="pc", code="PCT-001")
    with CaptureQueriesContext(connection) as captured:
        codes = card_all_codes(card=fetched)
    assert codes == ["PCT-001", "PCT-001P"] and len(captured) == 0
    assert card_all_codes(card=Card.objects.get(pk=card.pk)) == codes  # not prefetched: read


def test_labels_are_translated_once_per_language():
    """A deck page looked up ~470 words through ``gettext`` (~10 µs each); the labels now remember
    each word per language, and still follow the reader's language."""
    from django.utils.translation import pgettext

    from catalog.labels import STAT_LABELS, per_language, type_label

    calls: list[str] = []
    upper = per_language(lambda word: calls.append(word) or word.upper())
    for language in ("en", "ja", "en"):
        with translation.override(language):
            assert [upper("level"), upper("level"), upper("cost")] == ["LEVEL", "LEVEL", "COST"]
    assert calls == ["level", "cost", "level", "cost"]  # once per word and language
    for language in ("ja", "zh-hans", "en", "ja"):
        with translation.override(language):
            assert type_label("character") == pgettext("card type", "character")
            assert STAT_LABELS.text("Level") == translation.gettext("Level")
            assert STAT_LABELS.color("red") == pgettext("color", "red")
    with translation.override("ja"):
        assert type_label("character") != "character" and STAT_LABELS.text("Level") != "Level"
