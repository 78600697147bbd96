"""Match.state_fixed: the parts of a state its rules keep fixed after set-up, stored once
instead of with every move (games/state_storage.py). Existing rows keep their whole state in
``state`` (a key there wins when the two are joined) and are split by their next write."""
import games.fields
from django.db import migrations


def compress_with_lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cur:
        cur.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        row = cur.fetchone()
        if row and row[0]:
            cur.execute("ALTER TABLE games_match ALTER COLUMN state_fixed SET COMPRESSION lz4")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_match_state_json'),
    ]

    operations = [
        migrations.AlterField(
            model_name='match',
            name='state',
            field=games.fields.MatchStateField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='state_fixed',
            field=games.fields.StateField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(compress_with_lz4, migrations.RunPython.noop),
    ]
