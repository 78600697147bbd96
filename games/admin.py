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


# --- tournaments and ladders --------------------------------------------------------------

from django.contrib import messages  # noqa: E402

from games.models import Ladder, LadderChallenge, LadderRung, Tournament, TournamentEntry  # noqa: E402


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    fields = ("user", "computer", "status", "seed_rating", "group")
    readonly_fields = fields
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "kind", "format", "status", "current_round", "rounds", "rated", "created_at")
    list_filter = ("kind", "format", "status")
    search_fields = ("id", "name", "organiser__username")
    readonly_fields = ("current_round", "version", "started_at", "finished_at", "paused_at")
    inlines = [TournamentEntryInline]


@admin.register(TournamentEntry)
class TournamentEntryAdmin(admin.ModelAdmin):
    """An administrator removes a player here (the action), as the tournament's page lets staff do."""
    list_display = ("id", "tournament", "user", "computer", "status")
    list_filter = ("status",)
    search_fields = ("user__username", "tournament__name")
    readonly_fields = ("tournament", "user", "computer", "status", "seed_rating", "group", "choice")
    actions = ["remove_players"]

    @admin.action(description="Remove the selected players from their tournaments")
    def remove_players(self, request, queryset):
        from grailsite.errors import ServiceError
        from games.tournaments import services

        for entry_id in queryset.values_list("pk", flat=True):
            try:
                services.tournament_remove(entry_id=entry_id, by=request.user)
            except ServiceError as exc:
                messages.error(request, f"Entry {entry_id}: {exc.message}")


admin.site.register(Ladder)
admin.site.register(LadderRung)
admin.site.register(LadderChallenge)
