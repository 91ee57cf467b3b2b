"""Forms for the deck pages (the pages work without JavaScript: every action is a plain form)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules import games as g
from rules.decktext import MAX_COUNT, parse_deck_text

from .models import Visibility

GAME_CHOICES = [(code, g.GAME_NAMES[code]) for code in g.GAMES]


class DeckForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Visibility.choices, initial=Visibility.PRIVATE)
    description = forms.CharField(label=_("Description"), required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 3}))
    text = forms.CharField(
        label=_("Cards (deck text)"), required=False, max_length=100_000, strip=False,
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "autocapitalize": "off",
                                     "aria-describedby": "text-help"}),
    )
    deck_file = forms.FileField(
        label=_("…or a deck file"), required=False,
        help_text=_("Deck text, CODE RARITY lines, an AlphaC2 <deck> XML or a Chaos mainDeck textproto (at most 1 MB)."),
    )
    note = forms.CharField(label=_("What changed (optional)"), required=False, max_length=200)
    base_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.editing = editing
        if editing:
            self.fields["game"].disabled = True
            self.fields["base_version"].required = True
        else:
            del self.fields["note"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("deck_file")
        text = data.get("text") or ""
        source = "text"
        if upload is not None:
            if upload.size > MAX_FILE:
                self.add_error("deck_file", gettext("the file is %(size)s bytes; at most %(max)s are read") % {"size": upload.size, "max": MAX_FILE})
                return data
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("deck_file", gettext("the file is not UTF-8 text"))
                return data
            source = "deck_file"
        zones, errors, fmt = cards_from_text(text, game=data.get("game") or self.initial.get("game"))
        if errors:
            self.add_error(source, [gettext("line %(line)s: %(message)s") % {"line": e["line"], "message": e["message"]} + (f" ({e['text'].strip()})" if e.get("text", "").strip() else "")
                                    for e in errors])
        data["zones"] = zones
        data["format"] = fmt
        return data


MAX_FILE = 1_000_000


def cards_from_text(text: str, *, game: str | None) -> tuple[dict[str, dict[str, int]], list[dict], str]:
    """Zones from deck text, or from a deck file format players exchange (detected when the text is
    not deck text). Returns ``(zones, parse errors, format)``."""
    parsed = parse_deck_text(text)
    if not parsed.errors:
        return parsed.zones(), [], "deck text"
    from rules.deckformats import detect_deck_format, parse_deck, resolve_codes

    fmt = detect_deck_format(text)
    if fmt is None:
        return {}, [e.as_dict() for e in parsed.errors], "deck text"
    from catalog.selectors import card_codes_resolve

    deck = parse_deck(text, fmt, game or "ws")
    if deck.errors:
        return {}, list(deck.errors), fmt
    codes = {c for z in deck.zones.values() for c in z} | ({deck.partner} if deck.partner else set())
    resolve_codes(deck, card_codes_resolve(game=game or deck.game, codes=codes).get)
    zones = {z: dict(c) for z, c in deck.zones.items()}
    if deck.partner:
        zones["partner"] = {deck.partner: 1}
    return zones, [], fmt


class BuilderForm(forms.Form):
    OPS = (("add", "add"), ("remove", "remove"), ("set", "set"))
    op = forms.ChoiceField(choices=OPS)
    code = forms.CharField(max_length=64)
    count = forms.IntegerField(min_value=0, max_value=MAX_COUNT, initial=1)
    zone = forms.ChoiceField(choices=[(z, z) for z in g.ZONES], initial="main")
    base_version = forms.IntegerField(min_value=1)


class ShareForm(forms.Form):
    pin = forms.BooleanField(required=False)
    version = forms.IntegerField(required=False, min_value=1)
