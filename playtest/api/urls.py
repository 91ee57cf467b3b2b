from django.urls import path

from . import views

urlpatterns = [
    path("playtests/", views.PlaytestListCreateView.as_view(), name="api-playtest-list"),
    path("playtests/compare/", views.PlaytestCompareView.as_view(), name="api-playtest-compare"),
    path("playtests/<str:key>/", views.PlaytestDetailView.as_view(), name="api-playtest-detail"),
    path("playtests/<str:key>/cancel/", views.PlaytestCancelView.as_view(), name="api-playtest-cancel"),
    path("playtests/<str:key>/games/<int:index>/log/", views.PlaytestGameLogView.as_view(), name="api-playtest-game-log"),
]
