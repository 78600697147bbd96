"""Committed shuffles (docs/verify.md): a game's secret, its commitment, the rules edition
committed to and the record format on the match, each seat's contribution on the seat. The
games stored before keep their seed and get none of these (``record_format`` 0: "no
commitment"); a committed game's seed is set when it is set up, so the column may be empty
until then."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_referee'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='commitment',
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name='match',
            name='record_format',
            field=models.PositiveSmallIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='match',
            name='rules_edition',
            field=models.CharField(blank=True, editable=False, max_length=32),
        ),
        migrations.AddField(
            model_name='match',
            name='secret',
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name='seat',
            name='contribution',
            field=models.CharField(blank=True, editable=False, max_length=32),
        ),
        migrations.AlterField(
            model_name='match',
            name='seed',
            field=models.BigIntegerField(blank=True, null=True),
        ),
    ]
