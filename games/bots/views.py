"""The pages of a person's API tokens and, for a bot account, what it accepts."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from games import registry
from games.bots import accepts as bot_accepts
from grailsite.accounts import tokens
from grailsite.accounts.models import ApiToken, Profile
from grailsite.errors import ServiceError


@login_required
def tokens_page(request):
    """List, make and revoke tokens. A new key is shown on the answer to the POST that made
    it, once: only its digest is kept."""
    new_key = None
    if request.method == "POST":
        try:
            if "revoke" in request.POST:
                token_id = request.POST.get("revoke", "")
                tokens.token_revoke(user=request.user, token_id=int(token_id) if token_id.isdigit() else 0)
                messages.success(request, "The token is revoked: it opens nothing any more.")
                return redirect("api_tokens")
            scopes = [s for s in ApiToken.SCOPES if request.POST.get(f"scope_{s}")]
            token, new_key = tokens.token_create(user=request.user, name=request.POST.get("name", "")[:200],
                                                 scopes=scopes)
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("api_tokens")
    return render(request, "bots/tokens.html", {"tokens": tokens.tokens_of(request.user), "new_key": new_key,
                                                "scopes": ApiToken.SCOPES})


@login_required
def bot_page(request):
    """A bot's declaration of the games it accepts; an account that is not a bot asks to be
    marked one (staff mark it in the admin)."""
    profile, _ = Profile.objects.get_or_create(user=request.user)
    if request.method == "POST":
        if "request_bot" in request.POST and not profile.is_bot:
            profile.bot_requested = True
            profile.save(update_fields=["bot_requested"])
            messages.success(request, "Asked: a member of staff will mark this account a bot.")
        elif "accepts" in request.POST:
            try:
                profile.bot_accepts = bot_accepts.from_form(request.POST)
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                profile.save(update_fields=["bot_accepts"])
                messages.success(request, "Saved: you are offered only these games.")
        return redirect("bot_settings")
    rows = bot_accepts.form_rows(profile.bot_accepts)
    return render(request, "bots/bot.html", {"profile": profile, "rows": rows, "clocks": bot_accepts.CLOCKS,
                                             "kinds": [(g.kind, g.name) for g in registry.kinds()]})
