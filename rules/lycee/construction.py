"""Lycee deck rules: warn about cost attributes no card of the deck can pay."""
from __future__ import annotations

from collections import defaultdict

from ..construction import DeckState, Problems, plural, problem


def attributes_payable(deck: DeckState) -> Problems:
    """Each attribute symbol in a main-deck cost (other than star) needs a card of that attribute."""
    main = deck.counted("main")
    provided = {a for c in main for a in deck.own[c].attributes}
    needs: dict[str, set[str]] = defaultdict(set)
    for code in main:
        for attr, n in (deck.own[code].cost_detail or {}).items():
            if attr != "star" and int(n) > 0:
                needs[attr].add(code)
    out = []
    for attr in sorted(needs):
        if attr not in provided:
            codes = sorted(needs[attr])
            out.append(problem(
                "attribute_unpayable",
                f"{plural(len(codes), 'card')} cost {attr}, but no card in the deck has the {attr} attribute "
                f"to pay it: {', '.join(deck.label(c) for c in codes)}",
                codes, attribute=attr,
            ))
    return out


CHECKS = (attributes_payable,)
