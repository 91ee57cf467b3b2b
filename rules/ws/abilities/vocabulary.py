"""The documented vocabulary of compiled Weiß Schwarz abilities.

Every :class:`rules.abilities.Effect` the compiler produces has a ``kind`` from one of four tuples:
``TRIGGERS`` (when an 【自】 ability fires), ``CONDITIONS`` (``…なら`` and the like), ``COSTS``
(``[...]``) and ``EFFECTS`` (what happens). Each entry is a :class:`Kind`: its name, the category it
belongs to and a one-line description; ``docs/abilities.md`` lists them with a real card each.

Effect categories say whom an effect touches: ``you`` (your hand, deck, stock, clock, waiting
room, memory), ``your_characters`` (power, soul, level, state of your characters), ``opponent``
(the opponent as a player: damage, their hand, deck, stock, clock), ``opponent_characters``
(the opponent's characters), ``characters`` (either side's, as the text lets the player choose),
``rules`` (continuous rule changes: restrictions, names, costs) and ``flow`` (looking, revealing,
choosing, shuffling: steps that prepare the next effect).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    category: str
    description: str


EFFECT_CATEGORIES: tuple[str, ...] = (
    "you", "your_characters", "opponent", "opponent_characters", "characters", "rules", "flow",
)

EFFECTS: tuple[Kind, ...] = (
    # you
    Kind("draw", "you", "draw N cards (upto: up to N; optional: you may)"),
    Kind("discard", "you", "put N cards from a hand (yours, or the opponent's with player=opponent) into its waiting room"),
    Kind("stock_charge", "you", "put cards into your stock (from: deck top, waiting room, hand, ...)"),
    Kind("clock_heal", "you", "put cards from your clock (its top, or chosen) into your waiting room"),
    Kind("mill", "you", "put the top N cards of a deck into its waiting room"),
    Kind("clock_damage", "you", "put the top N cards of your deck into your clock (self-damage, not a damage step)"),
    Kind("salvage", "you", "return cards from your waiting room to your hand"),
    Kind("search", "you", "look through your deck for cards matching a filter and add them to your hand"),
    Kind("look", "you", "look at the top N cards of a deck (where they go: params.to), or at a hand / a stock (params.zone)"),
    Kind("reveal", "you", "reveal the top N cards of your deck (later effects and conditions read them)"),
    Kind("reveal_hand", "you", "reveal cards from a hand"),
    Kind("brainstorm", "you", "集中: flip the top N cards of your deck into the waiting room; later effects count the climaxes"),
    Kind("memory", "you", "put one of your cards into memory (removed from the game): this card, a chosen card"),
    Kind("put_on_stage", "your_characters", "put a character onto your stage (from hand, deck, waiting room, clock...)"),
    Kind("to_hand", "you", "put a card into its owner's hand from another zone (stock, clock, level, memory, stage of yours)"),
    Kind("to_deck", "you", "put cards into a deck (top, bottom, or shuffled in)"),
    Kind("shuffle", "flow", "shuffle a deck"),
    # characters
    Kind("power", "your_characters", "change the power of characters by N (target, duration, per)"),
    Kind("soul", "your_characters", "change the soul of characters by N"),
    Kind("level", "your_characters", "change the level of cards (on the stage or in hand) by N"),
    Kind("rest", "characters", "rest characters"),
    Kind("stand", "characters", "stand characters"),
    Kind("reverse", "characters", "reverse characters"),
    Kind("move_slot", "characters", "move a character to another slot, or swap two characters' slots"),
    Kind("grant_ability", "characters", "give characters abilities (compiled: params.abilities) for a duration"),
    Kind("grant_trait", "characters", "give characters a trait"),
    # opponent
    Kind("burn", "opponent", "deal N damage to the opponent (cancellable by a climax, as printed)"),
    Kind("to_waiting_room", "opponent_characters", "put characters from the stage into the waiting room"),
    Kind("bounce", "opponent_characters", "return characters from the stage to their owner's hand"),
    Kind("to_deck_from_stage", "opponent_characters", "put characters from the stage on top / at the bottom of a deck"),
    Kind("to_clock", "opponent_characters", "put characters from the stage into a clock"),
    Kind("to_stock", "opponent_characters", "put characters from the stage into a stock"),
    Kind("to_memory", "opponent_characters", "put the opponent's characters into memory"),
    Kind("stock_discard", "opponent", "put cards from a stock into its waiting room"),
    # rules
    Kind("restriction", "rules", "a card or player cannot do something (side attack, be chosen, play, ...)"),
    Kind("name_alias", "rules", "this card's name also counts as another name"),
    Kind("cost_change", "rules", "change the cost to play or to use an ability"),
    Kind("rule_change", "rules", "another continuous rule change (deck limits, damage, triggers...)"),
    Kind("encore", "your_characters", "アンコール: when the card goes from stage to waiting room, pay the cost to put it back rested"),
    Kind("backup", "your_characters", "助太刀: your battling character gets +N power this turn (a counter)"),
    Kind("great_performance", "rules", "大活躍: the opponent must front-attack this card while it is in the centre front slot"),
    Kind("shift", "you", "シフト: at the start of your main phase swap this clock card with a hand card of its colour"),
    Kind("trigger_effect", "flow", "perform the effect of a trigger icon (standby, gate...) as printed in the reminder"),
    Kind("choose", "flow", "choose cards for the following effects (no move of its own)"),
    Kind("move", "flow", "any other move of cards between zones: params from, to, who, filter"),
    Kind("modal", "flow", "choose one of several effects (params.options, each a list of effects)"),
    Kind("truncated", "flow", "the source text is cut short ('...'): the effects before it compiled, the rest is unknown"),
)

TRIGGERS: tuple[Kind, ...] = (
    Kind("placed", "trigger", "this card (or another character: who) is placed on the stage (from: hand; by: play / change / effect)"),
    Kind("climax_placed", "trigger", "a climax (this one, a named one, any of yours / the opponent's) is placed in the climax zone"),
    Kind("attacks", "trigger", "this card (or another character) attacks (front / side / direct)"),
    Kind("attacked", "trigger", "this card is attacked (front / side)"),
    Kind("reversed", "trigger", "this card (or another character) is reversed"),
    Kind("battle_opponent_reversed", "trigger", "this card's battle opponent is reversed"),
    Kind("leaves_stage", "trigger", "this card (or another) goes from the stage to the waiting room / another zone"),
    Kind("phase", "trigger", "the start / end of a phase or step (whose turn in params)"),
    Kind("damage_cancelled", "trigger", "damage (dealt by this card, or taken by you) is cancelled / not cancelled"),
    Kind("ability_used", "trigger", "a player uses an ability (【起】, 助太刀, 集中, an event, a counter)"),
    Kind("level_up", "trigger", "a player levels up"),
    Kind("trigger_check", "trigger", "a trigger check reveals a climax / a trigger icon"),
    Kind("card_moved", "trigger", "a card is put into a zone (clock, level, memory, stock, hand...) or played"),
    Kind("state_changed", "trigger", "a character becomes rested / standing"),
    Kind("refresh", "trigger", "a player refreshes their deck"),
)

CONDITIONS: tuple[Kind, ...] = (
    Kind("level", "condition", "a player's level compared to N (あなたのレベルが2以上なら)"),
    Kind("count", "condition", "how many cards match a filter in a zone or on the stage, compared to N (≥ 1: exists, 0: none)"),
    Kind("climax_in_zone", "condition", "a climax (named, or any) is in the climax zone (クライマックス置場に「…」があるなら)"),
    Kind("position", "condition", "this card is in a slot / row (前列にこのカードがいるなら, 前列の中央の枠)"),
    Kind("turn", "condition", "whose turn it is (あなたのターン中 / 相手のターン中)"),
    Kind("card_is", "condition", "a chosen / revealed card matches a filter (そのカードが《…》のキャラなら)"),
    Kind("compare", "condition", "an attribute of a card (level, power, cost...) compared to a number or another card's"),
    Kind("level_total", "condition", "経験: the total level of the cards in your level zone compared to N"),
    Kind("in_zone", "condition", "this card is in a zone (top of the clock for アラーム, memory for 記憶, hand, under markers)"),
    Kind("state", "condition", "a card is rested / standing / reversed / battling"),
    Kind("play_requirement", "condition", "this card cannot be played from hand unless the condition holds"),
    Kind("times_per_turn", "condition", "the ability resolves at most N times per turn (N > 1; N = 1 is once_per_turn)"),
    Kind("done", "condition", "the previous optional action was done (そうしたら) / not done (そうしないなら)"),
)

COSTS: tuple[Kind, ...] = (
    Kind("stock", "cost", "pay N stock ((1) = put 1 stock card into the waiting room)"),
    Kind("discard", "cost", "put N cards (matching a filter) from your hand into the waiting room"),
    Kind("discard_this", "cost", "put this card from your hand into the waiting room (助太刀)"),
    Kind("rest", "cost", "rest this card / N of your characters"),
    Kind("this_to_waiting_room", "cost", "put this card from the stage into the waiting room"),
    Kind("memory", "cost", "put this card / cards into memory"),
    Kind("clock_damage", "cost", "put the top card of your deck into your clock"),
    Kind("to_clock", "cost", "put cards (this card, hand cards, stage characters) into your clock"),
    Kind("reveal", "cost", "reveal a card from your hand"),
    Kind("return_this", "cost", "return this card to your hand"),
    Kind("move", "cost", "put cards from a zone into another (waiting room to deck, memory to waiting room, markers...)"),
)

ALL: dict[str, tuple[Kind, ...]] = {"trigger": TRIGGERS, "condition": CONDITIONS, "cost": COSTS, "effect": EFFECTS}


def names(kinds: tuple[Kind, ...]) -> frozenset[str]:
    return frozenset(k.name for k in kinds)


EFFECT_KINDS = names(EFFECTS)
TRIGGER_KINDS = names(TRIGGERS)
CONDITION_KINDS = names(CONDITIONS)
COST_KINDS = names(COSTS)
