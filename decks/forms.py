"""Forms for the deck pages (the pages work without JavaScript: every action is a plain form)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from rules import games as g
from rules.decktext import MAX_COUNT, parse_deck_text

from .models import Visibility

GAME_CHOICES = [(code, g.GAME_NAMES[code]) for code in g.GAMES]


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class DeckForm(forms.Form):
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(choices=GAME_CHOICES)
    visibility = forms.ChoiceField(choices=Visibility.choices, initial=Visibility.PRIVATE)
    description = forms.CharField(required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 3}))
    text = forms.CharField(
        label="Cards (deck text)", required=False, max_length=100_000, strip=False,
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "autocapitalize": "off",
                                     "aria-describedby": "text-help"}),
    )
    note = forms.CharField(label="What changed (optional)", required=False, max_length=200)
    base_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.editing = editing
        if editing:
            self.fields["game"].disabled = True
            self.fields["base_version"].required = True
        else:
            del self.fields["note"]

    def clean_text(self) -> str:
        text = self.cleaned_data.get("text") or ""
        parsed = parse_deck_text(text)
        if parsed.errors:
            raise forms.ValidationError([f"line {e.line}: {e.message}" + (f" ({e.text.strip()})" if e.text.strip() else "")
                                         for e in parsed.errors])
        self.cleaned_data["zones"] = parsed.zones()
        return text


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
