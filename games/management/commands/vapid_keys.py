"""Make a VAPID key pair for Web Push (games/inbox/push.py).

    manage.py vapid_keys            print a new pair, as environment lines for production
    manage.py vapid_keys --ensure   write the embedded default's key file if it has none (make run)
"""
import os

from django.conf import settings
from django.core.management.base import BaseCommand

from games.inbox import push


class Command(BaseCommand):
    help = "Make a VAPID key pair for push notifications."

    def add_arguments(self, parser):
        parser.add_argument("--ensure", action="store_true",
                            help=f"write a private key to VAPID_KEY_FILE ({settings.VAPID_KEY_FILE}) unless "
                                 "one is set or that file exists")

    def handle(self, *args, ensure, **options):
        if not ensure:
            private = push.generate_private_key()
            self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
            self.stdout.write(f"# public key (browsers' applicationServerKey): {push._vapid_public(private)}")
            return
        if settings.VAPID_PRIVATE_KEY:
            self.stdout.write("Push: a VAPID key is set.")
            return
        path = settings.VAPID_KEY_FILE
        # Readable by its owner only: whoever holds it can push in the site's name.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(push.generate_private_key() + "\n")
        self.stdout.write(f"Push: a new VAPID key written to {path}.")
