from django.db import migrations, models


class Migration(migrations.Migration):
    """"Ante returned (game abandoned)" was written for games that had a winner too (a player
    who searched alone and gave up, 15.3): the reason is "Ante returned", and the entry's
    note says how the game ended."""

    dependencies = [
        ('decks', '0005_deck_public'),
    ]

    operations = [
        migrations.AlterField(
            model_name='ledgerentry',
            name='reason',
            field=models.CharField(choices=[('starter_grant', 'Starter grant'), ('admin_grant', 'Admin grant'), ('ante_held', 'Staked as ante'), ('ante_released', 'Ante returned'), ('ante_returned', 'Own ante returned (game won)'), ('ante_won', 'Ante won'), ('ante_lost', 'Ante lost'), ('wyo_written', 'Write Yer Own written')], max_length=20),
        ),
    ]
