from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.players import ratings


class Command(BaseCommand):
    help = ("Replay every finished rated game, in the order they finished, with today's rules (which games "
            "count, the daily cap of a pair, the ranks of those who left) and compare with the stored ratings, "
            "as ledger_check does for collections. --write stores the replay and says what it changed; a second "
            "run changes nothing (the deploy runs it, docs/deploy.md).")

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true",
                            help="Store the replayed ratings, rating changes and not-rated notes in place of the "
                                 "stored ones.")

    def handle(self, *args, write=False, **options):
        if write:
            rebuilt, found = ratings.rebuild()
        else:
            rebuilt = ratings.recompute()
            found = ratings.report(rebuilt)
        self._say(found)
        self.stdout.write(f"{rebuilt.games} rated game(s) replayed, {len(rebuilt.not_counted)} not counted, "
                          f"{len(rebuilt.ratings)} rating(s).")
        if found.empty:
            self.stdout.write("The stored ratings are what the games give: nothing to change.")
        elif write:
            self.stdout.write(f"Written: {len(found.moved)} rating(s) moved, {len(found.dropped)} game(s) no longer "
                              f"count, {len(found.added)} count now.")
        else:
            raise CommandError("The stored ratings differ from what the games give (--write stores the replay).")

    def _say(self, found: ratings.Report) -> None:
        """What differs, in names: who moved and by how much, which games no longer count and why."""
        names = dict(get_user_model().objects.filter(pk__in={u for u, *_ in found.moved})
                     .values_list("pk", "username"))
        for user_id, kind, before, after in found.moved:
            self.stdout.write(f"{names.get(user_id, user_id)} ({kind}): {before:.0f} -> {after:.0f} "
                              f"({after - before:+.1f})")
        for match_id, why in found.dropped:
            self.stdout.write(f"game {match_id} no longer counts: {why}")
        for match_id in found.added:
            self.stdout.write(f"game {match_id} counts now")
        if found.changes_differ:
            self.stdout.write(f"{found.changes_differ} stored rating change(s) differ from the replay")
        if found.notes_differ:
            self.stdout.write(f"{found.notes_differ} game(s) say wrongly whether they were rated")
