"""Staff mark an account a bot (the owner may have asked: ``bot_requested``) and see its
tokens by name, prefix and scopes; a token's key is never stored, so never shown."""
from django.contrib import admin

from grailsite.accounts import bots
from grailsite.accounts.models import ApiToken, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "is_bot", "bot_requested")
    list_filter = ("is_bot", "bot_requested")
    search_fields = ("user__username",)
    fields = ("user", "is_bot", "bot_requested", "bot_accepts", "email_notifications")
    readonly_fields = ("user",)
    actions = ["mark_bot"]

    @admin.action(description="Mark as bots")
    def mark_bot(self, request, queryset):
        queryset.update(is_bot=True, bot_requested=False)
        bots.refresh()  # an update sends no signal


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "prefix", "scopes", "created_at", "last_used_at", "revoked_at")
    search_fields = ("user__username", "name", "prefix")
    readonly_fields = ("user", "name", "prefix", "digest", "scopes", "created_at", "last_used_at")
