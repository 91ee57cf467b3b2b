"""Phantasmagoria deck rules: one character ACE and up to 3 EX skills outside the deck, each zone
holding its own card type, and EX skills the ACE can use."""
from __future__ import annotations

from ..construction import DeckState, Problems, deck_rule, plural, problem
from .cards import total_cost

ACE_COUNT = 1
EX_LIMIT = 3


@deck_rule(after="cards")
def cards_in_their_zones(deck: DeckState) -> Problems:
    """EX skills only in the EX zone, a character as the ACE."""
    return [
        *deck.forbid("main", lambda r: r.card_type == "ex_skill",
                     "EX-skill cards may not be in the main deck (put them under # ex)"),
        *deck.forbid("ace", lambda r: r.card_type != "character", "the ACE must be a character card"),
        *deck.forbid("ex", lambda r: r.card_type != "ex_skill", "only EX-skill cards go in the EX-skill zone"),
    ]


@deck_rule(after="size")
def one_ace(deck: DeckState) -> Problems:
    ace_total = deck.total("ace")
    if ace_total == ACE_COUNT:
        return []
    return [problem(
        "ace_count",
        f"a Phantasmagoria deck needs exactly 1 ACE (a character kept outside the deck); this one has {ace_total}",
        deck.zones["ace"], zone="ace", count=ace_total, limit=ACE_COUNT,
    )]


@deck_rule(after="size")
def ex_zone_size(deck: DeckState) -> Problems:
    return deck.over_limit("ex", EX_LIMIT, lambda n: f"{plural(n, 'EX-skill card')} outside the deck")


def ex_skills_usable(deck: DeckState) -> Problems:
    """Warn about EX skills whose usage condition is below the ACE's cost."""
    aces = [deck.own[c] for c in deck.counted("ace") if deck.own[c].card_type == "character"]
    ace_cost = total_cost(aces[0]) if len(aces) == 1 else None
    if ace_cost is None:
        return []
    ace = aces[0]
    out = []
    for code in sorted(deck.counted("ex")):
        rec = deck.own[code]
        if rec.card_type == "ex_skill" and rec.ex_condition is not None and ace_cost > rec.ex_condition:
            out.append(problem(
                "ex_skill_unusable",
                f"{deck.label(code)} needs an ACE of cost ≤ {rec.ex_condition}; "
                f"the ACE {deck.label(ace.code)} costs {ace_cost}, so it can never be used",
                [code, ace.code],
            ))
    return out


CHECKS = (cards_in_their_zones, one_ace, ex_zone_size, ex_skills_usable)
