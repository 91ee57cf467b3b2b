"""``{% card_picture card picture %}``: a card's picture in any list or page — the printing's image
(lazily loaded, with width, height and alt text) over the card's face drawn from its data, which
shows when there is no image or it does not load (catalog.pictures, static/pictures.js).

``{% card_peek card %}``: the small "picture" link beside a card's name in a list: a preview on
hover, focus or tap with JavaScript (static/pictures.js), the card page's picture without."""
from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from catalog.labels import type_label
from catalog.pictures import Picture, card_face
from catalog.textnorm import script_language
from rules import games as g

register = template.Library()


@register.inclusion_tag("catalog/_picture.html")
def card_picture(card: Any, picture: Picture | None = None, size: str = "thumb", name: str = "",
                 eager: bool = False) -> dict[str, Any]:
    """``size``: ``thumb`` (lists, tiles: the small thumbnail) or ``large`` (card page, previews)."""
    if picture is None:
        picture = getattr(card, "picture", None)
    large = size == "large"
    return {
        "card": card, "picture": picture, "size": size, "large": large, "name": name or card.name,
        "face": card_face(card), "type_label": type_label(card.card_type), "game_name": g.GAME_NAMES.get(card.game, ""),
        "src": (picture.large if large else picture.src) if picture else "",
        "width": (picture.large_width if large else picture.width) if picture else 0,
        "height": (picture.large_height if large else picture.height) if picture else 0,
        "eager": eager, "name_lang": script_language(name or card.name),
    }


@register.inclusion_tag("catalog/_peek.html")
def card_peek(card: Any, code: str = "", name: str = "") -> dict[str, Any]:
    code = code or card.code
    return {
        "href": reverse("card-detail", args=[card.game, card.code]) + "#picture",
        "preview": reverse("card-picture", args=[card.game, code]),
        "name": name or card.name,
    }
