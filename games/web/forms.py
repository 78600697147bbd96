from django import forms

from games.table import clock, computers, reliability
from games import registry

# Seats 2 to 8 may each be given to a computer player; the page shows as many as the game has.
COMPUTER_SEATS = range(1, 8)


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
    allow_spectators = forms.BooleanField(
        required=False, initial=True, label="Spectators welcome",
        help_text="Unticked, the game is private: only the players you invite sit at it or see it, so "
                  "invite a player, or choose a computer player, for every seat.")
    rated = forms.BooleanField(
        required=False, initial=True, label="Rated",
        help_text="The result moves the players' ratings. Only games where every seat is a person are rated.")
    min_reliability = forms.TypedChoiceField(
        coerce=int, initial=0, required=False, empty_value=0, label="Players who finish their games",
        choices=reliability.choices_in_words(),
        help_text=f"Only players who finished this share of their games of the last {reliability.WINDOW.days} days "
                  "(without running out of time or walking out) may join or accept an invitation. "
                  f"Players with fewer than {reliability.MIN_GAMES} such games may always join.")
    computer_delay = forms.IntegerField(min_value=0, max_value=computers.MAX_DELAY, initial=computers.DEFAULT_DELAY,
                                        required=False,
                                        label="Computer players wait (seconds)",
                                        help_text="Before each of their moves, so you can follow the table.")
    computer_takeover = forms.BooleanField(
        required=False, label="A computer player takes over a seat that is left",
        help_text="Games of three or more: a player who resigns is replaced by a computer player (Knight) "
                  "instead of leaving the table.")
    takeover_after = forms.TypedChoiceField(
        choices=[(n, f"{n} time{'s' if n > 1 else ''} in a row") for n in range(1, 6)], coerce=int, initial=2,
        required=False, empty_value=2,
        label="Hand a seat to a computer after it runs out of time",
        help_text="Games of three or more: until then the clock ends that player's turn for them; "
                  "in a game of two, running out of time loses.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rooms = registry.rooms()
        self.fields["kind"].choices = [(r.kind, f"{r.game.name} ({r.players_text})") for r in rooms]
        # The form opens on a table it would accept: the game asked for (?kind=) or the first,
        # with the seats asked for (a challenge: two) within that game's range, else its fewest.
        chosen = next((r for r in rooms if r.kind == self.initial.get("kind")), rooms[0] if rooms else None)
        if chosen is not None:
            low, high = chosen.game.min_players, chosen.game.max_players
            self.initial["kind"] = chosen.kind
            self.initial["seats"] = min(max(self.initial.get("seats") or low, low), high)
        # Every game's levels in one list; the service refuses a level the chosen game lacks.
        levels = {level: computers.level_label(level) for g in registry.kinds() for level in computers.levels_for(g.kind)}
        for index in COMPUTER_SEATS:
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                required=False, label=f"Seat {index + 1}",
                choices=[("", "A person")] + [(level, f"Computer ({label})") for level, label in levels.items()],
                widget=forms.Select(attrs={"data-testid": f"seat-{index}", "class": "computer-seat",
                                           "data-seat": index}))
        # Who sits where, right under how many play; the computer players' table options last.
        self.order_fields(["kind", "seats", *(f"seat_{i}" for i in COMPUTER_SEATS), "title", "invite"])

    def clean(self):
        data = super().clean()
        self._check_seats(data)
        if data.get("clock_kind") and data.get("clock_amount"):
            try:
                clock.validate(data["clock_kind"], data["clock_amount"])
            except ValueError as exc:
                self.add_error("clock_amount", str(exc))
        return data

    def _check_seats(self, data) -> None:
        """The number of players must suit the chosen game (said on the field, not after a round trip to the service)."""
        if not data.get("kind") or not data.get("seats"):
            return
        room = registry.room(data["kind"])
        low, high = room.game.min_players, room.game.max_players
        if not low <= data["seats"] <= high:
            self.add_error("seats", f"{room.game.name} is for {room.players_text}.")

    def kind_data(self) -> dict:
        """Per game, what the page's script needs to keep the form valid as the game changes:
        its player range and its computer levels (static/js/new_game.js)."""
        return {r.kind: {"min": r.game.min_players, "max": r.game.max_players,
                         "levels": computers.levels_for(r.kind)} for r in registry.rooms()}

    def clean_computer_delay(self):
        value = self.cleaned_data.get("computer_delay")
        return computers.DEFAULT_DELAY if value is None else value

    def computer_seats(self) -> dict[int, str]:
        """{seat index: level} for the seats given to computer players (within the seat count)."""
        seats = self.cleaned_data.get("seats") or 0
        return {i: self.cleaned_data[f"seat_{i}"] for i in COMPUTER_SEATS
                if i < seats and self.cleaned_data.get(f"seat_{i}")}

    def invitees(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data.get("invite", "").split(",") if n.strip()]
