"""A bounded regular-expression subset for ``o:/regex/`` (ReDoS defence).

Patterns are validated with Python's ``re`` parser and must stay inside a subset that behaves the
same on PostgreSQL (``~*``, Spencer's ARE engine) and on SQLite (Django calls Python ``re``):

* at most ``MAX_REGEX_LENGTH`` characters;
* no backreferences, lookarounds, named groups, conditionals or inline flags;
* no nested quantifiers (``(a+)+``, ``(a*b?)*``), no alternation inside a repeated group
  (``(a|aa)*``), and at most ``MAX_UNBOUNDED`` unbounded
  quantifiers (``*``, ``+``, ``{n,}``) in the whole pattern; counted repeats up to ``{,100}``.

Without backreferences PostgreSQL's engine runs as an automaton (no catastrophic backtracking).
On SQLite, Django's REGEXP function would call Python's backtracking ``re`` — where even
``a*a*a*b`` takes seconds on 500 characters — so ``install_sqlite_regexp`` replaces it with RE2
(linear time, google-re2) on every SQLite connection; patterns must also compile with RE2.
``\\b``/``\\B`` are written ``\\y``/``\\Y`` for PostgreSQL.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import re2

try:  # Python 3.11+
    import re._constants as sre_constants
    import re._parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

from .errors import QueryError

MAX_REGEX_LENGTH = 100
MAX_UNBOUNDED = 3
MAX_COUNT = 100

_REPEATS = {sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT}
_POSSESSIVE = getattr(sre_constants, "POSSESSIVE_REPEAT", None)
if _POSSESSIVE is not None:
    _REPEATS.add(_POSSESSIVE)
_FORBIDDEN = {
    sre_constants.GROUPREF: "backreferences",
    sre_constants.GROUPREF_EXISTS: "conditional groups",
    sre_constants.ASSERT: "lookahead/lookbehind",
    sre_constants.ASSERT_NOT: "lookahead/lookbehind",
}
_ATOMIC = getattr(sre_constants, "ATOMIC_GROUP", None)
if _ATOMIC is not None:
    _FORBIDDEN[_ATOMIC] = "atomic groups"


def validate_regex(pattern: str, position: int, query: str) -> None:
    """Raise ``QueryError('bad_regex', ...)`` unless ``pattern`` is in the safe subset."""

    def fail(msg: str) -> QueryError:
        return QueryError("bad_regex", msg, position, query)

    if len(pattern) > MAX_REGEX_LENGTH:
        raise fail(f"the regex is {len(pattern)} characters long; at most {MAX_REGEX_LENGTH} are allowed")
    if "(?" in pattern.replace("\\(", ""):
        raise fail("(?...) groups (named groups, inline flags, lookarounds) are not supported")
    try:
        re.compile(pattern)
        parsed = sre_parse.parse(pattern)
    except (re.error, OverflowError, RecursionError) as exc:
        raise fail(f"invalid regex: {exc}") from None
    try:
        _re2_compile("(?i)" + pattern)
    except re2.error as exc:
        detail = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else exc
        raise fail(f"unsupported regex: {detail}") from None
    unbounded = 0

    def walk(items, inside_repeat: bool) -> None:
        nonlocal unbounded
        for op, av in items:
            if op in _FORBIDDEN:
                raise fail(f"{_FORBIDDEN[op]} are not supported in regex search")
            if op in _REPEATS:
                lo, hi, sub = av
                if hi == sre_constants.MAXREPEAT:
                    unbounded += 1
                elif hi > MAX_COUNT:
                    raise fail(f"counted repeats are limited to {{,{MAX_COUNT}}}")
                if inside_repeat and (hi > 1 or hi == sre_constants.MAXREPEAT):
                    raise fail("nested quantifiers such as (a+)+ are not allowed (they can take exponential time)")
                walk(sub, inside_repeat or hi > 1)
            elif op == sre_constants.SUBPATTERN:
                walk(av[-1], inside_repeat)
            elif op == sre_constants.BRANCH:
                if inside_repeat:
                    raise fail("alternation inside a repeated group such as (a|aa)* is not allowed; "
                               "use a character class [ab] or repeat outside the group")
                for branch in av[1]:
                    walk(branch, inside_repeat)
            elif op == sre_constants.IN:
                continue

    walk(parsed, False)
    if unbounded > MAX_UNBOUNDED:
        raise fail(f"at most {MAX_UNBOUNDED} unbounded quantifiers (*, +, {{n,}}) are allowed")


MIN_REQUIRED_WORD = 3
MAX_REQUIRED_WORDS = 2


def required_words(pattern: str) -> list[str]:
    """Runs of ASCII letters and digits that every text the (validated) pattern matches contains,
    lower-cased — so ``catalog.textnorm.fold`` of that text (``Card.text_folded``) contains them too:
    the cheap first check of a regex on PostgreSQL (``catalog.search.compiler``, migration 0015).

    Only the pattern's top-level literal characters count (not those in groups, classes, repeats or
    alternations). Folding keeps ASCII letters and digits as they are but for case (NFKC changes
    none, separators dropped are not letters or digits), and a match of ``~*`` holds the letters
    themselves in one case or the other; the one exception, a combining mark after the run's last
    letter (NFKC composes ``w`` + U+0301 into ``ẃ``), is excluded by keeping a run's last character
    only when the pattern's next character is an ASCII literal (``draw [23] card`` → ``draw``,
    ``car``). At most ``MAX_REQUIRED_WORDS``, the longest, of ``MIN_REQUIRED_WORD`` characters or more."""
    try:
        items = list(sre_parse.parse(pattern))
    except (re.error, OverflowError, RecursionError):  # pragma: no cover - validated before
        return []
    runs: list[str] = []
    run: list[str] = []
    for op, av in [*items, (None, None)]:
        ascii_literal = op == sre_constants.LITERAL and av < 128
        if ascii_literal and chr(av).isalnum():
            run.append(chr(av).lower())
            continue
        if run:
            runs.append("".join(run if ascii_literal else run[:-1]))
            run = []
    words = sorted((w for w in runs if len(w) >= MIN_REQUIRED_WORD), key=len, reverse=True)
    return words[:MAX_REQUIRED_WORDS]


def for_vendor(pattern: str, vendor: str) -> str:
    """Translate the validated subset to the database's dialect."""
    if vendor != "postgresql":
        return pattern
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append({"b": "\\y", "B": "\\Y"}.get(nxt, ch + nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False


@lru_cache(maxsize=256)
def _re2_compile(pattern: str):
    return re2.compile(pattern, _RE2_OPTIONS)


def _re2_regexp(pattern: str | None, string: Any) -> bool | None:
    """SQLite ``REGEXP`` with Django's signature, evaluated by RE2 (linear time)."""
    if pattern is None or string is None:
        return None
    return bool(_re2_compile(pattern).search(str(string)))


def install_sqlite_regexp(connection: Any) -> None:
    """Make a Django SQLite connection evaluate ``REGEXP`` (``__regex``/``__iregex``) with RE2."""
    if connection.vendor != "sqlite":
        return
    connection.ensure_connection()
    raw = connection.connection
    if getattr(raw, "_tcgdb_re2", False) is True:
        return
    raw.create_function("REGEXP", 2, _re2_regexp, deterministic=True)
    try:
        raw._tcgdb_re2 = True
    except AttributeError:  # pragma: no cover - sqlite3.Connection accepts attributes
        pass


def on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    install_sqlite_regexp(connection)
