"""validate_card never raises, whatever a field holds; what it accepts, the rest can read."""
import copy

import pytest

from games.rules.ccg import cards, cards_power, cards_text, cards_validation

ODD_VALUES = [None, True, 0, -1, 10**9, 2.5, "", "x" * 700, [], [{}], [None], {}, {"min": 0}, ["a"]]
SAMPLES = ["arthur", "tintagel", "witch-burning-village", "page-generic", "holy-hand-grenade",
           "bridgekeeper", "cornwall", "write-yer-own"]


@pytest.mark.parametrize("code", SAMPLES)
def test_any_odd_value_in_any_field_gives_reasons_not_exceptions(by_code, code):
    for field in cards.FIELDS:
        for value in ODD_VALUES:
            card = copy.deepcopy(by_code[code])
            card[field] = value
            reasons = cards_validation.validate_card(card)
            assert isinstance(reasons, list) and all(isinstance(r, str) for r in reasons), (field, value)
            if not reasons:
                # Whatever validates must be readable and scorable.
                assert isinstance(cards_text.card_text(card), str)
                assert isinstance(cards_power.power_score(card), int)


@pytest.mark.parametrize("code", SAMPLES)
def test_odd_values_inside_tables_and_sub_objects(by_code, code):
    card = by_code[code]
    for field in ("castle_table", "village_table", "page", "secondary_adversary", "castle_occupant"):
        if not card[field]:
            continue
        inner = card[field][0] if isinstance(card[field], list) else card[field]
        for key in inner:
            for value in ODD_VALUES:
                broken = copy.deepcopy(card)
                target = broken[field][0] if isinstance(broken[field], list) else broken[field]
                target[key] = value
                reasons = cards_validation.validate_card(broken)
                assert isinstance(reasons, list), (field, key, value)
                if not reasons:
                    cards_text.card_text(broken)
                    cards_power.power_score(broken)
