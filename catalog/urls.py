from django.urls import path

from . import views

urlpatterns = [
    path("", views.home_view, name="home"),
    path("cards/", views.card_search_view, name="card-search"),
    path("cards/help/", views.search_help_view, name="search-help"),
    path("cards/<str:game>/", views.game_browse_view, name="game-browse"),
    path("cards/<str:game>/sets/<path:set_code>/", views.set_detail_view, name="set-detail"),
    path("cards/<str:game>/series/<path:series>/", views.series_detail_view, name="series-detail"),
    path("cards/<str:game>/<path:code>/picture/", views.card_picture_view, name="card-picture"),
    path("cards/<str:game>/<path:code>/", views.card_detail_view, name="card-detail"),
]
