"""A player's own pages: settings (preferences, push, vacation), profiles with their ties
(follow, block) and friends, and the one-click unsubscribe from notification e-mail."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.inbox import emails, push, reminders
from games.players import profiles
from games.players.ratings import PROVISIONAL_GAMES
from games.table import access, reliability
from games.table.services import vacation_start
from games.players.forms import EmailRemindersForm, PreferencesForm, PushPreferencesForm, VacationForm
from grailsite.accounts.models import Profile, PushPreferences
from grailsite import time_zones
from grailsite.errors import NotFound, ServiceError


@login_required
def account_settings(request):
    profile, _ = Profile.objects.get_or_create(user=request.user)
    prefs = PreferencesForm(instance=profile)
    vacation = VacationForm()
    push_prefs = PushPreferencesForm(instance=push.preferences_of(request.user.pk))
    by_email = EmailRemindersForm(user=request.user)
    if request.method == "POST" and "email_reminders" in request.POST:
        by_email = EmailRemindersForm(request.POST, user=request.user)
        if by_email.is_valid():
            address = reminders.email_reminders_on(user=request.user, email=by_email.cleaned_data.get("email", ""))
            messages.success(request, f"Reminders before your deadlines will come by e-mail to {address}.")
            return redirect("account_settings")
    elif request.method == "POST" and ("save_push" in request.POST or "remove_push" in request.POST):
        done = _push_settings(request)
        if done is not None:
            return done
        push_prefs = PushPreferencesForm(request.POST, instance=push.preferences_of(request.user.pk))
        push_prefs.is_valid()  # shows its errors
    elif request.method == "POST" and "save_preferences" in request.POST:
        prefs = PreferencesForm(request.POST, instance=profile)
        if prefs.is_valid():
            prefs.save()
            messages.success(request, "Preferences saved.")
            return redirect("account_settings")
    elif request.method == "POST" and "start_vacation" in request.POST:
        vacation = VacationForm(request.POST)
        if vacation.is_valid():
            try:
                vacation_start(user=request.user, days=vacation.cleaned_data["days"])
            except ValueError as exc:
                vacation.add_error("days", str(exc))
            else:
                messages.success(request, "Your clocks are stopped. Enjoy the holiday!")
                return redirect("account_settings")
    return render(request, "accounts/settings.html", {
        "prefs": prefs, "vacation": vacation, "profile": profile, "push_prefs": push_prefs, "by_email": by_email,
        "reminding_by_email": push_prefs.instance.remind_by_email and bool(request.user.email),
        "push_key": push.public_key(), "push_devices": request.user.push_subscriptions.all()})


def _push_settings(request):
    """The settings page's push forms: remove a device, or save the events and quiet hours.
    Returns the redirect when done, None when the form has errors to show."""
    if "remove_push" in request.POST:
        try:
            push.subscription_remove(user=request.user, subscription_id=int(request.POST["remove_push"]))
        except (NotFound, ValueError):
            messages.error(request, "That device was already removed.")
        else:
            messages.success(request, "That device will get no more pushes.")
        return redirect("account_settings")
    instance = PushPreferences.objects.filter(user=request.user).first() or PushPreferences(user=request.user)
    form = PushPreferencesForm(request.POST, instance=instance)
    if not form.is_valid():
        return None
    form.save()
    request.session[time_zones.SESSION_KEY] = form.instance.time_zone  # the pages' clocks follow it
    messages.success(request, "Push preferences saved.")
    return redirect("account_settings")


# --- players: profiles, follows, blocks, friends ----------------------------------------------

def player_profile(request, name):
    try:
        shown = profiles.profile(name, request.user)
    except NotFound:
        raise Http404("No such player.") from None
    bot = Profile.objects.filter(user=shown.user, is_bot=True).values_list("bot_accepts", flat=True).first()
    return render(request, "accounts/profile.html", {"p": shown, "person": shown.user,
                                                     "mine": request.user.pk == shown.user.pk,
                                                     # A bot says so, and which games it accepts.
                                                     "is_bot": bot is not None,
                                                     "bot_accepts": access.bot_accepts_in_words(bot or []),
                                                     "provisional_games": PROVISIONAL_GAMES,
                                                     "reliability_days": reliability.WINDOW.days})


_TIES = {"follow": (profiles.follow, "You follow {name}."), "unfollow": (profiles.unfollow, "You no longer follow {name}."),
         "block": (profiles.block, "You blocked {name}: they cannot invite you, join your games or chat in them."),
         "unblock": (profiles.unblock, "You unblocked {name}.")}


@login_required
@require_POST
def player_tie(request, name, action):
    """Follow, unfollow, block or unblock someone, from their profile."""
    if action not in _TIES:
        raise Http404()
    call, said = _TIES[action]
    try:
        call(user=request.user, name=name)
    except NotFound:
        raise Http404("No such player.") from None
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, said.format(name=name))
    return redirect("player_profile", name=name)


@login_required
def friends(request):
    return render(request, "accounts/friends.html", {"friends": profiles.friends(request.user)})


@csrf_exempt  # the signed token is the credential; a mail client's one-click POST has no session
def unsubscribe(request, token):
    """Every notification e-mail off, from the link in one (RFC 8058: a POST, from the mail
    client's button or this page's, does it; a GET only asks, since mail scanners follow links)."""
    user_id = emails.unsubscribe_user_id(token)
    if user_id is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    if request.method == "POST":
        emails.unsubscribe(user_id)
        return render(request, "accounts/unsubscribe.html", {"done": True})
    return render(request, "accounts/unsubscribe.html", {"token": token})
