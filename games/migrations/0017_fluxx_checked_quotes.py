"""Monty Python Fluxx games stored before quotes were judged by the other players had each
quote checked by the engine for a word of the card's name: their setup options say so from
now on ("quotes": "checked"), so that they replay (games/table/replay.py) as they were played.
New games get "quotes": "judged" when they start (games/kinds/fluxx/__init__.py). A legacy
deck's game needs no mark (setup reads it as checked); states are left as they are: a state
without "quotes" checks its quotes (games/rules/fluxx/free_actions.py)."""
from django.db import migrations

FLUXX, LEGACY = "fluxx", "reconstructed-2026-11"


def mark_checked_quotes(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    started = Match.objects.filter(kind=FLUXX, setup_options__has_key="deck").exclude(setup_options__deck=LEGACY)
    for match in started.exclude(setup_options__has_key="quotes").only("pk", "setup_options").iterator():
        match.setup_options = {**match.setup_options, "quotes": "checked"}
        match.save(update_fields=["setup_options"])


def unmark_checked_quotes(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.filter(kind=FLUXX, setup_options__quotes="checked").only("pk", "setup_options").iterator():
        match.setup_options = {k: v for k, v in match.setup_options.items() if k != "quotes"}
        match.save(update_fields=["setup_options"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0016_match_visits'),
    ]

    operations = [
        migrations.RunPython(mark_checked_quotes, unmark_checked_quotes),
    ]
