from django.db import migrations, models
from django.db.models import Exists, OuterRef


def mark_walk_outs(apps, schema_editor):
    """Games played before the mark keep their record: a seat marked out of a game that went
    on (services._mark_out's note in its choice) whose own resignation is in the log walked
    out on the others."""
    Seat = apps.get_model("games", "Seat")
    MoveRecord = apps.get_model("games", "MoveRecord")
    resigned = MoveRecord.objects.filter(match=OuterRef("match"), seat=OuterRef("index"), move__type="resign")
    Seat.objects.filter(user__isnull=False, choice__has_key="out_of_game").filter(Exists(resigned)).update(
        walked_out=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0021_chat_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="min_reliability",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="walked_out",
            field=models.BooleanField(default=False),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(condition=models.Q(("min_reliability__lte", 100)),
                                              name="match_min_reliability_range"),
        ),
        migrations.RunPython(mark_walk_outs, migrations.RunPython.noop),
    ]
