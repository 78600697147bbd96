"""The starter set: every card well formed, every type represented, the rules' worked examples."""
from collections import Counter

import pytest

from games.rules.ccg import cards, cards_validation, vocabulary


def castle_result(castle: dict, total: int) -> str:
    """The castle table's result for ``total`` (rule 8.1)."""
    return next(row["result"] for row in castle["castle_table"] if row["min"] <= total <= row["max"])


def test_every_starter_card_validates(starter):
    failures = {card["code"]: cards_validation.validate_card(card) for card in starter}
    assert {code: reasons for code, reasons in failures.items() if reasons} == {}


def test_at_least_150_distinct_codes_and_no_code_twice(starter):
    codes = [card["code"] for card in starter]
    assert len(set(codes)) == len(codes)
    assert len(codes) >= 150


def test_every_card_is_stored_in_full_form(starter):
    # The card database stores exactly these objects; no field should rely on a default.
    for card in starter:
        assert cards.normalize_card(card) == card, card["code"]
        assert set(card) <= set(cards.FIELDS)


@pytest.mark.parametrize("kind,minimum", [
    ("knight", 20), ("persona", 10), ("adversary", 25), ("peril", 10), ("castle", 8),
    ("village", 8), ("land", 10), ("page", 8), ("item", 12), ("event", 12), ("song", 8),
    ("taunt", 8), ("questions_three", 6), ("write_yer_own", 1),
])
def test_each_type_is_well_represented(starter, kind, minimum):
    assert Counter(card["type"] for card in starter)[kind] >= minimum


def test_every_type_of_the_game_appears(starter):
    assert {card["type"] for card in starter} == set(cards.CARD_TYPES)


@pytest.mark.parametrize("code,kind,combat,wits", [
    ("arthur", "knight", 5, 5),             # examples 8.1 and 8.2
    ("lancelot", "knight", 8, None),        # examples 7.1 and 7.2 (wits not given there)
    ("gawain", "knight", 4, None),          # example 7.1
    ("bors", "knight", 4, 4),               # examples 8.1 and 8.2
    ("vicious-chicken-of-bristol", "peril", 3, None),   # example 7.2
])
def test_worked_example_numbers(by_code, code, kind, combat, wits):
    card = by_code[code]
    assert card["type"] == kind
    assert card["combat"] == combat
    if wits is not None:
        assert card["wits"] == wits


def test_tintagel_defence_4_and_a_total_of_7_does_not_pass(by_code):
    tintagel = by_code["tintagel"]
    assert tintagel["type"] == "castle"
    assert tintagel["castle_defense"] == 4
    # Example 8.1: draws 4 and 2, Arthur's wits 5, Bors' wits 4: 4 + 2 + 5 - 4 = 7.
    assert castle_result(tintagel, 4 + 2 + 5 - 4) == "no_pass"
    assert castle_result(tintagel, 14) == "pass"   # it can be passed at all


def test_example_8_2_assault_totals(by_code):
    # Arthur 5 plus one for each of Ector and Galahad against Bors 4 plus Tintagel's 4.
    arthur, bors, tintagel = by_code["arthur"], by_code["bors"], by_code["tintagel"]
    assert arthur["combat"] + 2 == 7
    assert bors["combat"] + tintagel["castle_defense"] == 8


@pytest.mark.parametrize("code", ["bedevere", "ector", "galahad", "robin"])
def test_other_named_knights_have_sensible_numbers(by_code, code):
    card = by_code[code]
    assert card["type"] == "knight"
    assert 1 <= card["combat"] <= 8 and card["wits"] is not None and 1 <= card["wits"] <= 8


def test_arthur_and_patsy_are_fixed_starting_cards(by_code):
    arthur, patsy = by_code["arthur"], by_code["patsy"]
    assert (arthur["type"], arthur["rarity"], arthur["tags"]) == ("knight", "fixed", ["arthur"])
    assert (patsy["type"], patsy["rarity"], patsy["tags"]) == ("page", "fixed", ["patsy"])
    assert patsy["page"] == {"items": 1, "knights": 1}


def test_generic_pages_exist_and_every_page_has_an_adversary_side(starter):
    pages = [card for card in starter if card["type"] == "page"]
    assert any(not page["unique"] for page in pages)
    assert "page-generic" in {page["code"] for page in pages}
    for page in pages:
        assert page["secondary_adversary"]["title"]
        assert page["secondary"] == []


def test_anthrax_cards_include_a_persona_and_an_adversary(starter):
    anthrax_types = {card["type"] for card in starter if cards.TAG_ANTHRAX in card["tags"]}
    assert {"persona", "adversary"} <= anthrax_types


def test_game_ending_cards_are_tagged_and_carry_end_game(starter, by_code):
    enders = [card for card in starter if cards.TAG_GAME_ENDER in card["tags"]]
    assert "slaying-of-the-historian" in {card["code"] for card in enders}
    for card in starter:
        ends = any(e["op"] == "end_game" for e in card["primary"] + card["secondary"])
        assert ends == (card in enders), card["code"]


def test_draw_bonus_on_lands_and_castles(starter):
    with_bonus = Counter(card["type"] for card in starter if card["draw_bonus"] > 0)
    assert with_bonus["land"] >= 2 and with_bonus["castle"] >= 2
    assert set(with_bonus) == {"land", "castle"}


def test_multi_talented_adversaries_exist(starter):
    both = [c for c in starter if c["type"] == "adversary" and c["combat"] is not None and c["wits"] is not None]
    assert len(both) >= 5


def test_some_knights_carry_a_castle_icon(starter):
    assert len([c for c in starter if c["type"] == "knight" and c["castle_icon"]]) >= 3


def test_every_village_table_covers_every_grail_number(starter):
    for village in (c for c in starter if c["type"] == "village"):
        covered = sorted(n for row in village["village_table"] for n in range(row["min"], row["max"] + 1))
        assert covered == list(range(8)), village["code"]


def test_castle_occupants_name_cards_of_their_type(starter, by_code):
    occupied = [c for c in starter if c["type"] == "castle" and c["castle_occupant"]]
    assert len(occupied) >= 3
    assert any(c["castle_occupant"]["code"] is None for c in occupied)   # the opponent searches
    for castle in occupied:
        code = castle["castle_occupant"]["code"]
        if code is not None:
            assert by_code[code]["type"] == castle["castle_occupant"]["type"], castle["code"]
            assert by_code[code]["castle_icon"], code   # rule 8.1: an occupant needs the icon


def test_grail_numbers_cover_0_to_7_evenly_enough(starter):
    counts = Counter(card["grail"] for card in starter)
    assert set(counts) == set(range(8))
    assert min(counts.values()) >= len(starter) // 16   # no grail number starved


def test_every_card_has_its_own_quote_and_printed_text(starter):
    for card in starter:
        assert card["quote"].strip() and card["text"].strip(), card["code"]
        # The printed text tells a player about the side used in lieu of the primary (4.3).
        if card["secondary"] and card["type"] != "write_yer_own":
            assert "Instead" in card["text"], card["code"]
    quotes = [card["quote"] for card in starter]
    assert len(set(quotes)) == len(quotes)


def test_the_set_uses_exactly_the_vocabulary(starter):
    used = {e["op"] for c in starter for e in c["primary"] + c["secondary"] + c["round_table_bonus"]}
    used |= {e["op"] for c in starter for row in c["village_table"] or [] for e in row["effects"]}
    # Every op is printed on at least one card, so the engine runs each on real cards.
    assert used == set(vocabulary.EFFECT_OPS)


def test_the_blank_write_yer_own(by_code):
    blank = by_code["write-yer-own"]
    assert blank["type"] == "write_yer_own" and blank["grail"] == 0
    assert blank["primary"] == [] and blank["secondary"]
    assert blank["rarity"] == "fixed"
