from typing import Any

from django.urls import path
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from .. import login_throttle
from . import views


class TokenView(ObtainAuthToken):
    """Password guessing through the token endpoint is throttled per client address ("auth" rate)
    and shares the login form's failed-login counts per username and address (decks/login_throttle.py)."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = request.data.get("username") if hasattr(request.data, "get") else None
        username = username[:150] if isinstance(username, str) else ""
        wait = login_throttle.login_wait(request, username)
        if wait:
            raise Throttled(wait, detail=login_throttle.locked_message(wait))
        try:
            response = super().post(request, *args, **kwargs)
        except ValidationError:
            login_throttle.login_failed(request, username)
            raise
        if username:
            login_throttle.login_succeeded(username)
        return response


urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("decks/validate/", views.ValidateView.as_view(), name="api-deck-validate"),
    path("decks/import/", views.DeckImportView.as_view(), name="api-deck-import"),
    path("decks/", views.DeckListView.as_view(), name="api-deck-list"),
    path("decks/<int:pk>/", views.DeckDetailView.as_view(), name="api-deck-detail"),
    path("decks/<int:pk>/versions/", views.DeckVersionListView.as_view(), name="api-deck-versions"),
    path("decks/<int:pk>/versions/<int:number>/", views.DeckVersionDetailView.as_view(), name="api-deck-version"),
    path("decks/<int:pk>/versions/<int:number>/restore/", views.DeckVersionRestoreView.as_view(),
         name="api-deck-version-restore"),
    path("decks/<int:pk>/diff/", views.DeckDiffView.as_view(), name="api-deck-diff"),
    path("decks/<int:pk>/fork/", views.DeckForkView.as_view(), name="api-deck-fork"),
    path("decks/<int:pk>/shares/", views.DeckShareView.as_view(), name="api-deck-shares"),
    path("decks/<int:pk>/export/", views.DeckExportView.as_view(), name="api-deck-export"),
    path("shared/<str:slug>/", views.SharedDeckView.as_view(), name="api-shared-deck"),
    path("shared/<str:slug>/fork/", views.SharedDeckForkView.as_view(), name="api-shared-deck-fork"),
]
