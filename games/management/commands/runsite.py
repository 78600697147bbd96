from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from games import embedded_worker


class Command(BaseCommand):
    help = "Serve the site (HTTP and websockets) with the in-process timer worker when Celery is not in use."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")

    def handle(self, *args, addrport, **options):
        if not settings.TIMERS_USE_CELERY:
            embedded_worker.start()
            self.stdout.write("Timers: in-process sweep every %ss." % settings.EMBEDDED_SWEEP_SECONDS)
        call_command("runserver", addrport, use_reloader=False)
