"""Query-language error messages in the user's language.

``catalog.search`` raises ``QueryError(code, message, position, query)`` with English messages. At
the Django boundary (the search page and the cards API) ``query_error_message`` gives the message in
the active language (it is ``QueryError.message``; the search's English stays in ``english``): each stable ``code`` has a template filled with the part of the query at
``position``. In English the search's own, more detailed message is kept unchanged; the ``code``
and ``position`` never change.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

from .search import QueryError

TEMPLATES: dict[str, str] = {
    "unknown_field": gettext_noop("unknown field '%(token)s'; see the search help for the field list"),
    "bad_operator": gettext_noop("this field does not take the operator '%(token)s'"),
    "wrong_game": gettext_noop("'%(token)s' is not a field of the games this search is restricted to"),
    "bad_value": gettext_noop("'%(token)s' is not a valid value here; see the search help"),
    "bad_regex": gettext_noop("this regular expression cannot be used (only a safe subset is supported; "
                              "see the search help)"),
    "bad_number": gettext_noop("'%(token)s' is not a whole number in the allowed range"),
    "syntax": gettext_noop("the query cannot be read at position %(position)s"),
    "unterminated_string": gettext_noop("the quote at position %(position)s is never closed"),
    "too_deep": gettext_noop("parentheses or negations are nested too deeply"),
    "too_many_terms": gettext_noop("the query has too many terms"),
    "too_long": gettext_noop("the query is too long"),
    # pricing a query before it runs (catalog/search/cost.py)
    "too_many_regex": gettext_noop("the query has too many /regex/ terms (at most 2; plain words such as o:draw "
                                   "use the index)"),
    "regex_too_costly": gettext_noop("the counted repeats such as {20} in this query add up to too many "
                                     "(at most 20 in all)"),
    "too_many_alternatives": gettext_noop("the query ORs too many alternatives (at most 16)"),
}
_TOKEN = re.compile(r"""(?:!=|>=|<=|[:=<>])|[^\s()"'<>=!:]+""")


def query_error_message(err: QueryError) -> str:
    """The error's message in the active language (the English original when not translated)."""
    english = getattr(err, "english", "")
    template = TEMPLATES.get(err.code)
    if template is None:
        return english
    translated = gettext(template)
    if translated == template:
        return english
    m = _TOKEN.match(err.query or "", max(0, min(err.position, len(err.query or ""))))
    params = {"token": m.group(0) if m else "", "position": err.position}
    try:
        return translated % params
    except (KeyError, TypeError, ValueError):
        return english
