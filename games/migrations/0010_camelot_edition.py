"""Camelot games stored before the rules had editions were played under edition 1: stamp it
into their setup options, so they replay as they were played (a game set up without an
edition gets the current one; games/rules/camelot/editions.py)."""
from django.db import migrations


def stamp_first_edition(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    # Started games only: an open table is set up (and stamped) when it starts. A started
    # game without setup options replayed from {} (games/table/replay.py), so it gets just the edition.
    for match in Match.objects.filter(kind="camelot", started_at__isnull=False).only("id", "setup_options"):
        options = match.setup_options if isinstance(match.setup_options, dict) else {}
        if "edition" not in options:
            match.setup_options = {**options, "edition": 1}
            match.save(update_fields=["setup_options"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_seat_computer_due"),
    ]

    operations = [
        migrations.RunPython(stamp_first_edition, migrations.RunPython.noop),
    ]
