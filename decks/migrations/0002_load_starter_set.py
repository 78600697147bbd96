"""Put the starter card set into every fresh database (the same loader as `load_cards`)."""
from django.db import migrations


def load_starter_set(apps, schema_editor):
    from decks import cardformat, loader
    loader.upsert_cards(
        cardformat.starter_set(),
        Card=apps.get_model("decks", "Card"),
        CardRevision=apps.get_model("decks", "CardRevision"),
        source="migration",
        note="starter set",
    )


class Migration(migrations.Migration):
    dependencies = [("decks", "0001_initial")]
    # Reversing leaves the cards in place: later rows (holdings, ledger) refer to them.
    operations = [migrations.RunPython(load_starter_set, migrations.RunPython.noop)]
