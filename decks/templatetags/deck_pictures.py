"""The deck page's pictures: the visual deck view (cards as pictures, grouped by level or type, the
game spec's ``picture_group``) and the sample hand (draw an opening hand at random, mulligan, draw
the next card). Both read the rows the deck page already built (``sections``); the pictures of all
the deck's codes come from one catalog query (``deck_card_pictures``). The sample hand works with
plain links (``?hand=&seed=&drawn=``): no JavaScript needed, and a hand can be linked to."""
from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from django import template
from django.http import QueryDict
from django.utils.translation import gettext as _

from catalog.pictures import Picture
from catalog.selectors import card_pictures_by_codes
from rules import games as g
from rules.registry import get_spec

register = template.Library()

HAND_SIZES = (5, 6, 7)
MAX_DRAWN = 20


@register.simple_tag
def deck_card_pictures(deck: Any, sections: Sequence[Mapping[str, Any]]) -> dict[str, Picture]:
    codes = {row["code"] for s in sections for grp in s["groups"] for row in grp["rows"]}
    return card_pictures_by_codes(game=deck.game, codes=codes)


def _group_label(kind: str, value: Any) -> str:
    from ..views import TYPE_PLURALS  # the deck list's own words for each card type

    if kind == "level":
        return _("Level %(level)s") % {"level": value}
    return str(TYPE_PLURALS.get(value, value))


@register.inclusion_tag("decks/_deck_visual.html")
def deck_visual(deck: Any, sections: Sequence[Mapping[str, Any]], pictures: Mapping[str, Picture]) -> dict[str, Any]:
    """Per zone, the cards as pictures with their copies, grouped by level (WS) or card type."""
    spec = get_spec(deck.game)
    types = list(g.CARD_TYPES[deck.game])
    zones = []
    for section in sections:
        groups: dict[tuple[str, Any], list[dict[str, Any]]] = {}
        for grp in section["groups"]:
            for row in grp["rows"]:
                rec = row["card"]
                key = spec.picture_group(rec) if rec is not None else ("type", "")
                groups.setdefault(key, []).append({**row, "picture": pictures.get(row["code"])})

        def order(key: tuple[str, Any]) -> tuple:
            kind, value = key
            if kind == "level":
                return (0, value if isinstance(value, int) else 99)
            return (1, types.index(value) if value in types else 99)

        zones.append({
            "zone": section["zone"], "title": section["title"], "total": section["total"],
            "groups": [{"label": _group_label(*key) if key[1] != "" else _("Unknown cards"),
                        "total": sum(r["count"] for r in rows), "rows": rows}
                       for key, rows in sorted(groups.items(), key=lambda kv: order(kv[0]))],
        })
    return {"deck": deck, "zones": zones}


def _int(raw: str | None, default: int, lo: int, hi: int) -> int:
    try:
        return max(lo, min(hi, int(raw))) if raw not in (None, "") else default
    except ValueError:
        return default


def _link(params: QueryDict, **changes: Any) -> str:
    out = {k: params.get(k) for k in params if k not in ("hand", "seed", "drawn")}
    out.update({k: v for k, v in changes.items() if v is not None})
    return "?" + urlencode(out) + "#sample-hand"


@register.inclusion_tag("decks/_sample_hand.html", takes_context=True)
def sample_hand(context: Mapping[str, Any], deck: Any, sections: Sequence[Mapping[str, Any]],
                pictures: Mapping[str, Picture]) -> dict[str, Any]:
    """An opening hand drawn at random from the main deck: ``?hand=5..7&seed=N&drawn=K`` (K next cards)."""
    request = context.get("request")
    params = request.GET if request is not None else QueryDict()
    main = next((s for s in sections if s["zone"] == "main"), None)
    library = [row for grp in (main["groups"] if main else []) for row in grp["rows"] for _ in range(row["count"])]
    default = g.CONSTANTS[deck.game].opening_hand
    size = _int(params.get("hand"), default, min(HAND_SIZES), max(HAND_SIZES))
    seed = _int(params.get("seed"), 0, 0, 2**31 - 1)
    drawn = _int(params.get("drawn"), 0, 0, MAX_DRAWN)
    hand: list[dict[str, Any]] = []
    if "seed" in params and library:
        deck_order = list(library)
        random.Random(seed).shuffle(deck_order)
        hand = [{**row, "picture": pictures.get(row["code"]), "drawn": i >= size}
                for i, row in enumerate(deck_order[: size + drawn])]
    fresh = secrets.randbelow(2**31 - 1)
    return {
        "deck": deck, "hand": hand, "size": size, "sizes": HAND_SIZES, "seed": seed, "drawn": drawn,
        "library": len(library), "left": max(0, len(library) - size - drawn), "shown": "seed" in params,
        "new_url": _link(params, hand=size, seed=fresh),
        "next_url": _link(params, hand=size, seed=seed, drawn=min(drawn + 1, MAX_DRAWN)),
        "keep": [(k, params.get(k)) for k in params if k not in ("hand", "seed", "drawn")],
        "fresh": fresh, "can_draw": drawn < MAX_DRAWN and size + drawn < len(library),
    }
