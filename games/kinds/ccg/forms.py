"""The CCG's forms: the table's options (16.1 rules switched off, 16.2 doubling, the clocks of
response windows and doubling offers) and each player's deck and response preset."""
from __future__ import annotations

import re

from django import forms
from django.urls import reverse
from django.utils.html import format_html_join

from decks import selectors as deck_selectors
from decks.models import Deck, DeckVersion
from games.table import clock
from games.kinds.base import SeatForm
from games.rules.ccg import state as ccg_state

PRESETS = (("ask", "Ask me in every response window"), ("always_pass", "Always pass response windows"))
RULE_LABELS = {
    "quotes": "reading the quote aloud",
    "run_away_shout": "shouting “Run away!”",
    "unique": "one copy of a unique card",
    "knight_needs_page": "knights need a page",
    "item_delay": "items wait a turn",
    "response_windows": "response windows",
    "song_grail": "songs drawn as grail numbers are sung",
    "village_table": "the village table",
}
_CLOCK_TEXT = re.compile(r"^\s*(\d{1,4})\s*([mhd])\s*$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


class ClockField(forms.Field):
    """A wait's own clock: '' (the match's clock), '12h' / '30m' / '2d', or an already
    cleaned ``[kind, amount]``; cleans to None or ``[kind, amount]``."""

    empty_text = "the game's own clock"  # what an empty value means, for the pages that show it

    def __init__(self, *, what: str, **kwargs):
        super().__init__(required=False, **kwargs)
        self.what = what

    def to_python(self, value):
        if value in (None, "", [], ()):
            return None
        if isinstance(value, (list, tuple)) and len(value) == 2:
            kind, amount = value
        else:
            found = _CLOCK_TEXT.match(str(value)[:20])
            if not found:
                raise forms.ValidationError(f"The {self.what} clock is written like 12h, 30m or 2d.")
            kind, amount = _UNITS[found.group(2)], int(found.group(1))
        if kind not in _UNITS.values() or not isinstance(amount, int) or isinstance(amount, bool):
            raise forms.ValidationError(f"The {self.what} clock is written like 12h, 30m or 2d.")
        try:
            clock.validate(kind, amount)
        except ValueError as exc:
            raise forms.ValidationError(f"The {self.what} clock: {exc}") from None
        return [kind, amount]

    def prepare_value(self, value):
        if isinstance(value, (list, tuple)) and len(value) == 2:
            return f"{value[1]}{value[0][0]}"
        return value


class TableOptionsForm(forms.Form):
    double_the_ante = forms.BooleanField(
        required=False, label="Double the ante may be offered (16.2)",
        widget=forms.CheckboxInput(attrs={"data-testid": "ccg-double"}))
    rules_off = forms.MultipleChoiceField(
        required=False, label="Rules switched off by agreement (16.1)",
        choices=[(rule, RULE_LABELS.get(rule, rule)) for rule in ccg_state.RULE_IDS],
        widget=forms.CheckboxSelectMultiple)
    # Empty by default: every wait follows the game's own clock; a clock given here may only
    # shorten a wait (a longer one gives way to the game's, games.table.clock.within).
    window = ClockField(what="response window", label="Response window clock", initial="",
                        help_text="Empty: the game's own clock. Or a shorter one, for example 2h or 30m.",
                        widget=forms.TextInput(attrs={"data-testid": "ccg-window", "maxlength": 8}))
    offer = ClockField(what="doubling offer", label="Doubling offer clock", initial="",
                       help_text="Empty: the game's own clock. Or a shorter one, for example 12h.",
                       widget=forms.TextInput(attrs={"maxlength": 8}))

    def clean_rules_off(self):
        return sorted(set(self.cleaned_data["rules_off"]))


class DeckSelect(forms.Select):
    """The player's decks, with those that cannot be played shown disabled and the first reason
    given, and a line under the list for each saying what to fix."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.unplayable: dict[int, tuple[str, str]] = {}  # deck id -> (name, first reason)

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if value in self.unplayable:
            option["attrs"]["disabled"] = True
            option["label"] = f"{label} — cannot be played: {self.unplayable[value][1]}"
        return option

    def render(self, name, value, attrs=None, renderer=None):
        notes = format_html_join(
            "", '<p class="help deck-unplayable" data-testid="deck-unplayable">{} cannot be played: {} '
            '<a href="{}">Fix it</a></p>',
            ((deck_name, reason, reverse("deck_builder", args=[pk]))
             for pk, (deck_name, reason) in self.unplayable.items()))
        return super().render(name, value, attrs, renderer) + notes


class DeckChoiceForm(SeatForm):
    """One of the player's own playable decks, pinned to a version (the newest, or the one a
    rematch names), and the player's response-window preset."""

    deck = forms.TypedChoiceField(coerce=int, label="Your deck", widget=DeckSelect(attrs={"data-testid": "ccg-deck"}),
                                  error_messages={"invalid_choice": "Choose one of your own decks to play with.",
                                                  "required": "Choose one of your own decks to play with."})
    deck_version = forms.IntegerField(required=False, min_value=1, max_value=1_000_000, widget=forms.HiddenInput)
    preset = forms.ChoiceField(choices=PRESETS, initial="ask", required=False, label="Response windows",
                               help_text="You can change this during the game.")

    def __init__(self, data=None, *, user=None, **kwargs):
        super().__init__(data, user=user, **kwargs)
        rows = deck_selectors.decks_playability(user=user) if user is not None and user.is_authenticated else []
        self.fields["deck"].choices = [(r["deck"].pk, f"{r['deck'].name} ({r['deck'].size} cards)") for r in rows]
        self.fields["deck"].widget.unplayable = {r["deck"].pk: (r["deck"].name, r["problems"][0])
                                                 for r in rows if not r["playable"]}
        if not rows:
            self.fields["deck"].help_text = "You have no deck yet: build one in the deck builder first."

    def clean(self):
        data = super().clean()
        if "deck" not in data:
            return data
        deck = Deck.objects.get(pk=data["deck"], owner=self.user)
        number = data.get("deck_version") or deck.version
        version = DeckVersion.objects.filter(deck=deck, number=number).first()
        if version is None:
            raise forms.ValidationError(f"Your deck '{deck.name}' has no version {number}.")
        problems = deck_selectors.deck_analysis(user=self.user, cards=version.cards)["problems"]
        if problems:
            raise forms.ValidationError(f"Your deck '{version.name}' cannot be played: {problems[0]}")
        data["deck_version"], data["deck_name"] = version.number, version.name
        data["preset"] = data.get("preset") or "ask"
        return data

    def choice(self) -> dict:
        data = self.cleaned_data
        return {"deck": data["deck"], "deck_version": data["deck_version"], "deck_name": data["deck_name"],
                "preset": data["preset"]}
