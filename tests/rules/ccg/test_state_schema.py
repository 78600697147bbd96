"""The one documented schema of the CCG state (docs/rules/ccg-state.md) lists every key.

Random games (2, 3 and 4 players, doubling allowed, random legal moves of every seat) are
walked state by state; any object key the schema does not list at that place fails the
test, named with its path. The schema is read from the page itself, so the page is the
single place where keys are written down.
"""
import pathlib
import random
import re

import pytest

from games.rules.ccg.game import MPHGGame

from .helpers import starter_decks

GAME = MPHGGame()
SCHEMA_PAGE = pathlib.Path(__file__).resolve().parents[3] / "docs" / "rules" / "ccg-state.md"
DATA = "{…}"  # a key cell meaning "the keys of this object are data"
# Objects whose contents are described by another page; the walk stops there.
DESCRIBED_ELSEWHERE = {"state.cards.{}": "docs/rules/ccg-cards.md"}


def read_schema(text: str) -> dict[str, set[str]]:
    """{path: keys} from each "### `path`, `path`" heading and the first column of its table."""
    schema: dict[str, set[str]] = {}
    paths: list[str] = []
    for line in text.splitlines():
        if line.startswith("### "):
            paths = re.findall(r"`([^`]+)`", line)
            for p in paths:
                schema.setdefault(p, set())
        elif line.startswith("| `") and paths:
            key = re.match(r"\| `([^`]+)`", line).group(1)
            for p in paths:
                schema[p].add(key)
    return schema


SCHEMA = read_schema(SCHEMA_PAGE.read_text())


def unlisted_keys(value, path: str, found: set[str], schema: dict[str, set[str]] = SCHEMA) -> None:
    if path in DESCRIBED_ELSEWHERE:
        return
    if isinstance(value, list):
        for item in value:
            unlisted_keys(item, path + "[]", found, schema)
    elif isinstance(value, dict):
        keys = schema.get(path)
        if keys is None:
            found.add(f"{path} (an object the schema has no section for)")
            return
        for k, v in value.items():
            if keys == {DATA}:
                unlisted_keys(v, path + ".{}", found, schema)
            elif k not in keys:
                found.add(f"{path}.{k}")
            else:
                unlisted_keys(v, f"{path}.{k}", found, schema)


def test_the_schema_reader_finds_sections_keys_and_data_maps():
    page = "### `a`, `b[]`\n\n| key | meaning |\n|---|---|\n| `x` | one |\n\n### `c`\n\n| `{…}` | data |\n"
    schema = read_schema(page)
    assert schema == {"a": {"x"}, "b[]": {"x"}, "c": {DATA}}
    found: set[str] = set()
    unlisted_keys({"x": 1, "y": {"z": 2}}, "a", found, schema)
    unlisted_keys([{"x": {"w": 1}}, {"v": 0}], "b", found, schema)
    unlisted_keys({"E0.1": 3, "E0.2": {"q": 1}}, "c", found, schema)
    assert found == {"a.y", "b[].v", "b[].x (an object the schema has no section for)",
                     "c.{} (an object the schema has no section for)"}


# Moves that end a game at once: a random player who takes them whenever offered ends most
# games within a few turns, so they are taken only when nothing else is open.
ENDING_MOVES = ("concede", "call_draw", "give_up")
# Objects deep in the state that the seeded games below are known to reach: proof that the
# walk sees more than the first turns.
MET = ("state.steps[]", "state.steps[].act", "state.mods[]", "state.last_dispute", "state.p[].pages[]",
       "state.avalon[]", "state.result")


def met_paths(value, path: str, met: set[str]) -> None:
    if isinstance(value, list):
        for item in value:
            met_paths(item, path + "[]", met)
    elif isinstance(value, dict) and path not in DESCRIBED_ELSEWHERE:
        met.add(path)
        data = SCHEMA.get(path) == {DATA}
        for k, v in value.items():
            met_paths(v, path + (".{}" if data else f".{k}"), met)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_key_of_random_games_states_is_in_the_schema(players):
    decks = starter_decks()
    if decks is None:
        pytest.skip("starter decks not yet in games/rules/ccg/data")
    found: set[str] = set()
    met: set[str] = set()
    for seed in (players * 10, players * 10 + 1):
        rnd = random.Random(seed)
        state = GAME.setup(players, {"decks": [decks[i % 2] for i in range(players)],
                                     "collection_sizes": [40] * players, "double_the_ante": True}, seed)
        for _ in range(1500):
            unlisted_keys(state, "state", found)
            met_paths(state, "state", met)
            if state["result"] is not None:
                break
            seat = rnd.choice([s for s in range(players) if GAME.legal_moves(state, s)])
            moves = GAME.legal_moves(state, seat)
            moves = [m for m in moves if m["type"] not in ENDING_MOVES] or moves
            state, _ = GAME.apply(state, seat, rnd.choice(moves))
    assert not found, "state keys missing from docs/rules/ccg-state.md: " + ", ".join(sorted(found))
    assert set(MET) <= met, f"the walk never met {sorted(set(MET) - met)}"
