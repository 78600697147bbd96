"""The tournament page's form: the same choices and bounds as the API's body
(games/tournaments/api.py); the service checks them again."""
from __future__ import annotations

from django import forms

from games import registry
from games.models import Tournament
from games.table import reliability
from games.tournaments import services


class TournamentCreateForm(forms.Form):
    name = forms.CharField(max_length=80, required=False, help_text="Left empty: the game and the format.")
    kind = forms.ChoiceField(label="Game")
    format = forms.ChoiceField(choices=Tournament.Format.choices, initial=Tournament.Format.SWISS, help_text=(
        "Swiss: pairs of players of equal score, never the same two twice. Tables by score: tables of three "
        "to six, seated by score. Round robin: groups in which everyone meets everyone."))
    rounds = forms.IntegerField(min_value=1, max_value=services.MAX_ROUNDS, initial=3,
                                help_text="Swiss and tables. A round robin plays its whole schedule.")
    table_size = forms.IntegerField(min_value=2, max_value=services.MAX_GROUP, initial=2, label="Players a table or group",
                                    help_text="Swiss: 2. Tables: players at a table. Round robin: players in a group.")
    max_players = forms.IntegerField(min_value=2, max_value=services.MAX_PLAYERS, initial=16)
    clock_kind = forms.ChoiceField(label="Time per move", choices=[(c, c.capitalize()) for c in services.CLOCKS],
                                   initial="days")
    clock_amount = forms.IntegerField(min_value=1, max_value=1000, initial=3, label="Amount")
    round_days = forms.IntegerField(min_value=1, max_value=services.MAX_ROUND_DAYS, initial=14,
                                    label="Days a round may last",
                                    help_text="Games still running then are settled by the time-out rules.")
    rated = forms.BooleanField(required=False, initial=True,
                               help_text="Its games move ratings. Computer players enter only unrated tournaments.")
    invitation_only = forms.BooleanField(required=False)
    invite = forms.CharField(required=False, help_text="Invitation only: usernames, separated by commas.")
    min_rating = forms.IntegerField(min_value=0, max_value=services.MAX_RATING, required=False,
                                    label="Minimum rating")
    min_reliability = forms.TypedChoiceField(
        coerce=int, initial=0, required=False, empty_value=0, label="Players who finish their games",
        choices=reliability.choices_in_words(),
        help_text=f"Only players who finished this share of their games of the last {reliability.WINDOW.days} days "
                  "(without running out of time or walking out) may enter, invited or not. "
                  f"Players with fewer than {reliability.MIN_GAMES} such games may always enter.")
    starts_at = forms.DateTimeField(required=False, label="Start time (UTC)",
                                    help_text="Left empty, the organiser starts it. Format: 2027-01-31 18:00.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(r.kind, r.game.name) for r in registry.rooms()]

    def invitees(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data.get("invite", "").split(",") if n.strip()]
