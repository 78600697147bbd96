"""The admin keeps a card's printed text true to what it does (an edited effect once left
the old text and face), and the import preview shows old and new values."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from decks import cardformat
from decks.models import Card, ImportJob
from tests.decks.test_decks_admin import change_form_data

DRAW_TWO = [{"op": "draw_cards", "count": 2, "who": "self"}]


@pytest.fixture
def keeper(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("keeper", "k@example.org", "pw-x9-grail"))
    return client


def test_a_new_effect_rewrites_the_text_left_unchanged(keeper):
    card = Card.objects.get(code="arthur")
    old_text = card.text
    response = keeper.post(f"/admin/decks/card/{card.pk}/change/", change_form_data(card, secondary=DRAW_TWO),
                           follow=True)
    card.refresh_from_db()
    assert card.secondary == DRAW_TWO
    assert card.text != old_text and card.text == cardformat.printed_text(card.to_format())
    assert "two cards" in card.text.lower() or "2 card" in card.text.lower(), card.text
    assert "now follows its effects" in response.content.decode()
    # The generated face prints the new words.
    face = keeper.get(f"/decks/cards/{card.code}/face.svg").content.decode()
    assert card.text.split()[0] in face
    # The revision records both changes.
    assert set(card.revisions.first().changed_fields) >= {"secondary", "text"}


def test_a_text_the_keeper_rewrote_in_the_same_edit_is_kept(keeper):
    card = Card.objects.get(code="arthur")
    keeper.post(f"/admin/decks/card/{card.pk}/change/",
                change_form_data(card, secondary=DRAW_TWO, text="Instead: draw two cards, as the king commands."))
    card.refresh_from_db()
    assert card.text == "Instead: draw two cards, as the king commands."


def test_an_edit_that_leaves_the_effects_alone_keeps_the_printed_text(keeper):
    card = Card.objects.get(code="arthur")
    old_text = card.text
    keeper.post(f"/admin/decks/card/{card.pk}/change/", change_form_data(card, quote="Another quote."))
    card.refresh_from_db()
    assert card.text == old_text and card.quote == "Another quote."


def test_the_import_preview_shows_old_and_new_values(keeper):
    arthur = Card.objects.get(code="arthur")
    changed = {**arthur.to_format(), "quote": "Errata by import."}
    keeper.post("/admin/decks/card/import/", {"file": SimpleUploadedFile("e.json", json.dumps([changed]).encode())})
    job = ImportJob.objects.latest("id")
    page = keeper.get(f"/admin/decks/card/import/{job.pk}/").content.decode()
    assert 'id="import-changes"' in page
    assert arthur.quote.split()[0] in page and "Errata by import." in page
