"""``rules.coverage.memoised_classifier``: the one memoised ``classify_ability`` the WS and Lycee
engines are built on (it was written twice, once in each engine)."""
from __future__ import annotations

from types import SimpleNamespace

from rules.abilities import NO_EFFECT, PLAYED, Ability, Coverage
from rules.cards import CardRecord
from rules.coverage import memoised_classifier


def _card(card_type: str) -> CardRecord:
    return CardRecord.from_dict({"code": f"X-{card_type}", "name": "x", "card_type": card_type}, game="lycee")


def test_memoised_by_text_kind_and_card_type():
    calls = []

    def analyse(ability: Ability, card: CardRecord) -> SimpleNamespace:
        calls.append((ability.text, card.card_type))
        return SimpleNamespace(status=PLAYED if card.card_type == "character" else NO_EFFECT, reason=card.card_type)

    classify = memoised_classifier(analyse)
    a = Ability(kind="auto", text="draw 1")
    char, event = _card("character"), _card("event")
    assert classify(a, char) == Coverage(PLAYED, "character")
    assert classify(Ability(kind="auto", text="draw 1"), _card("character")) is classify(a, char)
    assert classify(a, event) == Coverage(NO_EFFECT, "event")
    classify(Ability(kind="act", text="draw 1"), char)
    assert calls == [("draw 1", "character"), ("draw 1", "event"), ("draw 1", "character")]
    # one memo per engine
    assert memoised_classifier(analyse)(a, char) == Coverage(PLAYED, "character")
    assert len(calls) == 4


def test_the_engines_classify_through_it():
    from rules.lycee.engine import abilities as lycee
    from rules.ws.engine import abilities as ws

    for module in (lycee, ws):
        assert module.classify_ability.__qualname__ == "memoised_classifier.<locals>.classify_ability"
        assert not hasattr(module, "_CLASSIFIED")
