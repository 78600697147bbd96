"""Create or update cards from a JSON list (the starter set by default); safe to run again."""
import json

from django.core.management.base import BaseCommand, CommandError

from decks import cardformat, services


class Command(BaseCommand):
    help = "Idempotent upsert of cards by code from a JSON file (default: the starter set)."

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", help="JSON file holding a list of card objects")

    def handle(self, *args, path=None, **options):
        if path:
            with open(path, encoding="utf-8") as fh:
                cards = json.load(fh)
        else:
            cards = cardformat.starter_set()
        if not isinstance(cards, list):
            raise CommandError("The file must hold a JSON list of cards.")
        try:
            report = services.cards_upsert(cards=cards, source="load_cards", note=path or "starter set")
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"{len(report['created'])} created, {len(report['updated'])} updated, "
                          f"{report['unchanged']} unchanged.")
