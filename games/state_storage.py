"""How a match's state is laid out in its row: the parts fixed at set-up apart, written once.

A game's rules may name top-level keys of their state that never change after set-up
(``Game.fixed_keys``): the CCG's card definitions, instance codes and owners are about 47 of
a typical 55 KB. Rewriting them with every move cost PostgreSQL about 460 µs of a move's
580 µs for that row, and the server the text's encoding, quoting and decoding. So the row
keeps them in ``state_fixed``, written when they change (in practice by the first write
after set-up), and ``state`` holds the rest.

Reading joins the two. A key the ``state`` column holds wins over ``state_fixed``: a row
written whole (before this layout, or by a plain UPDATE of the state alone) keeps its own
values, so ``state_fixed`` never has to be fresh for a key the state column still carries.

"Unchanged" is decided by identity first (the rules share fixed parts between successive
states instead of copying them) and by equality after, so a copy that made new but equal
objects costs a comparison, not a rewrite.

Small on purpose: the model (``Match``) and
the move path's SQL (``games/table/persistence.py``) both lay out rows through these functions.
"""
from __future__ import annotations

from games import registry


def fixed_keys(kind: str) -> tuple[str, ...]:
    """The keys the rules of ``kind`` keep fixed after set-up (none for an unknown kind)."""
    try:
        return registry.get(kind).fixed_keys
    except LookupError:  # a kind no longer registered: its state is stored whole
        return ()


def joined(column, fixed):
    """The whole state from the ``state`` column's value and ``state_fixed``'s. The column's
    own keys win (see the module's docstring). Changes and returns ``column``."""
    if fixed and isinstance(column, dict):
        for key, value in fixed.items():
            if key not in column:
                column[key] = value
    return column


def _same(a, b) -> bool:
    return a is b or a == b


def fixed_to_write(state, keys: tuple[str, ...], stored: dict | None) -> dict | None:
    """The fixed parts ``state`` holds, if they differ from ``stored`` (what the row's
    ``state_fixed`` holds); None when there is nothing to write."""
    if not keys or not isinstance(state, dict):
        return None
    now = {key: state[key] for key in keys if key in state}
    if not now:
        return None
    if stored is not None and stored.keys() == now.keys() and all(_same(now[k], stored[k]) for k in now):
        return None
    return now


def column_part(state, stored: dict | None):
    """What the ``state`` column holds: ``state`` less the keys ``stored`` (the row's
    ``state_fixed``, as it will be once this write is done) holds with the same value.
    ``state`` itself is left as it is; a key whose value differs stays in the column."""
    if not stored or not isinstance(state, dict):
        return state
    drop = [key for key, value in stored.items() if key in state and _same(state[key], value)]
    if not drop:
        return state
    part = dict(state)
    for key in drop:
        del part[key]
    return part
