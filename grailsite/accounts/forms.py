from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import transaction

from grailsite import time_zones

from .models import PushPreferences


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional; for turn notifications and password resets.")
    # The browser's own zone, filled in by the page's script (templates/registration/signup.html):
    # the new account's deadlines, reminders and quiet hours start in it. Empty or unknown: UTC,
    # until the person chooses one in their settings.
    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_time_zone(self):
        return time_zones.canonical(self.cleaned_data.get("time_zone"))

    @transaction.atomic
    def save(self, commit=True):
        user = super().save(commit=commit)
        zone = self.cleaned_data.get("time_zone")
        if commit and zone:
            PushPreferences.objects.update_or_create(user=user, defaults={"time_zone": zone})
        return user
