"""ChatMessage.seq: each line's number in its match's channel (players' or spectators'), so a
page that missed a pushed line notices the gap and fetches it (so chat never
drops a line); Notification kind "chat" (one unread per game for players away from it)."""
from django.db import migrations, models


def number_existing_lines(apps, schema_editor):
    ChatMessage = apps.get_model("games", "ChatMessage")
    counters: dict = {}
    for line in ChatMessage.objects.order_by("id").only("id", "match_id", "spectators").iterator():
        channel = (line.match_id, line.spectators)
        counters[channel] = counters.get(channel, 0) + 1
        ChatMessage.objects.filter(pk=line.pk).update(seq=counters[channel])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_camelot_edition'),
    ]

    operations = [
        migrations.AddField(
            model_name='chatmessage',
            name='seq',
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.RunPython(number_existing_lines, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='chatmessage',
            name='seq',
            field=models.PositiveIntegerField(),
        ),
        migrations.AddConstraint(
            model_name='chatmessage',
            constraint=models.UniqueConstraint(fields=('match', 'spectators', 'seq'), name='chat_seq_unique'),
        ),
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=[('your_turn', 'Your turn'), ('deadline_near', 'Deadline near'), ('invited', 'Invitation'), ('game_over', 'Game over'), ('timeout', 'Timed out'), ('chat', 'Chat')], max_length=16),
        ),
    ]
