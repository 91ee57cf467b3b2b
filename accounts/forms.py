"""The sign-up form (the log-in form is Django's ``AuthenticationForm``)."""
from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .usernames import username_problem


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text=_("Optional: to reset your password if you forget it."))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self) -> str:
        """Django's checks, then no look-alike of another name (accounts/usernames.py)."""
        name = super().clean_username()
        if name is None:  # Django already refused it (taken, in any case)
            return name
        problem = username_problem(name)
        if problem:
            raise forms.ValidationError(problem, code="look_alike")
        return name
