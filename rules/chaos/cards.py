"""Chaos TCG card checks (after the shared ones in ``rules.cards``)."""
from __future__ import annotations

from .. import games as g
from ..cards import CardInput, Problem, enum_errors, missing_stats


def gender_and_timing(card: CardInput) -> list[Problem]:
    return enum_errors(card, "gender", g.CHAOS_GENDERS) + enum_errors(card, "timing", g.CHAOS_TIMINGS)


def character_stats(card: CardInput) -> list[Problem]:
    ctype = card.card_type
    if ctype not in ("character", "extra"):
        return []
    errors = missing_stats(card, ("atk", "defense"), f"a chaos {ctype} needs {{stat}}")
    if not card.get("person"):
        errors.append(("person", f"a chaos {ctype} needs its name (the part in 【】)"))
    return errors


def extra_persons(card: CardInput) -> list[Problem]:
    is_extra, persons = card.card_type == "extra", card.get("extra_persons")
    if is_extra and not persons:
        return [("extra_persons", "an EXTRA names the persons it is made from")]
    if not is_extra and persons:
        return [("extra_persons", "only EXTRA cards name persons")]
    return []


CHECKS = (gender_and_timing, character_stats, extra_persons)
