"""validate_card refuses malformed cards, each with a reason a person can act on."""
import copy

import pytest

from games.rules.ccg import cards, cards_validation


def reasons(card: dict) -> str:
    return " | ".join(cards_validation.validate_card(card))


@pytest.fixture
def knight(by_code):
    return copy.deepcopy(by_code["gawain"])


@pytest.fixture
def castle(by_code):
    return copy.deepcopy(by_code["tintagel"])


@pytest.fixture
def page(by_code):
    return copy.deepcopy(by_code["page-generic"])


@pytest.fixture
def village(by_code):
    return copy.deepcopy(by_code["mud-farm"])


def test_a_minimal_card_is_filled_with_defaults_and_valid():
    card = {"code": "sir-test", "title": "Sir Test", "type": "knight", "grail": 3, "combat": 2}
    assert cards_validation.validate_card(card) == []
    full = cards.normalize_card(card)
    assert full["wits"] is None and full["tags"] == [] and full["draw_bonus"] == 0 and full["set"] == "base"
    assert "wits" not in card   # normalize_card copies, never mutates


def test_normalize_card_copies_deeply(by_code):
    arthur = by_code["arthur"]
    full = cards.normalize_card(arthur)
    full["round_table_bonus"][0]["amount"] = 5
    assert arthur["round_table_bonus"][0]["amount"] == 1


def test_every_type_is_either_a_place_or_an_action_but_the_blank():
    assert sorted(cards.PLACE_KINDS + cards.ACTION_KINDS + ("write_yer_own",)) == sorted(cards.CARD_TYPES)


def test_not_an_object():
    assert cards_validation.validate_card(["knight"]) == ["A card must be an object."]


def test_missing_required_fields():
    assert "missing required field(s): grail" in reasons({"code": "x", "title": "X", "type": "land"})


def test_unknown_field(knight):
    knight["horse"] = "imaginary"
    assert "unknown field(s): horse" in reasons(knight)


def test_wrong_type(knight):
    knight["type"] = "wizard"
    assert "'type' must be one of" in reasons(knight)


@pytest.mark.parametrize("grail", [8, -1, 3.5, True, None, "7"])
def test_grail_number_must_be_0_to_7(knight, grail):
    knight["grail"] = grail
    assert "'grail' must be a whole number from 0 to 7" in reasons(knight)


@pytest.mark.parametrize("code", ["Sir Gawain", "gawain--2", "-gawain", "", "x" * 81])
def test_bad_codes(knight, code):
    knight["code"] = code
    assert "'code' must be a lowercase slug" in reasons(knight)


@pytest.mark.parametrize("field,limit", [("title", 80), ("quote", 280), ("text", 600)])
def test_string_lengths_are_bounded(knight, field, limit):
    knight[field] = "a" * limit
    assert reasons(knight) == ""
    knight[field] = "a" * (limit + 1)
    assert f"'{field}' is {limit + 1} characters long; at most {limit} are allowed" in reasons(knight)


def test_title_must_not_be_blank(knight):
    knight["title"] = "   "
    assert "'title' must not be empty" in reasons(knight)


def test_unknown_effect_op(knight):
    knight["secondary"] = [{"op": "summon_french_cow"}]
    assert "secondary: Unknown effect 'summon_french_cow'." in reasons(knight)


def test_effect_parameter_out_of_range(knight):
    knight["secondary"] = [{"op": "draw_cards", "count": 9, "who": "self"}]
    assert "secondary: draw_cards: 'count' must be a whole number from 1 to 7" in reasons(knight)


def test_knight_needs_combat_and_numbers_are_bounded(knight):
    knight["combat"] = None
    assert "a knight card needs a 'combat' number" in reasons(knight)
    knight["combat"] = 13
    assert "'combat' must be a whole number from 0 to 12" in reasons(knight)


def test_non_characters_have_no_combat(by_code):
    item = copy.deepcopy(by_code["herring"])
    item["combat"] = 2
    assert "an item card has no 'combat'; it must be null" in reasons(item)


def test_adversary_needs_combat_or_wits(by_code):
    foe = copy.deepcopy(by_code["bridgekeeper"])
    foe["wits"] = None
    assert "an adversary needs a 'combat' or a 'wits' number" in reasons(foe)


def test_castle_icon_only_on_characters(by_code):
    land = copy.deepcopy(by_code["cornwall"])
    land["castle_icon"] = True
    assert "may carry a castle icon" in reasons(land)


def test_draw_bonus_only_on_lands_and_castles(knight):
    knight["draw_bonus"] = 1
    assert "only land and castle cards give a 'draw_bonus'" in reasons(knight)


def test_round_table_bonus_only_on_knights(by_code):
    persona = copy.deepcopy(by_code["dennis"])
    persona["round_table_bonus"] = [{"op": "draw_cards", "count": 1, "who": "self"}]
    assert "only knights have a 'round_table_bonus'" in reasons(persona)   # rule 5.2


def test_castle_numbers_only_on_castles(knight):
    knight["castle_defense"] = 3
    assert "only castles have a 'castle_defense'" in reasons(knight)


def test_castle_table_with_a_gap(castle):
    castle["castle_table"] = [
        {"min": -99, "max": 4, "result": "no_pass"},
        {"min": 7, "max": 99, "result": "pass"},
    ]
    assert reasons(castle) == "castle_table: totals 5 to 6 are not covered."


def test_castle_table_with_an_overlap(castle):
    castle["castle_table"] = [
        {"min": -99, "max": 7, "result": "no_pass"},
        {"min": 7, "max": 99, "result": "pass"},
    ]
    assert reasons(castle) == "castle_table: total 7 is covered twice."


def test_castle_table_must_reach_both_open_ends(castle):
    castle["castle_table"] = [{"min": 0, "max": 14, "result": "pass"}]
    assert reasons(castle) == (
        "castle_table: totals -99 to -1 are not covered. | castle_table: totals 15 to 99 are not covered."
    )


def test_castle_table_row_checks(castle):
    castle["castle_table"] = [{"min": 5, "max": 2, "result": "open_sesame"}]
    text = reasons(castle)
    assert "castle_table row 1: 'min' is above 'max'." in text
    assert "castle_table row 1: 'result' must be one of pass, no_pass, lead_knight_slain, draw_card." in text


def test_castle_needs_a_table_and_a_defence(castle):
    castle["castle_table"] = None
    castle["castle_defense"] = 9
    text = reasons(castle)
    assert "'castle_table' must be a non-empty list of rows" in text
    assert "'castle_defense' must be a whole number from 0 to 8" in text


def test_castle_occupant_shape(castle):
    castle["castle_occupant"] = {"type": "dragon", "code": None}
    assert "'castle_occupant' type must be one of knight, adversary, persona" in reasons(castle)
    castle["castle_occupant"] = {"type": "knight"}
    assert "'castle_occupant' must be an object with 'type' and 'code'" in reasons(castle)


def test_village_table_must_cover_every_grail_number(village):
    village["village_table"] = village["village_table"][:-1]
    assert reasons(village).startswith("village_table: totals")
    assert "to 7 are not covered" in reasons(village)


def test_village_row_effects_are_checked(village):
    village["village_table"][0]["effects"] = [{"op": "draw_cards", "count": 1}]
    assert "village_table row 1: draw_cards: missing 'who'." in reasons(village)


def test_page_without_a_secondary_adversary(page):
    page["secondary_adversary"] = None
    assert "a page needs a 'secondary_adversary'" in reasons(page)


def test_page_adversary_side_needs_a_number(page):
    page["secondary_adversary"] = {"title": "Nobody", "combat": None, "wits": None}
    assert "a page's secondary adversary needs a 'combat' or a 'wits' number" in reasons(page)


def test_page_secondary_side_is_its_adversary_not_an_effect(page):
    page["secondary"] = [{"op": "draw_cards", "count": 1, "who": "self"}]
    assert "a page's secondary side is its adversary" in reasons(page)


def test_page_carrying_capacity(page):
    page["page"] = {"items": 4, "knights": 1}
    assert "'page items' must be a whole number from 0 to 3" in reasons(page)
    page["page"] = None
    assert "a page needs 'page'" in reasons(page)


def test_only_pages_have_an_adversary_side(knight):
    knight["secondary_adversary"] = {"title": "X", "combat": 1, "wits": None}
    assert "only pages have a 'secondary_adversary'" in reasons(knight)


def test_action_cards_need_a_primary_effect(by_code):
    event = copy.deepcopy(by_code["get-on-with-it"])
    event["primary"] = []
    assert "an event card needs at least one primary effect" in reasons(event)


def test_too_many_effects_on_one_side(knight):
    knight["secondary"] = [{"op": "peek_hand", "who": "opponent"}] * 5
    assert "At most 4 effects on one side of a card" in reasons(knight)


def test_blank_write_yer_own_rules(by_code):
    blank = copy.deepcopy(by_code["write-yer-own"])
    blank["grail"] = 4
    blank["primary"] = [{"op": "draw_cards", "count": 1, "who": "self"}]
    blank["secondary"] = []
    text = reasons(blank)
    assert "a blank Write Yer Own card has grail number 0" in text
    assert "has no primary effect until it is written" in text
    assert "needs a secondary effect usable unwritten" in text


def test_written_card_needs_an_author_and_a_real_type(knight):
    knight["tags"] = ["write_yer_own"]
    assert "'author' must be text" in reasons(knight)
    knight["author"] = "patsy42"
    assert reasons(knight) == ""
    knight["type"] = "write_yer_own"
    assert "a written Write Yer Own card must choose a real card type" in reasons(knight)


def test_printed_cards_have_no_author(knight):
    knight["author"] = "someone"
    assert "only written Write Yer Own cards have an 'author'" in reasons(knight)


@pytest.mark.parametrize("tags", [["Anthrax"], ["anthrax", "anthrax"], "anthrax", ["a"] * 9])
def test_bad_tags(knight, tags):
    knight["tags"] = tags
    assert "'tags' must" in reasons(knight)


def test_rarity_and_flags(knight):
    knight["rarity"] = "legendary"
    knight["unique"] = "yes"
    text = reasons(knight)
    assert "'rarity' must be one of fixed, common, uncommon, rare" in text
    assert "'unique' must be true or false" in text


def test_table_coverage_errors_directly():
    rows = [{"min": 0, "max": 2}, {"min": 2, "max": 3}, {"min": 5, "max": 7}]
    assert cards_validation.table_coverage_errors(rows, 0, 7) == ["total 2 is covered twice.", "total 4 is not covered."]
    assert cards_validation.table_coverage_errors([{"min": 0, "max": 7}], 0, 7) == []
