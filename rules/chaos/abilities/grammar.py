"""The Chaos effect-text grammar (lark, LALR), compiled once.

The project's Chaos card texts (``fixtures/cards/chaos.json``; the real Korean trial-deck data
has no effect text) are English sentences behind a tag: ``[Always]`` / ``[Ally]`` /
``[Partner]`` (the printed text colours), ``[MAIN]`` / ``[BATTLE]`` (an event's timing),
``【Use】`` (an event's use condition), ``【登場】`` / ``【LEVELUP】`` (summon and level-up
conditions). Japanese tag spellings (``[常時]``, ``【使用】``...) are read as the same tags by the
splitter. Sentences are lower-cased before parsing; names and traits keep their case (the
compiler reads them back from the original text by position).
"""
from __future__ import annotations

from functools import cache

from lark import Lark

GRAMMAR = r"""
start: sentence "."?

sentence: opener* clauses                        -> effect_sentence
        | condition                              -> condition_sentence
        | KEYWORD (":" maintain_cost)?           -> keyword_sentence

opener: "once per turn" ","?                     -> once_per_turn
      | "when" subject event ","                 -> when
      | "at the start of" phase ","              -> at_start
      | "then"                                   -> then

?subject: "this character"                       -> s_this
        | "the equipped character"               -> s_equipped
        | "an opponent's character"              -> s_opponent_character
        | "your partner"                         -> s_partner
        | "it"                                   -> s_it
event: "attacks"                                 -> e_attacks
     | "is summoned"                             -> e_summoned
     | "levels up"                               -> e_levels_up
     | "stuns a character in battle"             -> e_stuns
     | "becomes stunned"                         -> e_stunned
     | "would be stunned"                        -> e_would_be_stunned
?phase: "your turn"                              -> p_turn
      | "your battle phase"                      -> p_battle_phase

clauses: clause (SEP clause)*
SEP: ";" | "." | ", and" | "and" | ","
clause: action
      | "you may" action                         -> may
      | "if you do" "," action                   -> if_done
      | clause "or" action                       -> either

?action: "draw" INT CARDS                         -> draw
       | "each player draws" INT CARDS           -> each_draw
       | "discard" INT CARDS "from your hand"?   -> discard
       | "look at the top" INT? CARDS "of your deck" -> look
       | "choose" INT "of" side "characters" IN_BATTLE?   -> choose_character
       | "choose" INT "character card in your waiting room" -> choose_waiting_room
       | "put" INT "into your hand"              -> put_n_hand
       | "put it into your hand"                 -> put_it_hand
       | "the rest into your waiting room"       -> rest_waiting_room
       | "put this card into your waiting room" INSTEAD? -> this_waiting_room
       | subject "gets" mods UNTIL?              -> gets
       | subject "gains" KEYWORD                 -> gains
       | subject "cannot attack"                 -> cannot_attack
       | "equip to" equip_target                 -> equip
?equip_target: "1 of your characters"            -> eq_own_character
             | "your partner"                    -> eq_partner
?side: "your"                                    -> side_own
     | "your opponent's"                         -> side_opponent

mods: MOD ("and" MOD)*
MOD: /(atk|def)[+\-]\d+/
maintain_cost: "discard" INT CARDS "from your hand"

condition: "your partner is a" TRAIT "character"              -> partner_trait
         | "your partner is" NAME                             -> partner_name
         | "you have" ("a" | "an") TRAIT "character on your field"   -> field_trait_one
         | "you have" INT "or more" TRAIT "characters on your field" -> field_trait_many
         | "you have" NAME "on your field"                     -> field_name

KEYWORD: "penetrate" | "first strike" | "first defense" | "maintain" | "貫通" | "先制攻撃" | "先制防御" | "維持"
CARDS: "cards" | "card"
IN_BATTLE: "in battle"
UNTIL: "until end of turn"
INSTEAD: "instead"
TRAIT: /\[[^\]]+\]/
NAME: /「[^」]+」/
INT: /\d+/
%ignore " "
"""


@cache
def parser() -> Lark:
    """The LALR parser (built on first use, then shared)."""
    return Lark(GRAMMAR, parser="lalr", lexer="contextual", maybe_placeholders=False, propagate_positions=True)
