"""Deck rules (validate_deck), the two starter decks and the new-account collection."""
import copy
from collections import Counter

import pytest

from games.rules.ccg import cards, cards_decks

from .conftest import expand


@pytest.fixture
def camelot_deck(starter_decks, by_code):
    return expand(starter_decks[0]["cards"], by_code)


def test_both_starter_decks_are_playable(starter_decks, by_code):
    assert len(starter_decks) == 2
    assert len({deck["name"] for deck in starter_decks}) == 2
    for deck in starter_decks:
        assert set(deck["cards"]) <= set(by_code), deck["name"]
        assert all(isinstance(n, int) and n > 0 for n in deck["cards"].values())
        assert cards_decks.validate_deck(expand(deck["cards"], by_code)) == [], deck["name"]


def test_starter_decks_differ_in_character(starter_decks, by_code):
    kinds = [Counter(by_code[c]["type"] for c, n in d["cards"].items() for _ in range(n)) for d in starter_decks]
    assert kinds[0]["knight"] > kinds[1]["knight"]          # the Round Table deck
    assert kinds[1]["adversary"] > kinds[0]["adversary"]    # the castle-holding, taunting deck


def test_collection_covers_both_decks_at_once_plus_a_spare_blank(starter_decks, starter_collection, by_code):
    owned = Counter(starter_collection["cards"])
    needed = Counter()
    for deck in starter_decks:
        needed.update(deck["cards"])
    assert all(owned[code] >= count for code, count in needed.items())
    assert set(owned) <= set(by_code)
    assert owned["write-yer-own"] >= needed["write-yer-own"] + 1


def test_a_deck_without_arthur_is_refused(camelot_deck):
    deck = [c for c in camelot_deck if c["code"] != "arthur"]
    deck.append(copy.deepcopy(next(c for c in camelot_deck if c["code"] == "page-generic")))
    assert cards_decks.validate_deck(deck) == ["a deck must hold an Arthur."]


def test_a_deck_without_patsy_is_refused(camelot_deck):
    deck = [c for c in camelot_deck if c["code"] != "patsy"]
    deck.append(copy.deepcopy(next(c for c in camelot_deck if c["code"] == "page-generic")))
    assert cards_decks.validate_deck(deck) == ["a deck must hold a Patsy."]


def test_minimum_size(camelot_deck):
    deck = camelot_deck[:cards_decks.DECK_MIN_SIZE - 1]   # Arthur and Patsy come first in the list
    assert cards_decks.validate_deck(deck) == [
        f"a deck needs at least {cards_decks.DECK_MIN_SIZE} cards; this one has {cards_decks.DECK_MIN_SIZE - 1}."]
    assert cards_decks.validate_deck(camelot_deck[:cards_decks.DECK_MIN_SIZE]) == []


def test_maximum_size(camelot_deck, by_code):
    deck = camelot_deck + [copy.deepcopy(by_code["page-generic"]) for _ in range(cards_decks.DECK_MAX_SIZE)]
    assert f"a deck holds at most {cards_decks.DECK_MAX_SIZE} cards" in " ".join(cards_decks.validate_deck(deck))


def test_at_most_three_copies_of_a_unique_card(camelot_deck, by_code):
    deck = camelot_deck + [copy.deepcopy(by_code["lancelot"]) for _ in range(3)]
    assert cards_decks.validate_deck(deck) == [
        "at most 3 copies of the unique card 'lancelot'; this deck has 4."]
    assert cards_decks.validate_deck(camelot_deck + [copy.deepcopy(by_code["lancelot"]) for _ in range(2)]) == []


def test_generic_cards_are_unlimited(camelot_deck, by_code):
    deck = camelot_deck + [copy.deepcopy(by_code["page-generic"]) for _ in range(12)]
    assert cards_decks.validate_deck(deck) == []


def test_blank_write_yer_own_cards_are_allowed(camelot_deck, by_code):
    deck = camelot_deck + [copy.deepcopy(by_code["write-yer-own"]) for _ in range(5)]
    assert cards_decks.validate_deck(deck) == []


def test_too_few_place_cards(by_code):
    # Arthur and Patsy set aside, a deck of events and songs only cannot fill England (rule 6.2).
    deck = [by_code["arthur"], by_code["patsy"]] + [by_code["get-on-with-it"]] * 30 + [by_code["page-generic"]] * 10
    assert cards_decks.validate_deck(copy.deepcopy(deck)) == [
        f"a deck needs at least {cards_decks.MIN_PLACE_CARDS} place cards (lands, castles, characters, items, "
        "villages, pages, perils) besides Arthur and Patsy; this one has 10."]


def test_a_malformed_card_spoils_the_deck(camelot_deck):
    camelot_deck[5]["grail"] = 8
    code = camelot_deck[5]["code"]
    assert cards_decks.validate_deck(camelot_deck) == [f"card '{code}': 'grail' must be a whole number from 0 to 7."]


def test_written_cards_count_only_within_budget(camelot_deck):
    fair = {"code": "sir-crayon", "title": "Sir Crayon", "type": "knight", "grail": 2, "combat": 4,
            "tags": ["write_yer_own"], "author": "patsy42"}
    assert cards_decks.validate_deck(camelot_deck + [fair]) == []
    greedy = {**fair, "code": "sir-greedy", "primary": [{"op": "slay", "target": "opponent_knight"},
                                                        {"op": "skip_turns", "who": "opponent", "turns": 5}]}
    problems = cards_decks.validate_deck(camelot_deck + [greedy])
    assert len(problems) == 1 and problems[0].startswith("card 'sir-greedy': power ")


def test_a_written_card_cannot_stand_in_for_arthur(camelot_deck):
    fake = {"code": "fake-arthur", "title": "Arthur (Crayon)", "type": "knight", "grail": 2, "combat": 4,
            "tags": ["write_yer_own", "arthur"], "author": "patsy42"}
    deck = [c for c in camelot_deck if c["code"] != "arthur"] + [fake]
    assert cards_decks.validate_deck(deck) == ["card 'fake-arthur': a written card may not carry the tag(s) arthur."]


def test_two_different_cards_under_one_code(camelot_deck):
    twin = copy.deepcopy(next(c for c in camelot_deck if c["code"] == "gawain"))
    twin["combat"] = 6
    assert "two different cards share the code 'gawain'." in cards_decks.validate_deck(camelot_deck + [twin])


def test_not_a_list():
    assert cards_decks.validate_deck({"arthur": 1}) == ["A deck must be a list of cards."]
