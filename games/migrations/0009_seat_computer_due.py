"""Seat.computer_due: when a computer player's move is due, counted from when its own decision
became due, instead of from the match's last change (Match.updated_at),
which every other seat's move pushed back. Indexed for the sweep, in place of the index the
old question ("computer seats that owe something") used."""
from django.db import migrations, models
from django.utils import timezone


def due_now(apps, schema_editor):
    # Computer players owing a move when this runs have waited at least since the last
    # change: the first sweep makes their moves.
    Seat = apps.get_model("games", "Seat")
    (Seat.objects.filter(match__status="active").exclude(computer="").exclude(waiting_for="")
     .update(computer_due=timezone.now()))


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_seat_left_by'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='computer_due',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RemoveIndex(
            model_name='seat',
            name='seat_computer_owes',
        ),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(condition=models.Q(('computer_due__isnull', False)), fields=['computer_due'], name='seat_computer_due'),
        ),
        migrations.RunPython(due_now, migrations.RunPython.noop),
    ]
