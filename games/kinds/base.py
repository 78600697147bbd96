"""A game's room on the site: everything a game adds to the shell, in one object.

Each game has a folder ``games/kinds/<kind>/`` whose package defines ``ROOM``, a ``Room``
holding the pure rules object, its lifecycle hooks, the forms for its table options and
per-seat choice, any URLs of its own, and its board script and style (files under the
folder's ``static/``, served as ``games/<kind>/...``; templates under ``templates/<kind>/``).
``games/registry.py`` lists the folders; the shell asks the registry, never a game by name.

A room also explains its game (``guide``, a ``Guide``): a one-sentence summary for the game
lists, the one-line goal shown on every table of it, and its rules page, the template
``templates/<kind>/rules.html`` in the room's folder, served by one view for every game
(``/rules/<kind>/``); the page lists the table options from the same form the new-game
page draws, so the two never differ.

Table options are validated by the room's table form, the same way for the new-game page
(a prefixed form among every game's) and the JSON API (a plain dict); cleaning is
idempotent, so options already cleaned (a rematch's) validate to themselves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from django import forms

from games.table.lifecycle import Hooks
from grailsite.formerrors import first_error
from games.rules.base import Game


class SeatForm(forms.Form):
    """A per-seat choice made on creating or joining (the CCG's deck). Subclasses take the
    player as ``user`` and return the stored choice from ``choice()``."""

    def __init__(self, data=None, *, user=None, **kwargs):
        super().__init__(data, **kwargs)
        self.user = user

    def choice(self) -> dict:
        return dict(self.cleaned_data)


class SchemaOptionsForm(forms.Form):
    """Base of the forms drawn from an option schema: a value left out takes its default."""

    defaults: dict = {}

    def clean(self):
        data = super().clean()
        for name, default in self.defaults.items():
            if data.get(name) in (None, "") and name not in self.errors:
                data[name] = default
        return data


def options_form_for(game: Game) -> type[forms.Form]:
    """A form drawn from the rules' own ``option_schema`` (for games that need no more)."""
    fields: dict = {"defaults": {name: spec["default"] for name, spec in game.option_schema.items()}}
    for name, spec in game.option_schema.items():
        common = {"label": spec.get("label", name.replace("_", " ").capitalize()), "required": False,
                  "help_text": spec.get("help", ""), "initial": spec["default"]}
        if spec["type"] == "bool":
            fields[name] = forms.BooleanField(**common)
        elif spec["type"] == "int":
            fields[name] = forms.IntegerField(min_value=spec.get("min"), max_value=spec.get("max"), **common)
        else:
            fields[name] = forms.TypedChoiceField(choices=[(c, c) for c in spec["choices"]],
                                                  coerce=type(spec["default"]), **common)
    return type(f"{game.kind.capitalize()}OptionsForm", (SchemaOptionsForm,), fields)


@dataclass(frozen=True)
class Guide:
    """How a game explains itself to a newcomer. Texts are the site's own words."""

    # One sentence for the game lists (home page, new-game form, rules page).
    summary: str
    # The one-line "how to win" of the plain game, e.g. "Bring Excalibur to your Entry hex."
    goal: str
    # The line for one table, from its options and player count (a variation changes the goal);
    # None: the plain ``goal`` always.
    goal_for: Callable[[dict, int], str] | None = None


@dataclass
class Room:
    game: Game
    hooks: Hooks = field(default_factory=Hooks)
    # Table options (stored as the match's options). None: a form drawn from game.option_schema.
    table_form: type[forms.Form] | None = None
    # What each player chooses on creating or joining; None: nothing to choose.
    seat_form: type[SeatForm] | None = None
    # Extra URL patterns (django.urls.path objects), included by games/web/urls.py.
    urls: list = field(default_factory=list)
    # Operations of its own in the JSON API (a ninja Router, paths under /api/), mounted by
    # games/web/api_root.py with the shell's: typed schemas, one error shape, in the document.
    api: object | None = None
    # The folder holding static/ and templates/ (set by the registry from the package).
    folder: Path | None = None
    # Board script and style, relative to the folder's static/ (None: none shipped).
    script: str | None = "board.js"
    style: str | None = None
    # Called with (match) to give the match page extra context (e.g. the CCG's preset).
    page_context: Callable | None = None
    # How the game explains itself (summary, goal, rules page); None: it does not (tests' toys).
    guide: Guide | None = None
    # The edition of the rules a new game is played under, which its commitment names
    # (games/table/commitments.py, docs/verify.md): 1 until a kind's rules have a second.
    edition: int | str = 1

    @property
    def kind(self) -> str:
        return self.game.kind

    # --- table options ------------------------------------------------------------

    def options_form(self, data=None, **kwargs) -> forms.Form:
        cls = self.table_form or options_form_for(self.game)
        return cls(data, **kwargs)

    def options_clean(self, raw: dict | None) -> dict:
        """Validated table options from a plain dict (missing fields take their defaults);
        ValueError naming the first problem."""
        form = self.options_form(None)
        data = {name: f.initial for name, f in form.fields.items()}
        data.update(raw or {})
        unknown = set(raw or {}) - set(form.fields)
        if unknown:
            raise ValueError(f"Unknown option(s): {', '.join(sorted(map(str, unknown)))[:200]}")
        form = self.options_form(data)
        if not form.is_valid():
            raise ValueError(first_error(form))
        return _jsonable(form.cleaned_data)

    # --- the seat's choice --------------------------------------------------------

    def seat_choice(self, user, raw: dict | None) -> dict:
        """The stored choice of a player creating or joining; ValueError naming the problem."""
        if self.seat_form is None:
            return {}
        form = self.seat_form(raw or {}, user=user)
        if not form.is_valid():
            raise ValueError(first_error(form))
        return _jsonable(form.choice())

    def seat_form_for(self, user, data=None, prefix=None) -> SeatForm | None:
        return None if self.seat_form is None else self.seat_form(data, user=user, prefix=prefix)

    # --- explaining the game ------------------------------------------------------

    @property
    def players_text(self) -> str:
        """"2 players" or "3–6 players"."""
        low, high = self.game.min_players, self.game.max_players
        return f"{low} players" if low == high else f"{low}–{high} players"

    @property
    def summary(self) -> str:
        return self.guide.summary if self.guide else ""

    def how_to_win(self, options: dict | None = None, players: int | None = None) -> str:
        """The goal of one table (its options and player count), or of the plain game."""
        if self.guide is None:
            return ""
        if self.guide.goal_for is None or options is None:
            return self.guide.goal
        return self.guide.goal_for(options or {}, players or self.game.min_players)

    @property
    def rules_template(self) -> str | None:
        """The rules page's template (``<kind>/rules.html`` under the room's templates/), if shipped."""
        name = f"{self.kind}/rules.html"
        if self.folder is None or not (self.folder / "templates" / name).is_file():
            return None
        return name

    def option_rows(self) -> list[dict]:
        """The table options the new-game form offers, in words, for the rules page: each
        field's label, help, choices and default, read from the room's own form."""
        return [_option_row(field) for field in self.options_form().fields.values()]

    def chosen_options(self, options: dict | None) -> list[dict]:
        """One table's options in words (label and value), for the page an invitee accepts on."""
        form, options = self.options_form(), options or {}
        return [{"label": _label(field), "value": _value_text(field, options.get(name, field.initial))}
                for name, field in form.fields.items() if not field.widget.is_hidden]

    # --- assets -------------------------------------------------------------------

    def static_path(self, name: str | None) -> str | None:
        """The static path of one of the room's files (served from its folder's static/)."""
        if name is None or self.folder is None or not (self.folder / "static" / name).is_file():
            return None
        return f"games/{self.kind}/{name}"


def raw_values(form: forms.Form) -> dict:
    """A bound (possibly prefixed) form's submitted values as a plain dict without the prefix,
    as the widgets read them (lists for multiple choices, booleans for check boxes)."""
    return {name: form[name].data for name in form.fields}


def _label(field) -> str:
    return str(field.label or "").strip()


def _choices(field) -> list[tuple]:
    return [(value, str(text)) for value, text in getattr(field, "choices", []) if value not in ("", None)]


def _value_text(field, value) -> str:
    """A stored option as a player reads it: yes/no, a choice's label, a clock, a number."""
    if isinstance(field, forms.BooleanField):
        return "yes" if value else "no"
    labels = dict(_choices(field))
    if isinstance(value, (list, tuple)):
        if len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], int) and not labels:
            return f"{value[1]} {value[0]}"  # a clock such as ["hours", 12]
        return ", ".join(labels.get(v, str(v)) for v in value) or "none"
    if value in (None, ""):
        return getattr(field, "empty_text", "none")  # a field may say what "empty" means
    return labels.get(value, str(value))


def _option_row(field) -> dict:
    initial = field.initial
    if isinstance(field, forms.BooleanField):
        default = "on" if initial else "off"
    elif isinstance(field, forms.MultipleChoiceField):
        default = ", ".join(dict(_choices(field)).get(v, str(v)) for v in (initial or [])) or "none"
    elif initial in (None, ""):
        default = ""
    else:
        default = _value_text(field, field.prepare_value(initial) if hasattr(field, "prepare_value") else initial)
    bounds = ""
    if isinstance(field, forms.IntegerField) and field.min_value is not None and field.max_value is not None:
        bounds = f"{field.min_value} to {field.max_value}"
    return {"label": _label(field), "help": str(field.help_text or ""), "default": default, "bounds": bounds,
            "choices": [text for _, text in _choices(field)] if not isinstance(field, forms.BooleanField) else []}


def _jsonable(value):
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def plain_room(game: Game) -> Room:
    """A room holding only rules, with no board script: for games that need nothing of the
    site but the shell (the test suite's own games)."""
    return Room(game=game, script=None)
