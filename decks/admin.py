from django.contrib import admin

from .models import Deck, DeckVersion, ShareLink


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
