from django.urls import path

from . import views

urlpatterns = [
    path("formats/", views.FormatListView.as_view(), name="api-format-list"),
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
