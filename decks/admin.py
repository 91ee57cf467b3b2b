from django.contrib import admin

from .models import Deck, DeckVersion, Format, ShareLink


class DeckVersionInline(admin.TabularInline):
    model = DeckVersion
    extra = 0
    fields = ("number", "name", "note", "author", "created")
    readonly_fields = fields
    can_delete = False


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "owner", "visibility", "version", "updated")
    list_filter = ("game", "visibility")
    search_fields = ("name", "owner__username", "slug")
    readonly_fields = ("slug", "version", "forked_from", "forked_from_version")
    inlines = [DeckVersionInline]


@admin.register(ShareLink)
class ShareLinkAdmin(admin.ModelAdmin):
    list_display = ("slug", "deck", "version", "created")
    readonly_fields = ("slug",)


@admin.register(Format)
class FormatAdmin(admin.ModelAdmin):
    """Formats and their lists; ``manage.py load_formats FILE`` loads the same fields from JSON or CSV."""

    list_display = ("name", "game", "code", "order", "single_series")
    list_filter = ("game",)
    search_fields = ("name", "code")
    fields = ("game", "code", "name", "order", "series", "groups", "single_series", "banned", "restricted", "notes")
