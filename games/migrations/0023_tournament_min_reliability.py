from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0022_trust"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="min_reliability",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(condition=models.Q(("min_reliability__lte", 100)),
                                              name="tournament_min_reliability_range"),
        ),
    ]
