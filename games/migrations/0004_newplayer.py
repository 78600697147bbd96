from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_seat_situation"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="spectator_chat",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="chatmessage",
            name="spectators",
            field=models.BooleanField(default=False),
        ),
    ]
