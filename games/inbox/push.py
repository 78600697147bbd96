"""Web Push: a phone that buzzes when it is your turn.

The outbox is the notifications themselves. Every on-site notice (your turn, a deadline,
game over, an invitation, a chat line, someone joining) is written in the change's own
transaction with ``pushed_at`` NULL, and refreshing an unread one sets it back to NULL
(games/table/persistence.py). So a push can never be lost between a commit and a worker, and a
notice the person already read on the site (a chat line reaching their open page) is never
pushed.

1. On commit the change hands its notices to the side lane (``flush_on_commit``): one sweep
   ``PUSH_BATCH_SECONDS`` later, asked for at most once a window by each process, which
   flushes everyone whose notices waited that long: a burst of moves sends a handful of task
   messages, and ten games turning to one person at once make one push.
2. ``flush`` claims the person's waiting notices (row locks, skip-locked: a notice goes into
   one push only), drops those they did not choose or cannot receive (no subscription, no
   VAPID key), holds them whole if it is their quiet hours (``PushPreferences.held_until``),
   and otherwise makes one payload of them and one ``PushDelivery`` per subscription, in the
   same transaction.
3. ``deliver`` claims a delivery with a conditional update (a lease), sends it with
   pywebpush (VAPID-signed, aes128gcm-encrypted for that browser's keys), and deletes it;
   a subscription the push service says is gone (404, 410) is deleted; any other failure
   puts the delivery back with a doubling wait, up to ``MAX_ATTEMPTS``.
4. ``sweep`` (Celery beat every few seconds, or the embedded worker's round) is the
   guarantee: it flushes whoever has notices waiting longer than the window (a lost task,
   quiet hours over) and sends every delivery that is due (retries, a dead worker's lease).

None of it runs on the move path: a move only writes its notices and, after commit, at most
one small task message a window from each process (in the embedded default, nothing: the
side thread sweeps). It all runs on the side lane (settings.LANE_QUEUES), never in front of
a clock.
"""
from __future__ import annotations

import base64
import hmac
import json
import logging
import threading
import time
from collections import Counter
from datetime import datetime, timedelta, timezone as dt_timezone
from functools import lru_cache, partial
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from games.table import unit_of_work
from grailsite.errors import NotFound, ServiceError
from games.models import Notification
from grailsite import metrics, outbound
from grailsite.accounts.models import PushDelivery, PushEvent, PushPreferences, PushSubscription

log = logging.getLogger(__name__)

# Which push event each kind of notice is (what a person ticks on the settings page).
KIND_EVENT = {
    Notification.Kind.YOUR_TURN: PushEvent.YOUR_TURN,
    Notification.Kind.DEADLINE_NEAR: PushEvent.DEADLINE,
    Notification.Kind.TIMEOUT: PushEvent.DEADLINE,
    Notification.Kind.GAME_OVER: PushEvent.GAME_OVER,
    Notification.Kind.INVITED: PushEvent.INVITATION,
    Notification.Kind.CHAT: PushEvent.CHAT,
    Notification.Kind.JOINED: PushEvent.JOINED,
    Notification.Kind.TOURNAMENT: PushEvent.TOURNAMENT,
}
TITLES = {
    PushEvent.YOUR_TURN: "Your move",
    PushEvent.DEADLINE: "Your clock is running",
    PushEvent.GAME_OVER: "Game over",
    PushEvent.INVITATION: "You are invited to a game",
    PushEvent.CHAT: "New chat in your game",
    PushEvent.JOINED: "A player joined your game",
    PushEvent.TOURNAMENT: "Tournament news",
}
# Which notice a push of several from one game opens the game for first.
URGENCY = [PushEvent.YOUR_TURN, PushEvent.DEADLINE, PushEvent.INVITATION, PushEvent.TOURNAMENT, PushEvent.GAME_OVER,
           PushEvent.JOINED, PushEvent.CHAT]

SWEEP_TASK = "games.tasks.push_sweep"   # named, not imported: the tasks import the services
# A sweep asked for after a change may wait this long past its time in a busy side lane
# before it is dropped as stale (the beat's next one takes its work).
TIMERS_SWEEP_GRACE = 30.0
MAX_NOTICES = 100          # in one push; more wait for the next
MAX_ATTEMPTS = 6           # a delivery's tries: 5 s, 10 s, 20 s, 40 s, 80 s apart, then dropped
FIRST_RETRY = timedelta(seconds=5)
MAX_PAUSE = timedelta(days=1)  # the longest an endpoint that keeps failing is left alone
LEASE = timedelta(seconds=60)  # a delivery claimed by a worker that died is tried again after this
MAX_SUBSCRIPTIONS = 20     # per person: the oldest goes when a 21st browser subscribes
BODY_LIMIT = 1000          # characters of a push's text (the push services take about 4 KB)


# --- keys --------------------------------------------------------------------------------

def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@lru_cache(maxsize=4)
def _vapid_for(private_key: str):
    from py_vapid import Vapid  # imported when first needed: pywebpush brings aiohttp and requests

    return Vapid.from_string(private_key)


def vapid():
    """The site's VAPID key (settings.VAPID_PRIVATE_KEY), or None: push is then off."""
    key = settings.VAPID_PRIVATE_KEY
    return _vapid_for(key) if key else None


def public_key() -> str:
    """The VAPID public key as browsers want it (``applicationServerKey``): the uncompressed
    P-256 point, base64url. Empty when push is off."""
    key = settings.VAPID_PRIVATE_KEY
    return _vapid_public(key) if key else ""


def _vapid_public(private_key: str) -> str:
    return b64url(_vapid_for(private_key).public_key.public_bytes(serialization.Encoding.X962,
                                                                  serialization.PublicFormat.UncompressedPoint))


def generate_private_key() -> str:
    """A new VAPID private key: the raw 32-byte scalar, base64url (what VAPID_PRIVATE_KEY holds)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


# --- subscriptions -----------------------------------------------------------------------

def endpoint_policy() -> outbound.Policy:
    """Which push endpoints the site calls (grailsite/outbound.py): https on
    PUSH_ENDPOINT_PORTS, hosts among PUSH_ENDPOINT_HOSTS (the browsers' push services by
    default; "*" any public host), every address a host resolves to public.
    PUSH_ALLOW_LOOPBACK lets the tests' and benches' loopback push service in, and nothing
    else."""
    hosts = tuple(h for h in settings.PUSH_ENDPOINT_HOSTS if h.strip())
    return outbound.Policy(hosts=() if "*" in hosts else hosts, ports=tuple(settings.PUSH_ENDPOINT_PORTS),
                           allow_loopback=settings.PUSH_ALLOW_LOOPBACK)


def _endpoint_refusal(endpoint: str) -> str | None:
    """Why the server should not POST to this address, or None: anything but a push
    service's public https address would let a person make the site call into places it
    should not (this machine, its private network)."""
    try:
        outbound.check(endpoint, endpoint_policy())
    except outbound.Refused as exc:
        return f"The push endpoint is refused: {exc.message}"
    return None


def _check_keys(p256dh: str, auth: str) -> None:
    try:
        point = b64url_decode(p256dh)
        secret = b64url_decode(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, TypeError):
        raise ServiceError("The subscription's p256dh key is not a P-256 public key.") from None
    if len(point) != 65 or len(secret) != 16:
        raise ServiceError("The subscription's keys have the wrong length (p256dh 65 bytes, auth 16).")


def _check_subscription(endpoint: str, p256dh: str, auth: str) -> None:
    """What a browser's subscription must be before it is stored: push set up here, an
    endpoint the site may call, and keys that are a P-256 point and a 16-byte secret."""
    if not settings.VAPID_PRIVATE_KEY:
        raise ServiceError("Push notifications are not set up on this site.")
    _check_keys(p256dh, auth)  # before the endpoint: its check may wait on DNS
    refusal = _endpoint_refusal(endpoint)
    if refusal:
        raise ServiceError(refusal)


def subscription_save(*, user, endpoint: str, p256dh: str, auth: str, label: str = "") -> PushSubscription:
    """Turn push on for one browser. An endpoint already known (the same browser subscribing
    again, perhaps signed in as someone else now) is updated and moved to this person."""
    _check_subscription(endpoint, p256dh, auth)
    with transaction.atomic():
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "label": label[:120]})
        extra = list(PushSubscription.objects.filter(user=user).order_by("-created_at", "-id")
                     .values_list("pk", flat=True)[MAX_SUBSCRIPTIONS:])
        if extra:
            PushSubscription.objects.filter(pk__in=extra).delete()
    return subscription


def subscription_renew(*, old_endpoint: str, old_auth: str, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """A push service replaced a browser's subscription (the service worker's
    ``pushsubscriptionchange``): the new one takes the old one's place, for the same person.
    The old endpoint and auth secret are the proof: only that browser and the site hold the
    secret (the push service never sees it), so no session is needed, which the worker has no
    CSRF token for."""
    _check_subscription(endpoint, p256dh, auth)
    with transaction.atomic():
        old = PushSubscription.objects.select_for_update().filter(endpoint=old_endpoint).first()
        if old is None or not hmac.compare_digest(old.auth.encode(), old_auth.encode()):
            raise NotFound("No such push subscription.")
        if endpoint != old_endpoint:
            # The same browser may have subscribed anew through the settings page already.
            PushSubscription.objects.filter(endpoint=endpoint).delete()
        old.endpoint, old.p256dh, old.auth = endpoint, p256dh, auth
        old.save(update_fields=["endpoint", "p256dh", "auth"])
    return old


def subscription_remove(*, user, subscription_id: int) -> None:
    deleted, _ = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    if not deleted:
        raise NotFound("No such push subscription.")


def device_label(user_agent: str) -> str:
    """"Chrome on Android": enough for a person to tell their devices apart in a list."""
    ua = user_agent or ""
    browser = next((name for token, name in (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"),
                                              ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))
                    if token in ua), "A browser")
    system = next((name for token, name in (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
                                             ("Windows", "Windows"), ("Mac OS", "macOS"), ("CrOS", "ChromeOS"),
                                             ("Linux", "Linux")) if token in ua), "")
    return f"{browser} on {system}" if system else browser


# --- after a change ----------------------------------------------------------------------

_nudged_at = float("-inf")  # when this process last asked the side lane for a sweep
_nudge_lock = threading.Lock()


def flush_on_commit(user_ids) -> None:
    """Once the change commits, its notices reach the side lane in a batch: this process asks
    for one sweep a batch window later, unless it asked less than a window ago (that sweep
    has not run yet and takes these notices too: they committed before it runs). So a burst
    of a thousand moves sends a handful of task messages, never one a move or a person, and a
    notice missed by a hair waits for the beat's sweep. Without Celery (the embedded default)
    the side thread sweeps on its round."""
    if not settings.TIMERS_USE_CELERY or not user_ids:
        return
    global _nudged_at
    now = time.monotonic()
    with _nudge_lock:
        if now - _nudged_at < settings.PUSH_BATCH_SECONDS:
            return
        _nudged_at = now
    # A Celery send may wait on the broker: never on an event loop (games/table/unit_of_work.py).
    unit_of_work.on_commit(_nudge, blocking=True)


def _nudge() -> None:
    from grailsite.celery import app

    try:
        app.send_task(SWEEP_TASK, kwargs={"waited": 0}, countdown=settings.PUSH_BATCH_SECONDS,
                      expires=settings.PUSH_BATCH_SECONDS + TIMERS_SWEEP_GRACE)
    except Exception:  # the broker is down: the beat's sweep takes them
        log.warning("could not hand the notices to the side lane", exc_info=True)


def forget_nudges() -> None:
    """The next change asks for a sweep again (tests: each starts with a fresh window)."""
    global _nudged_at
    with _nudge_lock:
        _nudged_at = float("-inf")


# --- flushing: notices into deliveries ----------------------------------------------------

def preferences_of(user_id: int) -> PushPreferences:
    return PushPreferences.objects.filter(user_id=user_id).first() or PushPreferences(user_id=user_id)


def zone_of(preferences: PushPreferences) -> ZoneInfo:
    try:
        return ZoneInfo(preferences.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def quiet_until(preferences: PushPreferences, now: datetime) -> datetime | None:
    """The end of the quiet hours ``now`` falls in, in the person's own time zone, or None."""
    start, end = preferences.quiet_start, preferences.quiet_end
    if start is None or end is None or start == end:
        return None
    local = now.astimezone(zone_of(preferences))
    t = local.time().replace(tzinfo=None)
    quiet = start <= t < end if start < end else (t >= start or t < end)
    if not quiet:
        return None
    until = datetime.combine(local.date(), end, tzinfo=local.tzinfo)
    if until <= local:
        until = datetime.combine(local.date() + timedelta(days=1), end, tzinfo=local.tzinfo)
    return until.astimezone(dt_timezone.utc)


def flush(user_id: int, *, now: datetime | None = None) -> list[int]:
    """Turn this person's waiting notices into one push per subscription (see the module's
    docstring). Returns the new deliveries' ids, due at once."""
    return [d.pk for d in _flush(user_id, now=now or timezone.now(), claim=0)]


def _flush(user_id: int, *, now: datetime, claim: int) -> list[PushDelivery]:
    """``flush``; the first ``claim`` deliveries (to the subscriptions that last worked
    first) are made already claimed by this worker (their first attempt counted, a lease
    ahead), with their subscriptions, to be sent at once without reading them back; the
    rest are due at once, for whoever sends next. A paused endpoint gets none."""
    with transaction.atomic():
        waiting = list(Notification.objects.select_for_update(skip_locked=True)
                       .filter(user_id=user_id, pushed_at__isnull=True, read_at__isnull=True)
                       .order_by("created_at", "id")[:MAX_NOTICES])
        if not waiting:
            return []
        preferences = preferences_of(user_id)
        subscriptions = list(PushSubscription.objects.filter(user_id=user_id).exclude(paused_until__gt=now)
                             .order_by(F("last_success_at").desc(nulls_last=True), "id"))
        chosen = set(preferences.events or ())
        wanted = [n for n in waiting if KIND_EVENT.get(n.kind) in chosen]
        if not subscriptions or vapid() is None:
            wanted = []
        if wanted:
            hold = quiet_until(preferences, now)
            if hold is not None:
                # Quiet hours: the rest are passed over, these wait whole for the morning.
                passed = [n.pk for n in waiting if n not in wanted]
                Notification.objects.filter(pk__in=passed).update(pushed_at=now)
                preferences.held_until = hold
                preferences.save()
                return []
        Notification.objects.filter(pk__in=[n.pk for n in waiting]).update(pushed_at=now)
        if preferences.pk and preferences.held_until is not None:
            PushPreferences.objects.filter(pk=preferences.pk).update(held_until=None)
        if not wanted:
            return []
        payload = payload_for(wanted)
        made = PushDelivery.objects.bulk_create(
            [PushDelivery(subscription=s, payload=payload, attempts=1 if i < claim else 0,
                          next_try_at=now + LEASE if i < claim else now) for i, s in enumerate(subscriptions)])
    return made[:claim]


def _url_for(notice: Notification) -> str:
    """Where a click opens: the game, at its chat for a chat line; a tournament's notice
    that names no game, the tournament."""
    if notice.match_id is None:
        return f"/tournaments/{notice.tournament_id}/" if notice.tournament_id else "/notifications/"
    return f"/games/{notice.match_id}/" + ("#chat" if notice.kind == Notification.Kind.CHAT else "")


def payload_for(notices: list[Notification]) -> str:
    """One push for all of a person's waiting notices: the notice itself when there is one;
    the game's news when they are all from one game; otherwise how many games want them,
    opening "My games"."""
    events = [KIND_EVENT[n.kind] for n in notices]
    games = list(dict.fromkeys(n.match_id for n in notices))
    if len(notices) == 1:
        title, url, tag = TITLES[events[0]], _url_for(notices[0]), f"match-{notices[0].match_id}"
    elif len(games) == 1:
        first = min(notices, key=lambda n: URGENCY.index(KIND_EVENT[n.kind]))
        title, url, tag = f"{len(notices)} updates in one game", _url_for(first), f"match-{games[0]}"
    else:
        turns = len({n.match_id for n, e in zip(notices, events) if e == PushEvent.YOUR_TURN})
        title = f"Your move in {turns} games" if turns == len(games) else f"News from {len(games)} games"
        url, tag = "/", "grailsite"
    lines = [n.text for n in sorted(notices, key=lambda n: URGENCY.index(KIND_EVENT[n.kind]))]
    body = "\n".join(lines[:5]) + (f"\n…and {len(lines) - 5} more" if len(lines) > 5 else "")
    if len(body) > BODY_LIMIT:
        body = body[:BODY_LIMIT - 1] + "…"
    return json.dumps({"title": title, "body": body, "url": url, "tag": tag, "count": len(notices)})


# --- delivering --------------------------------------------------------------------------
#
# A push service that hangs, or an endpoint that keeps failing, delays only itself: each
# exchange is bounded (PUSH_CONNECT_TIMEOUT_SECONDS, PUSH_READ_TIMEOUT_SECONDS, and
# PUSH_SEND_SECONDS for the whole), an endpoint that failed is left alone for a growing
# while and paused for hours once it has failed PUSH_PAUSE_AFTER_FAILURES times in a row,
# and a delivery run (a flush task's, a sweep's) stops taking new sends after
# PUSH_RUN_SECONDS, gives no person more than PUSH_PER_USER_PER_RUN of its sends, and skips
# a host that timed out or refused for the rest of the run. What a run leaves is due for
# the next one.

class _PinnedPoster:
    """What pywebpush posts through (its ``requests_session``): grailsite/outbound.py's
    ``post``, which checks the endpoint again, connects only to an address it checked,
    follows no redirect and bounds its time."""

    def post(self, url, data=None, headers=None, timeout=None):
        return outbound.post(url, body=data or b"", headers=dict(headers or {}), policy=endpoint_policy(),
                             connect_timeout=settings.PUSH_CONNECT_TIMEOUT_SECONDS,
                             read_timeout=settings.PUSH_READ_TIMEOUT_SECONDS,
                             total_timeout=settings.PUSH_SEND_SECONDS)


_poster = _PinnedPoster()


def send(subscription: PushSubscription, payload: str) -> None:
    """Encrypt ``payload`` for this browser and hand it to its push service (pywebpush, with
    a fresh VAPID claim per request: its audience is the endpoint's origin). Raises
    WebPushException, ``outbound.Refused`` or an ``OSError``."""
    from pywebpush import webpush

    webpush({"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
            data=payload, vapid_private_key=vapid(), vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=settings.PUSH_TTL_SECONDS, headers={"Urgency": "high"}, requests_session=_poster)


def _host_of(endpoint: str) -> str:
    return endpoint.split("/", 3)[2].lower() if endpoint.count("/") >= 2 else endpoint


class Run:
    """One delivery run's budget and fair shares (see above)."""

    def __init__(self):
        self.ends = time.monotonic() + settings.PUSH_RUN_SECONDS
        self.sends: Counter = Counter()     # by user id
        self.broken_hosts: set[str] = set()

    def over(self) -> bool:
        return time.monotonic() >= self.ends

    def may_send(self, user_id: int, endpoint: str) -> bool:
        return (not self.over() and self.sends[user_id] < settings.PUSH_PER_USER_PER_RUN
                and _host_of(endpoint) not in self.broken_hosts)

    def share_left(self, user_id: int) -> int:
        return 0 if self.over() else max(0, settings.PUSH_PER_USER_PER_RUN - self.sends[user_id])


def _retry_after(exc) -> float | None:
    try:
        return float(exc.retry_after) if exc.retry_after else None
    except (TypeError, ValueError):
        return None


def deliver(delivery_id: int, *, now: datetime | None = None, run: Run | None = None) -> str:
    """Send one delivery if it is due, its endpoint is not paused and no other worker holds
    it. Returns what happened: "sent", "gone" (subscription deleted), "refused" (its
    endpoint is no longer one the site calls: deleted), "retry", "dropped" (its last
    attempt, or its endpoint was paused) or "skipped"."""
    outcome = _deliver(delivery_id, now=now, run=run)
    if outcome != "skipped":
        metrics.WEB_PUSHES.labels(outcome).inc()
    return outcome


def _deliver(delivery_id: int, *, now: datetime | None = None, run: Run | None = None) -> str:
    now = now or timezone.now()
    claimed = (PushDelivery.objects.filter(pk=delivery_id, next_try_at__lte=now)
               .exclude(subscription__paused_until__gt=now)
               .update(next_try_at=now + LEASE, attempts=F("attempts") + 1))
    if not claimed:
        return "skipped"
    delivery = PushDelivery.objects.select_related("subscription").filter(pk=delivery_id).first()
    if delivery is None:
        return "skipped"
    return _send_claimed(delivery, now, run or Run())


def _send_claimed(delivery: PushDelivery, now: datetime, run: Run) -> str:
    """Send a delivery this worker holds (its attempt counted), and settle it."""
    from pywebpush import WebPushException

    subscription = delivery.subscription
    run.sends[subscription.user_id] += 1
    wait = None
    try:
        send(subscription, delivery.payload)
    except WebPushException as exc:
        if exc.status_code in (404, 410):
            log.info("push subscription %s is gone (%s): deleted", subscription.pk, exc.status_code)
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return "gone"
        log.warning("push to subscription %s failed: %s", subscription.pk, exc.status_code or exc.message)
        wait = _retry_after(exc)
    except outbound.Refused as exc:
        if exc.lasting:
            # Its URL is one the site no longer calls (a stricter PUSH_ENDPOINT_HOSTS, say).
            log.warning("push subscription %s refused (%s): deleted", subscription.pk, exc.message)
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return "refused"
        log.warning("push to subscription %s refused: %s", subscription.pk, exc.message)
    except (OSError, ValueError, TypeError) as exc:  # timeouts, refused connects, TLS
        log.warning("push to subscription %s failed: %r", subscription.pk, exc)
        if isinstance(exc, OSError):
            run.broken_hosts.add(_host_of(subscription.endpoint))
    else:
        PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=now, failures=0, paused_until=None)
        delivery.delete()
        return "sent"
    return _failed(delivery, now, wait)


def _failed(delivery: PushDelivery, now: datetime, wait: float | None) -> str:
    """A failed attempt: the endpoint backs off (or is paused), the delivery waits for its
    next try, or is dropped after its last."""
    paused_until = _endpoint_failed(delivery.subscription_id, now)
    if paused_until is None or delivery.attempts >= MAX_ATTEMPTS:
        if paused_until is not None:
            log.warning("push delivery %s dropped after %s attempts", delivery.pk, delivery.attempts)
        delivery.delete()
        return "dropped"
    backoff = FIRST_RETRY * 2 ** (delivery.attempts - 1)
    if wait is not None:
        backoff = max(backoff, timedelta(seconds=min(wait, 3600)))
    PushDelivery.objects.filter(pk=delivery.pk).update(next_try_at=max(now + backoff, paused_until))
    return "retry"


def _endpoint_failed(subscription_id: int, now: datetime) -> datetime | None:
    """Count one more failure of this endpoint in a row and leave it alone for a while:
    5, 10, 20, 40 s..., then, from the PUSH_PAUSE_AFTER_FAILURES-th, paused for
    PUSH_PAUSE_SECONDS, doubling with each failure after (at most a day), its waiting
    deliveries dropped. Returns until when it is left alone; None when it was just paused
    (the delivery goes with the others)."""
    with transaction.atomic():
        subscription = PushSubscription.objects.select_for_update().filter(pk=subscription_id).first()
        if subscription is None:
            return None
        failures = min(subscription.failures + 1, 10_000)
        after = settings.PUSH_PAUSE_AFTER_FAILURES
        if failures < after:
            until, paused = now + FIRST_RETRY * 2 ** (failures - 1), False
        else:
            pause = timedelta(seconds=settings.PUSH_PAUSE_SECONDS) * 2 ** min(failures - after, 10)
            until, paused = now + min(pause, MAX_PAUSE), True
        PushSubscription.objects.filter(pk=subscription_id).update(failures=failures, paused_until=until)
        if not paused:
            return until
        dropped, _ = PushDelivery.objects.filter(subscription_id=subscription_id).delete()
    log.warning("push endpoint of subscription %s paused until %s after %d failures in a row (%d pushes dropped)",
                subscription_id, until.isoformat(timespec="seconds"), failures, dropped)
    metrics.WEB_PUSH_PAUSES.inc()
    return None


def _release(delivery: PushDelivery, now: datetime) -> None:
    """Give back a delivery claimed but not sent in this run: due again at once, the attempt
    not counted."""
    PushDelivery.objects.filter(pk=delivery.pk).update(next_try_at=now, attempts=F("attempts") - 1)


def flush_and_deliver(user_id: int, *, now: datetime | None = None, run: Run | None = None) -> int:
    """The flush task's work: flush this person, then send what it made (claimed as it was
    made, so nothing is read back; at most the person's share of the run, the rest due for
    the next). Returns how many sent."""
    now = now or timezone.now()
    run = run or Run()
    sent = 0
    for delivery in _flush(user_id, now=now, claim=run.share_left(user_id)):
        if not run.may_send(user_id, delivery.subscription.endpoint):
            _release(delivery, now)
            continue
        outcome = _send_claimed(delivery, now, run)
        metrics.WEB_PUSHES.labels(outcome).inc()
        sent += outcome == "sent"
    return sent


def sweep(*, limit: int = 200, now: datetime | None = None, waited: float | None = None) -> int:
    """Flush everyone whose notices waited at least ``waited`` seconds (a batch window when not
    given: the beat's guarantee) and who is not in quiet hours, then send every due delivery,
    within one run's budget and shares (see above). A sweep a change asked for
    (``flush_on_commit``) runs a window after it and takes every notice waiting by then
    (``waited=0``), those of the changes whose own ask it stood for included. Each person and
    delivery is tried on its own: one failing never stops the others. Returns how many sent."""
    now = now or timezone.now()
    run = Run()
    window = timedelta(seconds=settings.PUSH_BATCH_SECONDS if waited is None else waited)
    users = list(Notification.objects.filter(pushed_at__isnull=True, read_at__isnull=True,
                                             created_at__lte=now - window)
                 .exclude(user__push_preferences__held_until__gt=now)
                 .order_by().values_list("user_id", flat=True).distinct()[:limit])
    sent = 0
    for user_id in users:
        if run.over():
            return sent
        try:
            sent += flush_and_deliver(user_id, now=now, run=run)
        except Exception:  # noqa: BLE001 - logged; the others still go
            log.exception("push flush of user %s failed", user_id)
    for delivery_id, user_id, endpoint in _due(now, limit):
        if run.over():
            break
        if not run.may_send(user_id, endpoint):
            continue
        try:
            sent += deliver(delivery_id, now=now, run=run) == "sent"
        except Exception:  # noqa: BLE001 - logged; the others still go
            log.exception("push delivery %s failed", delivery_id)
    return sent


def _due(now: datetime, limit: int) -> list[tuple[int, int, str]]:
    """(delivery, user, endpoint) of the deliveries due, oldest first, at most a run's share
    of each person's (so one person's backlog cannot fill the list), none to a paused
    endpoint."""
    return list(PushDelivery.objects.filter(next_try_at__lte=now)
                .exclude(subscription__paused_until__gt=now)
                .annotate(place=Window(RowNumber(), partition_by=[F("subscription__user_id")],
                                       order_by=[F("next_try_at").asc(), F("pk").asc()]))
                .filter(place__lte=settings.PUSH_PER_USER_PER_RUN)
                .order_by("next_try_at", "pk")
                .values_list("pk", "subscription__user_id", "subscription__endpoint")[:limit])
