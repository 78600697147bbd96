from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional; for turn notifications and password resets.")

    class Meta:
        model = User
        fields = ("username", "email")
