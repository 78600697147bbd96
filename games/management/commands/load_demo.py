"""Demo data for `make run`: four players, an admin, and games between them. Idempotent."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games.table import services
from games.models import Match

DEMO_PASSWORD = "grail-demo-1"
DEMO_PLAYERS = ("arthur", "bedevere", "galahad", "lancelot")


class Command(BaseCommand):
    help = "Create the demo players (password %s) and a demo game." % DEMO_PASSWORD

    def handle(self, *args, **options):
        User = get_user_model()
        users = []
        for name in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(username=name, defaults={"email": f"{name}@example.com"})
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users.append(user)
        admin, created = User.objects.get_or_create(username="admin", defaults={"is_staff": True, "is_superuser": True})
        if created:
            admin.set_password(DEMO_PASSWORD)
            admin.save()
        if not Match.objects.filter(creator=users[0]).exists():
            self._demo_game(users[:2], "duel", "Demo duel")
            self._demo_game(users[:3], "cupquest", "Demo Cup Quest")
            # Each demo player brings the first of the starter decks every new account gets.
            self._demo_game(users[:2], "ccg", "Demo quest for the Grail",
                            choose=lambda user: {"deck": user.decks.order_by("pk").first().pk})
        # Added after the first three: a database loaded before Fluxx existed gets it on the next run.
        if not Match.objects.filter(creator=users[0], kind="fluxx").exists():
            self._demo_game(users[:3], "fluxx", "Demo Fluxx (newcomers welcome)")
        # Camelot, four players on a correspondence clock (a live table would time out unwatched).
        if not Match.objects.filter(creator=users[0], kind="camelot").exists():
            self._demo_game(users, "camelot", "Demo Camelot: two turns at once")
        self.stdout.write(f"Demo players: {', '.join(DEMO_PLAYERS)} and admin, password {DEMO_PASSWORD}")

    def _demo_game(self, users, kind, title, choose=lambda user: None):
        match = services.match_create(creator=users[0], kind=kind, num_seats=len(users),
                                      invite=[u.username for u in users[1:]], clock_kind="days", clock_amount=3,
                                      title=title, creator_choice=choose(users[0]))
        for user in users[1:]:
            services.match_join(match_id=match.pk, user=user, choice=choose(user))
