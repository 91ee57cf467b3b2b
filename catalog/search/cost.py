"""Pricing a query before it runs (docs/security.md, issue 19 finding 1).

A parsed query is priced from its shape, without touching the database; one over a limit is a
``QueryError`` (400) naming the limit and pointing at the term that broke it:

* ``too_many_regex``: at most ``MAX_REGEX_TERMS`` ``/regex/`` terms in a query. A regex cannot use
  the trigram indexes when it has no literal run, so each one may read every card's text;
* ``regex_too_costly``: counted repeats (``.{99}``, ``[a-z]{5,}``) add up to at most
  ``MAX_REPEAT_WEIGHT`` over the whole query. PostgreSQL's regex automaton grows with the count:
  ``o:/.{99}z/`` (11 characters) read 100,000 card texts in 6.4 s, ``.{20}`` takes ~0.2 s;
* ``too_many_alternatives``: at most ``MAX_OR_WIDTH`` alternatives OR'd in the whole query (an
  ``a or b or c`` counts 3; nested ORs add up), since each alternative is its own scan of the index.

Whatever passes still runs under a statement timeout (``catalog.timeouts.search_deadline``).
"""
from __future__ import annotations

import re

try:  # Python 3.11+
    import re._constants as sre_constants
    import re._parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

from .errors import QueryError
from .grammar import Node, Not, Or, Term

MAX_REGEX_TERMS = 2
MAX_REPEAT_WEIGHT = 20
MAX_OR_WIDTH = 16

_REPEATS = {sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT}
if hasattr(sre_constants, "POSSESSIVE_REPEAT"):
    _REPEATS.add(sre_constants.POSSESSIVE_REPEAT)


def repeat_weight(pattern: str) -> int:
    """Sum of the counted repeats of ``pattern`` (``.{99}`` → 99, ``a{2,5}`` → 5, ``b{30,}`` → 30;
    ``*``, ``+`` and ``?`` → 0: they do not grow the automaton). A pattern Python cannot read
    weighs 0 here; the regex check (``regex.validate_regex``) refuses it with its own message."""
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, OverflowError, RecursionError, ValueError):
        return 0
    total = 0
    stack = [(list(parsed), 1)]
    while stack:
        items, factor = stack.pop()
        for op, av in items:
            if op in _REPEATS:
                lo, hi, sub = av
                bound = lo if hi == sre_constants.MAXREPEAT else hi
                weight = bound if bound > 1 else 0
                total += weight * factor
                stack.append((list(sub), factor * max(1, bound)))
            elif op == sre_constants.SUBPATTERN:
                stack.append((list(av[-1]), factor))
            elif op == sre_constants.BRANCH:
                stack.extend((list(branch), factor) for branch in av[1])
    return total


def price(node: Node | None, query: str) -> None:
    """Raise ``QueryError`` when the query ``node`` (parsed from ``query``) is over a limit; the
    position is that of the first term (left to right) that goes over it."""
    if node is None:
        return
    regexes: list[Term] = []
    ors: list[Or] = []
    stack: list[Node] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, Term):
            if cur.value.kind == "regex":
                regexes.append(cur)
        elif isinstance(cur, Not):
            stack.append(cur.child)
        else:
            if isinstance(cur, Or):
                ors.append(cur)
            stack.extend(cur.children)
    regexes.sort(key=lambda t: t.value.pos)
    if len(regexes) > MAX_REGEX_TERMS:
        raise QueryError(
            "too_many_regex",
            f"the query has {len(regexes)} /regex/ terms; at most {MAX_REGEX_TERMS} are allowed "
            "(plain words such as o:draw use the index)",
            regexes[MAX_REGEX_TERMS].value.pos, query)
    weight = 0
    for term in regexes:
        weight += repeat_weight(term.value.text)
        if weight > MAX_REPEAT_WEIGHT:
            raise QueryError(
                "regex_too_costly",
                f"counted repeats such as {{{MAX_REPEAT_WEIGHT}}} add up to {weight} in this query; "
                f"at most {MAX_REPEAT_WEIGHT} are allowed",
                term.value.pos, query)
    width = sum(len(o.children) for o in ors)
    if width > MAX_OR_WIDTH:
        ors.sort(key=_first_pos)
        raise QueryError(
            "too_many_alternatives",
            f"the query ORs {width} alternatives; at most {MAX_OR_WIDTH} are allowed",
            _first_pos(ors[0]), query)


def _first_pos(node: Node) -> int:
    while not isinstance(node, Term):
        node = node.child if isinstance(node, Not) else node.children[0]
    return node.pos
