"""Card pictures: which printing's picture a page shows, and the face drawn from the card's data.

Every card of every game has a picture. A printing's uploaded ``image`` (thumbnails by
django-imagekit) wins over its ``image_url`` (the imported data's picture elsewhere); the printing
with the card's own code wins over parallels. When there is no picture, or it does not load in the
browser (static/pictures.js), the page shows the card's face drawn from its data: the game's
``face`` from ``rules/<game>/display.py``, drawn by ``catalog.templatetags.card_pictures.face_html``
in the game's frame (static/pictures.css).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules.display import Face
from rules.registry import get_spec

from .labels import STAT_LABELS
from .models import LARGE_HEIGHT, LARGE_WIDTH, PICTURE_HEIGHT, PICTURE_WIDTH, CardPrinting


@dataclass(frozen=True)
class Picture:
    """A printing's picture: ``src`` for lists and tiles, ``large`` for the card page and previews."""

    src: str
    large: str
    code: str
    rarity: str = ""
    uploaded: bool = False
    width: int = PICTURE_WIDTH
    height: int = PICTURE_HEIGHT
    large_width: int = LARGE_WIDTH
    large_height: int = LARGE_HEIGHT


def printing_picture(printing: CardPrinting) -> Picture | None:
    """The picture of one printing: its uploaded image's thumbnails, else its image URL, else None."""
    if printing.image:
        try:
            return Picture(printing.thumbnail.url, printing.large.url, printing.code, printing.rarity, uploaded=True)
        except (OSError, ValueError):  # a stored name the storage cannot resolve: the URL or the face
            pass
    if printing.image_url:
        return Picture(printing.image_url, printing.image_url, printing.code, printing.rarity)
    return None


def _rank(printing: CardPrinting, card_code: str) -> tuple[int, int, str, str]:
    return (0 if printing.image else 1, 0 if printing.code == card_code else 1, printing.code, printing.rarity)


def best_picture(card_code: str, printings: Iterable[CardPrinting]) -> Picture | None:
    """The picture pages show for a card: an uploaded image before an image URL, the printing with
    the card's own code before parallels; None when no printing has one (the face is drawn)."""
    for printing in sorted((p for p in printings if p.image or p.image_url), key=lambda p: _rank(p, card_code)):
        picture = printing_picture(printing)
        if picture is not None:
            return picture
    return None


def attach_pictures(cards: Iterable[Any]) -> None:
    """Set ``card.picture`` on Cards whose ``printings`` were prefetched (no query per card)."""
    for card in cards:
        card.picture = best_picture(card.code, card.printings.all())


def card_face(card: Any) -> Face:
    """The card's face drawn from its data, in the reader's language (a Card or a CardRecord)."""
    return get_spec(card.game).face(card, STAT_LABELS)
