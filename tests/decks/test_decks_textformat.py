"""Deck lists as plain text: parsing with line-numbered reasons, and export round trips."""
import random

from decks import selectors, textformat
from decks.models import Card, DeckVersion
from decks.textformat import CardRef

CARDS = [CardRef("sir-robin", "Sir Robin", "knight"), CardRef("sir-galahad", "Sir Galahad", "knight"),
         CardRef("tim", "Tim", "persona"), CardRef("shrubbery-a", "Shrubbery", "item"),
         CardRef("shrubbery-b", "Shrubbery", "land"), CardRef("hash-card", "Number #1 Fan", "event"),
         CardRef("three", "3 Headed Knight", "adversary")]


def test_parses_counts_comments_and_blank_lines():
    text = "# my deck\n3 Sir Robin\n\n2x sir galahad  // the pure\nTim\n1 sir-robin\n"
    result = textformat.parse(text, CARDS)
    assert result.ok
    assert result.cards == {"sir-galahad": 2, "sir-robin": 4, "tim": 1}


def test_reports_every_bad_line_with_its_number_and_changes_nothing():
    text = "3 Sir Robin\n2 Sir Lancelot\n0 Tim\nShrubbery\n" + "x" * 300 + "\n100 Tim\n"
    result = textformat.parse(text, CARDS)
    assert result.cards == {}
    lines = [line for line, _ in result.errors]
    assert lines == [2, 3, 4, 5, 6]
    reasons = dict(result.errors)
    assert "No card called 'Sir Lancelot'" in reasons[2]
    assert "1 to 99" in reasons[3]
    assert "shrubbery-a, shrubbery-b" in reasons[4]
    assert "longer than" in reasons[5]


def test_export_reads_back_to_the_same_deck():
    deck = {"sir-robin": 3, "tim": 1, "shrubbery-a": 2, "shrubbery-b": 1, "hash-card": 2, "three": 1}
    text = textformat.export("Robin's <b>brave</b> # deck", deck, CARDS)
    assert text.startswith("# Robin's <b>brave</b> # deck\n")
    assert "2 shrubbery-a" in text and "2 hash-card" in text and "1 three" in text
    assert textformat.parse(text, CARDS).cards == dict(sorted(deck.items()))


def test_round_trip_of_random_decks_over_the_starter_set(db):
    refs = [CardRef(c.code, c.title, c.type) for c in Card.objects.all()]
    rng = random.Random(7)
    for _ in range(20):
        deck = {ref.code: rng.randint(1, 4) for ref in rng.sample(refs, 25)}
        assert textformat.parse(textformat.export("d", deck, refs), refs).cards == dict(sorted(deck.items()))


def test_import_view_keeps_the_deck_when_a_line_is_bad(client, starter_user):
    client.force_login(starter_user)
    deck = selectors.decks_for(user=starter_user)[0]
    before = dict(deck.cards)
    arthur = Card.objects.get(code="arthur")
    response = client.post(f"/decks/{deck.pk}/import/", {"name": deck.name, "text": f"1 {arthur.title}\n2 Nobody At All\n"})
    assert response.status_code == 400
    assert b"Line 2: No card called" in response.content
    deck.refresh_from_db()
    assert deck.cards == before and deck.versions.count() == 1


def test_export_then_import_through_the_pages(client, starter_user):
    client.force_login(starter_user)
    deck = selectors.decks_for(user=starter_user)[0]
    exported = client.get(f"/decks/{deck.pk}/export.txt")
    assert exported["Content-Type"].startswith("text/plain")
    text = exported.content.decode()
    response = client.post("/decks/new/", {"name": "Round trip", "text": text})
    assert response.status_code == 302
    clone = starter_user.decks.get(name="Round trip")
    assert clone.cards == deck.cards
    assert DeckVersion.objects.get(deck=clone).note == "Imported"


def test_import_of_cards_not_owned_makes_a_wish_list(client, make_user):
    # Cards not owned are saved, marked, and refused only when the deck is chosen for a game.
    user = make_user()
    client.force_login(user)
    arthur = Card.objects.get(code="arthur")
    response = client.post("/decks/new/", {"name": "Greedy", "text": f"1 {arthur.title}\n"})
    assert response.status_code == 302 and user.decks.get().cards == {"arthur": 1}
    page = client.get("/decks/").content.decode()
    assert "Saved as a wish list" in page and 'data-testid="deck-wish"' in page
