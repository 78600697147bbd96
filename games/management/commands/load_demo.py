"""Demo data for `make run`: two players and a game between them. Idempotent."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games import services
from games.models import Match

DEMO_PASSWORD = "grail-demo-1"
DEMO_PLAYERS = ("arthur", "bedevere")


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
            match = services.match_create(creator=users[0], kind="duel", num_seats=2, invite=[users[1].username],
                                          clock_kind="days", clock_amount=3, title="Demo duel")
            services.match_join(match_id=match.pk, user=users[1])
        self.stdout.write(f"Demo players: {', '.join(DEMO_PLAYERS)} and admin, password {DEMO_PASSWORD}")
