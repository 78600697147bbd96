from django import forms

from games import clock, registry


class MatchCreateForm(forms.Form):
    kind = forms.ChoiceField(label="Game")
    seats = forms.IntegerField(min_value=1, max_value=8, initial=2, label="Players")
    title = forms.CharField(max_length=80, required=False)
    invite = forms.CharField(required=False, label="Invite players",
                             help_text="Usernames, separated by commas. Seats left over are open in the lobby.")
    clock_kind = forms.ChoiceField(label="Time per move", choices=[
        ("days", "Days"), ("hours", "Hours"), ("minutes", "Minutes"), ("seconds", "Seconds (live table)"),
        ("none", "No clock")], initial="days")
    clock_amount = forms.IntegerField(min_value=1, max_value=600, initial=3, label="Amount",
                                      help_text="Days: 1–14, hours: 1–72, minutes: 1–120, seconds: 10–600.")
    weekend_pause = forms.BooleanField(required=False, help_text="Clocks stop on Saturdays and Sundays (UTC).")
    vacation_days = forms.IntegerField(min_value=0, max_value=30, initial=7,
                                       help_text="Days a year each player may stop their clock.")
    allow_spectators = forms.BooleanField(required=False, initial=True, label="Spectators welcome")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(g.kind, f"{g.name} ({g.min_players}–{g.max_players} players)")
                                       for g in registry.kinds()]

    def clean(self):
        data = super().clean()
        if data.get("clock_kind") and data.get("clock_amount"):
            try:
                clock.validate(data["clock_kind"], data["clock_amount"])
            except ValueError as exc:
                self.add_error("clock_amount", str(exc))
        return data

    def invitees(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data.get("invite", "").split(",") if n.strip()]
