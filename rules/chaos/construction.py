"""Chaos TCG deck rules: EXTRA cards only in the extra deck (at most 10), and one partner, a
character of the main deck; the summary names the partner."""
from __future__ import annotations

from typing import Any

from .. import games as g
from ..construction import DeckState, Problems, article, deck_rule, plural, problem

EXTRA_LIMIT = 10
_PARTNER_MUST = "it must be a character of the main deck"


@deck_rule(after="zones")
def one_partner(deck: DeckState) -> Problems:
    codes = deck.partner_codes
    if len(codes) <= 1:
        return []
    return [problem(
        "partner_invalid",
        f"a deck records one partner, not {len(codes)}: {', '.join(deck.label(c) for c in codes)}",
        codes, zone="partner",
    )]


@deck_rule(after="cards")
def extras_in_extra_deck(deck: DeckState) -> Problems:
    """EXTRA cards in the extra deck, and nothing else there."""
    return [
        *deck.forbid("main", lambda r: r.card_type == "extra",
                     "EXTRA cards may not be in the main deck (put them under # extra)"),
        *deck.forbid("extra", lambda r: r.card_type != "extra", "the extra deck holds EXTRA cards only"),
    ]


@deck_rule(after="size")
def extra_deck_size(deck: DeckState) -> Problems:
    return deck.over_limit("extra", EXTRA_LIMIT, lambda n: f"the extra deck has {plural(n, 'card')}")


def _partner_fault(deck: DeckState, partner: str) -> str | None:
    rec = deck.cards.get(partner)
    name = deck.label(partner)
    if rec is None or rec.game != deck.game:
        why = "is not a known Chaos card" if rec is None else f"is a {g.GAME_NAMES.get(rec.game, rec.game)} card"
        return f"the partner {name} {why}; {_PARTNER_MUST}"
    if rec.card_type != "character":
        return f"the partner {name} is {article(rec.card_type)} card; {_PARTNER_MUST}"
    if partner not in deck.main:
        return f"the partner {name} is not in the main deck; {_PARTNER_MUST}"
    if deck.zones["partner"].get(partner, 1) > 1:
        return f"record the partner once (got {deck.zones['partner'][partner]}× {name})"
    return None


def partner_valid(deck: DeckState) -> Problems:
    """The one recorded partner is a character of the main deck; no partner is a warning."""
    if len(deck.partner_codes) > 1:
        return []  # one_partner reported it
    if not deck.partner:
        return [problem("partner_missing", "no partner recorded; add a '# partner' section naming "
                        "one character of the main deck", ())]
    fault = _partner_fault(deck, deck.partner)
    return [problem("partner_invalid", fault, [deck.partner], zone="partner")] if fault else []


def summary(deck: DeckState) -> dict[str, Any]:
    return {"partner": deck.partner}


CHECKS = (one_partner, extras_in_extra_deck, extra_deck_size, partner_valid)
