"""Decks as a new player meets them: the deck list and game forms, the import page, and
the sample opening on the engine's shuffle."""
import re

import pytest

from decks import selectors, services, textformat
from decks.models import Card
from games.rules.rng import Rng, new_rng_state


@pytest.fixture
def newcomer(make_user):
    user = make_user()
    services.starter_grant(user=user)
    return user


def _refs():
    return [textformat.CardRef(c.code, c.title, c.type) for c in Card.objects.all()]


def test_the_deck_list_marks_unplayable_decks_and_says_why(client, newcomer):
    broken = services.deck_save(user=newcomer, name="Three cards", cards={"arthur": 1})
    client.force_login(newcomer)
    page = client.get("/decks/").content.decode()
    row = re.search(rf'<li class="deck-row unplayable" data-deck="{broken.pk}">(.*?)</li>', page, re.S).group(1)
    reason = selectors.deck_analysis(user=newcomer, cards=broken.cards)["problems"][0]
    assert "cannot be played: " + reason.replace("'", "&#x27;") in row
    assert page.count('data-testid="deck-playable"') == 2   # the two starter decks


def test_the_game_forms_offer_unplayable_decks_disabled_with_the_reason(client, newcomer, make_user):
    from games.table import services as game_services
    broken = services.deck_save(user=newcomer, name="Three cards", cards={"arthur": 1})
    host = make_user()
    services.starter_grant(user=host)
    match = game_services.match_create(creator=host, kind="ccg", num_seats=2, invite=[newcomer.username],
                                       creator_choice={"deck": host.decks.first().pk})
    client.force_login(newcomer)
    page = client.get(f"/games/{match.pk}/").content.decode()
    option = re.search(rf'<option value="{broken.pk}"[^>]*>[^<]*</option>', page).group(0)
    assert " disabled>" in option and "cannot be played" in option
    for deck in newcomer.decks.exclude(pk=broken.pk):
        assert re.search(rf'<option value="{deck.pk}">', page)
    assert 'data-testid="deck-unplayable"' in page


def test_the_sample_opening_warns_about_a_broken_deck_and_shuffles_with_the_engine(client, newcomer):
    client.force_login(newcomer)
    deck = newcomer.decks.first()
    good = client.post("/decks/api/opening/", {"cards": deck.cards}, content_type="application/json").json()
    assert good["warnings"] == [] and len(good["areas"]) == 14 and len(good["hand"]) == 7
    bad = client.post("/decks/api/opening/", {"cards": {"arthur": 1, "bristol-downs": 30}},
                      content_type="application/json").json()
    assert bad["warnings"], bad
    # Same seed, same order as the engine's generator gives.
    opening = selectors.sample_opening(cards=deck.cards, seed=77)
    known = selectors.deck_cards(deck.cards)
    pile = [known[c] for c, n in sorted(deck.cards.items()) for _ in range(n)]
    for card in opening["aside"]:
        pile.remove(card)
    Rng(new_rng_state(77)).shuffle(pile)
    assert [c.code for c in opening["areas"] + opening["hand"]] == [c.code for c in pile[:21]]


def test_only_cards_i_own_is_filtered_by_the_server_with_a_true_count(client, newcomer):
    client.force_login(newcomer)
    every = client.get("/decks/api/cards/?q=&offset=0").json()
    mine = client.get("/decks/api/cards/?q=&offset=0&owned=1").json()
    owned_kinds = len(selectors.owned_counts(user=newcomer))
    assert mine["total"] == owned_kinds < every["total"]
    assert all(card["owned"] > 0 for card in mine["cards"])


def test_the_import_help_example_imports(client, newcomer):
    client.force_login(newcomer)
    page = client.get("/decks/").content.decode()
    example = re.search(r'data-testid="import-example">([^<]+)<', page).group(1)
    assert textformat.parse(example, _refs()).ok
    response = client.post("/decks/new/", {"name": "From the help", "text": example})
    assert response.status_code == 302


def test_a_name_that_matches_nothing_suggests_the_nearest_cards():
    result = textformat.parse("3 Sir Robin\n1 Kng Arthur\n2 Zzzzzz", [
        textformat.CardRef("robin", "Brave Sir Robin"), textformat.CardRef("minstrels", "Sir Robin's Minstrels"),
        textformat.CardRef("arthur", "King Arthur"), textformat.CardRef("patsy", "Patsy")])
    reasons = dict(result.errors)
    assert reasons[1] == "No card called 'Sir Robin'. Did you mean Brave Sir Robin or Sir Robin's Minstrels?"
    assert reasons[2] == "No card called 'Kng Arthur'. Did you mean King Arthur?"
    assert reasons[3] == "No card called 'Zzzzzz'."


def test_the_import_page_shows_the_suggestion(client, newcomer):
    client.force_login(newcomer)
    response = client.post("/decks/new/", {"name": "Typo", "text": "3 Sir Robin"})
    assert response.status_code == 400 and "Did you mean Brave Sir Robin" in response.content.decode()


def test_a_wish_list_is_refused_only_when_chosen_for_a_game(newcomer, make_user):
    from games.table import services as game_services
    from grailsite.errors import ServiceError
    deck = newcomer.decks.first()
    wish = services.deck_save(user=newcomer, name="Wish", cards={**deck.cards, "robin": 40})
    with pytest.raises(ServiceError, match="cannot be played"):
        game_services.match_create(creator=newcomer, kind="ccg", num_seats=2, creator_choice={"deck": wish.pk})


def test_another_players_private_card_is_unknown_to_my_deck(newcomer, make_user):
    author = make_user("scribe")
    services.collection_grant(user=author, cards={services.wyo_blank_code(): 1}, reason="admin_grant")
    card = services.wyo_card_write(user=author, data={"type": "item", "title": "Secret Spoon", "grail": 1,
                                                      "primary": [{"op": "peek_hand", "who": "opponent"}]})
    with pytest.raises(services.ServiceError, match="Unknown card"):
        services.deck_save(user=newcomer, name="Thief", cards={card.code: 1})
    assert not textformat.parse("1 Secret Spoon", [textformat.CardRef(c["code"], c["title"]) for c in
                                                   selectors.cards_visible_to(newcomer).values("code", "title")]).ok
