"""Lycee deck rules: cost attributes no card of the deck can pay (warning), and the construction
restrictions (構築制限) Lycee Overture cards print (error ``construction_restriction``).

A restriction is read by ``rules.lycee.restrictions`` (``構築制限:【[AMC]】【[月]】``, 1,191 real
cards) and checked against the main deck:

- ``attribute``: every card of the deck has one of the attributes (colourless cards too);
- ``cost``: every character (or card) of the deck costs within the range;
- ``requires`` / ``at_most``: the deck holds at least / at most N cards matching (a name, or an
  attribute and a card type);
- ``forbid``: no card of the deck matches (``禁止:アイテム``, ``禁止:コストが3点以下のエリア``);
- ``brand`` / ``title``: every card of the deck is of the brand / work. The card data holds neither
  a card's brand nor its work, so the only cards known to be of another one are cards whose own
  restriction confines them to it (``[NEX]`` next to ``[AQP]``): those are reported;
- ``any_of`` / ``all_of``: one / all of the entries;
- ``copy_limit`` (``このカードと同番号が1枚以下``) is the card's copy limit, checked with the others
  (``copy_limit``).

What cannot be decided from the data (a work or brand of a card that prints none, a ``禁止`` card
the noun-phrase grammar cannot read, ``「A」「B」…のいずれか``) is not reported.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..cards import CardRecord
from ..construction import DeckState, Problems, plural, problem
from .cardmatch import card_names, matches, squash, stat_of

if TYPE_CHECKING:
    from .restrictions import Restriction

RESTRICTION_CODE = "construction_restriction"


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


def card_restriction(card: CardRecord) -> Restriction | None:
    """The 構築制限 a card prints, parsed (``None`` when it prints none)."""
    if "構築制限" not in card.text:
        return None
    from .restrictions import restriction_of_text  # lark: imported when a deck has such a card

    return restriction_of_text(card.text, card.card_type)


def _own_groups(rule: Mapping[str, Any] | None, kind: str) -> set[str]:
    """The brands / works a card's restriction confines it to (top-level entries, not alternatives)."""
    if rule is None:
        return set()
    entries = rule["of"] if rule.get("kind") == "all_of" else [rule]
    return {_group_key(e) for e in entries if e.get("kind") == kind}


def _group_key(entry: Mapping[str, Any]) -> str:
    return str(entry.get("code") or entry.get("name") or "")


class _Check:
    """One deck's cards, what each is confined to, and the checks of each restriction kind."""

    def __init__(self, deck: DeckState) -> None:
        self.main = deck.counted("main")
        self.own = deck.own
        self.label = deck.label
        self.restrictions = {code: card_restriction(deck.own[code]) for code in self.main}
        self.groups = {kind: {code: _own_groups(r.rule if r else None, kind) for code, r in self.restrictions.items()}
                       for kind in ("brand", "title")}

    def failures(self, rule: Mapping[str, Any]) -> list[tuple[str, list[str]]] | None:
        """``None`` when ``rule`` holds (or cannot be decided), else ``[(why, offending codes)]``."""
        kind = rule.get("kind")
        if kind == "all_of":
            out = [f for sub in rule.get("of", ()) for f in (self.failures(sub) or ())]
            return out or None
        if kind == "any_of":
            subs = list(rule.get("of", ()))
            if subs and all(sub.get("kind") == "attribute" for sub in subs):  # [雪]または[日]: each card one of them
                return self._attribute({"attributes": [a for sub in subs for a in sub.get("attributes", ())]})
            found = []
            for sub in rule.get("of", ()):
                failed = self.failures(sub)
                if failed is None:
                    return None
                found.extend(failed)
            whys = " or ".join(why for why, _ in found)
            return [(f"one of: {whys}", sorted({c for _, codes in found for c in codes}))]
        check = getattr(self, f"_{kind}", None)
        return check(rule) if check is not None else None

    def _attribute(self, rule: Mapping[str, Any]) -> list[tuple[str, list[str]]] | None:
        attrs = list(rule.get("attributes", ()))
        bad = [c for c in self.main if not any(a in self.own[c].attributes for a in attrs)]
        return [(f"every card must have the {' or '.join(attrs)} attribute", bad)] if bad else None

    def _cost(self, rule: Mapping[str, Any]) -> list[tuple[str, list[str]]] | None:
        lo, hi, what = rule.get("min"), rule.get("max"), rule.get("what", "card")
        bad = []
        for code in self.main:
            card = self.own[code]
            if what == "character" and card.card_type != "character":
                continue
            cost = stat_of(card, "cost") or 0
            if (lo is not None and cost < int(lo)) or (hi is not None and cost > int(hi)):
                bad.append(code)
        if not bad:
            return None
        span = f"{lo}–{hi}" if lo is not None and hi is not None else (f"{lo} or more" if lo is not None else f"{hi} or less")
        return [(f"every {'character' if what == 'character' else 'card'} must cost {span}", bad)]

    def _count(self, target: Mapping[str, Any]) -> tuple[int, list[str]] | None:
        if "name" in target:
            name = squash(str(target["name"]))
            codes = [c for c in self.main if name in card_names(self.own[c])]
        else:
            sel = {"type": "card", **{k: v for k, v in target.items() if k != "name"}}
            found = [(c, matches(sel, self.own[c])) for c in self.main]
            if any(m is None for _, m in found):
                return None
            codes = [c for c, m in found if m]
        return sum(self.main[c] for c in codes), codes

    @staticmethod
    def _describe(target: Mapping[str, Any]) -> str:
        if "name" in target:
            return f"「{target['name']}」"
        attrs = "/".join(target.get("attributes", ()))
        return f"{attrs} {target.get('what', 'card')}".strip()

    def _requires(self, rule: Mapping[str, Any]) -> list[tuple[str, list[str]]] | None:
        counted = self._count(rule["card"])
        if counted is None or counted[0] >= int(rule["min"]):
            return None
        return [(f"the deck needs at least {rule['min']} × {self._describe(rule['card'])} (it has {counted[0]})", [])]

    def _at_most(self, rule: Mapping[str, Any]) -> list[tuple[str, list[str]]] | None:
        counted = self._count(rule["card"])
        if counted is None or counted[0] <= int(rule["max"]):
            return None
        return [(f"the deck may hold at most {rule['max']} × {self._describe(rule['card'])} (it has {counted[0]})",
                 counted[1])]

    def _forbid(self, rule: Mapping[str, Any]) -> list[tuple[str, list[str]]] | None:
        sel = rule.get("card")
        if sel is None:
            return None
        bad = [c for c in self.main if matches(sel, self.own[c]) is True]
        return [("forbidden cards", bad)] if bad else None

    def _group(self, rule: Mapping[str, Any], kind: str, word: str) -> list[tuple[str, list[str]]] | None:
        key = _group_key(rule)
        bad = [c for c, own in self.groups[kind].items() if own and key not in own]
        if not bad:
            return None
        return [(f"every card must be of the {word} {key} (these are confined to another {word})", bad)]

    def _brand(self, rule: Mapping[str, Any]) -> list[tuple[str, list[str]]] | None:
        return self._group(rule, "brand", "brand")

    def _title(self, rule: Mapping[str, Any]) -> list[tuple[str, list[str]]] | None:
        return self._group(rule, "title", "work")


def printed_restrictions(deck: DeckState) -> Problems:
    """The 構築制限 each main-deck card prints holds for the deck (see the module docstring)."""
    main = deck.counted("main")
    if not any("構築制限" in deck.own[c].text for c in main):
        return []
    check = _Check(deck)
    out = []
    for code in sorted(main):
        r = check.restrictions[code]
        if r is None or r.rule is None:
            continue
        for why, bad in check.failures(r.rule) or ():
            listed = ", ".join(f"{main[c]}× {deck.label(c)}" for c in sorted(bad) if c != code)
            out.append(problem(
                RESTRICTION_CODE,
                f"{deck.label(code)} prints 構築制限 {r.text}: {why}" + (f": {listed}" if listed else ""),
                [code, *bad], restriction=r.text,
            ))
    return out


CHECKS = (attributes_payable, printed_restrictions)
