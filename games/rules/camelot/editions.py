"""Editions of Camelot's rules: games keep the rules they were started under.

A stored game replays from its seed, its setup options and its moves (games/table/replay.py), so
a change of ruling must not reach games started before it: a strike legal then could be
refused now, or a setup drawn differently. Each game therefore records the edition it was
set up under: the setup option ``edition`` (stamped by the site when a game starts,
games/kinds/camelot/__init__.py; games stored before editions existed were stamped 1 by
migration games/0010) and, from edition 2 on, ``state["edition"]``. An edition-1 state
has no such key, so it is exactly the state those games stored.

- Edition 1: the first rules (sampled line of sight, any enemy on the board declarable,
  gold by a relaxing ladder from the first try).
- Edition 2: sight by exact geometry, for ranged strikes and Morgan's revival alike;
  only targets some unit of the declarer could still attack this turn may be declared;
  gold placed as the rules text says whenever the board allows; units named with their
  number in the asks kept in the state ("Seat 2's Arthur 3", and what a target carries).
- Edition 3: edition 2's rules, and a token holder may take back moves of their turn
  (games/rules/takeback.py): the state keeps the chain of earlier states under
  ``"takeback"``, which earlier editions' states never had, so they replay without it.
- Edition 4: three readings of the rules text mended. A declared target that survives costs
  the declarer its nearest unit however the turn ends, the clock's end included (editions
  1-3 let unstruck targets lapse when the clock ended the turn, so a player could freeze a
  unit for a whole turn at no cost by letting their time run out). A declaration, once
  made, is not taken back (edition 3 let the declarer thaw the targets again). Gold always
  keeps the text's spacing: where the board cannot hold three coins a player so, the same
  total comes in fewer, larger coins (editions 2-3 moved the coins nearer the edge instead).

docs/rules/camelot.md ("Editions") says the same for players.
"""
from __future__ import annotations

FIRST = 1
CURRENT = 4
EDITIONS = (1, 2, 3, 4)


def of(state: dict) -> int:
    return state.get("edition", FIRST)


def exact_sight(edition: int) -> bool:
    return edition >= 2


def declare_needs_reach(edition: int) -> bool:
    return edition >= 2


def gold_as_written(edition: int) -> bool:
    return edition >= 2


def takebacks(edition: int) -> bool:
    """Moves of a turn may be taken back (from edition 3)."""
    return edition >= 3


def timeout_costs_alike(edition: int) -> bool:
    """A turn ended by the clock settles its attacks as one ended by the player does (from
    edition 4; before, declared targets no strike touched lapsed without a cost)."""
    return edition >= 4


def declarations_stand(edition: int) -> bool:
    """A declaration of attacks cannot be taken back (from edition 4)."""
    return edition >= 4


def gold_keeps_spacing(edition: int) -> bool:
    """Gold is always placed as the text says, in fewer, larger coins when it must (from
    edition 4; editions 2-3 placed it nearer the edge instead)."""
    return edition >= 4


def numbered_names(edition: int) -> bool:
    """Asks kept in the state name units "Arthur 3" (edition 1 said "Arthur")."""
    return edition >= 2
