"""A lint for templates: text a user reads must go through ``{% translate %}``/``{% blocktranslate %}``.

Used by tests/test_i18n.py. Removes Django tags/variables/comments, ``<script>``/``<style>`` and
``<code>``/``<kbd>``/``<pre>`` contents (query syntax and card codes are not prose), then reports any
remaining word of two or more Latin letters in text or in user-facing attributes (title, alt,
aria-label, placeholder) unless it is a proper name or symbol on ``ALLOWED``.
"""
from __future__ import annotations

import re
from pathlib import Path

# Proper names, game stats printed on the cards, and format names: the same in every language.
ALLOWED = {
    "Prism", "Connect", "Phantasmagoria", "Weiß", "Schwarz", "Chaos", "TCG", "Lycee", "JSON", "API", "ACE",
    "EX", "CP", "RANK", "MHP", "ATK", "DEF", "AP", "DP", "SP", "DMG", "CX", "HTTP", "SVG", "CSV", "XML", "OK",
    "AF", "DF",  # Lycee slots as printed
    "Welch", "Mann", "Whitney", "df",  # names of statistical tests and their symbols
}
_DROP_BLOCKS = [
    re.compile(r"\{#.*?#\}", re.S),
    re.compile(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S),
    re.compile(r"\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}", re.S),
    re.compile(r"<(script|style|code|kbd|pre|svg)\b.*?</\1>", re.S | re.I),
]
_TAG = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.S)
_ATTR = re.compile(r"""\b(title|alt|aria-label|placeholder)\s*=\s*("([^"]*)"|'([^']*)')""", re.I)
_HTML = re.compile(r"""<(?:[^>"']|"[^"]*"|'[^']*')*>""", re.S)
_WORD = re.compile(r"[A-Za-zß]{2,}")


def untranslated(source: str) -> list[str]:
    """Words of ``source`` (a template) that a user would read untranslated."""
    s = source
    for rx in _DROP_BLOCKS:
        s = rx.sub(" ", s)
    found: list[str] = []
    for m in _ATTR.finditer(s):
        value = _TAG.sub(" ", m.group(3) if m.group(3) is not None else m.group(4))
        if m.group(1).lower() == "placeholder" and re.search(r"\w[:<>=]", value):
            continue  # an example query in the query language, not prose
        found += [w for w in _WORD.findall(value) if w not in ALLOWED]
    s = _HTML.sub(" ", s)
    s = _TAG.sub(" ", s)
    s = re.sub(r"&[a-z]+;|&#\d+;", " ", s)
    found += [w for w in _WORD.findall(s) if w not in ALLOWED]
    return found


def template_problems(root: Path) -> dict[str, list[str]]:
    out = {}
    for path in sorted(root.rglob("*.html")):
        words = untranslated(path.read_text(encoding="utf-8"))
        if words:
            out[str(path.relative_to(root))] = words
    return out
