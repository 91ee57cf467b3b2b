"""``{% card_picture card picture %}``: a card's picture in any list or page — the printing's image
(lazily loaded, with width, height and alt text) over the card's face drawn from its data, which
shows when there is no image or it does not load (catalog.pictures, static/pictures.js).

``{% card_peek card %}``: the small "picture" link beside a card's name in a list: a preview on
hover, focus or tap with JavaScript (static/pictures.js), the card page's picture without.

Both are built in Python (``picture_html``, ``peek_html``), not by included templates: the pages
show tens of pictures and links each (a deck page 20–60 of each, a card page 30 pictures), and a
template include per card cost 0.43 ms (picture) and 0.23 ms (link) of CPU, most of the deck and
card pages' rendering (issue 18 load test). The markup is the one the templates wrote, byte for
byte (tests/test_page_speed.py renders both and compares): every value escaped as ``{{ }}`` would.
"""
from __future__ import annotations

import html
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext

from catalog.labels import type_label
from catalog.links import card_url
from catalog.pictures import Picture, card_face
from catalog.textnorm import script_language
from rules import games as g
from rules.display import FaceStat

register = template.Library()


def esc(value: Any) -> str:
    """``conditional_escape`` without its lazy-argument wrapper (a third of this module's time)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def _stats(stats: tuple[FaceStat, ...], cls: str, sep: str) -> str:
    return "".join(f'<span class="{cls}{" f-big" if s.big else ""}"><span class="f-l">{esc(s.label)}</span>{sep}'
                   f'<span class="f-v">{esc(s.value)}</span></span>' for s in stats)


def face_html(card: Any, *, name: str, src: str = "", large: bool = False) -> str:
    """The card's face drawn from its data (``catalog.pictures.card_face``) in the game's frame
    (static/pictures.css ``.face-<game>``); hidden from assistive technology when an image covers it."""
    face = card_face(card)
    tones = "".join(f" tone-{esc(t)}" for t in face.tones)
    label = ' aria-hidden="true"' if src else f' role="img" aria-label="{esc(name)}"'
    lang = script_language(name)
    traits = card.traits
    kind = esc(type_label(card.card_type)) + (
        " · " + " · ".join(esc(t) for t in list(traits)[:3]) if traits else "")
    marks = ('<span class="f-marks">' + "".join(f'<span class="f-mark">{esc(m)}</span>' for m in face.marks)
             + "</span>") if face.marks else ""
    row = f'<span class="f-row">{_stats(face.row, "f-cell", "")}</span>' if face.row else ""
    text = f'<span class="f-text">{esc(Truncator(card.text).chars(220))}</span>' if large and card.text else ""
    return (
        f'\n<span class="face face-{esc(card.game)}{tones} type-{esc(card.card_type)}"{label} data-face>\n'
        f'  <span class="f-top">\n'
        f'    <span class="f-corner">{_stats(face.corner, "f-stat", " ")}</span>\n'
        f'    {marks}\n'
        f'  </span>\n'
        f'  <span class="f-art"><span class="f-game">{esc(g.GAME_NAMES.get(card.game, ""))}</span></span>\n'
        f'  <span class="f-name"{f" lang={chr(34)}{esc(lang)}{chr(34)}" if lang else ""}>{esc(name)}</span>\n'
        f'  <span class="f-type">{kind}</span>\n'
        f'  {row}\n'
        f'  {text}\n'
        f'  <span class="f-bottom">{_stats(face.bottom, "f-stat", " ")}</span>\n'
        f'  <span class="f-code">{esc(card.code)}</span>\n'
        f'</span>\n'
    )


def picture_html(card: Any, picture: Picture | None = None, size: str = "thumb", name: str = "",
                 eager: bool = False) -> SafeString:
    """A card's picture: ``size`` ``thumb`` (lists, tiles: the small thumbnail) or ``large`` (card
    page, previews); ``picture`` defaults to ``card.picture`` (``catalog.pictures.attach_pictures``)."""
    if picture is None:
        picture = getattr(card, "picture", None)
    large = size == "large"
    name = name or card.name
    src = (picture.large if large else picture.src) if picture else ""
    img = ""
    if src:
        width = picture.large_width if large else picture.width
        height = picture.large_height if large else picture.height
        loading = 'fetchpriority="high"' if eager else 'loading="lazy"'
        img = (f'<img class="pic-img" src="{esc(src)}" width="{esc(width)}" height="{esc(height)}" alt="{esc(name)}" '
               f'{loading} decoding="async" referrerpolicy="no-referrer">')
    return mark_safe(f'<span class="pic pic-{esc(size)}{" has-img" if src else ""}" data-pic>'
                     f'{face_html(card, name=name, src=src, large=large)}{img}</span>\n')


_PEEK_SVG = ('<svg aria-hidden="true" focusable="false" width="16" height="20" viewBox="0 0 16 20"><rect x="1" y="1" '
             'width="14" height="18" rx="2" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M4 13l3-4 '
             '2 3 1.5-2L13 13z" fill="currentColor"/></svg>')


def peek_html(card: Any, code: str = "", name: str = "") -> SafeString:
    """The "picture" link beside a card's name: the card page's picture, a preview of ``code``
    (a printing's own code, default the card's) with JavaScript."""
    href = card_url(card.game, card.code) + "#picture"
    preview = card_url(card.game, code or card.code, "card-picture")
    label = gettext("Picture of %(name)s") % {"name": esc(name or card.name)}
    return mark_safe(f'<a class="peek" href="{esc(href)}" data-preview="{esc(preview)}" aria-label="{label}" '
                     f'title="{esc(gettext("Show the card"))}">{_PEEK_SVG}</a>\n')


@register.simple_tag
def card_picture(card: Any, picture: Picture | None = None, size: str = "thumb", name: str = "",
                 eager: bool = False) -> SafeString:
    return picture_html(card, picture, size, name, eager)


@register.simple_tag
def card_href(game: str, code: str) -> str:
    """``{% card_href game code %}``: ``{% url 'card-detail' game code %}``, cached per process."""
    return card_url(game, code)


@register.simple_tag
def card_peek(card: Any, code: str = "", name: str = "") -> SafeString:
    return peek_html(card, code, name)
