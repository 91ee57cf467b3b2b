"""Look-alike usernames (issue 19, finding 12; docs/security.md).

``аlice`` with a Cyrillic ``а`` and ``bοb`` with a Greek ``ο`` looked exactly like ``alice`` and
``bob``. A new username is refused when:

- it mixes scripts with letters that look like another script's (``confusable_homoglyphs``' mixed-script
  check, from Unicode's confusables data): ``аlice``, ``bοb``, ``pаypal``;
- it is an existing name in another case or width (NFKC, then case-folded): ``Alice`` beside ``alice``;
- it is written wholly in letters of another script that look like an existing name
  (its Latin skeleton): ``ѕсоре`` (Cyrillic) beside ``scope``.

Names wholly in one script that look like no existing name stay allowed (``алиса``, ``たろう``, ``Zoë``).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables
from django.contrib.auth import get_user_model
from django.utils.translation import gettext


def fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


@lru_cache(maxsize=4096)
def _latin(ch: str) -> str:
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"])
    for entry in found or []:
        for glyph in entry.get("homoglyphs", []):
            if glyph.get("n", "").startswith("LATIN") and len(glyph.get("c", "")) == 1:
                return glyph["c"]
    return ch


def skeleton(name: str) -> str:
    """The name folded, each letter replaced by the Latin letter it looks like (if any)."""
    return "".join(_latin(ch) for ch in fold(name)).casefold()


def username_problem(name: str) -> str | None:
    """Why ``name`` cannot be a new account's name (a translated sentence), or None."""
    if confusables.is_dangerous(name):
        return gettext("This username mixes letters of different scripts that look alike (such as a Cyrillic "
                       "or Greek letter among Latin ones). Please use letters of one script.")
    User = get_user_model()
    field = User.USERNAME_FIELD
    candidates = {fold(name), skeleton(name)}
    for candidate in candidates:
        if User.objects.filter(**{f"{field}__iexact": candidate}).exists():
            return gettext("This username looks like one that is already taken.")
    return None
