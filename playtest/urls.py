from django.urls import path

from . import views

urlpatterns = [
    path("playtests/", views.playtest_list_view, name="playtest-list"),
    path("playtests/new/", views.playtest_new_view, name="playtest-new"),
    path("playtests/compare/", views.playtest_compare_view, name="playtest-compare"),
    path("p/<str:slug>/", views.playtest_report_view, name="playtest-report"),
    path("p/<str:slug>/cancel/", views.playtest_cancel_view, name="playtest-cancel"),
    path("p/<str:slug>/delete/", views.playtest_delete_view, name="playtest-delete"),
    path("p/<str:slug>/games/", views.playtest_game_view, name="playtest-game-jump"),
    path("p/<str:slug>/games/<int:index>/", views.playtest_game_view, name="playtest-game"),
]
