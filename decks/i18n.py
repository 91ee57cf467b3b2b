"""Deck validation messages in the user's language.

``rules.construction`` is pure Python (no Django) and writes English messages; every problem also
carries a stable ``code`` and structured fields (``count``, ``limit``, ``zone``, ``cards``,
``line``...). Here each code has a message template that gettext translates; the template is filled
from those fields. In English (no translation) the rules' own, more detailed message is kept, so
the English text never changes. The ``code`` and every other key are left untouched.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_noop, pgettext

from rules import games as g

# code -> message template (English source; the .po files hold the translations).
TEMPLATES: dict[str, str] = {
    "parse_error": gettext_noop("cannot read this line: “%(text)s”"),
    "deck_size": gettext_noop("the main deck has %(count)s cards; a %(game)s deck needs exactly %(limit)s"),
    "copy_limit": gettext_noop("%(count)s copies of %(cards)s; at most %(limit)s are allowed"),
    "unknown_card": gettext_noop("unknown card code %(cards)s (%(count)s× in the %(zone)s): not in the %(game)s catalog"),
    "wrong_game": gettext_noop("%(cards)s is a %(card_game)s card, not a %(game)s card (%(count)s× in the %(zone)s)"),
    "zone_not_allowed": gettext_noop("%(game)s decks cannot hold these cards in the %(zone)s: %(cards)s"),
    "zone_size": gettext_noop("the %(zone)s has %(count)s cards; at most %(limit)s are allowed"),
    "ace_count": gettext_noop("a Phantasmagoria deck needs exactly 1 ACE (a character kept outside the deck); "
                              "this one has %(count)s"),
    "climax_limit": gettext_noop("%(count)s climaxes in the deck; at most %(limit)s are allowed"),
    "partner_invalid": gettext_noop("the partner %(cards)s is not valid: record exactly one character of the "
                                    "main deck as the partner"),
    "climax_count": gettext_noop("only %(count)s climaxes; decks usually play %(limit)s (fewer climaxes "
                                 "cancel less damage and trigger less)"),
    "attribute_unpayable": gettext_noop("these cards cost an attribute that no card in the deck has, so they "
                                        "cannot be paid: %(cards)s"),
    "partner_missing": gettext_noop("no partner recorded; add a '# partner' section naming one character of "
                                    "the main deck"),
    "ex_skill_unusable": gettext_noop("%(cards)s needs an ACE of lower cost than this deck's ACE, so it can "
                                      "never be used"),
    "banned": gettext_noop("banned in %(format)s: %(cards)s"),
    "restricted": gettext_noop("restricted in %(format)s: at most %(limit)s of %(cards)s, the deck has %(count)s"),
    "not_in_format": gettext_noop("not in %(format)s: %(cards)s"),
}


def zone_label(zone: str) -> str:
    labels = {
        "main": pgettext("zone", "main deck"), "extra": pgettext("zone", "extra deck"),
        "ace": pgettext("zone", "ACE"), "ex": pgettext("zone", "EX skills"), "partner": pgettext("zone", "partner"),
    }
    return labels.get(zone, zone)


def problem_message(problem: Mapping[str, Any], game: str) -> str:
    """``problem["message"]`` in the active language (the rules' English message when untranslated)."""
    template = TEMPLATES.get(str(problem.get("code")))
    if template is None:
        return str(problem.get("message", ""))
    translated = gettext(template)
    if translated == template:  # English, or a language without this message: keep the detailed text
        return str(problem.get("message", ""))
    params = {
        "count": problem.get("count", ""),
        "limit": problem.get("limit", ""),
        "zone": zone_label(str(problem.get("zone", "main"))),
        "cards": "、".join(problem.get("cards") or ()) or "–",
        "game": g.GAME_NAMES.get(game, game),
        "card_game": g.GAME_NAMES.get(str(problem.get("card_game", "")), problem.get("card_game", "")),
        "text": str(problem.get("text", "")).strip() or problem.get("message", ""),
        "line": problem.get("line", ""),
        "format": problem.get("format_name", problem.get("format", "")),
    }
    try:
        return translated % params
    except (KeyError, TypeError, ValueError):  # a broken translation never hides the problem
        return str(problem.get("message", ""))


def report_localize(report: dict[str, Any], game: str) -> dict[str, Any]:
    """A copy of a ``validate_deck`` report whose error and warning messages are in the active language."""
    out = dict(report)
    for key in ("errors", "warnings"):
        if key in report:
            out[key] = [{**p, "message": problem_message(p, game)} for p in report[key]]
    return out
