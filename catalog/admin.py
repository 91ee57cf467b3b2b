from django.contrib import admin
from django.db import models
from django.utils.html import format_html

from .models import Card, CardPrinting, CardSet


class PrintingInline(admin.TabularInline):
    """A card's printings; curators upload each printing's picture here (thumbnails are made on save)."""

    model = CardPrinting
    extra = 0
    fields = ("game", "code", "rarity", "image", "image_url", "picture")
    readonly_fields = ("picture",)
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    @admin.display(description="picture")
    def picture(self, obj: CardPrinting) -> str:
        from .pictures import printing_picture

        shown = printing_picture(obj) if obj.pk else None
        if shown is None:
            return "–"
        return format_html('<img src="{}" alt="" width="60" height="84" style="object-fit:contain" loading="lazy">', shown.src)


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    """Set names, series and release order (sets list from their cards without a row here)."""

    list_display = ("code", "name", "game", "series", "release_date", "release_order")
    list_filter = ("game",)
    list_editable = ("name", "series", "release_date", "release_order")
    search_fields = ("code", "name", "series")


class GameStatsFilter(admin.SimpleListFilter):
    """Filter by whether the game's goldfish engine fully models the card (``Card.modelled``,
    catalog.abilities: refreshed at import and by ``manage.py compile_abilities``)."""

    title = "engine coverage"
    parameter_name = "modelled"

    def lookups(self, request, model_admin):
        return [("yes", "fully modelled"), ("no", "not fully modelled")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(modelled=self.value() == "yes")
        return queryset


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ("code", "name", "game", "card_type", "rarity", "set_code", "level", "cost", "power", "cp", "ap")
    list_filter = ("game", "card_type", "rarity", "set_code", GameStatsFilter, "bonus_mark", "gender", "counter")
    search_fields = ("code", "name", "text", "work", "title", "person")
    inlines = [PrintingInline]
    fieldsets = [
        (None, {"fields": ("game", "code", "name", "alt_names", "card_type", "rarity", "set_code", "work", "number")}),
        ("Look", {"fields": ("colors", "attributes", "traits", "text", "flavor", "translations", "text_modelled", "keywords", "effects")}),
        ("Cost", {"fields": ("level", "cost", "cost_detail")}),
        ("Prism Connect", {"classes": ["collapse"], "fields": ("cp", "rank", "bonus_mark", "connect_attack")}),
        ("Phantasmagoria", {"classes": ["collapse"], "fields": (
            "mhp", "martial", "agility", "wisdom", "craft", "poise", "attack_attribute", "defense_attribute", "ex_condition")}),
        ("Weiß Schwarz", {"classes": ["collapse"], "fields": ("power", "soul", "triggers", "counter")}),
        ("Chaos TCG", {"classes": ["collapse"], "fields": (
            "gender", "atk", "defense", "partner_atk", "partner_def", "title", "person", "extra_persons", "timing")}),
        ("Lycee", {"classes": ["collapse"], "fields": ("slots", "ap", "dp", "sp", "ex", "dmg", "conversion_target", "copy_limit")}),
    ]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        from .services import card_sync_facets

        card_sync_facets(cards=[obj])
