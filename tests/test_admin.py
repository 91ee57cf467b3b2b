"""The card admin: changelist, search, per-game filters and the change form work for a superuser."""
from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from catalog.models import Card, CardFacet

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_with_cards(client):
    call_command("load_sample_data", stdout=io.StringIO())
    user = get_user_model().objects.create_superuser("admin", "admin@example.org", "pw-for-tests")
    client.force_login(user)
    return client


CHANGELIST = "admin:catalog_card_changelist"


def test_changelist_lists_cards(admin_client_with_cards):
    resp = admin_client_with_cards.get(reverse(CHANGELIST))
    assert resp.status_code == 200
    assert f"{Card.objects.count()} cards" in resp.content.decode()


@pytest.mark.parametrize(("params", "expect", "absent"), [
    ({"q": "Shirayuki"}, "Shirayuki Hime", "Kagari"),
    ({"q": "SKY/W90-021"}, "Overture of Light", "Shirayuki"),
    ({"game__exact": "chaos"}, "Mina Aozora", "Shirayuki"),
    ({"game__exact": "ws", "card_type__exact": "climax"}, "Standby Signal", "Skylark Maestro Aoi"),
    ({"game__exact": "pc", "bonus_mark__exact": "LIFE+1"}, "Mei Odagiri", "Tsubasa Kaneda"),
    ({"modelled": "no", "game__exact": "lycee"}, "Kikyou Herbalist", "Hanaka Bloom"),
    ({"game__exact": "chaos", "gender__exact": "male"}, "Ren Kisaragi", "Mina Aozora"),
    ({"game__exact": "ws", "counter__exact": "1"}, "Standing Ovation", "Overture of Light"),
])
def test_search_and_filters(admin_client_with_cards, params, expect, absent):
    resp = admin_client_with_cards.get(reverse(CHANGELIST), params)
    assert resp.status_code == 200
    html = resp.content.decode()
    assert expect in html and absent not in html


def test_change_and_add_pages(admin_client_with_cards):
    card = Card.objects.get(game="lycee", code="CH-9031")
    resp = admin_client_with_cards.get(reverse("admin:catalog_card_change", args=[card.pk]))
    assert resp.status_code == 200 and "Shirayuki Hime, Awakened" in resp.content.decode()
    assert admin_client_with_cards.get(reverse("admin:catalog_card_add")).status_code == 200


def _form_data(card: Card) -> dict:
    import json

    data = {}
    for name, value in card.to_dict().items():
        if isinstance(value, (list, dict)):
            data[name] = json.dumps(value)
        elif value is None:
            data[name] = ""
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    data.update({"printings-TOTAL_FORMS": "0", "printings-INITIAL_FORMS": "0",
                 "printings-MIN_NUM_FORMS": "0", "printings-MAX_NUM_FORMS": "1000"})
    return data


def test_admin_save_validates_and_syncs_facets(admin_client_with_cards):
    card = Card.objects.get(game="ws", code="SKY/W90-021")
    url = reverse("admin:catalog_card_change", args=[card.pk])
    bad = _form_data(card) | {"level": "2"}
    resp = admin_client_with_cards.post(url, bad)
    assert resp.status_code == 200 and "a ws climax has no level" in resp.content.decode()
    assert Card.objects.get(pk=card.pk).level is None
    good = _form_data(card) | {"traits": '["Music", "Finale"]'}
    resp = admin_client_with_cards.post(url, good)
    assert resp.status_code == 302, resp.content.decode()[:2000]
    assert ("traits", "finale") in set(CardFacet.objects.filter(card=card).values_list("facet", "value"))


def test_admin_needs_staff(client):
    resp = client.get(reverse(CHANGELIST))
    assert resp.status_code == 302 and "/login/" in resp["Location"]


def test_admin_rejects_malformed_json_fields(admin_client_with_cards):
    card = Card.objects.get(game="chaos", code="SR-001")
    url = reverse("admin:catalog_card_change", args=[card.pk])
    for field, value in (("traits", "5"), ("keywords", '"penetrate"'), ("effects", "1"), ("cost_detail", "[1]")):
        resp = admin_client_with_cards.post(url, _form_data(card) | {field: value})
        assert resp.status_code == 200, field
        assert "errornote" in resp.content.decode(), field
    assert Card.objects.get(pk=card.pk).traits == card.traits
