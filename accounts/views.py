"""The sign-up page (log-in and log-out are Django's views: ``login_throttle.ThrottledLoginView``,
``LogoutView``). Templates: ``templates/registration/``."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from . import login_throttle
from .forms import SignupForm
from .tokens import tokens_revoke


def _safe_next(request: HttpRequest) -> str | None:
    """``?next=`` when it stays on this site (a path, or this host with the request's scheme), else None:
    ``https://evil.example/``, ``//evil.example`` and ``/\\evil.example`` were followed after sign-up."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return None


def signup_view(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("deck-list")
    if request.method == "POST" and (wait := login_throttle.signup_wait(request)):
        form = login_throttle.refused(SignupForm(request.POST), login_throttle.signup_limited_message(wait))
        response = render(request, "registration/signup.html", {"form": form}, status=429)
        response["Retry-After"] = str(wait)
        return response
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login_throttle.signup_done(request)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username})
        return redirect(_safe_next(request) or "deck-list")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change; the account's API token is revoked with the old password."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        tokens_revoke(form.user)
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset by e-mail (the console e-mail backend unless EMAIL_BACKEND says
    otherwise), counted per address like sign-ups (``PASSWORD_RESET_RATE_IP``, 429 above it). The
    answer is the same whether the address has an account or not."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = login_throttle.reset_wait(request)
        if wait:
            form = login_throttle.refused(self.get_form(), login_throttle.reset_limited_message(wait))
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(wait)
            return response
        login_throttle.reset_done(request)
        return super().post(request, *args, **kwargs)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Setting the new password from the e-mailed link revokes the account's API token too."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        tokens_revoke(form.user)
        return response
