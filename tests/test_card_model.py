import pytest
from django.core.exceptions import ValidationError

from catalog.models import Card
from rules.cards import CardRecord, validate_card

WS_CHAR = {
    "game": "ws", "code": "TS/W01-001", "name": "Test Girl", "card_type": "character", "colors": ["yellow"],
    "level": 1, "cost": 1, "power": 6000, "soul": 1, "triggers": ["soul"], "traits": ["Music"],
}


@pytest.mark.django_db
def test_ws_card_round_trips_through_model():
    card = Card(**WS_CHAR)
    card.full_clean()
    card.save()
    again = Card.objects.get(game="ws", code="TS/W01-001")
    rec = again.to_record()
    assert rec.power == 6000 and rec.triggers == ("soul",) and rec.colors == ("yellow",)
    assert CardRecord.from_dict(rec.to_dict()).to_dict() == rec.to_dict()


def test_ws_climax_with_level_is_rejected_naming_the_field():
    errors = validate_card({"game": "ws", "code": "X", "name": "C", "card_type": "climax", "level": 1})
    assert ("level", "a ws climax has no level (got 1)") in errors


@pytest.mark.django_db
def test_model_clean_names_the_field():
    card = Card(game="lycee", code="CH-1", name="A", card_type="character", ap=1, dp=1, sp=1, slots=["AF-X"])
    with pytest.raises(ValidationError) as exc:
        card.full_clean()
    assert "slots" in exc.value.message_dict
