"""The pages and JSON endpoints of decks, collection and card search."""
import pytest

from decks import selectors, services
from decks.models import Card, Deck


@pytest.fixture
def player(client, starter_user):
    client.force_login(starter_user)
    return starter_user


def test_named_urls_for_the_site_nav_exist(client, player):
    from django.urls import reverse
    for name in ("deck_list", "collection", "card_search"):
        assert client.get(reverse(name)).status_code == 200


def test_pages_need_a_log_in(client, db):
    for url in ("/decks/", "/decks/collection/", "/decks/write/"):
        assert client.get(url).status_code == 302
    assert client.get("/decks/cards/").status_code == 200   # the card database is public


def test_card_search_page_and_api(client, player):
    page = client.get("/decks/cards/", {"q": "t:knight c>=5"})
    assert page.status_code == 200 and b"Combat" in page.content
    data = client.get("/decks/api/cards/", {"q": "tag:arthur"}).json()
    assert data["total"] == 1 and data["cards"][0]["code"] == "arthur" and data["cards"][0]["owned"] >= 1
    bad = client.get("/decks/api/cards/", {"q": "t:dragon"}).json()
    assert bad["errors"] == ["Unknown card type 'dragon'."]


def test_card_detail_shows_rules_text_and_a_generated_face(client, db):
    card = Card.objects.get(code="arthur")
    page = client.get(f"/decks/cards/{card.code}/").content.decode()
    assert card.title in page and "Revision history" in page
    face = client.get(f"/decks/cards/{card.code}/face.svg")
    assert face.status_code == 200 and card.title.encode() in face.content


def test_collection_page_counts_and_ledger(client, player):
    page = client.get("/decks/collection/").content.decode()
    total = sum(services.starter_collection_counts().values())
    assert f"{total} cards" in page and "Starter grant" in page
    filtered = client.get("/decks/collection/", {"q": "t:knight"}).content.decode()
    assert "Sir" in filtered or "Knight" in filtered
    ledger = client.get("/decks/collection/", {"card": "arthur"}).content.decode()
    assert "Ledger: " in ledger


def test_analyse_reports_reasons_and_stats(client, player):
    deck = player.decks.first()
    ok = client.post("/decks/api/analyse/", {"cards": deck.cards}, content_type="application/json").json()
    assert ok["valid"] and ok["stats"]["size"] == deck.size
    assert sum(ok["stats"]["grail"].values()) == deck.size
    broken = dict(deck.cards)
    broken.pop("arthur")
    broken["lancelot"] = 99
    bad = client.post("/decks/api/analyse/", {"cards": broken}, content_type="application/json").json()
    assert not bad["valid"]
    text = " ".join(bad["problems"])
    assert "Arthur" in text and "You own" in text and "unique card 'lancelot'" in text


def test_sample_opening_lays_out_fourteen_and_deals_seven(client, player):
    deck = player.decks.first()
    data = client.post("/decks/api/opening/", {"cards": deck.cards}, content_type="application/json").json()
    assert len(data["areas"]) == 14 and len(data["hand"]) == 7 and not data["short"]
    assert {c["code"] for c in data["aside"]} == {"arthur", "patsy"}


def test_save_keeps_versions_and_restore_brings_one_back(client, player):
    deck = player.decks.first()
    original = dict(deck.cards)
    smaller = dict(original)
    smaller.pop(next(iter(smaller)))
    response = client.post(f"/decks/api/decks/{deck.pk}/save/", {"name": "Lighter", "cards": smaller},
                           content_type="application/json")
    assert response.json() == {"version": 2, "name": "Lighter"}
    versions = client.get(f"/decks/{deck.pk}/versions/?v=1").content.decode()
    assert "Version 1" in versions and "Restore" in versions
    client.post(f"/decks/{deck.pk}/versions/1/restore/")
    deck.refresh_from_db()
    assert deck.cards == original and deck.version == 3 and deck.versions.count() == 3


def test_save_keeps_more_copies_than_owned_as_a_wish_list(client, player):
    # A deck may list cards not owned yet; it is refused only when chosen for a game.
    deck = player.decks.first()
    response = client.post(f"/decks/api/decks/{deck.pk}/save/", {"name": "x", "cards": {"arthur": 50}},
                           content_type="application/json")
    assert response.status_code == 200
    deck.refresh_from_db()
    assert deck.version == 2 and deck.cards == {"arthur": 50}
    analysis = client.post("/decks/api/analyse/", {"cards": deck.cards}, content_type="application/json").json()
    arthur = Card.objects.get(code="arthur")
    owned = selectors.owned_counts(user=player, card_ids=[arthur.pk]).get(arthur.pk, 0)
    assert not analysis["valid"] and analysis["missing"] == [f"{50 - owned} {arthur.title}"]


def test_rename_clone_delete(client, player):
    deck = player.decks.first()
    client.post(f"/decks/{deck.pk}/rename/", {"name": "Holy Hand Deck"})
    deck.refresh_from_db()
    assert deck.name == "Holy Hand Deck" and deck.version == 2
    response = client.post(f"/decks/{deck.pk}/clone/")
    clone = Deck.objects.get(name="Copy of Holy Hand Deck")
    assert response["Location"] == f"/decks/{clone.pk}/" and clone.cards == deck.cards
    client.post(f"/decks/{clone.pk}/delete/")
    assert not Deck.objects.filter(pk=clone.pk).exists()


def test_other_peoples_decks_are_out_of_reach(client, player, make_user):
    other = make_user()
    theirs = services.deck_save(user=other, name="Secret", cards={})
    for url in (f"/decks/{theirs.pk}/", f"/decks/{theirs.pk}/export.txt", f"/decks/{theirs.pk}/versions/"):
        assert client.get(url).status_code == 404
    assert client.post(f"/decks/{theirs.pk}/delete/").status_code == 404
    assert client.post(f"/decks/api/decks/{theirs.pk}/save/", {"name": "x", "cards": {}},
                       content_type="application/json").status_code == 404
    assert Deck.objects.filter(pk=theirs.pk).exists()


def test_builder_page_renders_with_initial_state(client, player):
    deck = player.decks.first()
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert 'id="deck-initial"' in page and "builder.js" in page
    assert selectors.deck_analysis(user=player, cards=deck.cards)["valid"]


def test_card_image_is_the_uploaded_picture_or_else_the_generated_face(client, db):
    face = client.get("/decks/cards/arthur/image/")
    assert face.status_code == 302 and face["Location"] == "/decks/cards/arthur/face.svg"
    Card.objects.filter(code="arthur").update(image="cards/arthur.png")
    picture = client.get("/decks/cards/arthur/image/")
    assert picture.status_code == 302 and picture["Location"] == "/media/cards/arthur.png"
    assert client.get("/decks/cards/no-such-card/image/").status_code == 404


def test_a_written_cards_image_is_shown_only_where_the_card_is(client, starter_user, make_user):
    card = services.wyo_card_write(user=starter_user, data={
        "type": "item", "title": "Holy Hand Grenade Mk II", "grail": 1,
        "primary": [{"op": "peek_hand", "who": "opponent"}]})
    client.force_login(make_user("stranger"))
    assert client.get(f"/decks/cards/{card.code}/image/").status_code == 404
    client.force_login(starter_user)
    mine = client.get(f"/decks/cards/{card.code}/image/")
    assert mine.status_code == 302 and mine["Location"] == f"/decks/cards/{card.code}/face.svg"


def test_the_ledger_pages_back_to_the_first_entry(client, player):
    from decks.models import LedgerEntry
    from decks.views import LEDGER_PAGE
    for n in range(LEDGER_PAGE + 5):  # enough entries for two pages whatever the grant made
        services.admin_grant(user=player, card_code="arthur", quantity=1, actor=player, note=f"gift {n}")
    expected = list(LedgerEntry.objects.filter(user=player).order_by("-id").values_list("id", flat=True))
    assert len(expected) > LEDGER_PAGE
    seen, url, pages = [], "/decks/collection/", 0
    while url:
        response = client.get(url)
        seen += [e.pk for e in response.context["ledger"]]
        pages += 1
        older = response.context["older"]
        url = f"/decks/collection/?before={older}" if older else None
    assert seen == expected and pages == -(-len(expected) // LEDGER_PAGE)
    assert "ledger-older" in client.get("/decks/collection/").content.decode()
    assert "ledger-newest" in client.get(f"/decks/collection/?before={expected[0]}").content.decode()
