"""The sign-up form (the log-in form is Django's ``AuthenticationForm``)."""
from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)
