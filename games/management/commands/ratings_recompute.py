from django.core.management.base import BaseCommand, CommandError

from games.players import ratings


class Command(BaseCommand):
    help = ("Rebuild every rating from the stored finished games, in the order they were rated, and compare "
            "with the stored ratings (as ledger_check does for collections). --write stores the rebuild.")

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="Store the rebuilt ratings in place of the stored ones.")

    def handle(self, *args, write=False, **options):
        rebuilt = ratings.recompute()
        problems = ratings.differences(rebuilt)
        for line in problems:
            self.stdout.write(line)
        self.stdout.write(f"{rebuilt.games} rated game(s) replayed, {len(rebuilt.ratings)} rating(s), "
                          f"{len(problems)} difference(s){' (first 50)' if len(problems) == 50 else ''}.")
        if write:
            written = ratings.rebuild(rebuilt)
            self.stdout.write(f"{written} rating(s) written.")
            return
        if problems:
            raise CommandError("The stored ratings differ from what the games give.")
