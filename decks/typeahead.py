"""The deck builder's card finder: what the type-ahead shows for what the player typed.

One function, ``typeahead``, serves the results list (as you type, paged), "Enter adds the top hit"
and the no-JavaScript search form, so the card the page shows first is the card Enter adds.

What can be typed:

- a name, part of one, or a reading in kana (the query language's bare words: folded names);
- a card code, in any case (``dc/w01-001``), a printing's code, or the WS code with ``-`` for
  ``/``: that card comes first; the start of a code (``DC/W01-0``) lists the codes starting so;
- any query of the search language (``t:climax trigger:soul``, docs/search.md);
- a count first (``4 DC/W01-001``, ``4x 音姫``, ``４　…``): how many copies Enter adds.

Nothing found: cards with close names ("did you mean", trigram similarity) or, for a code, cards
whose codes share its longest known start (from the 4th character typed). They are offered, never
added without a choice. A query of one character searches nothing yet (it would match a good part
of the catalog): the finder asks for a second one.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from catalog.selectors import (
    QueryError,
    card_codes_resolve,
    card_get,
    card_search,
    card_suggest,
    search_deadline,
)
from config.errors import AppError

PER_PAGE = 20
MIN_CHARS = 2  # a one-character query finds a good part of the catalog: the finder waits for more
SUGGEST_FROM = 4  # "did you mean" from this many characters (a word being typed is no typo yet)
MAX_PAGE = 500
_COUNT = re.compile(r"^(?P<n>\d{1,2})(?:\s*[x×]\s*|\s+)(?P<rest>\S.*)$", re.IGNORECASE)
_CODE = re.compile(r"^[0-9A-Za-z][0-9A-Za-z/_.+-]*$")


@dataclass
class Typeahead:
    q: str = ""  # as typed
    query: str = ""  # without the count
    count: int = 1  # copies Enter adds (the count typed first, else 1)
    cards: list[Any] = field(default_factory=list)  # this page's cards (catalog Card rows)
    page: int = 1
    per_page: int = PER_PAGE
    has_next: bool = False
    total: int | None = None  # the number of matches, known on the last page (None: more pages follow)
    exact: Any = None  # the card whose code was typed (also cards[0] on page 1)
    error: str | None = None  # a query error, in the reader's language
    suggestions: list[Any] = field(default_factory=list)  # nothing found: close names / codes
    is_code: bool = False
    too_short: bool = False  # fewer than MIN_CHARS characters: nothing searched yet

    @property
    def top(self) -> Any:
        """The card Enter adds: the typed code's card, else the first result (never a suggestion)."""
        if self.exact is not None:
            return self.exact
        return self.cards[0] if self.cards and self.page == 1 else None

    @property
    def first_index(self) -> int:
        return (self.page - 1) * self.per_page + 1

    @property
    def last_index(self) -> int:
        return (self.page - 1) * self.per_page + len(self.cards)


def split_count(text: str) -> tuple[int, str]:
    """``"4 DC/W01-001"`` → ``(4, "DC/W01-001")``; ``"4x音姫"`` → ``(4, "音姫")``; else ``(1, text)``."""
    text = unicodedata.normalize("NFKC", text or "").strip()
    m = _COUNT.match(text)
    if m and 1 <= int(m.group("n")) <= 99:
        return int(m.group("n")), m.group("rest").strip()
    return 1, text


def looks_like_code(text: str) -> bool:
    """A single token with a digit and a ``/`` or ``-``: how card codes are written (DC/W01-001, PCT-001)."""
    return bool(_CODE.match(text)) and any(c.isdigit() for c in text) and any(c in "/-" for c in text)


def code_lookup(*, game: str, text: str) -> str | None:
    """The card code ``text`` names in ``game``: as written, in upper case, a printing's code or the WS
    code with ``-`` for ``/`` (one or two indexed queries); None when no card has it."""
    text = unicodedata.normalize("NFKC", text or "").strip()
    if not text or len(text) > 64:
        return None
    candidates = list(dict.fromkeys([text, text.upper()]))
    found = card_codes_resolve(game=game, codes=candidates)
    for cand in candidates:
        if cand in found:
            return found[cand]
    return None


def code_suggestions(*, game: str, text: str, limit: int = 5) -> list[Any]:
    """Cards whose codes start like ``text``: the longest of a few shorter starts (one to four
    characters less, then up to its last ``-`` or ``/``; at least 3 characters) that finds any."""
    upper = unicodedata.normalize("NFKC", text).strip().upper()
    starts = [upper[:end] for end in range(len(upper) - 1, max(2, len(upper) - 5), -1)]
    starts += [upper[: upper.rfind(sep) + 1] for sep in "-/" if sep in upper]
    for prefix in dict.fromkeys(p for p in starts if len(p) >= 3):
        rows = list(card_search(q=f'code:"{prefix}*" order:code', game=game)[:limit])
        if rows:
            return rows
    return []


def _page(qs: Any, page: int, per_page: int) -> tuple[list[Any], bool]:
    start = (page - 1) * per_page
    rows = list(qs[start: start + per_page + 1])
    return rows[:per_page], len(rows) > per_page


def _count(page: int, cards: list[Any], has_next: bool, per_page: int) -> int | None:
    """The number of matches when this page is the last one; None otherwise (no COUNT query: the
    type-ahead answers every keystroke, and a count over most of a huge catalog costs a scan)."""
    return None if has_next else (page - 1) * per_page + len(cards)


def typeahead(*, game: str, q: str, page: int = 1, per_page: int = PER_PAGE) -> Typeahead:
    """What the builder shows for ``q`` in ``game`` (see the module docstring). Never raises for
    what was typed: a query error is ``error``, in the reader's language."""
    q = (q or "")[:500]
    count, query = split_count(q)
    page = max(1, min(MAX_PAGE, page))
    out = Typeahead(q=q, query=query, count=count, page=page, per_page=per_page)
    if not query:
        return out
    if len(query) < MIN_CHARS:
        out.too_short = True
        return out
    try:
        with search_deadline():  # the search statement timeout, as on the search page and the API
            return _find(out, game, query, page, per_page)
    except AppError as exc:  # any refusal of the search (e.g. one stopped for taking too long)
        out.cards, out.exact, out.error = [], None, str(exc.message)
        return out


def _find(out: Typeahead, game: str, query: str, page: int, per_page: int) -> Typeahead:
    if looks_like_code(query):
        out.is_code = True
        prefix = query.upper()
        qs = card_search(q=f'code:"{prefix}*" order:code', game=game)  # the typed code sorts first
        cards, out.has_next = _page(qs, page, per_page)
        # the typed code itself: first in code order when it is a card's code, else looked up
        if page == 1 and cards and cards[0].code == prefix:
            code = cards[0].code
        else:  # no code ends with a separator: "DC/W01-" is still being typed
            code = None if prefix.endswith(("/", "-")) else code_lookup(game=game, text=query)
        if code is not None:
            if cards and cards[0].code == code:
                out.exact = cards[0]
            else:  # a printing's code, or '-' for '/': not a prefix of the card's own code
                try:
                    out.exact = card_get(game=game, code=code)
                except Http404:
                    out.exact = None
                if out.exact is not None and page == 1:
                    cards = [out.exact, *cards][:per_page]
        if cards:
            out.cards = cards
            out.total = _count(page, cards, out.has_next, per_page)
            return out
    try:
        qs = card_search(q=query, game=game)
        out.cards, out.has_next = _page(qs, page, per_page)
        out.total = _count(page, out.cards, out.has_next, per_page)
    except QueryError as exc:  # its message in the reader's language, as on the search page
        where = _("at character %(pos)s") % {"pos": exc.position + 1} if exc.position is not None else ""
        out.error = f"{exc.message} ({where})" if where else exc.message
        return out
    # close names for a name typo (no digits: a word with digits is a code being typed), close codes for a code
    if not out.cards and page == 1 and len(query) >= SUGGEST_FROM and (out.is_code or not any(c.isdigit() for c in query)):
        try:
            out.suggestions = (code_suggestions(game=game, text=query) if out.is_code
                               else card_suggest(q=query, game=game))
        except AppError:  # no suggestions rather than no answer
            out.suggestions = []
    return out
