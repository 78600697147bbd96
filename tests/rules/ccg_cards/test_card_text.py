"""card_text: the readable text built from a card's structured fields."""
import pytest

from games.rules.ccg import cards, cards_text


@pytest.fixture
def titles(starter):
    return {card["code"]: card["title"] for card in starter}


def test_arthur(by_code):
    assert cards_text.card_text(by_code["arthur"]).splitlines() == [
        "Knight · grail 5 · Combat 5, Wits 5 · castle icon · unique.",
        "As Round Table representative: +1 to your grail numbers while this stays in play.",
        "Instead: Draw 1 card.",
    ]


def test_tintagel_lists_its_table_and_its_searched_for_occupant(by_code):
    assert cards_text.card_text(by_code["tintagel"]).splitlines() == [
        "Castle · grail 4 · unique.",
        "Castle defence 4.",
        "Held by a knight of the opponent's choosing from their deck.",
        "Castle table — 4 or less: lead knight slain; 5–7: no passage; 8 or more: pass.",
        "Instead: +1 combat to one of your knights until the dispute ends.",
    ]


def test_named_occupant_shows_its_title_when_titles_are_given(by_code, titles):
    assert "Held by maidens-of-castle-anthrax." in cards_text.card_text(by_code["castle-anthrax"])
    text = cards_text.card_text(by_code["castle-anthrax"], titles)
    assert "Held by The Maidens of Castle Anthrax." in text
    assert "Draw 1 extra card(s) each draw phase while your Round Table is here." in text
    assert "12 or more: pass and draw a card." in text


def test_page_shows_its_capacity_and_its_adversary_side(by_code):
    assert cards_text.card_text(by_code["page-generic"]).splitlines() == [
        "Page · grail 2 · generic.",
        "Carries 1 item(s) and serves 1 knight(s).",
        "Other side (turned up in your own England): adversary Runaway Page — Combat 1, Wits 1.",
    ]


def test_village_shows_every_row(by_code):
    lines = cards_text.card_text(by_code["coconut-market"]).splitlines()
    assert lines[1:4] == [
        "Village 0–3: Nothing happens.",
        "Village 4–6: Move up to 1 extra area this turn.",
        "Village 7: Draw 2 cards.",
    ]


def test_item_primary_and_secondary(by_code):
    assert cards_text.card_text(by_code["holy-hand-grenade"]).splitlines()[1:] == [
        "Slay the adversary.",
        "Instead: +3 combat to your lead knight until the dispute ends.",
    ]


def test_adversary_with_wits_only(by_code):
    assert cards_text.card_text(by_code["bridgekeeper"]).splitlines()[0] == "Adversary · grail 7 · Wits 6 · unique."


def test_card_text_works_on_minimal_cards():
    card = {"code": "x", "title": "X", "type": "questions_three", "grail": 1,
            "primary": [{"op": "force_dispute", "method": "wits"}]}
    assert cards_text.card_text(card) == "Questions Three · grail 1 · unique.\nThe dispute must be settled by wits."


def test_every_starter_card_reads_as_more_than_its_header(starter):
    # Each printed card does something: a number table, a capacity, a bonus or an effect.
    for card in starter:
        header, *rest = cards_text.card_text(card).splitlines()
        assert rest, card["code"]
        assert header.startswith(cards_text.type_name(card["type"]) + " · grail "), card["code"]
        assert ("Instead: " in "\n".join(rest)) == bool(card["secondary"]), card["code"]


@pytest.mark.parametrize("effect,text", [
    ({"op": "draw_cards", "count": 2, "who": "opponent"}, "Your opponent draws 2 cards."),
    ({"op": "discard_cards", "count": 1, "who": "self", "chooser": "owner"}, "Discard 1 card of your choice."),
    ({"op": "discard_cards", "count": 2, "who": "opponent", "chooser": "random"},
     "Your opponent discards 2 cards at random."),
    ({"op": "skip_turns", "who": "opponent", "turns": 1}, "Your opponent loses 1 turn."),
    ({"op": "disable_member", "target": "opponent_knight", "turns": 2}, "An opposing knight may not act for 2 turns."),
    ({"op": "block_movement", "who": "self", "turns": 3}, "You may not move for 3 turns."),
    ({"op": "modify_wits", "amount": -2, "target": "adversary", "duration": "turn"},
     "-2 wits to the adversary until the end of the turn."),
    ({"op": "end_game", "result": "draw"}, "The game ends in a draw."),
])
def test_every_phrase_reads_as_english(effect, text):
    from games.rules.ccg import vocabulary

    assert vocabulary.validate_effect(effect) == []
    assert vocabulary.describe_effects([effect]) == text


def test_every_op_has_a_phrase_without_placeholders():
    from games.rules.ccg import vocabulary

    for op, params in vocabulary.EFFECT_OPS.items():
        effect = {"op": op, **{name: (kind[1] if kind[0] == "int" else kind[1]) for name, kind in params.items()}}
        text = vocabulary.describe_effect(effect)
        assert text and "{" not in text and "_" not in text, (op, text)
