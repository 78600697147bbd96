"""Write Yer Own (rules section 12): the power budget, permanence, the ledger, the review queue."""
import pytest

from decks import selectors, services
from decks.models import Card, Holding, LedgerEntry

DRAW_ONE = {"op": "draw_cards", "count": 1, "who": "self"}


@pytest.fixture
def writer(make_user):
    user = make_user("scribe")
    services.collection_grant(user=user, cards={services.wyo_blank_code(): 2}, reason="admin_grant")
    return user


def blanks(user):
    return Holding.objects.get(user=user, card__code=services.wyo_blank_code()).quantity


def knight(**extra):
    return {"type": "knight", "title": "Sir Not Appearing", "grail": 3, "combat": 4, "wits": 2,
            "quote": "I was not in the film.", "primary": [], "secondary": [DRAW_ONE], **extra}


def test_writing_spends_a_blank_and_grants_the_new_card(writer):
    card = services.wyo_card_write(user=writer, data=knight())
    assert card.author == writer and card.review == Card.Review.PRIVATE
    assert card.tags == ["write_yer_own"] and card.type == "knight" and card.set_code == "wyo"
    assert blanks(writer) == 1
    assert Holding.objects.get(user=writer, card=card).quantity == 1
    assert sorted(LedgerEntry.objects.filter(reason="wyo_written").values_list("quantity_delta", flat=True)) == [-1, 1]
    assert card.revisions.get().source == "write_yer_own"
    assert selectors.ledger_discrepancies() == []


def test_a_written_card_is_a_valid_card_of_its_type(writer):
    from decks import cardformat
    card = services.wyo_card_write(user=writer, data=knight())
    assert cardformat.card_errors(card.to_format()) == []
    assert cardformat.budget_errors(card.to_format()) == []
    assert card.to_format()["author"] == "scribe"


def test_two_cards_with_the_same_title_get_distinct_codes(writer):
    first = services.wyo_card_write(user=writer, data=knight())
    second = services.wyo_card_write(user=writer, data=knight())
    assert first.code != second.code
    assert blanks(writer) == 0
    with pytest.raises(services.NotEnoughCards):
        services.wyo_card_write(user=writer, data=knight())


@pytest.mark.parametrize("design, reason", [
    (knight(combat=8, wits=6, primary=[{"op": "slay", "target": "opponent_knight"}]), "over the budget"),
    (knight(combat=11), "above the highest printed"),
    (knight(grail=8), "over seven"),
    (knight(combat=None), "needs a 'combat'"),
    ({"type": "event", "title": "Big Draw", "grail": 1, "primary": [{"op": "draw_cards", "count": 7, "who": "self"}]},
     "over the budget"),
    ({"type": "event", "title": "Doom", "grail": 1, "primary": [{"op": "end_game", "result": "opponent_loses"}]},
     "may not end the game"),
    ({"type": "event", "title": "Nothing", "grail": 1, "primary": []}, "at least one primary effect"),
    ({"type": "item", "title": "Bad", "grail": 1, "primary": [{"op": "teleport"}]}, "Unknown effect"),
    (knight(title=""), "must not be empty"),
    (knight(title="x" * 81), "at most 80"),
    (knight(quote="q" * 281), "at most 280"),
    ({"type": "write_yer_own", "title": "Still blank", "grail": 0}, "Choose what kind of card"),
])
def test_out_of_bounds_designs_are_refused_with_the_reason(writer, design, reason):
    with pytest.raises(services.ServiceError) as refused:
        services.wyo_card_write(user=writer, data=design)
    assert reason in str(refused.value)
    assert blanks(writer) == 2
    assert not Card.objects.filter(author=writer).exists()


def test_tags_and_author_cannot_be_smuggled_in(writer):
    card = services.wyo_card_write(user=writer, data=knight(tags=["arthur"], author="someone-else", code="arthur-2",
                                                             rarity="fixed"))
    assert card.tags == ["write_yer_own"] and card.author == writer and card.rarity == "rare"
    assert card.code.startswith("wyo-scribe-")


def test_without_a_blank_nothing_is_written(make_user):
    user = make_user()
    with pytest.raises(services.NotEnoughCards):
        services.wyo_card_write(user=user, data=knight())
    assert not Card.objects.filter(author=user).exists()


def test_submit_and_promote_into_the_official_set(writer, make_user):
    admin = make_user("keeper", is_staff=True)
    card = services.wyo_card_write(user=writer, data=knight())
    with pytest.raises(services.ServiceError):
        services.wyo_card_promote(card=card, actor=admin)       # not submitted yet
    stranger = make_user()
    with pytest.raises(services.ServiceError):
        services.wyo_card_submit(user=stranger, card=card)
    services.wyo_card_submit(user=writer, card=card)
    assert list(selectors.review_queue()) == [card]
    services.wyo_card_promote(card=card, actor=admin)
    card.refresh_from_db()
    assert card.review == Card.Review.OFFICIAL and card.set_code == "base" and card.author == writer
    assert card.revisions.first().changed_by == admin
    assert card in selectors.card_search(text=card.title, user=stranger)[0]
    assert list(selectors.review_queue()) == []


def test_a_turned_down_card_can_be_submitted_again(writer, make_user):
    card = services.wyo_card_write(user=writer, data=knight())
    services.wyo_card_submit(user=writer, card=card)
    services.wyo_card_reject(card=card, actor=make_user())
    assert card.review == Card.Review.REJECTED
    services.wyo_card_submit(user=writer, card=card)
    assert card.review == Card.Review.SUBMITTED


def test_the_page_writes_a_card_with_a_drawing(client, writer, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    import base64
    import io

    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (30, 20), "red").save(buffer, "PNG")
    drawing = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
    client.force_login(writer)
    response = client.post("/decks/write/", {
        "type": "item", "title": "Coconut Radio", "grail": 2, "quote": "Can you hear me?", "unique": "on",
        "primary": '[{"op": "peek_hand", "who": "opponent"}]', "secondary": "[]", "picture_drawn": drawing,
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    card = Card.objects.get(author=writer)
    assert card.image.name.startswith("cards/") and card.primary == [{"op": "peek_hand", "who": "opponent"}]
    assert blanks(writer) == 1


def test_the_page_refuses_a_fake_picture(client, writer):
    client.force_login(writer)
    response = client.post("/decks/write/", {
        "type": "item", "title": "Trojan Rabbit", "grail": 2, "primary": '[{"op": "peek_hand", "who": "opponent"}]',
        "secondary": "[]", "picture_drawn": "data:image/png;base64,PHNjcmlwdD4=",
    })
    assert response.status_code == 200 and "not a picture" in response.content.decode()
    assert blanks(writer) == 2


def test_live_check_reports_power_and_reasons(client, writer):
    client.force_login(writer)
    ok = client.post("/decks/api/write/check/", knight(primary="[]", secondary='[{"op": "draw_cards", "count": 1, "who": "self"}]'),
                     content_type="application/json").json()
    assert ok["errors"] == [] and 0 < ok["power"] <= ok["budget"]
    over = client.post("/decks/api/write/check/", knight(combat=8, wits=6, primary='[{"op": "slay", "target": "opponent_knight"}]',
                                                        secondary="[]"), content_type="application/json").json()
    assert any("budget" in e for e in over["errors"]) and over["power"] > over["budget"]
