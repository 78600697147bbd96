"""Which usernames are bots, for showing them as bots wherever a name is shown, without a
query per name or per page: the list is kept in the shared cache, rewritten from the database
whenever a profile's bot mark may have changed (``signals``, the admin's action), and each
process reads it at most every ``MEMO_SECONDS``. Bots are few, so the list is small. After a
cache flush the marks are back with the next change (the profile page reads the database)."""
from __future__ import annotations

import logging
import time

from django.core.cache import cache

from grailsite.accounts.models import Profile

log = logging.getLogger(__name__)

KEY = "accounts:bot-names"
MEMO_SECONDS = 30.0
_memo: tuple[float, frozenset[str]] = (0.0, frozenset())


def refresh() -> None:
    """Write the list from the database (one query)."""
    global _memo
    names = sorted(Profile.objects.filter(is_bot=True).values_list("user__username", flat=True))
    try:
        cache.set(KEY, names, None)
    except Exception:  # noqa: BLE001 - a cache down costs the badges, nothing else
        log.warning("could not keep the list of bots", exc_info=True)
    _memo = (time.monotonic(), frozenset(names))


def names() -> frozenset[str]:
    global _memo
    at, known = _memo
    if time.monotonic() - at < MEMO_SECONDS:
        return known
    try:
        known = frozenset(cache.get(KEY) or ())
    except Exception:  # noqa: BLE001 - as above: no badges for a moment
        pass
    _memo = (time.monotonic(), known)
    return known


def is_bot_name(name) -> bool:
    return bool(name) and str(name) in names()
