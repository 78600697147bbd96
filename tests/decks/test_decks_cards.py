"""The card database: one model field per format field, validation through the card module,
the idempotent loader, and unwritten blanks in decks."""
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from decks import cardformat, selectors, services
from decks.models import Card, CardRevision


def test_every_starter_card_round_trips_through_the_model(db):
    for raw in cardformat.starter_set():
        card = Card.objects.get(code=raw["code"])
        assert card.to_format() == cardformat.normalize(raw)


def test_clean_uses_the_card_modules_reasons(db):
    card = Card.objects.get(code="arthur")
    card.combat = None
    with pytest.raises(ValidationError) as invalid:
        card.clean()
    assert "needs a 'combat' number" in str(invalid.value)
    card.combat, card.primary = 5, [{"op": "draw_cards", "count": 9, "who": "self"}]
    with pytest.raises(ValidationError):
        card.clean()


def test_load_cards_is_an_idempotent_upsert(db, tmp_path, capsys):
    call_command("load_cards")
    assert "0 created, 0 updated, 160 unchanged" in capsys.readouterr().out
    revisions = CardRevision.objects.count()
    arthur = Card.objects.get(code="arthur").to_format()
    new = {"code": "tim-the-enchanter-2", "title": "Tim Again", "type": "persona", "grail": 4, "wits": 5}
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([{**arthur, "quote": "Errata."}, new]))
    call_command("load_cards", str(path))
    assert "1 created, 1 updated, 0 unchanged" in capsys.readouterr().out
    assert CardRevision.objects.count() == revisions + 2
    assert Card.objects.get(code="arthur").revisions.first().changed_fields == ["quote"]
    call_command("load_cards", str(path))
    assert "0 created, 0 updated, 2 unchanged" in capsys.readouterr().out


def test_load_cards_refuses_an_invalid_file_and_writes_nothing(db, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{"code": "fine-land", "title": "Fine", "type": "land", "grail": 1},
                                {"code": "bad", "title": "Bad", "type": "knight", "grail": 9}]))
    with pytest.raises(CommandError, match="bad:"):
        call_command("load_cards", str(path))
    assert not Card.objects.filter(code="fine-land").exists()


def test_an_unwritten_blank_can_sit_in_a_playable_deck(starter_user):
    deck = starter_user.decks.first()
    blank = services.wyo_blank_code()
    cards = {**deck.cards, blank: 1}
    assert selectors.deck_analysis(user=starter_user, cards=cards)["valid"]
    services.deck_save(user=starter_user, deck=deck, name=deck.name, cards=cards)


def test_a_deck_hands_the_engine_one_valid_card_dict_per_copy(starter_user):
    deck = starter_user.decks.first()
    cards = selectors.deck_card_dicts(deck=deck)
    assert len(cards) == deck.size
    assert cardformat.deck_errors(cards) == []
