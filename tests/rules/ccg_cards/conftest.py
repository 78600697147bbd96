"""Shared loaders for the card-format tests: the starter set, decks and collection as data."""
import copy
import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[3] / "games" / "rules" / "ccg" / "data"


def load(name: str):
    return json.loads((DATA / name).read_text())


@pytest.fixture(scope="session")
def _starter():
    return load("starter_set.json")


@pytest.fixture
def starter(_starter):
    """The starter set as a list (a fresh copy, so a test may change it freely)."""
    return copy.deepcopy(_starter)


@pytest.fixture
def by_code(starter):
    return {card["code"]: card for card in starter}


@pytest.fixture
def starter_decks():
    return load("starter_decks.json")


@pytest.fixture
def starter_collection():
    return load("starter_collection.json")


def expand(deck_counts: dict, by_code: dict) -> list[dict]:
    """A deck list {code: count} as one card dict per copy, the form validate_deck takes."""
    return [copy.deepcopy(by_code[code]) for code, count in deck_counts.items() for _ in range(count)]
