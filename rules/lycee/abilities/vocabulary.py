"""The Lycee compiled-ability vocabulary: every ``kind`` the compiler produces, one line each.

Each entry is ``(kind, description)``. ``docs/abilities-lycee-chaos.md`` lists them with a real
example card; tests check that every kind has a scenario test and that the compiler never emits
a kind outside these tuples.

Shared parameter shapes (JSON):

- a *card selector* (``target``, ``card``...): ``{"ref": "this"|"that"|"target"|"battle_opponent"|
  "those"|"owner"|"item_owner", "what": "character"|"item"|"area"|"card"|"event"|"field"|...,
  "side": "ally"|"opponent", "position": ["AF"|"DF"|"attacking"|"defending"|"in_battle"|
  "standing"|"rested"], "attributes": [...], "any_attribute": [...], "title": "...",
  "trait": "...", "brand": "...", "names": [...], "count": n, "all": true, "up_to": true,
  "zone": {"zones": [{"zone": "trash"|"hand"|"deck"|"deck_top"|"field"|"pile", "owner":
  "self"|"opponent", "pile": "..."}]}, "filters": [...]}`` (only the keys that apply);
- a *stat change*: ``{"ap": +1, "dp": -2, "sp": 0, "dmg": +1}``;
- ``until``: ``"end_of_turn"``, ``"end_of_battle"``, ``"end_of_opponent_turn"``, ...;
- ``if``: a list of conditions (``CONDITION_KINDS`` as ``{"kind": ..., ...}``) an effect waits for;
- ``optional``: true when the text says できる (may).
"""
from __future__ import annotations

ABILITY_KINDS: tuple[tuple[str, str], ...] = (
    ("keyword", "a basic ability (基本能力) such as [ステップ:[0]], [チャージ:2], [ペナルティ:[...]]"),
    ("auto", "[誘発] triggered ability: runs when its trigger happens"),
    ("activated", "[宣言] declared ability of a card in play, paid with its cost"),
    ("hand_activated", "[手札宣言] declared ability used from the hand"),
    ("continuous", "[常時] continuous ability"),
    ("cost_source", "[コスト] ability that produces mana (発生) for payments"),
    ("trump", "[宣言][切札] trump (切札) declaration"),
    ("event", "an event card's text, resolved when the event is played"),
    ("equip_restriction", "an item's 装備制限: which characters it may equip"),
    ("rule", "a printed rule note (※...): field limits, vanilla use, same-number rules"),
    ("token", "the definition of a token character the card creates"),
    ("text", "untagged text on a non-event card"),
)

EFFECT_KINDS: tuple[tuple[str, str], ...] = (
    ("keyword", "a basic ability: params name (English keyword), cost (attributes) or count"),
    ("stat_mod", "change AP/DP/SP/DMG of the target: params target, ap/dp/sp/dmg, until"),
    ("stat_choice", "one of several stat changes chosen on resolution: params target, options"),
    ("stat_set", "set a stat to a value: params target, stat, value"),
    ("draw", "draw cards: params count, player (self unless 'opponent' / 'holder')"),
    ("mill", "put the top cards of a deck into the dust box: params player, count"),
    ("recover", "deck recovery (デッキを回復): params player, count (dust box → deck), or target (a card recovered)"),
    ("discard", "discard cards from a hand: params player, count, to (default the dust box)"),
    ("destroy", "put the target card(s) into the dust box (破棄): params target"),
    ("exile", "remove the target card(s) from the game (除外): params target"),
    ("to_hand", "put the target card(s) into the hand: params target"),
    ("to_deck", "put the target card(s) on the top or bottom of the deck: params target, position"),
    ("put_under", "put card(s) under another card: params target, under"),
    ("to_pile", "put card(s) into a named pile (「X」置き場): params target, pile"),
    ("set_aside", "put a card beside the field (横に置く): params target"),
    ("stand", "make the target unacted (未行動にする): params target"),
    ("rest", "make the target acted (行動済みにする): params target"),
    ("move", "move a character to another field: params target, to"),
    ("swap", "swap two characters' fields: params target, with"),
    ("deploy", "put a character into play (登場): params card, from, to, free, rested"),
    ("place", "put an area into play (配置): params card, from, to, free"),
    ("equip", "equip an item (装備): params card, to, free"),
    ("search", "look for a card in zones, then do something with it: params from, card, then"),
    ("generate", "produce mana for a payment (発生): params attributes (or options), only_for"),
    ("payment_limit", "what this ability's mana may pay for (このコストは…にのみ支払える): params only_for / not_for"),
    ("shield", "gain or lose shields (シールド±N): params player, delta"),
    ("remove_shield", "discard shields (シールドN枚を破棄): params player, count"),
    ("charge", "put cards as charge on a character: params target, count, from"),
    ("remove_charge", "discard charge from a character: params target, count"),
    ("grant", "the target gains keywords or stat changes as its own: params target, keywords, changes"),
    ("grant_ability", "the target gains the ability printed on the next line: params target, what, ability"),
    ("lose_ability", "the target loses abilities (元の能力を失う): params target, what"),
    ("ability_lost", "this ability is lost after use (この能力は失われる): params until"),
    ("end_battle", "the battle is interrupted (バトルを中断する)"),
    ("negate", "the declaration responded to fails (その宣言の解決は失敗する)"),
    ("choose", "choose N of the listed options and resolve them: params count, options"),
    ("shuffle", "shuffle a deck: params player"),
    ("look", "look at the top cards of a deck: params count, player"),
    ("reorder", "put looked-at cards back in any order"),
    ("reveal", "reveal cards (a hand): params target"),
    ("prevent", "something cannot happen to the target: params target, event, until"),
    ("skip_wakeup", "the target does not become unacted at the next wake up: params target"),
    ("no_response", "the opponent cannot respond to this declaration"),
    ("field_limit", "how many copies may be on a field (※…まで配置可能): params count, owner"),
    ("vanilla", "the card may be used as a character without abilities"),
    ("not_playable", "the card cannot be used in a normal game"),
    ("same_number", "the card counts as another number for construction: params as"),
    ("enter_only_by", "the character can enter only by a keyword (※[コンバート]以外で登場できない)"),
    ("exile_on_leave", "the character is exiled when it leaves the field"),
    ("alias", "the character also has another name: params name"),
    ("equip_limit", "which characters an item may equip: params card"),
    ("token", "a token character the card creates: params name, ap, dp, sp, dmg, ex, attributes, cost, keywords"),
)

TRIGGER_KINDS: tuple[tuple[str, str], ...] = (
    ("enters", "a character enters play (登場したとき): params card, from, by"),
    ("attack_declared", "a character is declared as attacker (攻撃宣言をしたとき): params by"),
    ("supports", "a character supports (サポートをしたとき): params by"),
    ("supported", "a character is supported (にサポートをしたとき): params card"),
    ("downed", "a character is downed in battle (ダウンしたとき): params card"),
    ("leaves", "a card leaves the field (場を離れたとき): params card, by"),
    ("destroyed", "a card is put into the dust box (破棄したとき): params card, by"),
    ("exiled", "a card is exiled (除外したとき): params card, by"),
    ("moved", "a character moves (移動したとき): params card"),
    ("deals_damage", "a character deals damage to a deck (ダメージを与えたとき): params card"),
    ("used", "a declaration, event or ability is used (使用したとき): params what, by"),
    ("designated", "a character is designated attacker/defender (指定したとき): params card, as"),
    ("equipped", "an item is equipped (装備したとき): params card"),
    ("placed", "an area is placed (配置したとき): params card"),
    ("modified", "a character gains a stat modification (能力値修正を得たとき): params card"),
    ("turn_start", "start of a turn (ターン開始時): params turn (own/opponent/any)"),
    ("turn_end", "end of a turn (ターン終了時): params turn"),
    ("battle_end", "end of a battle (バトル終了時): params of"),
    ("event", "another event the compiler keeps as verb + arguments: params verb, args"),
    ("either", "any of several triggers: params of (list of triggers)"),
    ("engage", "[エンゲージ] the character enters by engage"),
    ("bonus", "[ボーナス] the character's attack is not defended"),
    ("penalty", "[ペナルティ] the character is downed"),
    ("recovery", "[リカバリー] the deck is recovered"),
    ("turn_recovery", "[ターンリカバリー] once per turn recovery"),
)

CONDITION_KINDS: tuple[tuple[str, str], ...] = (
    ("use_during", "the ability is used only during a period: params period, except"),
    ("use_not_during", "the ability cannot be used during a period: params period"),
    ("respond_to", "used in response to a declaration: params to (kind)"),
    ("no_response_use", "cannot be used in response (対応して使用できない): params to"),
    ("limit", "usage limit (Nターンに N回まで): params per, count"),
    ("done", "the previous effect was done (…したとき、): params verb"),
    ("not_done", "the previous effect was not done (しない場合、)"),
    ("present", "a card is in play (が登場している / を配置している場合): params card"),
    ("absent", "no such card is in play: params card"),
    ("count", "how many cards match (がN体以上の場合): params card, op, n"),
    ("stat", "a stat compared (のSPが4以上の場合): params of, stat, op, value"),
    ("during", "during a period (バトル中の場合): params period, negated"),
    ("is", "a card is of a kind (がAFキャラの場合): params card, is, negated"),
    ("size", "a zone's size (置き場の枚数がN枚以上の場合): params of, op, n"),
    ("when", "a delayed trigger inside an effect: params event"),
    ("state", "another state the compiler keeps as verb + arguments: params verb, args"),
    ("all_of", "all the listed conditions: params of"),
)

COST_KINDS: tuple[tuple[str, str], ...] = (
    ("free", "[0]: no cost"),
    ("pay", "[雪雪][無]: pay attributes by discarding cards for their EX: params attributes"),
    ("tap", "[T]: make this character acted"),
    ("remove_charge", "[C1]: discard charge from this character: params count"),
    ("mill", "[D1]: put the top card(s) of your deck into the dust box: params count"),
)


def kinds(table: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return tuple(k for k, _ in table)


ALL_KINDS: frozenset[str] = frozenset(
    k for table in (EFFECT_KINDS, TRIGGER_KINDS, CONDITION_KINDS, COST_KINDS) for k, _ in table
)
