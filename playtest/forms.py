from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rules import games as g

from . import conf


class PlaytestForm(forms.Form):
    """Start a job from a pasted deck list, or (hidden fields) from a saved or shared deck."""

    game = forms.ChoiceField(label=_("Game"), choices=[(c, g.GAME_NAMES[c]) for c in g.GAMES], required=False)
    text = forms.CharField(label=_("Deck list"), required=False, widget=forms.Textarea(attrs={"rows": 14, "cols": 48}),
                           help_text=_("One 'COUNT CODE' line per card; '# main', '# extra', '# ace', '# ex', "
                                       "'# partner' start sections."))
    deck = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=1)
    share = forms.CharField(required=False, widget=forms.HiddenInput, max_length=32)
    version = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=1)
    name = forms.CharField(label=_("Name"), required=False, max_length=200)
    games = forms.IntegerField(label=pgettext_lazy("number of goldfish games", "Games"), initial=1000, min_value=1)
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=0, max_value=2**63 - 1,
                              help_text=_("Leave empty for a random seed; the same seed replays the same games."))
    turn_cap = forms.IntegerField(label=_("Turn cap"), required=False, min_value=1)
    pilot = forms.CharField(label=_("Pilot"), required=False, max_length=32,
                            help_text=_("Leave empty for the game's default pilot."))
    options = forms.CharField(label=_("Goldfish options"), required=False, max_length=2000,
                              widget=forms.Textarea(attrs={"rows": 3, "cols": 48}),
                              help_text=_("One 'name = value' per line, e.g. 'dummy_climaxes = 6' (see the list below)."))

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        authed = bool(user is not None and user.is_authenticated)
        cap = conf.get("PLAYTEST_MAX_GAMES_USER" if authed else "PLAYTEST_MAX_GAMES_ANON")
        self.fields["games"].help_text = _("At most %(cap)s games per job.") % {"cap": f"{cap:,}"}
        self.fields["turn_cap"].help_text = _("1 to %(max)s own turns (default: the engine's).") % {
            "max": conf.get("PLAYTEST_MAX_TURN_CAP")}

    def clean_options(self) -> dict:
        out: dict = {}
        for number, raw in enumerate((self.cleaned_data.get("options") or "").splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            name, sep, value = line.replace(":", "=", 1).partition("=")
            name, value = name.strip(), value.strip()
            if not sep or not name or not value:
                raise forms.ValidationError(_("line %(n)s: expected 'name = value'") % {"n": number})
            out[name] = parse_value(value)
        return out

    def clean(self):
        data = super().clean()
        if not data.get("deck") and not data.get("share"):
            if not (data.get("text") or "").strip():
                self.add_error("text", _("Paste a deck list."))
            if not data.get("game"):
                self.add_error("game", _("Choose the game of the deck list."))
        return data

    def as_api_data(self) -> dict:
        d = self.cleaned_data
        out: dict = {"games": d["games"]}
        if d.get("deck"):
            out["deck"] = d["deck"]
        elif d.get("share"):
            out["share"] = d["share"]
        else:
            out["text"] = d["text"]
            out["game"] = d["game"]
        if (d.get("deck") or d.get("share")) and d.get("version"):
            out["version"] = d["version"]
        if d.get("options"):
            out["options"] = d["options"]
        for key in ("seed", "turn_cap", "pilot", "name"):
            if d.get(key) not in (None, ""):
                out[key] = d[key]
        return out


def parse_value(value: str):
    """'6' -> 6, '0.5' -> 0.5, 'true'/'false' -> bool, anything else stays text."""
    low = value.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        return value


def engine_help() -> list[dict]:
    """Per game with an engine: its pilots and goldfish options with defaults and descriptions."""
    from rules.engine.core import get_engine

    from .i18n import description

    out = []
    for game in g.GAMES:
        try:
            engine = get_engine(game)
        except KeyError:
            continue
        opts = [{"name": k, "default": v, "help": description(engine.describe_options.get(k, ""))}
                for k, v in sorted(engine.default_options.items())]
        out.append({"game": game, "name": g.GAME_NAMES[game], "pilots": list(engine.pilots), "options": opts})
    return out
