"""Everything a user writes is escaped wherever it is shown, and bounded in size."""
import pytest

from decks import services
from decks.models import Card

TITLE = '<script>alert("t")</script>'
QUOTE = '"><img src=x onerror=alert(1)>'
DECK_NAME = "</script><script>alert('deck')</script>"
RAW = ("<script>alert", "<img src=x", "</script><script>")


@pytest.fixture
def attacker(starter_user):
    services.wyo_card_write(user=starter_user, data={
        "type": "item", "title": TITLE, "grail": 1, "quote": QUOTE,
        "primary": [{"op": "peek_hand", "who": "opponent"}]})
    return starter_user


def assert_escaped(content: bytes):
    text = content.decode()
    for raw in RAW:
        assert raw not in text, f"unescaped {raw!r}"
    return text


def test_card_pages_escape_a_written_card(client, attacker):
    card = Card.objects.get(author=attacker)
    client.force_login(attacker)
    detail = assert_escaped(client.get(f"/decks/cards/{card.code}/").content)
    assert "&lt;script&gt;" in detail
    face = client.get(f"/decks/cards/{card.code}/face.svg")
    assert face["Content-Type"] == "image/svg+xml"
    assert "default-src 'none'" in face["Content-Security-Policy"]
    assert "&lt;script&gt;" in assert_escaped(face.content)
    assert_escaped(client.get("/decks/cards/?q=alert").content)
    assert_escaped(client.get("/decks/collection/").content)
    assert_escaped(client.get("/decks/write/").content)


def test_deck_names_are_escaped_everywhere(client, attacker):
    client.force_login(attacker)
    deck = attacker.decks.first()
    card = Card.objects.get(author=attacker)
    services.deck_save(user=attacker, deck=deck, name=DECK_NAME, cards={**deck.cards, card.code: 1})
    for url in ("/decks/", f"/decks/{deck.pk}/", f"/decks/{deck.pk}/versions/?v=2"):
        assert_escaped(client.get(url).content)
    # The export is plain text served as an attachment, never as HTML.
    export = client.get(f"/decks/{deck.pk}/export.txt")
    assert export["Content-Type"].startswith("text/plain") and "attachment" in export["Content-Disposition"]


def test_admin_pages_escape_written_cards(client, attacker, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw-x9-grail")
    client.force_login(admin)
    card = Card.objects.get(author=attacker)
    assert_escaped(client.get("/admin/decks/card/?q=alert").content)
    assert_escaped(client.get(f"/admin/decks/card/{card.pk}/change/").content)


def test_sizes_are_bounded(client, starter_user):
    client.force_login(starter_user)
    deck = starter_user.decks.first()
    too_long = client.post(f"/decks/api/decks/{deck.pk}/save/", {"name": "n" * 81, "cards": deck.cards},
                           content_type="application/json")
    assert too_long.status_code == 400 and "at most 80" in too_long.json()["error"]["message"]
    huge = client.post(f"/decks/api/decks/{deck.pk}/save/", "x" * 70000, content_type="application/json")
    assert huge.status_code == 400
    assert len(client.get("/decks/api/cards/?q=" + "a" * 5000).json()["errors"]) == 1
