"""Deck construction rules for the five games (GAMES.md "Deck construction"), pure Python.

``validate_deck`` reports every problem at once. Each problem is a dict
``{"code", "message", "cards": [codes], ...}`` with a stable ``code``:

errors: ``parse_error`` (deck text, with ``line``), ``deck_size``, ``copy_limit``, ``unknown_card``,
``wrong_game``, ``zone_not_allowed``, ``zone_size``, ``ace_count``, ``climax_limit``,
``partner_invalid``, ``construction_restriction`` (lycee: a card's printed 構築制限);
warnings (legal but suspicious): ``climax_count``, ``attribute_unpayable``, ``partner_missing``,
``ex_skill_unusable``.

Decisions where GAMES.md is silent:
- Copies are counted over every physical zone of the deck (main, extra, ACE, EX skills); the
  recorded Chaos partner is a pointer to a main-deck card, not an extra copy.
- Lycee: when cards sharing a name carry different ``copy_limit`` overrides, the largest applies.

The shared checks (zones the game has, unknown and other-game cards, deck size, copy limit) live
here; each game's own rules are small functions in ``rules/<game>/construction.py``, listed in its
``GameSpec.deck_checks`` and run after the shared check named by ``deck_rule(after=...)``. A
problem whose code is in ``WARNING_CODES`` is a warning, any other an error.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import games as g
from .cards import CardRecord
from .registry import DeckCheck, GameSpec, get_spec

ERROR_CODES: tuple[str, ...] = (
    "parse_error", "deck_size", "copy_limit", "unknown_card", "wrong_game", "zone_not_allowed",
    "zone_size", "ace_count", "climax_limit", "partner_invalid", "construction_restriction",
)
WARNING_CODES: tuple[str, ...] = ("climax_count", "attribute_unpayable", "partner_missing", "ex_skill_unusable")

# Zones that hold physical cards (the partner zone only records which main-deck card is the partner).
CARD_ZONES = ("main", "extra", "ace", "ex")
ZONE_LABELS = {"main": "main deck", "extra": "extra deck", "ace": "ACE", "ex": "EX skills", "partner": "partner"}

Problems = list[dict[str, Any]]
# The shared checks a game's deck rule may follow (``deck_rule(after=...)``), in the order they run.
STAGES: tuple[str, ...] = ("zones", "cards", "size", "copies")


def label(code: str, cards: Mapping[str, CardRecord]) -> str:
    """``Name (CODE)`` for a known code, else the code."""
    rec = cards.get(code)
    return f"{rec.name} ({code})" if rec is not None and rec.name else code


def problem(code: str, message: str, cards: Iterable[str] = (), **extra: Any) -> dict[str, Any]:
    """One problem dict: ``code``, ``message``, the sorted card codes, then ``extra`` keys that are not None."""
    out: dict[str, Any] = {"code": code, "message": message, "cards": sorted(set(cards))}
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def article(word: str) -> str:
    """The word with its article: ``a character``, ``an event``."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``, ``2 climaxes``."""
    return f"{n} {word}" + ("" if n == 1 else ("es" if word.endswith("x") else "s"))


def deck_rule(after: str) -> Callable[[DeckCheck], DeckCheck]:
    """Mark a game's deck rule to run right after the shared check ``after`` (one of ``STAGES``);
    an unmarked rule runs after the copy limit."""
    if after not in STAGES:
        raise ValueError(f"unknown stage {after!r}; expected one of {', '.join(STAGES)}")

    def mark(check: DeckCheck) -> DeckCheck:
        check.after = after  # type: ignore[attr-defined]
        return check
    return mark


@dataclass
class DeckState:
    """The deck under validation, as every deck rule reads it."""

    spec: GameSpec
    zones: dict[str, dict[str, int]]  # every zone of games.ZONES -> {code: count > 0}
    cards: Mapping[str, CardRecord]  # every record given (other games' too)
    partner: str | None
    partner_codes: list[str]
    own: dict[str, CardRecord]  # the deck's codes that are cards of this game

    @property
    def game(self) -> str:
        return self.spec.game

    @property
    def main(self) -> dict[str, int]:
        return self.zones["main"]

    def total(self, zone: str) -> int:
        return sum(self.zones[zone].values())

    def counted(self, zone: str) -> dict[str, int]:
        """The zone's cards of this game, or nothing when the game has no such zone."""
        return {c: n for c, n in self.zones[zone].items() if c in self.own} if zone in self.spec.zones else {}

    def label(self, code: str) -> str:
        return label(code, self.cards)

    def over_limit(self, zone: str, limit: int, describe: Callable[[int], str]) -> Problems:
        """``zone_size`` when ``zone`` holds more than ``limit`` cards: ``describe(total); at most ...``."""
        total = self.total(zone)
        if total <= limit:
            return []
        return [problem("zone_size", f"{describe(total)}; at most {limit} are allowed",
                        self.zones[zone], zone=zone, count=total, limit=limit)]

    def forbid(self, zone: str, test: Callable[[CardRecord], bool], why: str) -> Problems:
        """``zone_not_allowed`` for the cards of ``zone`` that pass ``test``."""
        bad = {c: n for c, n in self.counted(zone).items() if test(self.own[c])}
        if not bad:
            return []
        return [problem("zone_not_allowed", f"{why}: {', '.join(f'{bad[c]}× {self.label(c)}' for c in sorted(bad))}",
                        bad, zone=zone, count=sum(bad.values()))]


def _deck_state(spec: GameSpec, zones: Mapping[str, Mapping[str, int]], cards: Mapping[str, CardRecord],
                partner: str | None) -> DeckState:
    zc = {zone: {code: int(n) for code, n in (zones.get(zone) or {}).items() if int(n) > 0} for zone in g.ZONES}
    partner_codes = list(zc["partner"])
    if partner:
        if partner not in partner_codes:
            partner_codes.append(partner)
    elif partner_codes:
        partner = partner_codes[0]
    own = {code: rec for zone in CARD_ZONES for code in zc[zone]
           if (rec := cards.get(code)) is not None and rec.game == spec.game}
    return DeckState(spec, zc, cards, partner, partner_codes, own)


# -- the shared checks -------------------------------------------------------------------------------
def zones_allowed(deck: DeckState) -> Problems:
    """Cards listed in a zone the game does not have."""
    out = []
    for zone in g.ZONES:
        codes = deck.zones[zone]
        if codes and zone not in deck.spec.zones:
            n = sum(codes.values())
            out.append(problem(
                "zone_not_allowed",
                f"{deck.spec.name} decks have no {ZONE_LABELS[zone]} zone, but {plural(n, 'card')} "
                f"{'is' if n == 1 else 'are'} listed there: {', '.join(deck.label(c) for c in sorted(codes))}",
                codes, zone=zone, count=n,
            ))
    return out


def known_cards(deck: DeckState) -> Problems:
    """Codes not in the catalog, and cards of another game."""
    out = []
    gname = deck.spec.name
    for zone in CARD_ZONES:
        for code, n in sorted(deck.zones[zone].items()):
            rec = deck.cards.get(code)
            if rec is None:
                out.append(problem(
                    "unknown_card", f"unknown card code {code} ({n}× in the {ZONE_LABELS[zone]}): not in the {gname} catalog",
                    [code], zone=zone, count=n,
                ))
            elif rec.game != deck.game:
                out.append(problem(
                    "wrong_game",
                    f"{deck.label(code)} is a {g.GAME_NAMES.get(rec.game, rec.game)} card, not a {gname} card "
                    f"({n}× in the {ZONE_LABELS[zone]})",
                    [code], zone=zone, count=n, card_game=rec.game,
                ))
    return out


def deck_size(deck: DeckState) -> Problems:
    """The main deck holds exactly the game's deck size."""
    main_total, size = deck.total("main"), deck.spec.constants.deck_size
    if main_total == size:
        return []
    diff = main_total - size
    return [problem(
        "deck_size",
        f"the main deck has {plural(main_total, 'card')}; a {deck.spec.name} deck needs exactly {size} "
        f"({abs(diff)} {'too many' if diff > 0 else 'missing'})",
        (), zone="main", count=main_total, limit=size,
    )]


def copies(deck: DeckState) -> Problems:
    """At most the copy limit of each identity, counted over every physical zone (the game's
    ``copy_zones`` when it names them: Phantasmagoria counts the main deck only)."""
    spec = deck.spec
    groups: dict[str, dict[str, int]] = defaultdict(dict)
    for zone in spec.copy_zones or CARD_ZONES:
        for code, n in deck.counted(zone).items():
            ident = spec.identity(deck.own[code])
            groups[ident][code] = groups[ident].get(code, 0) + n
    out = []
    for ident, members in sorted(groups.items()):
        total = sum(members.values())
        limit = max(spec.copy_limit(deck.own[c]) for c in members)
        if total > limit:
            parts = ", ".join(f"{members[c]}× {deck.label(c)}" for c in sorted(members))
            name = deck.own[sorted(members)[0]].name or ident
            out.append(problem(
                "copy_limit",
                f"{total} copies of {name!r} ({parts}); at most {limit} of {spec.identity_words} are allowed",
                members, count=total, limit=limit, identity=ident,
            ))
    return out


SHARED_DECK_CHECKS: dict[str, DeckCheck] = {"zones": zones_allowed, "cards": known_cards, "size": deck_size,
                                            "copies": copies}


def deck_checks(spec: GameSpec) -> list[DeckCheck]:
    """The shared checks and the game's rules, in the order they run."""
    order: list[DeckCheck] = []
    for stage in STAGES:
        order.append(SHARED_DECK_CHECKS[stage])
        order += [c for c in spec.deck_checks if getattr(c, "after", "copies") == stage]
    return order


def _summary(deck: DeckState) -> dict[str, Any]:
    types: dict[str, int] = defaultdict(int)
    for code, n in deck.main.items():
        rec = deck.own.get(code)
        types[rec.card_type if rec else "unknown"] += n
    return {
        "game": deck.game,
        "deck_size": deck.spec.constants.deck_size,
        "main": deck.total("main"),
        "zones": {zone: deck.total(zone) for zone in g.ZONES if deck.zones[zone]},
        "types": dict(sorted(types.items())),
        **deck.spec.deck_summary(deck),
    }


def validate_deck(
    game: str,
    zones: Mapping[str, Mapping[str, int]],
    cards: Mapping[str, CardRecord],
    partner: str | None = None,
    parse_errors: Iterable[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """Check a deck. ``zones`` = ``{zone: {code: count}}``; ``cards`` maps codes to catalog records
    (a record of another game means the code belongs to that game; a missing code is unknown).
    ``partner`` (Chaos) may also be given as the single card of ``zones["partner"]``.
    ``parse_errors`` (e.g. ``LineError.as_dict()``) are reported first, as errors.

    Returns ``{"valid", "errors", "warnings", "summary"}``.
    """
    if game not in g.GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(g.GAMES)}")
    spec = get_spec(game)
    deck = _deck_state(spec, zones, cards, partner)
    errors: Problems = [dict(e) for e in parse_errors]
    warnings: Problems = []
    for check in deck_checks(spec):
        for found in check(deck):
            (warnings if found["code"] in WARNING_CODES else errors).append(found)
    return {"valid": not errors, "errors": errors, "warnings": warnings, "summary": _summary(deck)}
