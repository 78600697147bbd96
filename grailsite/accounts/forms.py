from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from .models import Profile


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional; for turn notifications and password resets.")

    class Meta:
        model = User
        fields = ("username", "email")


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("email_notifications",)


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=60, help_text="Your clocks stop for this many days.")
