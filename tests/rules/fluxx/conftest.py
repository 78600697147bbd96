"""Each Fluxx rules test deals from the deck its module names in ``DECK`` (helpers.new_game)."""
import pytest

from games.rules.fluxx.cards import CURRENT

from . import helpers


@pytest.fixture(autouse=True)
def deck_of_the_module(request):
    helpers.use_deck(getattr(request.module, "DECK", CURRENT))
    yield
    helpers.use_deck(CURRENT)
