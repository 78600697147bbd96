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
    # The secret of a committed game is not a field here at all (not editable); the seed it
    # gives is shown once the game is over, as everywhere else (games/table/commitments.py).
    readonly_fields = ("seed_once_over", "commitment", "state", "setup_options", "version", "move_count", "outcome",
                       "created_at", "started_at", "finished_at")
    exclude = ("seed",)  # read-only, through seed_once_over
    inlines = [SeatInline]

    @admin.display(description="seed")
    def seed_once_over(self, match):
        if match.record_format and match.status not in Match.ENDED:
            return "shown once the game is over"
        return match.seed


@admin.register(MoveRecord)
class MoveRecordAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "seat", "user", "by_timeout", "created_at")
    list_filter = ("by_timeout",)
    readonly_fields = [f.name for f in MoveRecord._meta.fields]

    def has_change_permission(self, request, obj=None):
        return False  # the move log is append-only


admin.site.register(ChatMessage)
admin.site.register(Notification)
