from django.urls import path

from .views import CardDetailView, CardListView

app_name = "catalog-api"
urlpatterns = [
    path("cards/", CardListView.as_view(), name="card-list"),
    path("cards/<str:game>/<path:code>/", CardDetailView.as_view(), name="card-detail"),
]
