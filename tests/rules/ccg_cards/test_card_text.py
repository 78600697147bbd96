"""card_text: the readable text built from a card's structured fields."""
import pytest

from games.rules.ccg import cards


@pytest.fixture
def titles(starter):
    return {card["code"]: card["title"] for card in starter}


def test_arthur(by_code):
    assert cards.card_text(by_code["arthur"]).splitlines() == [
        "Knight · grail 5 · Combat 5, Wits 5 · castle icon · unique.",
        "As Round Table representative: +1 to self's grail numbers for permanent.",
        "Instead: Self draws 1 card(s).",
    ]


def test_tintagel_lists_its_table_and_its_searched_for_occupant(by_code):
    assert cards.card_text(by_code["tintagel"]).splitlines() == [
        "Castle · grail 4 · unique.",
        "Castle defence 4.",
        "Held by a knight of the opponent's choosing from their deck.",
        "Castle table — 4 or less: lead knight slain; 5–7: no passage; 8 or more: pass.",
        "Instead: +1 combat to own knight for dispute.",
    ]


def test_named_occupant_shows_its_title_when_titles_are_given(by_code, titles):
    assert "Held by maidens-of-castle-anthrax." in cards.card_text(by_code["castle-anthrax"])
    text = cards.card_text(by_code["castle-anthrax"], titles)
    assert "Held by The Maidens of Castle Anthrax." in text
    assert "Draw 1 extra card(s) each draw phase while your Round Table is here." in text
    assert "12 or more: pass and draw a card." in text


def test_page_shows_its_capacity_and_its_adversary_side(by_code):
    assert cards.card_text(by_code["page-generic"]).splitlines() == [
        "Page · grail 2 · generic.",
        "Carries 1 item(s) and serves 1 knight(s).",
        "Other side (turned up in your own England): adversary Runaway Page — Combat 1, Wits 1.",
    ]


def test_village_shows_every_row(by_code):
    lines = cards.card_text(by_code["coconut-market"]).splitlines()
    assert lines[1:4] == [
        "Village 0–3: Nothing happens.",
        "Village 4–6: Move up to 1 extra area(s) this turn.",
        "Village 7: Self draws 2 card(s).",
    ]


def test_item_primary_and_secondary(by_code):
    assert cards.card_text(by_code["holy-hand-grenade"]).splitlines()[1:] == [
        "Slay the adversary.",
        "Instead: +3 combat to lead knight for dispute.",
    ]


def test_adversary_with_wits_only(by_code):
    assert cards.card_text(by_code["bridgekeeper"]).splitlines()[0] == "Adversary · grail 7 · Wits 6 · unique."


def test_card_text_works_on_minimal_cards():
    card = {"code": "x", "title": "X", "type": "questions_three", "grail": 1,
            "primary": [{"op": "force_dispute", "method": "wits"}]}
    assert cards.card_text(card) == "Questions Three · grail 1 · unique.\nThe dispute must be settled by wits."


def test_every_starter_card_reads_as_more_than_its_header(starter):
    # Each printed card does something: a number table, a capacity, a bonus or an effect.
    for card in starter:
        header, *rest = cards.card_text(card).splitlines()
        assert rest, card["code"]
        assert header.startswith(cards.type_name(card["type"]) + " · grail "), card["code"]
        assert ("Instead: " in "\n".join(rest)) == bool(card["secondary"]), card["code"]
