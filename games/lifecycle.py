"""Per-kind hooks into a match's life, for what a game needs from the rest of the site
(the CCG takes decks and antes from collections). Pure rules never see Django; these
hooks are the shell's side. Each hook runs inside the transaction of the change."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass
class Hooks:
    # (match, seats in index order) -> extra setup options (e.g. decks); may raise ValueError.
    setup_options: Callable | None = None
    # (match) after the match became active
    on_start: Callable | None = None
    # (match, outcome dict) when it finished
    on_finish: Callable | None = None
    # (match) when it was abandoned
    on_abandon: Callable | None = None
    # (user, options) -> validated per-seat choice at join (e.g. which deck); may raise ValueError
    seat_choice: Callable | None = None


_HOOKS: dict[str, Hooks] = {}


def register(kind: str, hooks: Hooks) -> None:
    _HOOKS[kind] = hooks


def get(kind: str) -> Hooks:
    return _HOOKS.get(kind) or Hooks()
