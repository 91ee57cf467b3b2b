from django.contrib import admin
from django.db import models

from .models import Card, CardPrinting


class PrintingInline(admin.TabularInline):
    model = CardPrinting
    extra = 0
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


class GameStatsFilter(admin.SimpleListFilter):
    """Filter by whether a card has printed text the engines do not execute."""

    title = "engine coverage"
    parameter_name = "modelled"

    def lookups(self, request, model_admin):
        return [("yes", "fully modelled"), ("no", "has unmodelled text")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(text_modelled=True) | queryset.filter(text="")
        if self.value() == "no":
            return queryset.filter(text_modelled=False).exclude(text="")
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
