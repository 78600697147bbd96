from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render

from grailsite.ratelimits import ratelimit_view

from .forms import SignUpForm


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
