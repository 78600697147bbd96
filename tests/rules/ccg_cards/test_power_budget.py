"""Power scores, the per-type budget derived from the starter set, and Write Yer Own checks."""
import copy

import pytest

from games.rules.ccg import cards, cards_power


def fx(op, **params):
    return {"op": op, **params}


DRAW_1 = fx("draw_cards", count=1, who="self")
PLUS_1 = fx("modify_combat", amount=1, target="lead_knight", duration="dispute")
# Stacked on any design, these four push it past every printed card of any type.
OVERKILL = [
    fx("slay", target="opponent_knight"),
    fx("skip_turns", who="opponent", turns=3),
    fx("draw_cards", count=5, who="self"),
    fx("modify_combat", amount=5, target="self", duration="permanent"),
]


def written(kind: str, **fields) -> dict:
    """A written Write Yer Own card of ``kind``, with its fair starting fields."""
    base = {
        "code": f"wyo-{kind.replace('_', '-')}", "title": f"My {kind}", "type": kind, "grail": 4,
        "quote": "Drawn in crayon at great expense.", "text": "Whatever it says below.",
        "tags": ["write_yer_own"], "author": "patsy42", "rarity": "rare", "set": "wyo",
    }
    return {**base, **fields}


FAIR = {
    "knight": written("knight", combat=5, wits=3, secondary=[PLUS_1]),
    "persona": written("persona", combat=None, wits=4, primary=[fx("peek_hand", who="opponent")]),
    "adversary": written("adversary", combat=4, wits=3, primary=[fx("block_movement", who="opponent", turns=1)]),
    "peril": written("peril", combat=4, primary=[fx("run_away", who="opponent")]),
    "castle": written("castle", castle_defense=3, draw_bonus=1, castle_table=[
        {"min": -99, "max": 6, "result": "no_pass"}, {"min": 7, "max": 99, "result": "pass"}]),
    "village": written("village", village_table=[
        {"min": 0, "max": 3, "effects": [], "text": "Nothing much."},
        {"min": 4, "max": 7, "effects": [DRAW_1], "text": "A gift."}]),
    "land": written("land", draw_bonus=1, secondary=[DRAW_1]),
    "page": written("page", page={"items": 1, "knights": 1},
                    secondary_adversary={"title": "Grumpy Page", "combat": 1, "wits": 1}),
    "item": written("item", primary=[fx("modify_wits", amount=2, target="lead_knight", duration="dispute")],
                    secondary=[DRAW_1]),
    "event": written("event", primary=[fx("discard_cards", count=2, who="opponent", chooser="owner")],
                     secondary=[DRAW_1]),
    "song": written("song", primary=[fx("end_turn", who="opponent")], secondary=[DRAW_1]),
    "taunt": written("taunt", primary=[fx("modify_wits", amount=-2, target="opponent_knight", duration="dispute")]),
    "questions_three": written("questions_three", primary=[fx("force_dispute", method="wits")],
                               secondary=[fx("peek_hand", who="opponent")]),
}


def test_budget_is_pinned_to_the_starter_set(starter):
    # POWER_BUDGET is "the highest score among printed cards of that type" (fixed and
    # game-ending cards aside); this fails if the set changes and the pin does not.
    assert cards_power.POWER_BUDGET == cards_power.derive_power_budget(starter)
    assert cards_power.NUMBER_CAPS == cards_power.derive_number_caps(starter)


def test_every_type_a_card_can_be_written_as_has_a_budget():
    assert set(cards_power.POWER_BUDGET) == set(cards.CARD_TYPES) - {"write_yer_own"}
    assert set(FAIR) == set(cards_power.POWER_BUDGET)


@pytest.mark.parametrize("kind", sorted(FAIR))
def test_a_fair_design_of_each_type_is_accepted(kind):
    design = copy.deepcopy(FAIR[kind])
    assert cards_power.check_power_budget(design) == []
    assert cards_power.power_score(design) <= cards_power.POWER_BUDGET[kind]


@pytest.mark.parametrize("kind", sorted(FAIR))
def test_an_over_strong_design_of_each_type_is_refused_with_the_reason(kind):
    design = copy.deepcopy(FAIR[kind])
    # The secondary side is free on every type but the page, whose other side is an adversary.
    side = "primary" if kind == "page" else "secondary"
    design[side] = OVERKILL
    score = cards_power.power_score(design)
    assert score > cards_power.POWER_BUDGET[kind]
    assert f"power {score} is over the budget of {cards_power.POWER_BUDGET[kind]} for" in " ".join(
        cards_power.check_power_budget(design))


def test_every_printed_card_fits_its_own_budget(starter):
    for card in starter:
        if card["rarity"] == "fixed" or cards.TAG_GAME_ENDER in card["tags"]:
            continue
        assert cards_power.power_score(card) <= cards_power.POWER_BUDGET[card["type"]], card["code"]


def test_a_copy_of_the_strongest_printed_card_is_exactly_on_budget(starter):
    lancelot = next(c for c in starter if c["code"] == "lancelot")
    design = {**copy.deepcopy(lancelot), "code": "my-lancelot", "tags": ["write_yer_own"], "author": "me"}
    assert cards_power.power_score(design) == cards_power.POWER_BUDGET["knight"]
    assert cards_power.check_power_budget(design) == []


def test_numbers_above_the_printed_range_are_refused():
    design = written("knight", combat=9, wits=1)
    assert "'combat' 9 is above the highest printed on a Knight card (8)." in cards_power.check_power_budget(design)


def test_a_number_no_printed_card_of_that_type_has_is_refused():
    design = written("peril", combat=2, wits=2)
    assert "no printed Peril card has a 'wits' number." in cards_power.check_power_budget(design)


def test_written_cards_may_not_end_the_game():
    design = written("event", primary=[fx("end_game", result="draw")])
    assert "a written card may not end the game." in cards_power.check_power_budget(design)


def test_written_cards_may_not_pose_as_arthur_or_patsy():
    design = written("knight", combat=3, tags=["write_yer_own", "arthur"])
    assert "a written card may not carry the tag(s) arthur." in cards_power.check_power_budget(design)


def test_malformed_designs_get_the_format_reasons_first():
    design = written("knight", combat=3, grail=8)
    assert cards_power.check_power_budget(design) == ["'grail' must be a whole number from 0 to 7."]


@pytest.mark.parametrize("effect,points", [
    (PLUS_1, 2),
    (fx("modify_combat", amount=-2, target="opponent_knight", duration="dispute"), 4),   # size, not sign
    (fx("modify_combat", amount=2, target="own_knight", duration="permanent"), 12),
    (fx("modify_wits", amount=1, target="self", duration="turn"), 3),                   # whole Round Table
    (fx("modify_grail_number", amount=1, who="self", duration="permanent"), 9),
    (fx("draw_cards", count=2, who="self"), 6),
    (fx("skip_turns", who="opponent", turns=1), 6),
    (fx("slay", target="adversary"), 8),
    (fx("eliminate", target="adversary"), 10),
    (fx("end_game", result="opponent_loses"), 30),
    (fx("cancel_last_card"), 7),
])
def test_effect_weights(effect, points):
    assert cards_power.effect_power(effect) == points


def test_every_vocabulary_op_has_a_weight():
    from games.rules.ccg import vocabulary
    for op, spec in vocabulary.EFFECT_OPS.items():
        sample = {"op": op}
        for name, kind in spec.items():
            sample[name] = kind[1]   # the lowest int, or the first choice
        assert cards_power.effect_power(sample) >= 0, op


def test_power_score_of_worked_cards(by_code):
    # Arthur: 2*(5+5) numbers + 1 castle icon + 9 permanent grail bonus
    #         + max(primary 0, secondary draw 1 = 3) + half the weaker side (0).
    assert cards_power.power_score(by_code["arthur"]) == 20 + 1 + 9 + 3
    # Tintagel: 2*4 defence; table over totals 0..14: 0-4 slain (2 each), 5-7 no pass
    # (1 each) -> 13 // 3 = 4; occupant 2; secondary +1 combat = 2.
    assert cards_power.power_score(by_code["tintagel"]) == 8 + 4 + 2 + 2
    # Generic page: capacity 3*1 + 4*1, adversary side 1 + 1.
    assert cards_power.power_score(by_code["page-generic"]) == 7 + 2


def test_village_score_weights_rows_by_their_reach(by_code):
    # Witch-Burning Village: discard 1 (3) on 0-2, +1 wits for a turn (2) on 3-5,
    # draw 2 (6) on 6-7: (3*3 + 2*3 + 6*2) / 8 = 27 / 8, rounded up = 4; secondary 2.
    assert cards_power.power_score(by_code["witch-burning-village"]) == 4 + 2
