from django.contrib import admin

from games.models import ChatMessage, Match, MoveRecord, Notification, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "accepted", "waiting_for", "deadline", "paused_until")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "title", "status", "num_seats", "move_count", "version", "updated_at")
    list_filter = ("kind", "status", "clock")
    search_fields = ("id", "title", "seats__user__username")
    readonly_fields = ("seed", "state", "setup_options", "version", "move_count", "outcome", "created_at",
                       "started_at", "finished_at")
    inlines = [SeatInline]


@admin.register(MoveRecord)
class MoveRecordAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "seat", "user", "by_timeout", "created_at")
    list_filter = ("by_timeout",)
    readonly_fields = [f.name for f in MoveRecord._meta.fields]

    def has_change_permission(self, request, obj=None):
        return False  # the move log is append-only


admin.site.register(ChatMessage)
admin.site.register(Notification)
