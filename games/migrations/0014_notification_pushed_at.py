# Push notifications: each notice waits for the push outbox until pushed_at is set.

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0013_fluxx_legacy_deck'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='notification',
            name='pushed_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        # Notices from before push existed are not news: none is pushed now.
        migrations.RunSQL("UPDATE games_notification SET pushed_at = created_at", migrations.RunSQL.noop),
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=[('your_turn', 'Your turn'), ('deadline_near', 'Deadline near'), ('invited', 'Invitation'), ('game_over', 'Game over'), ('timeout', 'Timed out'), ('chat', 'Chat'), ('joined', 'A player joined')], max_length=16),
        ),
        migrations.AddIndex(
            model_name='notification',
            index=models.Index(condition=models.Q(('pushed_at__isnull', True), ('read_at__isnull', True)), fields=['created_at'], name='notif_push_queue'),
        ),
    ]
