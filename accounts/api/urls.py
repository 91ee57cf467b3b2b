from django.urls import path

from .views import LogoutView, TokenListView, TokenView

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("auth/tokens/", TokenListView.as_view(), name="api-tokens"),
    path("auth/logout/", LogoutView.as_view(), name="api-logout"),
]
