"""PostgreSQL indexes for card search: trigram GIN on the text column (LIKE '%word%'),
GIN on tags (JSON containment). Other databases (the embedded SQLite default) skip them;
search still works there, only without these indexes."""
from django.db import migrations

FORWARD = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS decks_card_search_text_trgm ON decks_card USING gin (search_text gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS decks_card_tags_gin ON decks_card USING gin (tags jsonb_path_ops)",
]
BACKWARD = [
    "DROP INDEX IF EXISTS decks_card_search_text_trgm",
    "DROP INDEX IF EXISTS decks_card_tags_gin",
]


def run(statements):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in statements:
            schema_editor.execute(sql)
    return apply


class Migration(migrations.Migration):
    dependencies = [("decks", "0002_load_starter_set")]
    operations = [migrations.RunPython(run(FORWARD), run(BACKWARD))]
