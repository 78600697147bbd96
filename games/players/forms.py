"""The forms of a player's settings page: preferences, vacation, push and reminders."""
from django import forms

from games.inbox.reminders import clean_hours
from grailsite import time_zones as zones
from grailsite.accounts.models import Profile, PushEvent, PushPreferences


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("email_notifications",)


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=60, help_text="Your clocks stop for this many days.")


class EmailRemindersForm(forms.Form):
    """"Get reminders by e-mail instead", offered where push cannot reach: asks for an address
    only of an account that has none."""

    email = forms.EmailField(required=False, label="Your e-mail address")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        if user.email:
            del self.fields["email"]
        else:
            self.fields["email"].required = True


class PushPreferencesForm(forms.ModelForm):
    """Which events reach this person by push, and their quiet hours (in their time zone)."""

    events = forms.MultipleChoiceField(choices=PushEvent.choices, required=False, widget=forms.CheckboxSelectMultiple,
                                       label="Push me when")
    time_zone = forms.ChoiceField(choices=(), label="Time zone",
                                  help_text="Quiet hours and reminders are read in this zone, and the moment of "
                                            "each deadline is shown in it.")
    quiet_start = forms.TimeField(required=False, label="Quiet from", widget=forms.TimeInput(attrs={"type": "time"}),
                                  help_text="Pushes due in quiet hours wait, and come as one when they end.")
    quiet_end = forms.TimeField(required=False, label="Quiet until", widget=forms.TimeInput(attrs={"type": "time"}))
    reminder_hours = forms.CharField(
        required=False, max_length=60, label="Remind me before my deadlines, hours before",
        help_text="For example “24, 4, 1” on a days clock; shorter clocks remind proportionally sooner. "
                  "By push when “A deadline near, or passed” is ticked above. Empty: no reminders.")
    remind_by_email = forms.BooleanField(required=False, label="Also send reminders by e-mail")

    class Meta:
        model = PushPreferences
        fields = ("events", "time_zone", "quiet_start", "quiet_end", "reminder_hours", "remind_by_email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = time_zones()
        if not self.is_bound:
            # A zone stored under an old name or an alias ("Asia/Calcutta") shows as its place.
            self.initial["time_zone"] = zones.canonical(self.instance.time_zone) or zones.UTC
            self.initial["reminder_hours"] = ", ".join(f"{h:g}" for h in self.instance.reminder_hours or [])

    def clean_reminder_hours(self):
        try:
            return clean_hours(self.cleaned_data.get("reminder_hours") or "")
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean(self):
        data = super().clean()
        if bool(data.get("quiet_start")) != bool(data.get("quiet_end")):
            raise forms.ValidationError("Give both ends of the quiet hours, or neither.")
        return data


def time_zones() -> list:
    """One zone per place, by region, each named with its offset today ("Paris (UTC+1)"); no
    aliases ("Zulu", "W-SU"): grailsite/time_zones.py."""
    return zones.choices()
