"""Monty Python Fluxx games stored before the printed deck (games/rules/fluxx/cards.py) were
dealt from the reconstructed one: their setup options say so from now on, so that they
replay (games/table/replay.py) from the deck they were dealt. New games get the current deck in
their setup options when they start (games/kinds/fluxx/__init__.py). Their states are left
as they are: a state without "deck" is a legacy game's (cards.deck_of)."""
from django.db import migrations

FLUXX, LEGACY = "fluxx", "reconstructed-2026-11"


def mark_legacy_games(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    stored = Match.objects.filter(kind=FLUXX).exclude(setup_options__has_key="deck")
    for match in stored.exclude(state__isnull=True, setup_options__isnull=True).only("pk", "setup_options").iterator():
        match.setup_options = {**(match.setup_options or {}), "deck": LEGACY}
        match.save(update_fields=["setup_options"])


def unmark_legacy_games(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.filter(kind=FLUXX, setup_options__deck=LEGACY).only("pk", "setup_options").iterator():
        match.setup_options = {k: v for k, v in match.setup_options.items() if k != "deck"}
        match.save(update_fields=["setup_options"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_ratings'),
    ]

    operations = [
        migrations.RunPython(mark_legacy_games, unmark_legacy_games),
    ]
