"""Chaos ability compiler (rules.chaos.abilities).

The real Chaos data (the Korean trial deck in ../shared/carddata/chaos) has no effect text, so
the scenarios are the project's own card texts (fixtures/cards/chaos.json): for every kind of the
vocabulary a fixture card (code, exact text) and the compiled structure expected. The fixtures
have no 【登場】 / 【LEVELUP】 card yet; those two are checked on texts written here in the
fixtures' phrasing.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.abilities import abilities_from_json, abilities_to_json
from rules.chaos.abilities import (
    ABILITY_KINDS,
    ALL_KINDS,
    CONDITION_KINDS,
    EFFECT_KINDS,
    TRIGGER_KINDS,
    compile_text,
    compile_text_cached,
)
from tests.conftest import CARDDATA, FIXTURES

# (kind, card code, card type, exact text, the compiled ability that shows the kind)
CASES: list[tuple[str, str, str, str, dict]] = [
    ('keyword', 'MA-002', 'character', '[Always] Penetrate',
        {'kind': 'keyword',
         'text': 'Penetrate',
         'effects': [{'kind': 'keyword', 'params': {'name': 'penetrate'}}],
         'keywords': ['penetrate']}),
    ('stat_mod', 'SR-017', 'event', '[BATTLE] Choose 1 of your characters. It gets ATK+2 until end of turn.',
        {'kind': 'event',
         'text': 'Choose 1 of your characters. It gets ATK+2 until end of turn.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'BATTLE'}}],
         'effects': [{'kind': 'stat_mod',
                      'params': {'target': {'choose': 1, 'side': 'own'}, 'atk': 2, 'until': 'end_of_turn'}}]}),
    ('draw', 'SR-016', 'event', '[MAIN] Draw 2 cards.',
        {'kind': 'event',
         'text': 'Draw 2 cards.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'MAIN'}}],
         'effects': [{'kind': 'draw', 'params': {'count': 2, 'player': 'self'}}]}),
    ('discard', 'MA-016', 'event', '[MAIN] Draw 1 card. Then you may discard 1 card; if you do, draw 1 card.',
        {'kind': 'event',
         'text': 'Draw 1 card. Then you may discard 1 card; if you do, draw 1 card.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'MAIN'}}],
         'effects': [{'kind': 'draw', 'params': {'count': 1, 'player': 'self'}},
                     {'kind': 'discard', 'params': {'count': 1, 'optional': True}},
                     {'kind': 'draw', 'params': {'count': 1, 'player': 'self', 'if': [{'kind': 'if_done'}]}}]}),
    ('look', 'SR-019', 'event', '[MAIN] Look at the top 3 cards of your deck, put 1 into your hand and the rest into your waiting room.',
        {'kind': 'event',
         'text': 'Look at the top 3 cards of your deck, put 1 into your hand and the rest into your waiting '
                 'room.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'MAIN'}}],
         'effects': [{'kind': 'look', 'params': {'count': 3}},
                     {'kind': 'to_hand', 'params': {'source': 'looked', 'count': 1}},
                     {'kind': 'to_waiting_room', 'params': {'target': 'rest_looked'}}]}),
    ('to_hand', 'SR-019', 'event', '[MAIN] Look at the top 3 cards of your deck, put 1 into your hand and the rest into your waiting room.',
        {'kind': 'event',
         'text': 'Look at the top 3 cards of your deck, put 1 into your hand and the rest into your waiting '
                 'room.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'MAIN'}}],
         'effects': [{'kind': 'look', 'params': {'count': 3}},
                     {'kind': 'to_hand', 'params': {'source': 'looked', 'count': 1}},
                     {'kind': 'to_waiting_room', 'params': {'target': 'rest_looked'}}]}),
    ('to_waiting_room', 'SR-019', 'event', '[MAIN] Look at the top 3 cards of your deck, put 1 into your hand and the rest into your waiting room.',
        {'kind': 'event',
         'text': 'Look at the top 3 cards of your deck, put 1 into your hand and the rest into your waiting '
                 'room.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'MAIN'}}],
         'effects': [{'kind': 'look', 'params': {'count': 3}},
                     {'kind': 'to_hand', 'params': {'source': 'looked', 'count': 1}},
                     {'kind': 'to_waiting_room', 'params': {'target': 'rest_looked'}}]}),
    ('equip', 'MA-021', 'set', 'Equip to 1 of your characters. [Always] The equipped character gets DEF+1.',
        {'kind': 'set',
         'text': 'Equip to 1 of your characters.',
         'effects': [{'kind': 'equip', 'params': {'target': {'choose': 1, 'side': 'own'}}}]}),
    ('grant', 'MA-025', 'set', 'Equip to 1 of your characters. [Always] The equipped character gains Penetrate.',
        {'kind': 'always',
         'text': 'The equipped character gains Penetrate.',
         'effects': [{'kind': 'grant', 'params': {'target': {'ref': 'equipped'}, 'keyword': 'penetrate'}}]}),
    ('cannot_attack', 'MA-023', 'character', '[Always] Maintain: discard 1 card from your hand\n[Always] First Defense\n[Always] This character cannot attack.',
        {'kind': 'always',
         'text': 'This character cannot attack.',
         'effects': [{'kind': 'cannot_attack', 'params': {'target': {'ref': 'this'}}}]}),
    ('replace_stun', 'SR-022', 'set', 'Equip to 1 of your characters. [Always] When the equipped character would be stunned, you may put this card into your waiting room instead.',
        {'kind': 'always',
         'text': 'When the equipped character would be stunned, you may put this card into your waiting room '
                 'instead.',
         'trigger': {'kind': 'stunned', 'params': {'who': 'equipped', 'would_be': True}},
         'effects': [{'kind': 'replace_stun',
                      'params': {'target': 'equipped', 'instead': 'to_waiting_room', 'optional': True}}]}),
    ('choose', 'MA-022', 'set', 'Equip to your partner. [Always] Your partner gets ATK+2. At the start of your turn, discard 1 card from your hand or put this card into your waiting room.',
        {'kind': 'always',
         'text': 'At the start of your turn, discard 1 card from your hand or put this card into your waiting '
                 'room.',
         'trigger': {'kind': 'turn_start'},
         'effects': [{'kind': 'choose',
                      'params': {'options': [[{'kind': 'discard', 'params': {'count': 1}}],
                                             [{'kind': 'to_waiting_room', 'params': {'target': 'this'}}]]}}]}),
    ('attacks', 'SR-024', 'character', '[Partner] When this character attacks, it gets ATK+1 until end of turn.',
        {'kind': 'partner',
         'text': 'When this character attacks, it gets ATK+1 until end of turn.',
         'trigger': {'kind': 'attacks', 'params': {'who': 'this'}},
         'effects': [{'kind': 'stat_mod',
                      'params': {'target': {'ref': 'this'}, 'atk': 1, 'until': 'end_of_turn'}}]}),
    ('summoned', 'SR-006', 'character', '[Ally] When this character is summoned, draw 1 card.',
        {'kind': 'ally',
         'text': 'When this character is summoned, draw 1 card.',
         'trigger': {'kind': 'summoned', 'params': {'who': 'this'}},
         'effects': [{'kind': 'draw', 'params': {'count': 1, 'player': 'self'}}]}),
    ('levels_up', 'MA-015', 'extra', '[Partner] When this character levels up, draw 1 card.',
        {'kind': 'partner',
         'text': 'When this character levels up, draw 1 card.',
         'trigger': {'kind': 'levels_up', 'params': {'who': 'this'}},
         'effects': [{'kind': 'draw', 'params': {'count': 1, 'player': 'self'}}]}),
    ('stuns', 'SR-011', 'character', '[Always] When this character stuns a character in battle, draw 1 card.',
        {'kind': 'always',
         'text': 'When this character stuns a character in battle, draw 1 card.',
         'trigger': {'kind': 'stuns', 'params': {'who': 'this'}},
         'effects': [{'kind': 'draw', 'params': {'count': 1, 'player': 'self'}}]}),
    ('stunned', 'SR-015', 'extra', '[Always] When this character becomes stunned, draw 2 cards.',
        {'kind': 'always',
         'text': 'When this character becomes stunned, draw 2 cards.',
         'trigger': {'kind': 'stunned', 'params': {'who': 'this'}},
         'effects': [{'kind': 'draw', 'params': {'count': 2, 'player': 'self'}}]}),
    ('turn_start', 'MA-022', 'set', 'Equip to your partner. [Always] Your partner gets ATK+2. At the start of your turn, discard 1 card from your hand or put this card into your waiting room.',
        {'kind': 'always',
         'text': 'At the start of your turn, discard 1 card from your hand or put this card into your waiting '
                 'room.',
         'trigger': {'kind': 'turn_start'},
         'effects': [{'kind': 'choose',
                      'params': {'options': [[{'kind': 'discard', 'params': {'count': 1}}],
                                             [{'kind': 'to_waiting_room', 'params': {'target': 'this'}}]]}}]}),
    ('battle_phase_start', 'SR-010', 'character', '[Partner] At the start of your battle phase, this character gets ATK+1 until end of turn.',
        {'kind': 'partner',
         'text': 'At the start of your battle phase, this character gets ATK+1 until end of turn.',
         'trigger': {'kind': 'battle_phase_start'},
         'effects': [{'kind': 'stat_mod',
                      'params': {'target': {'ref': 'this'}, 'atk': 1, 'until': 'end_of_turn'}}]}),
    ('timing', 'SR-016', 'event', '[MAIN] Draw 2 cards.',
        {'kind': 'event',
         'text': 'Draw 2 cards.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'MAIN'}}],
         'effects': [{'kind': 'draw', 'params': {'count': 2, 'player': 'self'}}]}),
    ('partner_is', 'MA-018', 'event', '【Use】Your partner is a [Painter] character.\n[MAIN] Choose 1 character card in your waiting room; put it into your hand.',
        {'kind': 'event',
         'text': 'Choose 1 character card in your waiting room; put it into your hand.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'MAIN'}},
                        {'kind': 'partner_is', 'params': {'trait': 'Painter'}}],
         'effects': [{'kind': 'to_hand', 'params': {'source': 'waiting_room', 'count': 1, 'what': 'character'}}]}),
    ('field_has', 'SR-018', 'event', '【Use】You have an [Idol] character on your field.\n[BATTLE] Choose 1 of your characters in battle. It gets DEF+3 until end of turn.',
        {'kind': 'event',
         'text': 'Choose 1 of your characters in battle. It gets DEF+3 until end of turn.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'BATTLE'}},
                        {'kind': 'field_has', 'params': {'trait': 'Idol', 'min': 1}}],
         'effects': [{'kind': 'stat_mod',
                      'params': {'target': {'choose': 1, 'side': 'own', 'in_battle': True},
                                 'def': 3,
                                 'until': 'end_of_turn'}}]}),
    ('once_per_turn', 'MA-004', 'character', "[Partner] Once per turn, when an opponent's character attacks, you may look at the top card of your deck.",
        {'kind': 'partner',
         'text': "Once per turn, when an opponent's character attacks, you may look at the top card of your "
                 'deck.',
         'trigger': {'kind': 'attacks', 'params': {'who': 'opponent_character'}},
         'conditions': [{'kind': 'once_per_turn'}],
         'effects': [{'kind': 'look', 'params': {'count': 1, 'optional': True}}],
         'once_per_turn': True}),
    ('if_done', 'MA-016', 'event', '[MAIN] Draw 1 card. Then you may discard 1 card; if you do, draw 1 card.',
        {'kind': 'event',
         'text': 'Draw 1 card. Then you may discard 1 card; if you do, draw 1 card.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'MAIN'}}],
         'effects': [{'kind': 'draw', 'params': {'count': 1, 'player': 'self'}},
                     {'kind': 'discard', 'params': {'count': 1, 'optional': True}},
                     {'kind': 'draw', 'params': {'count': 1, 'player': 'self', 'if': [{'kind': 'if_done'}]}}]}),
    ('ability:keyword', 'MA-002', 'character', '[Always] Penetrate',
        {'kind': 'keyword',
         'text': 'Penetrate',
         'effects': [{'kind': 'keyword', 'params': {'name': 'penetrate'}}],
         'keywords': ['penetrate']}),
    ('ability:always', 'SR-015', 'extra', '[Always] When this character becomes stunned, draw 2 cards.',
        {'kind': 'always',
         'text': 'When this character becomes stunned, draw 2 cards.',
         'trigger': {'kind': 'stunned', 'params': {'who': 'this'}},
         'effects': [{'kind': 'draw', 'params': {'count': 2, 'player': 'self'}}]}),
    ('ability:ally', 'SR-006', 'character', '[Ally] When this character is summoned, draw 1 card.',
        {'kind': 'ally',
         'text': 'When this character is summoned, draw 1 card.',
         'trigger': {'kind': 'summoned', 'params': {'who': 'this'}},
         'effects': [{'kind': 'draw', 'params': {'count': 1, 'player': 'self'}}]}),
    ('ability:partner', 'MA-015', 'extra', '[Partner] When this character levels up, draw 1 card.',
        {'kind': 'partner',
         'text': 'When this character levels up, draw 1 card.',
         'trigger': {'kind': 'levels_up', 'params': {'who': 'this'}},
         'effects': [{'kind': 'draw', 'params': {'count': 1, 'player': 'self'}}]}),
    ('ability:event', 'SR-016', 'event', '[MAIN] Draw 2 cards.',
        {'kind': 'event',
         'text': 'Draw 2 cards.',
         'conditions': [{'kind': 'timing', 'params': {'timing': 'MAIN'}}],
         'effects': [{'kind': 'draw', 'params': {'count': 2, 'player': 'self'}}]}),
    ('ability:set', 'MA-021', 'set', 'Equip to 1 of your characters. [Always] The equipped character gets DEF+1.',
        {'kind': 'set',
         'text': 'Equip to 1 of your characters.',
         'effects': [{'kind': 'equip', 'params': {'target': {'choose': 1, 'side': 'own'}}}]}),]


def kinds_in(value) -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        if isinstance(value.get("kind"), str):
            out.add(value["kind"])
        for v in value.values():
            out |= kinds_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= kinds_in(v)
    return out


def _fixture_cards() -> dict[str, dict]:
    data = json.loads((Path(FIXTURES) / "cards" / "chaos.json").read_text(encoding="utf-8"))
    return {c["code"]: c for c in data["cards"]}


@pytest.mark.parametrize(("kind", "code", "card_type", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_kind_scenario_from_a_fixture_card(kind, code, card_type, text, expected):
    card = _fixture_cards()[code]
    assert card["text"] == text and card["card_type"] == card_type
    compiled = [a.to_dict() for a in compile_text(text, card_type)]
    assert expected in compiled, json.dumps(compiled, ensure_ascii=False)
    if kind.startswith("ability:"):
        assert expected["kind"] == kind.split(":", 1)[1]
    else:
        assert kind in kinds_in({k: v for k, v in expected.items() if k != "kind"})


@pytest.mark.parametrize(("text", "expected"), [
    ("【登場】Your partner is a [Painter] character.\n[Ally] When this character is summoned, draw 1 card.", [
        {"kind": "summon_condition", "text": "Your partner is a [Painter] character.",
         "conditions": [{"kind": "partner_is", "params": {"trait": "Painter"}}]},
        {"kind": "ally", "text": "When this character is summoned, draw 1 card.",
         "trigger": {"kind": "summoned", "params": {"who": "this"}},
         "effects": [{"kind": "draw", "params": {"count": 1, "player": "self"}}]}]),
    ("【LEVELUP】You have 2 or more [Idol] characters on your field.", [
        {"kind": "levelup_condition", "text": "You have 2 or more [Idol] characters on your field.",
         "conditions": [{"kind": "field_has", "params": {"trait": "Idol", "min": 2}}]}]),
    ("【LEVELUP】You have 「Sakuya Hoshino」 on your field.", [
        {"kind": "levelup_condition", "text": "You have 「Sakuya Hoshino」 on your field.",
         "conditions": [{"kind": "field_has", "params": {"name": "Sakuya Hoshino", "min": 1}}]}]),
])
def test_summon_and_levelup_conditions(text, expected):
    assert [a.to_dict() for a in compile_text(text, "character")] == expected


def test_every_vocabulary_kind_has_a_scenario():
    covered = {c[0] for c in CASES} | {"ability:summon_condition", "ability:levelup_condition"}
    vocabulary = {k for table in (EFFECT_KINDS, TRIGGER_KINDS, CONDITION_KINDS) for k, _ in table}
    assert vocabulary <= covered
    assert {f"ability:{k}" for k, _ in ABILITY_KINDS} <= covered


def test_japanese_tags_and_keywords():
    abilities = compile_text("【常時】貫通\n[常時] 先制防御\n【使用】Your partner is a [Idol] character.\n[BATTLE] Draw 2 cards.",
                             "event")
    assert [(a.kind, a.keywords) for a in abilities] == [
        ("keyword", ("penetrate",)), ("keyword", ("first_defense",)), ("event", ())]
    assert [c.kind for c in abilities[2].conditions] == ["timing", "partner_is"]


def test_unrecognised_sentence_is_kept():
    (ability,) = compile_text("[MAIN] Shuffle your waiting room into your deck.", "event")
    assert ability.unrecognised == "Shuffle your waiting room into your deck."
    assert ability.conditions[0].kind == "timing"


def test_vanilla_text_and_cache():
    assert compile_text(None) == () and compile_text("") == () and compile_text("-") == ()
    text = "[Partner] When this character levels up, draw 1 card."
    assert compile_text_cached(text, "extra") == compile_text(text, "extra")
    assert abilities_from_json(abilities_to_json(compile_text(text, "extra"))) == compile_text(text, "extra")


def test_every_fixture_text_compiles():
    figures = {"instances": 0, "compiled": 0}
    for card in _fixture_cards().values():
        for ability in compile_text(card.get("text"), card["card_type"]):
            figures["instances"] += 1
            figures["compiled"] += ability.compiled
            assert kinds_in({k: v for k, v in ability.to_dict().items() if k != "kind"}) <= ALL_KINDS
    assert figures == {"instances": 55, "compiled": 55}


@pytest.mark.carddata
def test_real_chaos_data_has_no_effect_text():
    """The trial deck's records carry no text field: nothing to compile, so nothing is claimed."""
    from rules.textproto import parse_textproto

    text = (CARDDATA / "chaos" / "IMT_puchimas_trial_ko.textproto").read_text(encoding="utf-8")
    cards = parse_textproto(text).all("info")
    assert len(cards) == 20
    fields = {line.split(":")[0].strip() for line in text.splitlines() if ":" in line}
    assert not fields & {"text", "effect", "effects", "ability"}
