from django.core.management.base import BaseCommand, CommandError

from games.models import Match
from games.table.replay import replay_check


class Command(BaseCommand):
    help = "Replay every stored game from its seed and move log and report any mismatch with its snapshot."

    def add_arguments(self, parser):
        parser.add_argument("--match", type=int, help="Check one game only.")

    def handle(self, *args, match=None, **options):
        matches = Match.objects.exclude(state__isnull=True).order_by("pk")
        if match:
            matches = matches.filter(pk=match)
        checked = bad = 0
        for m in matches.iterator():
            checked += 1
            problem = replay_check(m)
            if problem:
                bad += 1
                self.stdout.write(f"game {m.pk} ({m.kind}): {problem}")
        self.stdout.write(f"{checked} game(s) replayed, {bad} mismatch(es).")
        if bad:
            raise CommandError(f"{bad} game(s) do not replay to their snapshot.")
