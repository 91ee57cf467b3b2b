"""Deck construction rules for the five games (GAMES.md "Deck construction"), pure Python.

``validate_deck`` reports every problem at once. Each problem is a dict
``{"code", "message", "cards": [codes], ...}`` with a stable ``code``:

errors: ``parse_error`` (deck text, with ``line``), ``deck_size``, ``copy_limit``, ``unknown_card``,
``wrong_game``, ``zone_not_allowed``, ``zone_size``, ``ace_count``, ``climax_limit``,
``partner_invalid``;
warnings (legal but suspicious): ``climax_count``, ``attribute_unpayable``, ``partner_missing``,
``ex_skill_unusable``.

Decisions where GAMES.md is silent:
- Copies are counted over every physical zone of the deck (main, extra, ACE, EX skills); the
  recorded Chaos partner is a pointer to a main-deck card, not an extra copy.
- Lycee: when cards sharing a name carry different ``copy_limit`` overrides, the largest applies.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from . import games as g
from .cards import CardRecord
from .identity import card_identity, copy_limit

ERROR_CODES: tuple[str, ...] = (
    "parse_error", "deck_size", "copy_limit", "unknown_card", "wrong_game", "zone_not_allowed",
    "zone_size", "ace_count", "climax_limit", "partner_invalid",
)
WARNING_CODES: tuple[str, ...] = ("climax_count", "attribute_unpayable", "partner_missing", "ex_skill_unusable")

# Zones that hold physical cards (the partner zone only records which main-deck card is the partner).
CARD_ZONES = ("main", "extra", "ace", "ex")
ZONE_LABELS = {"main": "main deck", "extra": "extra deck", "ace": "ACE", "ex": "EX skills", "partner": "partner"}
WS_CLIMAX_LIMIT = 8
PHANTASMA_ACE = 1
PHANTASMA_EX_LIMIT = 3
CHAOS_EXTRA_LIMIT = 10

IDENTITY_WORDS = {
    g.PC: "the same work and card number (letter suffixes ignored)",
    g.PHANTASMA: "the same series and number",
    g.WS: "the same name",
    g.CHAOS: "the same card name (title+name for characters)",
    g.LYCEE: "the same name",
}


def _label(code: str, cards: Mapping[str, CardRecord]) -> str:
    rec = cards.get(code)
    return f"{rec.name} ({code})" if rec is not None and rec.name else code


def _problem(code: str, message: str, cards: Iterable[str] = (), **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"code": code, "message": message, "cards": sorted(set(cards))}
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else ("es" if word.endswith("x") else "s"))


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
    const = g.CONSTANTS[game]
    gname = g.GAME_NAMES[game]
    allowed_zones = g.GAME_ZONES[game]
    errors: list[dict[str, Any]] = [dict(e) for e in parse_errors]
    warnings: list[dict[str, Any]] = []

    zc: dict[str, dict[str, int]] = {
        zone: {code: int(n) for code, n in (zones.get(zone) or {}).items() if int(n) > 0} for zone in g.ZONES
    }

    # -- partner (Chaos) --------------------------------------------------------------------------
    partner_codes = list(zc["partner"])
    if partner:
        if partner not in partner_codes:
            partner_codes.append(partner)
    elif partner_codes:
        partner = partner_codes[0]

    # -- zones the game does not have ------------------------------------------------------------
    for zone in g.ZONES:
        if zc[zone] and zone not in allowed_zones:
            n = sum(zc[zone].values())
            errors.append(_problem(
                "zone_not_allowed",
                f"{gname} decks have no {ZONE_LABELS[zone]} zone, but {_plural(n, 'card')} "
                f"{'is' if n == 1 else 'are'} listed there: {', '.join(_label(c, cards) for c in sorted(zc[zone]))}",
                zc[zone], zone=zone, count=n,
            ))
    if game == g.CHAOS and len(partner_codes) > 1:
        errors.append(_problem(
            "partner_invalid",
            f"a deck records one partner, not {len(partner_codes)}: {', '.join(_label(c, cards) for c in partner_codes)}",
            partner_codes, zone="partner",
        ))

    # -- unknown codes and cards of another game ------------------------------------------------
    own: dict[str, CardRecord] = {}
    for zone in CARD_ZONES:
        for code, n in sorted(zc[zone].items()):
            rec = cards.get(code)
            if rec is None:
                errors.append(_problem(
                    "unknown_card", f"unknown card code {code} ({n}× in the {ZONE_LABELS[zone]}): not in the {gname} catalog",
                    [code], zone=zone, count=n,
                ))
            elif rec.game != game:
                errors.append(_problem(
                    "wrong_game",
                    f"{_label(code, cards)} is a {g.GAME_NAMES.get(rec.game, rec.game)} card, not a {gname} card "
                    f"({n}× in the {ZONE_LABELS[zone]})",
                    [code], zone=zone, count=n, card_game=rec.game,
                ))
            else:
                own[code] = rec

    def counted(zone: str) -> dict[str, int]:
        return {c: n for c, n in zc[zone].items() if c in own} if zone in allowed_zones else {}

    main = zc["main"]
    main_total = sum(main.values())

    # -- card types per zone ---------------------------------------------------------------------
    def forbid(zone: str, test, why: str) -> None:
        bad = {c: n for c, n in counted(zone).items() if test(own[c])}
        if bad:
            n = sum(bad.values())
            errors.append(_problem(
                "zone_not_allowed",
                f"{why}: {', '.join(f'{bad[c]}× {_label(c, cards)}' for c in sorted(bad))}",
                bad, zone=zone, count=n,
            ))

    if game == g.PHANTASMA:
        forbid("main", lambda r: r.card_type == "ex_skill", "EX-skill cards may not be in the main deck (put them under # ex)")
        forbid("ace", lambda r: r.card_type != "character", "the ACE must be a character card")
        forbid("ex", lambda r: r.card_type != "ex_skill", "only EX-skill cards go in the EX-skill zone")
    elif game == g.CHAOS:
        forbid("main", lambda r: r.card_type == "extra", "EXTRA cards may not be in the main deck (put them under # extra)")
        forbid("extra", lambda r: r.card_type != "extra", "the extra deck holds EXTRA cards only")

    # -- sizes -------------------------------------------------------------------------------------
    if main_total != const.deck_size:
        diff = main_total - const.deck_size
        errors.append(_problem(
            "deck_size",
            f"the main deck has {_plural(main_total, 'card')}; a {gname} deck needs exactly {const.deck_size} "
            f"({abs(diff)} {'too many' if diff > 0 else 'missing'})",
            (), zone="main", count=main_total, limit=const.deck_size,
        ))
    if game == g.PHANTASMA:
        ace_total = sum(zc["ace"].values())
        if ace_total != PHANTASMA_ACE:
            errors.append(_problem(
                "ace_count",
                f"a Phantasmagoria deck needs exactly 1 ACE (a character kept outside the deck); this one has {ace_total}",
                zc["ace"], zone="ace", count=ace_total, limit=PHANTASMA_ACE,
            ))
        ex_total = sum(zc["ex"].values())
        if ex_total > PHANTASMA_EX_LIMIT:
            errors.append(_problem(
                "zone_size",
                f"{_plural(ex_total, 'EX-skill card')} outside the deck; at most {PHANTASMA_EX_LIMIT} are allowed",
                zc["ex"], zone="ex", count=ex_total, limit=PHANTASMA_EX_LIMIT,
            ))
    if game == g.CHAOS:
        extra_total = sum(zc["extra"].values())
        if extra_total > CHAOS_EXTRA_LIMIT:
            errors.append(_problem(
                "zone_size",
                f"the extra deck has {_plural(extra_total, 'card')}; at most {CHAOS_EXTRA_LIMIT} are allowed",
                zc["extra"], zone="extra", count=extra_total, limit=CHAOS_EXTRA_LIMIT,
            ))

    # -- copy limit ------------------------------------------------------------------------------
    groups: dict[str, dict[str, int]] = defaultdict(dict)
    for zone in CARD_ZONES:
        for code, n in counted(zone).items():
            ident = card_identity(own[code])
            groups[ident][code] = groups[ident].get(code, 0) + n
    for ident, members in sorted(groups.items()):
        total = sum(members.values())
        limit = max(copy_limit(own[c]) for c in members)
        if total > limit:
            parts = ", ".join(f"{members[c]}× {_label(c, cards)}" for c in sorted(members))
            label = own[sorted(members)[0]].name or ident
            errors.append(_problem(
                "copy_limit",
                f"{total} copies of {label!r} ({parts}); at most {limit} of {IDENTITY_WORDS[game]} are allowed",
                members, count=total, limit=limit, identity=ident,
            ))

    # -- WS climaxes ---------------------------------------------------------------------------
    climaxes = 0
    if game == g.WS:
        climax_cards = {c: n for c, n in counted("main").items() if own[c].card_type == "climax"}
        climaxes = sum(climax_cards.values())
        if climaxes > WS_CLIMAX_LIMIT:
            errors.append(_problem(
                "climax_limit",
                f"{_plural(climaxes, 'climax')} in the deck; at most {WS_CLIMAX_LIMIT} are allowed",
                climax_cards, zone="main", count=climaxes, limit=WS_CLIMAX_LIMIT,
            ))
        elif climaxes < WS_CLIMAX_LIMIT:
            warnings.append(_problem(
                "climax_count",
                f"only {_plural(climaxes, 'climax')}; decks usually play {WS_CLIMAX_LIMIT} "
                "(fewer climaxes cancel less damage and trigger less)",
                climax_cards, count=climaxes, limit=WS_CLIMAX_LIMIT,
            ))

    # -- Chaos partner -------------------------------------------------------------------------
    if game == g.CHAOS and len(partner_codes) <= 1:
        if partner:
            rec = cards.get(partner)
            if rec is None or rec.game != game:
                why = "is not a known Chaos card" if rec is None else f"is a {g.GAME_NAMES.get(rec.game, rec.game)} card"
                errors.append(_problem("partner_invalid", f"the partner {_label(partner, cards)} {why}; "
                                       "it must be a character of the main deck", [partner], zone="partner"))
            elif rec.card_type != "character":
                errors.append(_problem("partner_invalid", f"the partner {_label(partner, cards)} is {_a(rec.card_type)} card; "
                                       "it must be a character of the main deck", [partner], zone="partner"))
            elif partner not in main:
                errors.append(_problem("partner_invalid", f"the partner {_label(partner, cards)} is not in the main deck; "
                                       "it must be a character of the main deck", [partner], zone="partner"))
            elif zc["partner"].get(partner, 1) > 1:
                errors.append(_problem("partner_invalid", f"record the partner once (got {zc['partner'][partner]}× "
                                       f"{_label(partner, cards)})", [partner], zone="partner"))
        else:
            warnings.append(_problem("partner_missing", "no partner recorded; add a '# partner' section naming "
                                     "one character of the main deck", ()))

    # -- Phantasmagoria EX skills vs the ACE ---------------------------------------------------
    if game == g.PHANTASMA:
        aces = [own[c] for c in counted("ace") if own[c].card_type == "character"]
        if len(aces) == 1 and aces[0].cost is not None:
            ace = aces[0]
            for code in sorted(counted("ex")):
                rec = own[code]
                if rec.card_type == "ex_skill" and rec.ex_condition is not None and ace.cost > rec.ex_condition:
                    warnings.append(_problem(
                        "ex_skill_unusable",
                        f"{_label(code, cards)} needs an ACE of cost ≤ {rec.ex_condition}; "
                        f"the ACE {_label(ace.code, cards)} costs {ace.cost}, so it can never be used",
                        [code, ace.code],
                    ))

    # -- Lycee: cost attributes nothing in the deck can pay ------------------------------------
    if game == g.LYCEE:
        provided = {a for c in counted("main") for a in own[c].attributes}
        needs: dict[str, set[str]] = defaultdict(set)
        for code in counted("main"):
            for attr, n in (own[code].cost_detail or {}).items():
                if attr != "star" and int(n) > 0:
                    needs[attr].add(code)
        for attr in sorted(needs):
            if attr not in provided:
                codes = sorted(needs[attr])
                warnings.append(_problem(
                    "attribute_unpayable",
                    f"{_plural(len(codes), 'card')} cost {attr}, but no card in the deck has the {attr} attribute "
                    f"to pay it: {', '.join(_label(c, cards) for c in codes)}",
                    codes, attribute=attr,
                ))

    # -- summary ---------------------------------------------------------------------------------
    types: dict[str, int] = defaultdict(int)
    for code, n in main.items():
        rec = own.get(code)
        types[rec.card_type if rec else "unknown"] += n
    summary: dict[str, Any] = {
        "game": game,
        "deck_size": const.deck_size,
        "main": main_total,
        "zones": {zone: sum(zc[zone].values()) for zone in g.ZONES if zc[zone]},
        "types": dict(sorted(types.items())),
    }
    if game == g.WS:
        summary["climaxes"] = climaxes
    if game == g.CHAOS:
        summary["partner"] = partner
    return {"valid": not errors, "errors": errors, "warnings": warnings, "summary": summary}
