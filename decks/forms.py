"""Forms for the deck pages (the pages work without JavaScript: every action is a plain form)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules import games as g
from rules.decktext import MAX_COUNT

from .models import Format, Visibility
from .reader import read_deck

GAME_CHOICES = [(code, g.GAME_NAMES[code]) for code in g.GAMES]


class DeckForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Visibility.choices, initial=Visibility.PRIVATE)
    deck_format = forms.ChoiceField(label=_("Format"), required=False, choices=(),
                                    help_text=_("The format the deck is built for: its ban and restricted lists "
                                                "are checked with the game's rules."))
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
    publish_history = forms.BooleanField(
        label=_("Public: also show the versions saved before"), required=False,
        help_text=_("When a deck is made public, others see it from that version on; tick this to show its "
                    "earlier versions too."))
    base_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.editing = editing
        game = self.initial.get("game") if editing else None
        formats = Format.objects.filter(game=game) if game else Format.objects.all()
        self.fields["deck_format"].choices = [("", gettext("none (the game's rules only)"))] + [
            (f.code, f.name if game else f"{f.name} ({f.get_game_display()})") for f in formats]
        if editing:
            self.fields["game"].disabled = True
            self.fields["base_version"].required = True
        else:
            del self.fields["note"]
            del self.fields["publish_history"]  # a new deck has no earlier versions

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("deck_file")
        game = data.get("game") or self.initial.get("game")
        if data.get("deck_format") and not Format.objects.filter(game=game, code=data["deck_format"]).exists():
            self.add_error("deck_format", gettext("this format is not one of the game's formats"))
        if upload is not None:
            source, reading = "deck_file", read_deck(game=game, upload=upload)
        else:
            source, reading = "text", read_deck(game=game, text=data.get("text") or "")
        if reading.format == "file":  # too large, or not UTF-8
            self.add_error("deck_file", reading.problems[0]["message"])
            return data
        if reading.problems:
            self.add_error(source, [gettext("line %(line)s: %(message)s") % {"line": e["line"], "message": e["message"]} + (f" ({e['text'].strip()})" if e.get("text", "").strip() else "")
                                    for e in reading.problems])
        data["zones"] = reading.zones_with_partner() if reading.ok else {}
        data["format"] = reading.format
        return data


class BuilderForm(forms.Form):
    OPS = (("add", "add"), ("remove", "remove"), ("set", "set"))
    op = forms.ChoiceField(choices=OPS)
    code = forms.CharField(max_length=64)
    count = forms.IntegerField(min_value=0, max_value=MAX_COUNT, initial=1)
    zone = forms.ChoiceField(choices=[(z, z) for z in g.ZONES], initial="main")
    # The version the page showed; changes go to the working copy (decks.drafts), which follows the deck.
    base_version = forms.IntegerField(min_value=1, required=False)


class PasteForm(forms.Form):
    """A whole list pasted into the builder (deck text or a format players exchange)."""

    text = forms.CharField(label=_("Paste a list"), max_length=100_000, strip=False,
                           widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocapitalize": "off",
                                                        "aria-describedby": "paste-help"}))
    replace = forms.BooleanField(label=_("Replace the deck's cards with this list"), required=False)


class ShareForm(forms.Form):
    pin = forms.BooleanField(required=False)
    version = forms.IntegerField(required=False, min_value=1)
