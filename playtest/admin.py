from django.contrib import admin

from .models import PlaytestChunk, PlaytestJob


class PlaytestChunkInline(admin.TabularInline):
    model = PlaytestChunk
    fields = ("index", "start", "stop", "seconds", "worker", "created")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(PlaytestJob)
class PlaytestJobAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "name", "owner", "games", "progress", "status", "created", "finished")
    list_filter = ("status", "game", "source")
    list_select_related = ("owner",)
    search_fields = ("name", "share_slug", "owner__username")
    readonly_fields = ("share_slug", "snapshot", "result", "summary", "task_ids", "created", "started", "finished", "heartbeat")
    inlines = [PlaytestChunkInline]
