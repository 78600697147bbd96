"""Drive the embedded default (SQLite, in-memory channel layer, in-process timer thread) with
concurrent moves, chat lines and timers, the way a busy table does, and report every failure.

Run as its own process (``python -m tests.newplayer.embedded_load``) with DATABASE_URL naming
a SQLite file and no REDIS_URL: the settings then are exactly those of ``make run``. Prints
one JSON line: {"failures": [...], "finished": n, "matches": n, "timeouts": n, "chats": n}.
"""
from __future__ import annotations

import json
import logging
import os
import threading
import time
from datetime import timedelta

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "grailsite.settings")
django.setup()

from django.conf import settings  # noqa: E402  (settings need django.setup() first)
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import embedded_worker  # noqa: E402
from games.table import services
from games.models import Match, MoveRecord, Seat  # noqa: E402

MATCHES = 4
ROUNDS = 6
CHAT_LINES = 25
DEADLINE_MATCHES = 2  # these matches also have their clocks run out under the players
TIME_LIMIT = 120.0


class Failures(logging.Handler):
    """Collects every error the worker or the request handler logs."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record):
        self.seen.append(f"{record.name}: {record.getMessage()}")


def main() -> dict:
    assert settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"), "run on the embedded SQLite default"
    assert not settings.TIMERS_USE_CELERY, "run without REDIS_URL: the embedded timer thread fires timers"
    call_command("migrate", verbosity=0)
    users = [get_user_model().objects.create_user(f"knight{i}", password="a-long-test-password-42") for i in range(2)]
    matches = []
    for _ in range(MATCHES):
        match = services.match_create(creator=users[0], kind="duel", num_seats=2, invite=[users[1].username],
                                      options={"rounds": ROUNDS}, clock_kind="minutes", clock_amount=5)
        services.match_join(match_id=match.pk, user=users[1])
        # Games under way: a deadline the clock thief makes fall due is a loss on time, a move
        # the timer thread writes (before anyone's first move it would abort the game instead).
        Seat.objects.filter(match=match).update(own_moves=1)
        matches.append(match.pk)
    connection.close()

    logged = Failures()
    for name in ("games", "django.request", "decks"):
        logging.getLogger(name).addHandler(logged)
    failures: list[str] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + TIME_LIMIT

    def fail(text):
        with lock:
            failures.append(text)

    def request(client, method, url, body=None):
        try:
            if method == "GET":
                response = client.get(url)
            else:
                response = client.post(url, data=json.dumps(body), content_type="application/json")
        except Exception as exc:  # noqa: BLE001 - a view that raised is what a 500 is
            fail(f"{method} {url}: {type(exc).__name__}: {exc}")
            return None
        if response.status_code >= 500:
            fail(f"{method} {url}: {response.status_code} {response.content[:200]!r}")
            return None
        return response

    def player(match_id, user):
        client = Client()
        client.force_login(user)
        try:
            while time.monotonic() < stop_at:
                response = request(client, "GET", f"/api/matches/{match_id}/")
                if response is None:
                    return
                data = response.json()
                if data["status"] != "active":
                    return
                if data["legal_moves"]:
                    request(client, "POST", f"/api/matches/{match_id}/moves/",
                            {"move": data["legal_moves"][0], "version": data["version"]})
                else:
                    time.sleep(0.005)
        finally:
            connection.close()

    def chatter(match_id, user):
        client = Client()
        client.force_login(user)
        try:
            for n in range(CHAT_LINES):
                request(client, "POST", f"/api/matches/{match_id}/chat/", {"text": f"Ni! ({n})"})
        finally:
            connection.close()

    def clock_thief(match_id):
        """Makes deadlines fall due while the players move, so the timer thread writes too."""
        try:
            while time.monotonic() < stop_at and Match.objects.filter(pk=match_id, status="active").exists():
                Seat.objects.filter(match_id=match_id, deadline__isnull=False).update(
                    deadline=timezone.now() - timedelta(seconds=1))
                time.sleep(0.01)
        except Exception as exc:  # noqa: BLE001 - reported, not raised: the thread is ours
            fail(f"clock thief: {type(exc).__name__}: {exc}")
        finally:
            connection.close()

    stop_worker = embedded_worker.start(interval=0.01)
    threads = []
    for i, match_id in enumerate(matches):
        threads += [threading.Thread(target=player, args=(match_id, u)) for u in users]
        threads.append(threading.Thread(target=chatter, args=(match_id, users[i % 2])))
        if i < DEADLINE_MATCHES:
            threads.append(threading.Thread(target=clock_thief, args=(match_id,)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIME_LIMIT + 10)
    # Let the worker finish any round it started, then look at what it left.
    time.sleep(0.2)
    alive = {t.name for t in threading.enumerate() if t.is_alive()}
    worker_alive = all(f"grailsite-{lane}" in alive for lane in embedded_worker.LANES)
    stop_worker.set()
    finished = Match.objects.filter(pk__in=matches, status="finished").count()
    return {"failures": failures + logged.seen, "worker_alive": worker_alive, "finished": finished,
            "matches": len(matches), "timeouts": MoveRecord.objects.filter(by_timeout=True).count(),
            "chats": sum(Match.objects.get(pk=m).chat.count() for m in matches)}


if __name__ == "__main__":
    print(json.dumps(main()))
