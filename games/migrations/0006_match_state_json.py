"""Match.state becomes a json column compressed with lz4 on PostgreSQL (games/fields.py says
why); on other databases nothing changes."""
import games.fields
from django.db import migrations


def compress_with_lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cur:
        # lz4 is there on PostgreSQL 14+ built with it (Debian's and the official images are);
        # elsewhere the column keeps the server's default compression.
        cur.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        row = cur.fetchone()
        if row and row[0]:
            cur.execute("ALTER TABLE games_match ALTER COLUMN state SET COMPRESSION lz4")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_computer_players'),
    ]

    operations = [
        migrations.AlterField(
            model_name='match',
            name='state',
            field=games.fields.StateField(blank=True, null=True),
        ),
        migrations.RunPython(compress_with_lz4, migrations.RunPython.noop),
    ]
