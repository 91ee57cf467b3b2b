"""The deck page's card rows, built in Python: ``{% deck_table_rows group %}`` (the list's table rows)
and ``{% deck_visual_cards group %}`` (the picture view's cards). A deck page shows each card in
both, and the template loops cost more than the rest of the page together (issue 18 load test: a
20-card deck page spent ~60 % of its CPU in Django's template engine). The markup is what the
template loops wrote, byte for byte (tests/test_page_speed.py compares them)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from catalog.links import card_url
from catalog.templatetags.card_pictures import esc, peek_html, picture_html

register = template.Library()


@register.simple_tag
def deck_table_rows(group: Mapping[str, Any]) -> SafeString:
    """The ``<tr>`` of each row of one group of the deck list (``decks.views.deck_view_context``)."""
    out = []
    unknown = see = ""
    for row in group["rows"]:
        code, rec, problem = row["code"], row["card"], row["problem"]
        if rec:
            name = (f'<a href="{esc(card_url(rec.game, code))}">{esc(rec.name)}</a> {peek_html(rec, code)}')
        else:
            unknown = unknown or esc(gettext("unknown card"))
            name = f'<span class="error">{unknown}</span>'
        if problem:
            see = see or esc(gettext("see the validation problems"))
            name += f' <span class="error" title="{see}">⚠</span>'
        out.append(
            f'\n    <tr{" class=" + chr(34) + "problem" + chr(34) if problem else ""} data-code="{esc(code)}">\n'
            f'      <td class="count">{esc(row["count"])}×</td>\n'
            f'      <th scope="row">{name}</th>\n'
            f'      <td>{esc(row["stats"])}</td>\n'
            f'      <td><code>{esc(code)}</code></td>\n'
            f'      \n'
            f'    </tr>\n    ')
    return mark_safe("".join(out))


@register.simple_tag
def deck_visual_cards(group: Mapping[str, Any]) -> SafeString:
    """The ``<li>`` of each card of one group of the picture view (``deck_pictures.deck_visual``)."""
    out = []
    for row in group["rows"]:
        code, rec, count = row["code"], row["card"], esc(row["count"])
        if rec:
            copies = ngettext("%(n)s copy", "%(n)s copies", row["count"]) % {"n": count}
            body = (f'<a href="{esc(card_url(rec.game, rec.code))}">{picture_html(rec, row["picture"], name=rec.name)}'
                    f'<span class="visual-count" aria-label="{copies}">×{count}</span></a>\n      ')
        else:
            body = (f'<span class="visual-unknown"><code class="code">{esc(code)}</code>'
                    f'<span class="visual-count">×{count}</span></span>')
        out.append(f'\n    <li class="visual-card{" problem" if row["problem"] else ""}" data-code="{esc(code)}">\n'
                   f'      {body}\n    </li>\n    ')
    return mark_safe("".join(out))


@register.simple_tag
def odds_choices(groups: list[dict[str, Any]], odds: Mapping[str, Any] | None, kind: str) -> SafeString:
    """The draw-odds picker's check boxes: ``kind`` ``cards`` (one per card) or ``groups`` (types,
    colors, triggers...), ticked when chosen (``decks.stats.odds_groups``, ``odds_selection``)."""
    chosen = set(odds["group"]["keys"]) if odds else set()
    cards = kind == "cards"
    return mark_safe("".join(
        f'\n          <label><input type="checkbox" name="odds" value="{esc(grp["key"])}"'
        f'{" checked" if grp["key"] in chosen else ""}> {esc(grp["label"])} <span class="muted">– {esc(grp["copies"])}</span></label>'
        for grp in groups if (grp["key"][:5] == "card:") == cards))
