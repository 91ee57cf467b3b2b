"""Weiß Schwarz ability compiler (rules.ws.abilities): real cards, the vocabulary, the coverage.

``SCENARIOS``: one or more real cards for every kind of the vocabulary (triggers, conditions,
costs, effects): the card's code, its type, its exact text as the AlphaC2 source prints it, which
of its abilities, and the compiled structure expected (``Ability.to_dict()`` without the text).
The engine's "state before / after" part of each scenario comes with the goldfish engine
(phase 2 of issue 15). The ``carddata`` tests read the real files: the texts here are the
source's, and the coverage figures do not fall (≥ 90% of ability instances, 100% of climaxes).
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.abilities import Ability, abilities_from_json, abilities_to_json
from rules.ws.abilities import (
    CONDITIONS,
    COSTS,
    EFFECTS,
    TRIGGERS,
    compile_ability,
    compile_text,
    compile_text_cached,
    normalise,
    split_abilities,
)
from rules.ws.abilities.vocabulary import EFFECT_CATEGORIES
from tests.conftest import CARDDATA

WS_DATA = CARDDATA / "weiss_schwarz"


class Scenario(NamedTuple):
    code: str  # AlphaC2 card ID
    card_type: str
    index: int  # which ability of the card's text
    text: str  # the card's text, exactly as the source has it
    expected: dict[str, Any]  # Ability.to_dict() without "text"


SCENARIOS = [
    # triggers
    Scenario(
        'AB-W31-024', 'character', 0,
        '【自】このカードが手札から舞台に置かれた時、そのターン中、このカードのパワーを＋1500。',
        {'kind': 'auto',
         'trigger': {'kind': 'placed', 'params': {'ref': 'this', 'from': 'hand'}},
         'effects': [{'kind': 'power',
                      'params': {'amount': 1500, 'target': {'ref': 'this'}, 'duration': 'turn'}}]},
    ),
    Scenario(
        'AB-W11-023', 'climax', 0,
        '【自】このカードが手札からクライマックス置場に置かれた時、あなたは1枚引き、自分のキャラを1枚選び、そのターン中、パワーを＋2000し、ソウルを＋1。',
        {'kind': 'climax',
         'trigger': {'kind': 'climax_placed', 'params': {'ref': 'this', 'from': 'hand'}},
         'effects': [{'kind': 'draw', 'params': {'count': 1}},
                     {'kind': 'power',
                      'params': {'amount': 2000,
                                 'target': {'who': 'you', 'kind': 'character', 'count': 1},
                                 'duration': 'turn'}},
                     {'kind': 'soul',
                      'params': {'amount': 1,
                                 'target': {'who': 'you', 'kind': 'character', 'count': 1},
                                 'duration': 'turn'}}]},
    ),
    Scenario(
        'TL-W37-T18', 'character', 0,
        '【自】［(1)］あなたのクライマックス置場に「友達」が置かれた時、前列にこのカードがいるなら、あなたはコストを払ってよい。そうしたら、あなたは自分の控え室のキャラを1枚選び、手札に戻す。',
        {'kind': 'auto',
         'trigger': {'kind': 'climax_placed', 'params': {'target': {'names': ['友達']}, 'who': 'you'}},
         'conditions': [{'kind': 'position', 'params': {'zone': 'front_row'}}],
         'cost': [{'kind': 'stock', 'params': {'n': 1}}],
         'effects': [{'kind': 'salvage',
                      'params': {'target': {'who': 'you', 'zone': 'waiting_room', 'kind': 'character'},
                                 'count': 1,
                                 'then': 'done'}}]},
    ),
    Scenario(
        'AB-WE10-40', 'character', 0,
        '【自】このカードがアタックした時、あなたのキャラすべてに、そのターン中、パワーを＋500。',
        {'kind': 'auto',
         'trigger': {'kind': 'attacks', 'params': {'ref': 'this'}},
         'effects': [{'kind': 'power',
                      'params': {'amount': 500,
                                 'target': {'who': 'you', 'kind': 'character', 'all': True},
                                 'duration': 'turn'}}]},
    ),
    Scenario(
        'GST-SE22-09', 'character', 0,
        '【自】このカードがフロントアタックされた時、このカードを控え室に置く。（バトル相手がいなくなってもダイレクトアタックにはならない）',
        {'kind': 'auto',
         'trigger': {'kind': 'attacked', 'params': {'ref': 'this', 'type': 'front'}},
         'effects': [{'kind': 'to_waiting_room', 'params': {'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'DC-W01-084', 'character', 0,
        '【自】バトルしているこのカードが【リバース】した時、あなたは1枚引いてよい。',
        {'kind': 'auto',
         'trigger': {'kind': 'reversed', 'params': {'ref': 'this', 'state': 'battling'}},
         'effects': [{'kind': 'draw', 'params': {'count': 1, 'optional': True}}]},
    ),
    Scenario(
        'P4-SE12-17', 'character', 0,
        '【自】このカードのバトル相手が【リバース】した時、あなたはそのキャラを思い出にする。',
        {'kind': 'auto',
         'trigger': {'kind': 'battle_opponent_reversed'},
         'effects': [{'kind': 'to_memory',
                      'params': {'target': {'ref': 'battle_opponent',
                                            'who': 'opponent',
                                            'kind': 'character',
                                            'zone': 'stage'}}}]},
    ),
    Scenario(
        'TF-S32-P01', 'character', 0,
        '【自】このカードが舞台から控え室に置かれた時、あなたは自分の山札の上から1枚を、クロック置場に置く。',
        {'kind': 'auto',
         'trigger': {'kind': 'leaves_stage',
                     'params': {'ref': 'this', 'to': 'waiting_room', 'from': 'stage'}},
         'effects': [{'kind': 'clock_damage',
                      'params': {'target': {'who': 'you', 'zone': 'deck', 'position': 'top'}, 'count': 1}}]},
    ),
    Scenario(
        'KLK-S27-103', 'character', 0,
        '【自】あなたのドローフェイズの始めに、あなたは自分の山札の上から1枚を、クロック置場に置く。',
        {'kind': 'auto',
         'trigger': {'kind': 'phase', 'params': {'when': 'start', 'turn': 'you', 'phase': 'draw_phase'}},
         'effects': [{'kind': 'clock_damage',
                      'params': {'target': {'who': 'you', 'zone': 'deck', 'position': 'top'}, 'count': 1}}]},
    ),
    Scenario(
        'DC3-W18-101', 'character', 0,
        '【自】このカードの与えたダメージがキャンセルされた時、あなたはこのカードをストック置場に置いてよい。',
        {'kind': 'auto',
         'trigger': {'kind': 'damage_cancelled', 'params': {'by': 'this', 'cancelled': True}},
         'effects': [{'kind': 'stock_charge',
                      'params': {'target': {'ref': 'this'}, 'from': 'stage', 'optional': True}}]},
    ),
    Scenario(
        'DG-SE17-34', 'character', 0,
        '【自】あなたが『助太刀』を使った時、そのターン中、このカードのパワーを＋2000。',
        {'kind': 'auto',
         'trigger': {'kind': 'ability_used', 'params': {'target': {'who': 'you'}, 'what': '助太刀'}},
         'effects': [{'kind': 'power',
                      'params': {'amount': 2000, 'target': {'ref': 'this'}, 'duration': 'turn'}}]},
    ),
    Scenario(
        'AW-S43-092', 'character', 0,
        '【自】あなたがレベルアップした時、このカードを控え室に置く。',
        {'kind': 'auto',
         'trigger': {'kind': 'level_up', 'params': {'target': {'who': 'you'}}},
         'effects': [{'kind': 'to_waiting_room', 'params': {'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'LB-W21-101', 'character', 0,
        '【自】あなたのキャラのトリガーチェックでクライマックスがでた時、あなたは自分のキャラを1枚選び、そのターン中、ソウルを＋1。',
        {'kind': 'auto',
         'trigger': {'kind': 'trigger_check', 'params': {'target': {'kind': 'climax'}}},
         'effects': [{'kind': 'soul',
                      'params': {'amount': 1,
                                 'target': {'who': 'you', 'kind': 'character', 'count': 1},
                                 'duration': 'turn'}}]},
    ),
    Scenario(
        'IM-S21-099', 'character', 0,
        '【自】この能力は1ターンにつき1回まで発動する。あなたがイベントをプレイした時、そのターン中、このカードのパワーを＋2000。',
        {'kind': 'auto',
         'trigger': {'kind': 'card_moved',
                     'params': {'target': {'who': 'you'}, 'played': {'kind': 'event'}}},
         'effects': [{'kind': 'power',
                      'params': {'amount': 2000, 'target': {'ref': 'this'}, 'duration': 'turn'}}],
         'once_per_turn': True},
    ),
    Scenario(
        'GU-WE26-053', 'character', 0,
        '【自】相手の【スタンド】しているキャラが【レスト】した時、そのターン中、このカードのパワーを＋1500。',
        {'kind': 'auto',
         'trigger': {'kind': 'state_changed',
                     'params': {'target': {'who': 'opponent', 'state': 'standing', 'kind': 'character'},
                                'state': 'rested'}},
         'effects': [{'kind': 'power',
                      'params': {'amount': 1500, 'target': {'ref': 'this'}, 'duration': 'turn'}}]},
    ),
    Scenario(
        'KLK-S27-028', 'character', 0,
        '【自】あなたが山札をリフレッシュした時、あなたはこのカードをストック置場に置いてよい。【起】［(1)このカードを【レスト】する］あなたは自分のクロックを1枚選び、手札に戻し、自分の手札を1枚選び、クロック置場に置く。',
        {'kind': 'auto',
         'trigger': {'kind': 'refresh', 'params': {'target': {'who': 'you'}}},
         'effects': [{'kind': 'stock_charge',
                      'params': {'target': {'ref': 'this'}, 'from': 'stage', 'optional': True}}]},
    ),
    # conditions
    Scenario(
        'CN-SE02-15', 'character', 0,
        '【永】あなたのレベルが3以上なら、このカードの正面のキャラのソウルを-1。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'level', 'params': {'who': 'you', 'cmp': '>=', 'n': 3}}],
         'effects': [{'kind': 'soul',
                      'params': {'amount': -1,
                                 'target': {'ref': 'this', 'relative': 'opposite', 'kind': 'character'}}}]},
    ),
    Scenario(
        'AW-S43-086', 'character', 0,
        '【永】あなたの手札が6枚以上なら、このカードのパワーを＋1500。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'count',
                         'params': {'target': {'who': 'you', 'zone': 'hand'}, 'cmp': '>=', 'n': 6}}],
         'effects': [{'kind': 'power', 'params': {'amount': 1500, 'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'FS-S36-084', 'character', 0,
        '【永】あなたのクライマックス置場に青のクライマックスがあるなら、このカードのパワーを＋2000。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'climax_in_zone', 'params': {'who': 'you', 'colors': ['blue']}}],
         'effects': [{'kind': 'power', 'params': {'amount': 2000, 'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'MK-S33-T16', 'character', 0,
        '【永】舞台にこのカードがいるなら、このカードは《怪盗》を得る。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'position', 'params': {'zone': 'stage'}}],
         'effects': [{'kind': 'grant_trait', 'params': {'traits': ['怪盗'], 'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'AW-S18-087', 'character', 0,
        '【永】相手のターン中、このカードのパワーを＋1000。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'turn', 'params': {'whose': 'opponent'}}],
         'effects': [{'kind': 'power', 'params': {'amount': 1000, 'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'GF-W33-008', 'character', 0,
        '【永】あなたのキャラすべてが黄なら、このカードのパワーを＋1000。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'card_is',
                         'params': {'target': {'who': 'you', 'kind': 'character', 'all': True},
                                    'is': {'colors': ['yellow']}}}],
         'effects': [{'kind': 'power', 'params': {'amount': 1000, 'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'MK-S11-119', 'character', 0,
        '【永】あなたの手札が相手の手札より多いなら、このカードのパワーを＋1000。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'compare',
                         'params': {'target': {'who': 'you', 'zone': 'hand'},
                                    'attr': 'count',
                                    'cmp': '>',
                                    'than': {'who': 'opponent', 'zone': 'hand'}}}],
         'effects': [{'kind': 'power', 'params': {'amount': 1000, 'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'MK-S33-T06', 'character', 0,
        '【永】経験あなたのレベル置場のカードのレベルの合計が2以上なら、このカードのパワーを＋1000。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'level_total', 'params': {'who': 'you', 'cmp': '>=', 'n': 2}}],
         'effects': [{'kind': 'power', 'params': {'amount': 1000, 'target': {'ref': 'this'}}}],
         'keywords': ['experience']},
    ),
    Scenario(
        'FS-S03-041', 'character', 0,
        '【永】アラームこのカードがクロックの1番上にあるなら、あなたのレベル2以上のキャラすべてに、パワーを＋1000。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'in_zone', 'params': {'zone': 'clock', 'position': 'top'}}],
         'effects': [{'kind': 'power',
                      'params': {'amount': 1000,
                                 'target': {'who': 'you',
                                            'level': ['>=', 2],
                                            'kind': 'character',
                                            'all': True}}}],
         'keywords': ['alarm']},
    ),
    Scenario(
        'ZM-W03-107', 'character', 0,
        '【永】このカードが【スタンド】しているなら、このカードのレベルを＋1し、パワーを＋1500。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'state', 'params': {'ref': 'this', 'state': 'standing'}}],
         'effects': [{'kind': 'level', 'params': {'amount': 1, 'target': {'ref': 'this'}}},
                     {'kind': 'power', 'params': {'amount': 1500, 'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'IMC-W41-032', 'character', 0,
        '【永】このカードは、あなたのキャラが3枚以下なら、手札からプレイできない。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'play_requirement',
                         'params': {'cannot_if': {'kind': 'count',
                                                  'params': {'target': {'who': 'you', 'kind': 'character'},
                                                             'cmp': '<=',
                                                             'n': 3}}}}]},
    ),
    Scenario(
        'FS-S34-P03', 'character', 0,
        '【自】この能力は1ターンにつき2回まで発動する。あなたが【起】を使った時、そのターン中、このカードのパワーを＋1000。',
        {'kind': 'auto',
         'trigger': {'kind': 'ability_used', 'params': {'target': {'who': 'you'}, 'what': '【起】'}},
         'conditions': [{'kind': 'times_per_turn', 'params': {'times': 2}}],
         'effects': [{'kind': 'power',
                      'params': {'amount': 1000, 'target': {'ref': 'this'}, 'duration': 'turn'}}]},
    ),
    Scenario(
        'ZM-W03-012', 'character', 0,
        '【自】あなたが『集中』を使った時、その効果でクライマックスが控え室に置かれたなら、そのターン中、このカードのパワーを＋3000。',
        {'kind': 'auto',
         'trigger': {'kind': 'ability_used', 'params': {'target': {'who': 'you'}, 'what': '集中'}},
         'conditions': [{'kind': 'done',
                         'params': {'what': '置く',
                                    'target': {'kind': 'climax'},
                                    'to': {'zone': 'waiting_room'},
                                    'by': {'ref': 'that', 'nouns': ['effect']}}}],
         'effects': [{'kind': 'power',
                      'params': {'amount': 3000, 'target': {'ref': 'this'}, 'duration': 'turn'}}]},
    ),
    # costs
    Scenario(
        'AB-W11-120', 'character', 0,
        '【起】[(1)]そのターン中、このカードのソウルを＋1。',
        {'kind': 'activated',
         'cost': [{'kind': 'stock', 'params': {'n': 1}}],
         'effects': [{'kind': 'soul',
                      'params': {'amount': 1, 'target': {'ref': 'this'}, 'duration': 'turn'}}]},
    ),
    Scenario(
        'MH-WE03-008', 'character', 0,
        '【起】［手札を1枚控え室に置く］そのターン中、このカードのパワーを＋2500。',
        {'kind': 'activated',
         'cost': [{'kind': 'discard', 'params': {'target': {'zone': 'hand'}, 'count': 1}}],
         'effects': [{'kind': 'power',
                      'params': {'amount': 2500, 'target': {'ref': 'this'}, 'duration': 'turn'}}]},
    ),
    Scenario(
        'APO-S53-017', 'character', 0,
        '【起】【カウンター】助太刀1500レベル1［手札のこのカードを控え室に置く］（あなたは自分のフロントアタックされているキャラを1枚選び、そのターン中、パワーを＋1500）',
        {'kind': 'counter',
         'conditions': [{'kind': 'level', 'params': {'who': 'you', 'cmp': '>=', 'n': 1}}],
         'cost': [{'kind': 'discard_this'}],
         'effects': [{'kind': 'backup',
                      'params': {'amount': 1500,
                                 'duration': 'turn',
                                 'target': {'who': 'you',
                                            'kind': 'character',
                                            'state': 'front_attacked',
                                            'count': 1}}}],
         'keywords': ['backup']},
    ),
    Scenario(
        'AB-W31-076', 'character', 0,
        '【起】［あなたのキャラを1枚【レスト】する］そのターン中、このカードのパワーを＋1000。',
        {'kind': 'activated',
         'cost': [{'kind': 'rest', 'params': {'target': {'who': 'you', 'kind': 'character'}, 'count': 1}}],
         'effects': [{'kind': 'power',
                      'params': {'amount': 1000, 'target': {'ref': 'this'}, 'duration': 'turn'}}]},
    ),
    Scenario(
        'MK-SE11-44', 'character', 0,
        '【起】［このカードを控え室に置く］あなたは相手の前列のコスト0以下のキャラを1枚選び、山札の上に置く。',
        {'kind': 'activated',
         'cost': [{'kind': 'this_to_waiting_room'}],
         'effects': [{'kind': 'to_deck_from_stage',
                      'params': {'target': {'who': 'opponent',
                                            'zone': 'front_row',
                                            'cost': ['<=', 0],
                                            'kind': 'character'},
                                 'count': 1,
                                 'to': 'top'}}]},
    ),
    Scenario(
        'DC-WE01-021', 'character', 0,
        '【起】[このカードを思い出にする]あなたは自分の《お菓子》のキャラを1枚選び、そのターン中、パワーを＋4000し、ソウルを＋2。',
        {'kind': 'activated',
         'cost': [{'kind': 'memory', 'params': {'target': {'ref': 'this'}}}],
         'effects': [{'kind': 'power',
                      'params': {'amount': 4000,
                                 'target': {'who': 'you',
                                            'traits': ['お菓子'],
                                            'kind': 'character',
                                            'count': 1},
                                 'duration': 'turn'}},
                     {'kind': 'soul',
                      'params': {'amount': 2,
                                 'target': {'who': 'you',
                                            'traits': ['お菓子'],
                                            'kind': 'character',
                                            'count': 1},
                                 'duration': 'turn'}}]},
    ),
    Scenario(
        'KR-SE30-35', 'character', 0,
        '【自】［(1)あなたの山札の上から1枚をクロック置場に置く］このカードが手札から舞台に置かれた時、あなたはコストを払ってよい。そうしたら、あなたは1枚引く。',
        {'kind': 'auto',
         'trigger': {'kind': 'placed', 'params': {'ref': 'this', 'from': 'hand'}},
         'cost': [{'kind': 'stock', 'params': {'n': 1}},
                  {'kind': 'clock_damage',
                   'params': {'target': {'who': 'you', 'zone': 'deck', 'position': 'top'}, 'count': 1}}],
         'effects': [{'kind': 'draw', 'params': {'count': 1, 'then': 'done'}}]},
    ),
    Scenario(
        'SB-S06-040', 'character', 0,
        '【自】アンコール［あなたの舞台の《扇子》のキャラを1枚クロック置場に置く］（このカードが舞台から控え室に置かれた時、あなたはコストを払ってよい。そうしたら、このカードがいた枠に【レスト】して置く）',
        {'kind': 'keyword',
         'trigger': {'kind': 'leaves_stage', 'params': {'ref': 'this', 'to': 'waiting_room'}},
         'cost': [{'kind': 'to_clock',
                   'params': {'target': {'who': 'you',
                                         'zone': 'stage',
                                         'traits': ['扇子'],
                                         'kind': 'character'},
                              'count': 1}}],
         'effects': [{'kind': 'encore'}],
         'keywords': ['encore']},
    ),
    Scenario(
        'FS-S34-014', 'character', 0,
        '【自】共鳴［手札の「“英霊”セイバー」を1枚公開する］あなたのクライマックスフェイズの始めに、あなたはコストを払ってよい。そうしたら、そのターン中、このカードのパワーを＋2000。',
        {'kind': 'auto',
         'trigger': {'kind': 'phase', 'params': {'when': 'start', 'turn': 'you', 'phase': 'climax_phase'}},
         'cost': [{'kind': 'reveal',
                   'params': {'target': {'zone': 'hand', 'names': ['“英霊”セイバー'], 'count': 1}}}],
         'effects': [{'kind': 'power',
                      'params': {'amount': 2000,
                                 'target': {'ref': 'this'},
                                 'duration': 'turn',
                                 'then': 'done'}}],
         'keywords': ['resonance']},
    ),
    Scenario(
        'FS-S34-027', 'character', 0,
        '【自】[(1)このカードを手札に戻す］あなたのクライマックス置場に「セイバーの召喚」が置かれた時、あなたはコストを払ってよい。そうしたら、あなたは自分の手札の「結界内の攻防セイバー」を1枚まで選び、このカードがいた枠に置く。',
        {'kind': 'auto',
         'trigger': {'kind': 'climax_placed', 'params': {'target': {'names': ['セイバーの召喚']}, 'who': 'you'}},
         'cost': [{'kind': 'stock', 'params': {'n': 1}}, {'kind': 'return_this'}],
         'effects': [{'kind': 'put_on_stage',
                      'params': {'target': {'who': 'you', 'zone': 'hand', 'names': ['結界内の攻防セイバー']},
                                 'count': 1,
                                 'upto': True,
                                 'to': {'position': 'this_slot'},
                                 'from': 'hand',
                                 'then': 'done'}}]},
    ),
    Scenario(
        'SB-S06-016', 'character', 0,
        '【起】［あなたの舞台のキャラを1枚控え室に置く］そのターン中、このカードのパワーを＋2000。',
        {'kind': 'activated',
         'cost': [{'kind': 'move',
                   'params': {'target': {'who': 'you', 'zone': 'stage', 'kind': 'character'},
                              'count': 1,
                              'to': 'waiting_room'}}],
         'effects': [{'kind': 'power',
                      'params': {'amount': 2000, 'target': {'ref': 'this'}, 'duration': 'turn'}}]},
    ),
    # effects
    Scenario(
        'DC-W01-094', 'event', 0,
        'あなたは2枚まで引く。',
        {'kind': 'event', 'effects': [{'kind': 'draw', 'params': {'count': 2, 'upto': True}}]},
    ),
    Scenario(
        'DC-W01-018', 'event', 0,
        '相手は自分の手札を1枚選び、控え室に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'discard',
                      'params': {'target': {'who': 'opponent', 'zone': 'hand'},
                                 'count': 1,
                                 'player': 'opponent'}}]},
    ),
    Scenario(
        'AB-W11-075', 'climax', 0,
        '【自】このカードが手札からクライマックス置場に置かれた時、あなたは1枚引き、自分のキャラを1枚選び、そのターン中、パワーを＋2000し、ソウルを＋1。',
        {'kind': 'climax',
         'trigger': {'kind': 'climax_placed', 'params': {'ref': 'this', 'from': 'hand'}},
         'effects': [{'kind': 'draw', 'params': {'count': 1}},
                     {'kind': 'power',
                      'params': {'amount': 2000,
                                 'target': {'who': 'you', 'kind': 'character', 'count': 1},
                                 'duration': 'turn'}},
                     {'kind': 'soul',
                      'params': {'amount': 1,
                                 'target': {'who': 'you', 'kind': 'character', 'count': 1},
                                 'duration': 'turn'}}]},
    ),
    Scenario(
        'DC-W01-095', 'event', 0,
        'あなたは自分のクロックを2枚まで選び、控え室に置く。このカードを思い出にする。',
        {'kind': 'event',
         'effects': [{'kind': 'clock_heal',
                      'params': {'target': {'who': 'you', 'zone': 'clock'}, 'count': 2, 'upto': True}},
                     {'kind': 'memory', 'params': {'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'KR-SE30-P01', 'character', 0,
        '【自】このカードが手札から舞台に置かれた時、あなたは自分の山札の上から3枚を、控え室に置いてよい。',
        {'kind': 'auto',
         'trigger': {'kind': 'placed', 'params': {'ref': 'this', 'from': 'hand'}},
         'effects': [{'kind': 'mill',
                      'params': {'target': {'who': 'you', 'zone': 'deck', 'position': 'top'},
                                 'count': 3,
                                 'optional': True}}]},
    ),
    Scenario(
        'BM-S15-072', 'event', 0,
        'あなたは自分の控え室のキャラを2枚まで選び、手札に戻す。',
        {'kind': 'event',
         'effects': [{'kind': 'salvage',
                      'params': {'target': {'who': 'you', 'zone': 'waiting_room', 'kind': 'character'},
                                 'count': 2,
                                 'upto': True}}]},
    ),
    Scenario(
        'AOT-S50-047', 'event', 0,
        'あなたは自分の山札を見て《兵団》のキャラを2枚まで選んで相手に見せ、手札に加え、その山札をシャッフルする。',
        {'kind': 'event',
         'effects': [{'kind': 'search',
                      'params': {'target': {'traits': ['兵団'],
                                            'kind': 'character',
                                            'zone': 'deck',
                                            'show': True},
                                 'count': 2,
                                 'upto': True,
                                 'among': 'search'}},
                     {'kind': 'shuffle', 'params': {'who': 'you'}}]},
    ),
    Scenario(
        'RW-W15-097', 'event', 0,
        'あなたは自分の山札を上から2枚まで見て、カードを1枚まで選び、手札に加える。残りのカードを控え室に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'look', 'params': {'count': 2, 'upto': True}},
                     {'kind': 'search',
                      'params': {'target': {'kind': 'card', 'zone': 'deck'},
                                 'count': 1,
                                 'upto': True,
                                 'among': 'look'}},
                     {'kind': 'mill',
                      'params': {'target': {'ref': 'rest', 'kind': 'card'}, 'among': 'look'}}]},
    ),
    Scenario(
        'ZM-W03-046', 'event', 0,
        'あなたは相手の山札を上から4枚まで見て、山札の上に好きな順番で置く。',
        {'kind': 'event',
         'effects': [{'kind': 'look',
                      'params': {'count': 4, 'upto': True, 'deck_of': 'opponent', 'to': 'top'}}]},
    ),
    Scenario(
        'DC-W01-E10', 'event', 0,
        'あなたは自分の山札の上から1枚を公開する。そのカードがクライマックスなら、あなたは自分の山札の上から2枚を、ストック置場に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'reveal', 'params': {'count': 1}},
                     {'kind': 'stock_charge',
                      'params': {'target': {'who': 'you', 'zone': 'deck', 'position': 'top'},
                                 'count': 2,
                                 'from': 'deck_top',
                                 'if': {'kind': 'card_is',
                                        'params': {'target': {'ref': 'that', 'kind': 'card'},
                                                   'is': {'kind': 'climax'}}}}}]},
    ),
    Scenario(
        'DC-W09-033', 'character', 0,
        '【自】このカードが手札から舞台に置かれた時、相手は自分の手札を公開してよい。そうしたら、それらのカードにクライマックスがあるなら、このカードを【レスト】する。',
        {'kind': 'auto',
         'trigger': {'kind': 'placed', 'params': {'ref': 'this', 'from': 'hand'}},
         'effects': [{'kind': 'reveal_hand',
                      'params': {'target': {'who': 'opponent', 'zone': 'hand'},
                                 'optional': True,
                                 'player': 'opponent'}},
                     {'kind': 'rest',
                      'params': {'target': {'ref': 'this'},
                                 'if': {'kind': 'count',
                                        'params': {'target': {'kind': 'climax',
                                                              'ref': 'those',
                                                              'among': 'those'},
                                                   'cmp': '>=',
                                                   'n': 1}},
                                 'then': 'done'}}]},
    ),
    Scenario(
        'FS-S03-089', 'character', 0,
        '【起】集中［(1)］あなたは自分の山札の上から2枚をめくり、控え室に置く。それらのカードのクライマックス1枚につき、あなたは1枚引く。',
        {'kind': 'activated',
         'cost': [{'kind': 'stock', 'params': {'n': 1}}],
         'effects': [{'kind': 'brainstorm', 'params': {'count': 2}},
                     {'kind': 'draw', 'params': {'count': 1, 'per': {'ref': 'those', 'kind': 'climax'}}}],
         'keywords': ['brainstorm']},
    ),
    Scenario(
        'DC-W09-057', 'character', 0,
        '【自】このカードが控え室から舞台に置かれた時、このカードを思い出にする。',
        {'kind': 'auto',
         'trigger': {'kind': 'placed', 'params': {'ref': 'this', 'from': 'waiting_room'}},
         'effects': [{'kind': 'memory', 'params': {'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'P4-SE12-10', 'event', 0,
        'あなたは自分の手札の「悠＆イザナギ」を1枚まで選び、舞台の好きな枠に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'put_on_stage',
                      'params': {'target': {'who': 'you', 'zone': 'hand', 'names': ['悠&イザナギ']},
                                 'count': 1,
                                 'upto': True,
                                 'to': {'zone': 'stage', 'position': 'any_slot'},
                                 'from': 'hand'}}]},
    ),
    Scenario(
        'LB-W06-047', 'event', 0,
        'あなたは自分のクロックを1枚選び、手札に戻す。このカードをクロック置場に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'to_hand',
                      'params': {'target': {'who': 'you', 'zone': 'clock'}, 'count': 1, 'from': 'clock'}},
                     {'kind': 'to_clock', 'params': {'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'DC-W01-E18', 'event', 0,
        'あなたは2枚まで引き、自分の手札を2枚選び、山札の上に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'draw', 'params': {'count': 2, 'upto': True}},
                     {'kind': 'to_deck',
                      'params': {'target': {'who': 'you', 'zone': 'hand'},
                                 'count': 2,
                                 'to': 'top',
                                 'from': 'hand'}}]},
    ),
    Scenario(
        'BM-S15-071', 'event', 0,
        'すべてのプレイヤーは自分の控え室のカードすべてを、山札に戻す。それらの山札をシャッフルする。',
        {'kind': 'event',
         'effects': [{'kind': 'to_deck',
                      'params': {'target': {'who': 'both',
                                            'zone': 'waiting_room',
                                            'kind': 'card',
                                            'all': True},
                                 'to': 'deck',
                                 'from': 'waiting_room',
                                 'player': 'both'}},
                     {'kind': 'shuffle', 'params': {'who': 'both'}}]},
    ),
    Scenario(
        'LB-WE21-P02', 'character', 0,
        '【永】他のあなたのキャラすべてに、パワーを＋500。',
        {'kind': 'continuous',
         'effects': [{'kind': 'power',
                      'params': {'amount': 500,
                                 'target': {'other': True,
                                            'who': 'you',
                                            'kind': 'character',
                                            'all': True}}}]},
    ),
    Scenario(
        'AB-W31-T21', 'climax', 0,
        '【永】あなたのキャラすべてに、ソウルを＋2。',
        {'kind': 'climax',
         'effects': [{'kind': 'soul',
                      'params': {'amount': 2, 'target': {'who': 'you', 'kind': 'character', 'all': True}}}]},
    ),
    Scenario(
        'ID-W13-020', 'character', 0,
        '【永】舞台のこのカードのレベルを-1。',
        {'kind': 'continuous',
         'effects': [{'kind': 'level',
                      'params': {'amount': -1, 'target': {'zone': 'stage', 'ref': 'this'}}}]},
    ),
    Scenario(
        'KMN-W51-033', 'event', 0,
        '【カウンター】あなたは相手のキャラを1枚選び、【レスト】する。',
        {'kind': 'counter',
         'effects': [{'kind': 'rest',
                      'params': {'target': {'who': 'opponent', 'kind': 'character'}, 'count': 1}}]},
    ),
    Scenario(
        'RN-W16-046', 'event', 0,
        'あなたは自分の《科学》のキャラを2枚まで選び、【スタンド】する。',
        {'kind': 'event',
         'effects': [{'kind': 'stand',
                      'params': {'target': {'who': 'you', 'traits': ['科学'], 'kind': 'character'},
                                 'count': 2,
                                 'upto': True}}]},
    ),
    Scenario(
        'AW-S43-064', 'character', 0,
        '【自】このカードが【リバース】した時、このカードのバトル相手のレベルが1以下なら、あなたはそのキャラを【リバース】してよい。',
        {'kind': 'auto',
         'trigger': {'kind': 'reversed', 'params': {'ref': 'this'}},
         'conditions': [{'kind': 'compare',
                         'params': {'target': {'ref': 'battle_opponent'},
                                    'attr': 'level',
                                    'cmp': '<=',
                                    'n': 1}}],
         'effects': [{'kind': 'reverse',
                      'params': {'target': {'ref': 'battle_opponent',
                                            'who': 'opponent',
                                            'kind': 'character',
                                            'zone': 'stage'},
                                 'optional': True}}]},
    ),
    Scenario(
        'APO-S53-T13', 'character', 0,
        '【自】相手のアタックフェイズの始めに、あなたはこのカードを前列のキャラのいない枠に動かしてよい。',
        {'kind': 'auto',
         'trigger': {'kind': 'phase',
                     'params': {'when': 'start', 'turn': 'opponent', 'phase': 'attack_phase'}},
         'effects': [{'kind': 'move_slot',
                      'params': {'target': {'ref': 'this'},
                                 'to': {'zone': 'front_row', 'position': 'empty_slot'},
                                 'optional': True}}]},
    ),
    Scenario(
        'AW-S18-042', 'character', 0,
        '【永】他のあなたのキャラすべてに、次の能力を与える。『【永】このカードはサイドアタックできない。』',
        {'kind': 'continuous',
         'effects': [{'kind': 'grant_ability',
                      'params': {'abilities': [{'kind': 'continuous',
                                                'text': '【永】このカードはサイドアタックできない。',
                                                'effects': [{'kind': 'restriction',
                                                             'params': {'what': 'side_attack',
                                                                        'target': {'ref': 'this'}}}]}],
                                 'target': {'other': True,
                                            'who': 'you',
                                            'kind': 'character',
                                            'all': True}}}]},
    ),
    Scenario(
        'SB-S06-091', 'character', 0,
        '【永】他のあなたのキャラすべてに、《愛》を与える。',
        {'kind': 'continuous',
         'effects': [{'kind': 'grant_trait',
                      'params': {'traits': ['愛'],
                                 'target': {'other': True,
                                            'who': 'you',
                                            'kind': 'character',
                                            'all': True}}}]},
    ),
    Scenario(
        'FS-S03-071', 'event', 0,
        '相手に6ダメージを与える。（ダメージキャンセルは発生する）',
        {'kind': 'event',
         'effects': [{'kind': 'burn', 'params': {'amount': 6, 'target': 'opponent', 'cancellable': True}}]},
    ),
    Scenario(
        'DC-W01-071', 'event', 0,
        'あなたはレベル1以下の相手のキャラを1枚選び、控え室に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'to_waiting_room',
                      'params': {'target': {'level': ['<=', 1], 'who': 'opponent', 'kind': 'character'},
                                 'count': 1}}]},
    ),
    Scenario(
        'SG-W39-022', 'event', 0,
        'あなたは相手のキャラを3枚まで選び、手札に戻す。',
        {'kind': 'event',
         'effects': [{'kind': 'bounce',
                      'params': {'target': {'who': 'opponent', 'kind': 'character'},
                                 'count': 3,
                                 'upto': True}}]},
    ),
    Scenario(
        'DC-W01-068', 'event', 0,
        'あなたはレベル2以下の相手の前列のキャラを1枚選び、山札の上に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'to_deck_from_stage',
                      'params': {'target': {'level': ['<=', 2],
                                            'who': 'opponent',
                                            'zone': 'front_row',
                                            'kind': 'character'},
                                 'count': 1,
                                 'to': 'top'}}]},
    ),
    Scenario(
        'RG-W10-047', 'event', 0,
        'あなたは相手の前列のレベル2以下のキャラを2枚まで選び、クロック置場に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'to_clock',
                      'params': {'target': {'who': 'opponent',
                                            'zone': 'front_row',
                                            'level': ['<=', 2],
                                            'kind': 'character'},
                                 'count': 2,
                                 'upto': True}}]},
    ),
    Scenario(
        'ZM-W03-020', 'event', 0,
        'あなたは相手のレベル2以下のキャラを1枚選び、ストック置場に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'to_stock',
                      'params': {'target': {'who': 'opponent', 'level': ['<=', 2], 'kind': 'character'},
                                 'count': 1}}]},
    ),
    Scenario(
        'AB-W11-022', 'event', 0,
        'あなたは相手の前列のレベル2以下のキャラを1枚選び、思い出にする。',
        {'kind': 'event',
         'effects': [{'kind': 'to_memory',
                      'params': {'target': {'who': 'opponent',
                                            'zone': 'front_row',
                                            'level': ['<=', 2],
                                            'kind': 'character'},
                                 'count': 1}}]},
    ),
    Scenario(
        'BD-W54-065', 'event', 0,
        '相手のストックすべてを、控え室に置き、相手は自分の山札の上から同じ枚数をストック置場に置く。',
        {'kind': 'event',
         'effects': [{'kind': 'stock_discard',
                      'params': {'target': {'who': 'opponent', 'zone': 'stock', 'all': True}}},
                     {'kind': 'stock_charge',
                      'params': {'target': {'who': 'opponent', 'zone': 'deck', 'position': 'top'},
                                 'count': 'same',
                                 'from': 'deck_top',
                                 'player': 'opponent'}}]},
    ),
    Scenario(
        'APO-S53-T15', 'character', 0,
        '【永】このカードはサイドアタックできない。',
        {'kind': 'continuous',
         'effects': [{'kind': 'restriction', 'params': {'what': 'side_attack', 'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'AB-W31-090', 'character', 0,
        '【永】舞台にこのカードがいるなら、このカードのカード名は「クライスト」としても扱う。',
        {'kind': 'continuous',
         'conditions': [{'kind': 'position', 'params': {'zone': 'stage'}}],
         'effects': [{'kind': 'name_alias', 'params': {'names': ['クライスト'], 'target': {'ref': 'this'}}}]},
    ),
    Scenario(
        'SG-W39-032', 'character', 0,
        '【永】記憶あなたの思い出置場に「自動人形レイア」と「自動人形ファラ」と「自動人形ミカ」と「自動人形ガリィ」があるなら、あなたの手札のこのカードのレベルを-1し、コストを-2。【自】このカードが手札から舞台に置かれた時、あなたは自分のクロックの上から1枚を、控え室に置いてよい。【起】［(1)あなたの思い出置場の《錬金術》のキャラを1枚控え室に置く］次の相手のターンの終わりまで、このカードのパワーを＋1500し、このカードは次の能力を得る。『【永】このカードは相手の効果に選ばれない。』',
        {'kind': 'continuous',
         'conditions': [{'kind': 'count',
                         'params': {'target': {'match': 'all',
                                               'names': ['自動人形レイア', '自動人形ファラ', '自動人形ミカ', '自動人形ガリィ'],
                                               'zone': 'memory',
                                               'who': 'you'},
                                    'cmp': '>=',
                                    'n': 1}}],
         'effects': [{'kind': 'level',
                      'params': {'amount': -1, 'target': {'who': 'you', 'zone': 'hand', 'ref': 'this'}}},
                     {'kind': 'cost_change',
                      'params': {'amount': -2, 'target': {'who': 'you', 'zone': 'hand', 'ref': 'this'}}}],
         'keywords': ['memory']},
    ),
    Scenario(
        'APO-S53-090', 'character', 0,
        '【永】このカードと同じカード名のカードは、デッキに好きな枚数入れることができる。【永】他のあなたの「ホムンクルス」1枚につき、このカードのパワーを＋1500。',
        {'kind': 'continuous',
         'effects': [{'kind': 'rule_change',
                      'params': {'what': 'deck_limit',
                                 'count': 'any',
                                 'target': {'ref': 'this', 'nouns': ['same_name'], 'kind': 'card'}}}]},
    ),
    Scenario(
        'RG-W10-107', 'character', 0,
        '【自】アンコール［(2)］（このカードが舞台から控え室に置かれた時、あなたはコストを払ってよい。そうしたら、このカードがいた枠に【レスト】して置く）',
        {'kind': 'keyword',
         'trigger': {'kind': 'leaves_stage', 'params': {'ref': 'this', 'to': 'waiting_room'}},
         'cost': [{'kind': 'stock', 'params': {'n': 2}}],
         'effects': [{'kind': 'encore'}],
         'keywords': ['encore']},
    ),
    Scenario(
        'DC-WE02-033', 'character', 0,
        '【永】大活躍（相手がアタックする時、【リバース】していないこのカードが前列の中央の枠にいるなら、かわりに相手はこのカードにフロントアタックする）【起】［(6)］あなたは相手の前列のキャラすべてを、手札に戻す。',
        {'kind': 'keyword', 'effects': [{'kind': 'great_performance'}], 'keywords': ['great_performance']},
    ),
    Scenario(
        'GC-S16-106', 'character', 0,
        '【自】【クロック】シフトレベル1（あなたのメインフェイズの始めに、あなたは自分の手札の黄のカードを1枚とクロック置場のこのカードを選び、入れ替えてよい）',
        {'kind': 'keyword',
         'effects': [{'kind': 'shift', 'params': {'level': 1, 'color': 'yellow'}}],
         'keywords': ['from_clock', 'shift']},
    ),
    Scenario(
        'APO-S53-060', 'climax', 0,
        '【自】このカードが手札からクライマックス置場に置かれた時、の効果を行う。（：このカードがトリガーした時、あなたは自分の控え室の自分のレベル＋1以下のレベルのキャラを1枚選び、舞台の好きな枠に【レスト】して置いてよい）',
        {'kind': 'climax',
         'trigger': {'kind': 'climax_placed', 'params': {'ref': 'this', 'from': 'hand'}},
         'effects': [{'kind': 'trigger_effect', 'params': {'icon': 'standby'}}],
         'keywords': ['icon:standby']},
    ),
    Scenario(
        'AW-S18-097', 'event', 0,
        'あなたは相手のレベル3以下のキャラを1枚選ぶ。そのキャラは次の相手のスタンドフェイズに【スタンド】しない。',
        {'kind': 'event',
         'effects': [{'kind': 'choose',
                      'params': {'target': {'who': 'opponent',
                                            'level': ['<=', 3],
                                            'kind': 'character',
                                            'count': 1}}},
                     {'kind': 'restriction',
                      'params': {'what': 'stand',
                                 'target': {'ref': 'that', 'kind': 'character'},
                                 'at': {'next': True, 'turn': 'opponent', 'phase': 'stand_phase'}}}]},
    ),
    Scenario(
        'SY-W08-097', 'event', 0,
        '【カウンター】あなたは相手のクライマックス置場のクライマックスを1枚選び、控え室に置く。',
        {'kind': 'counter',
         'effects': [{'kind': 'move',
                      'params': {'target': {'who': 'opponent', 'zone': 'climax_zone', 'kind': 'climax'},
                                 'count': 1,
                                 'from': 'climax_zone',
                                 'to': 'waiting_room'}}]},
    ),
    Scenario(
        'AOT-S50-046', 'event', 0,
        'このカードは、あなたの《兵団》のキャラがいないなら、手札からプレイできない。以下の効果のうちあなたが選んだ1つを行う。『あなたは自分の山札を見て《兵団》のキャラを1枚まで選んで相手に見せ、手札に加え、その山札をシャッフルする。』『あなたは自分のキャラを1枚選び、そのターン中、パワーを＋3000し、このカードをストック置場に置く。』',
        {'kind': 'event',
         'conditions': [{'kind': 'play_requirement',
                         'params': {'cannot_if': {'kind': 'count',
                                                  'params': {'target': {'who': 'you',
                                                                        'traits': ['兵団'],
                                                                        'kind': 'character'},
                                                             'cmp': '==',
                                                             'n': 0}}}}],
         'effects': [{'kind': 'modal',
                      'params': {'choose': 1,
                                 'options': [[{'kind': 'search',
                                               'params': {'target': {'traits': ['兵団'],
                                                                     'kind': 'character',
                                                                     'zone': 'deck',
                                                                     'show': True},
                                                          'count': 1,
                                                          'upto': True,
                                                          'among': 'search'}},
                                              {'kind': 'shuffle', 'params': {'who': 'you'}}],
                                             [{'kind': 'power',
                                               'params': {'amount': 3000,
                                                          'target': {'who': 'you',
                                                                     'kind': 'character',
                                                                     'count': 1},
                                                          'duration': 'turn'}},
                                              {'kind': 'stock_charge',
                                               'params': {'target': {'ref': 'this'},
                                                          'from': 'resolving'}}]]}}]},
    ),
    Scenario(
        'IM-S07-024', 'climax', 0,
        '【自】このカードが手札からクライマックス置場に置かれた時、あなたは1枚引き、自分のキャラを1枚選び、...',
        {'kind': 'climax',
         'trigger': {'kind': 'climax_placed', 'params': {'ref': 'this', 'from': 'hand'}},
         'effects': [{'kind': 'draw', 'params': {'count': 1}},
                     {'kind': 'choose',
                      'params': {'target': {'who': 'you', 'kind': 'character', 'count': 1}}},
                     {'kind': 'truncated', 'params': {'missing': '...'}}]},
    ),
    Scenario(
        'AB-W11-074', 'climax', 0,
        '【自】このカードが手札からクライマックス置場に置かれた時、あなたは自分の山札の上から1枚を、ストック置場に置き、自分のキャラすべてに、そのターン中、ソウルを＋1。',
        {'kind': 'climax',
         'trigger': {'kind': 'climax_placed', 'params': {'ref': 'this', 'from': 'hand'}},
         'effects': [{'kind': 'stock_charge',
                      'params': {'target': {'who': 'you', 'zone': 'deck', 'position': 'top'},
                                 'count': 1,
                                 'from': 'deck_top'}},
                     {'kind': 'soul',
                      'params': {'amount': 1,
                                 'target': {'who': 'you', 'kind': 'character', 'all': True},
                                 'duration': 'turn'}}]},
    ),
]


def _compiled(s: Scenario) -> Ability:
    abilities = compile_text(s.text, s.card_type)
    return abilities[s.index]


@pytest.mark.parametrize("s", SCENARIOS, ids=[f"{s.code}[{s.index}]" for s in SCENARIOS])
def test_scenario(s: Scenario) -> None:
    ab = _compiled(s)
    assert ab.compiled, ab.unrecognised
    got = ab.to_dict()
    assert got.pop("text") in normalise(s.text)
    assert got == s.expected


def _kinds(ab: dict[str, Any]) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    if "trigger" in ab:
        out.add(("trigger", ab["trigger"]["kind"]))
    out |= {("condition", c["kind"]) for c in ab.get("conditions", ())}
    out |= {("cost", c["kind"]) for c in ab.get("cost", ())}
    out |= {("effect", e["kind"]) for e in ab.get("effects", ())}
    return out


@pytest.mark.parametrize("role,kinds", [("trigger", TRIGGERS), ("condition", CONDITIONS), ("cost", COSTS),
                                        ("effect", EFFECTS)])
def test_every_kind_of_the_vocabulary_has_a_real_card(role: str, kinds: tuple) -> None:
    shown = set().union(*(_kinds(s.expected) for s in SCENARIOS))
    missing = [k.name for k in kinds if (role, k.name) not in shown]
    assert not missing, f"{role} kinds without a scenario: {missing}"


def test_vocabulary_is_documented() -> None:
    for kinds in (TRIGGERS, CONDITIONS, COSTS, EFFECTS):
        names = [k.name for k in kinds]
        assert len(names) == len(set(names))
        assert all(k.description for k in kinds)
    assert {k.category for k in EFFECTS} <= set(EFFECT_CATEGORIES)


def test_vanilla_text_has_no_abilities() -> None:
    for text in ("", "-", "－", " ", None):
        assert compile_text(text) == ()  # type: ignore[arg-type]


def test_split_at_ability_markers_not_at_markers_used_as_nouns() -> None:
    # AB-W11-001: a granted アンコール inside 『』 and an 【起】 after it
    text = ("【永】他のあなたの《死》のキャラすべてに、『【自】アンコール［手札のキャラを1枚控え室に置く］』を与える。"
            "【起】［このカードを【レスト】する］あなたは自分のキャラを1枚選び、そのターン中、パワーを＋1000。")
    assert [a[:5] for a in split_abilities(normalise(text))] == ["【永】他の", "【起】[こ"]
    # 【起】を使った時 / 【自】の効果 are nouns; 【起】【カウンター】助太刀 is one ability
    assert len(split_abilities(normalise("【自】あなたが【起】を使った時、そのターン中、このカードのパワーを＋1500。"))) == 1
    assert len(split_abilities(normalise("【永】このカードは相手のキャラの【自】の効果によって【リバース】されない。"))) == 1
    assert len(split_abilities(normalise("【起】【カウンター】助太刀1500レベル1［手札のこのカードを控え室に置く］"))) == 1


def test_normalise_full_width_and_circled_costs() -> None:
    assert normalise("【起】［①このカードをレストする］ パワーを＋１０００、レベルを－１") == \
        "【起】[(1)このカードを【レスト】する]パワーを+1000、レベルを-1"


def test_unrecognised_text_keeps_the_first_phrase_that_failed() -> None:
    # IM-S07-067: a handshake between the players
    text = ("【自】このカードが手札から舞台に置かれた時、相手の「ハイタッチやよい」がいて、すべてのプレイヤーが認めたなら、"
            "ハイタッチする。そうしたら、すべてのプレイヤーは1枚引く。（音には注意しましょう）")
    (ab,) = compile_text(text)
    assert not ab.compiled
    assert ab.unrecognised == "すべてのプレイヤーが認めたなら、"
    assert ab.kind == "auto" and ab.text == normalise(text)


def test_an_unknown_word_is_unrecognised_not_an_error() -> None:
    (ab,) = compile_text("【永】このカードはキラキラする。")
    assert ab.unrecognised and ab.kind == "continuous"


def test_json_round_trip_and_the_cached_variant() -> None:
    for s in SCENARIOS:
        abilities = compile_text(s.text, s.card_type)
        data = json.loads(json.dumps(abilities_to_json(abilities), ensure_ascii=False))
        assert abilities_from_json(data) == abilities
        assert compile_text_cached(s.text, s.card_type) == abilities


_FRAGMENTS = sorted({f for s in SCENARIOS for f in normalise(s.text).replace("。", "。|").replace("、", "、|").split("|") if f})


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(alphabet="【】[]()「」『』《》、。+-0123456789あ枚をにX", max_size=4)),
                max_size=8),
       st.sampled_from(["character", "event", "climax"]))
def test_any_text_compiles_or_names_what_failed(parts: list[str], card_type: str) -> None:
    """Pieces of real texts in any order, with stray brackets and signs: never an exception; every
    ability either compiles or keeps a phrase of its own text."""
    for ab in compile_text("".join(parts), card_type):
        assert isinstance(ab, Ability)
        if not ab.compiled:
            phrase = ab.unrecognised or ""
            assert phrase and (phrase in ab.text or phrase[:-1] in ab.text), (ab.text, phrase)


def test_compiling_is_deterministic() -> None:
    s = SCENARIOS[0]
    assert compile_ability(compile_text(s.text)[0].text) == compile_ability(compile_text(s.text)[0].text)


@pytest.mark.carddata
def test_scenario_texts_are_the_real_cards() -> None:
    from rules.ws.abilities.sources import alphac2_cards

    cards = {c.code: c for c in alphac2_cards(WS_DATA)}
    for s in SCENARIOS:
        card = cards[s.code]
        assert card.text == s.text, s.code
        assert card.card_type == s.card_type, s.code


@pytest.mark.carddata
def test_coverage_on_the_real_data() -> None:
    """Both sources, every card: ≥ 90% of ability instances and 100% of climaxes compile, every kind
    the compiler emits is in the vocabulary, and normalising twice changes nothing."""
    from rules.ws.abilities.sources import all_cards
    from rules.ws.abilities.vocabulary import ALL

    vocabulary = {(role, k.name) for role, kinds in ALL.items() for k in kinds}
    instances = compiled = climax = climax_ok = 0
    emitted: set[tuple[str, str]] = set()
    for card in all_cards(WS_DATA):
        assert normalise(normalise(card.text)) == normalise(card.text), card.code
        for ab in compile_text_cached(card.text, card.card_type):
            instances += 1
            compiled += ab.compiled
            if card.card_type == "climax":
                climax += 1
                climax_ok += ab.compiled
            if ab.compiled:
                emitted |= _kinds(ab.to_dict())
    assert instances > 20000
    assert compiled / instances >= 0.90, f"{compiled}/{instances}"
    assert climax > 2000 and climax_ok == climax, f"{climax_ok}/{climax} climaxes"
    assert emitted <= vocabulary, sorted(emitted - vocabulary)
