from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from games.services import vacation_start
from grailsite.ratelimits import ratelimit_view

from .forms import PreferencesForm, SignUpForm, VacationForm
from .models import Profile


@ratelimit_view("signup")
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}!")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def account_settings(request):
    profile, _ = Profile.objects.get_or_create(user=request.user)
    prefs = PreferencesForm(instance=profile)
    vacation = VacationForm()
    if request.method == "POST" and "save_preferences" in request.POST:
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
    return render(request, "accounts/settings.html", {"prefs": prefs, "vacation": vacation, "profile": profile})
