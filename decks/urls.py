from django.urls import path

from . import views, views_builder, views_public

urlpatterns = [
    path("decks/", views.deck_list_view, name="deck-list"),
    path("decks/new/", views.deck_create_view, name="deck-create"),
    path("decks/public/", views_public.deck_public_view, name="deck-public"),
    path("decks/<int:pk>/", views.deck_detail_view, name="deck-detail"),
    path("decks/<int:pk>/edit/", views.deck_edit_view, name="deck-edit"),
    path("decks/<int:pk>/build/", views_builder.deck_build_view, name="deck-build"),
    path("decks/<int:pk>/build/cards/", views_builder.deck_build_cards_view, name="deck-build-cards"),
    path("decks/<int:pk>/build/top/", views_builder.deck_build_top_view, name="deck-build-top"),
    path("decks/<int:pk>/build/paste/", views_builder.deck_build_paste_view, name="deck-build-paste"),
    path("decks/<int:pk>/build/undo/", views_builder.deck_build_undo_view, name="deck-build-undo"),
    path("decks/<int:pk>/build/save/", views_builder.deck_build_save_view, name="deck-build-save"),
    path("decks/<int:pk>/build/discard/", views_builder.deck_build_discard_view, name="deck-build-discard"),
    path("decks/validate/panel/", views_builder.deck_validate_panel_view, name="deck-validate-panel"),
    path("decks/<int:pk>/history/", views.deck_history_view, name="deck-history"),
    path("decks/<int:pk>/restore/", views.deck_restore_view, name="deck-restore"),
    path("decks/<int:pk>/fork/", views.deck_fork_view, name="deck-fork"),
    path("decks/<int:pk>/share/", views.deck_share_view, name="deck-share"),
    path("decks/<int:pk>/delete/", views.deck_delete_view, name="deck-delete"),
    path("decks/<int:pk>/export.txt", views.deck_export_text_view, name="deck-export-text"),
    path("decks/<int:pk>/export.json", views.deck_export_json_view, name="deck-export-json"),
    path("d/<str:slug>/", views.deck_shared_view, name="deck-shared"),
    path("d/<str:slug>/fork/", views.deck_shared_fork_view, name="deck-shared-fork"),
    path("d/<str:slug>/export.txt", views.deck_shared_export_text_view, name="deck-shared-export-text"),
    path("d/<str:slug>/export.json", views.deck_shared_export_json_view, name="deck-shared-export-json"),
]
