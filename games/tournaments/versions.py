"""A tournament's or ladder's version: bumped by every change its page shows, and once the
change commits, told to the tournament's live group (games/live/consumers.py forwards it to
each open page, which reloads what it shows). The message carries only the number."""
from __future__ import annotations

import logging
from functools import partial

from django.db import transaction
from django.db.models import F

from games.live import publisher
from games.models import Ladder, Tournament

log = logging.getLogger(__name__)


def bump(tournament: Tournament) -> None:
    """The tournament changed (the caller holds its row's lock, or has just created it)."""
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    tournament.version += 1
    transaction.on_commit(partial(_publish, tournament.pk, tournament.version))


def bump_ladder(ladder: Ladder) -> None:
    Ladder.objects.filter(pk=ladder.pk).update(version=F("version") + 1)
    ladder.version += 1


def _publish(tournament_id: int, version: int) -> None:
    try:
        publisher.group_send(publisher.tournament_group(tournament_id),
                             {"type": "tournament.update", "tournament": tournament_id, "version": version})
    except Exception:  # a page that missed it catches up on its next reconnect or reload
        log.warning("could not tell tournament %s's pages of version %s", tournament_id, version, exc_info=True)
