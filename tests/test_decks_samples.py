"""The project's sample decks (fixtures/decks) load as public decks and are all legal."""
from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from decks.models import Deck, DeckVersion
from decks.selectors import deck_validate
from decks.services import DeckInputError, sample_decks_load

pytestmark = pytest.mark.django_db

DECKS = Path(settings.BASE_DIR) / "fixtures" / "decks"


@pytest.fixture
def loaded(db):
    out = StringIO()
    call_command("load_sample_data", stdout=out)
    return out.getvalue()


def test_every_sample_deck_is_legal(loaded):
    files = sorted(DECKS.glob("*.txt"))
    assert files, "no sample decks in fixtures/decks"
    decks = list(Deck.objects.filter(owner__username="sample"))
    assert len(decks) == len(files)
    assert {d.game for d in decks} == {p.name.split("-", 1)[0] for p in files}
    for deck in decks:
        assert deck.visibility == "public"
        report = deck_validate(game=deck.game, zones=deck.zones)
        assert report["errors"] == [], (deck.name, report["errors"])


def test_sample_loading_is_idempotent(loaded):
    versions = DeckVersion.objects.count()
    out = StringIO()
    call_command("load_sample_data", stdout=out)
    assert DeckVersion.objects.count() == versions
    assert out.getvalue().count(": unchanged") == len(list(DECKS.glob("*.txt")))


def test_bad_sample_file_is_refused(tmp_path, db):
    (tmp_path / "ws-ok.txt").write_text("4 A-1\n")
    (tmp_path / "ws-bad.txt").write_text("4 A-1\nnonsense\n")
    with pytest.raises(DeckInputError, match="ws-bad.txt line 2"):
        sample_decks_load(root=tmp_path)
    assert Deck.objects.count() == 0
    (tmp_path / "ws-bad.txt").unlink()
    (tmp_path / "mtg-deck.txt").write_text("4 A-1\n")
    with pytest.raises(DeckInputError, match="mtg-deck.txt"):
        sample_decks_load(root=tmp_path)
    assert Deck.objects.count() == 0
