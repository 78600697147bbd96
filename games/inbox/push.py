"""Web Push: a phone that buzzes when it is your turn.

The outbox is the notifications themselves. Every on-site notice (your turn, a deadline,
game over, an invitation, a chat line, someone joining) is written in the change's own
transaction with ``pushed_at`` NULL, and refreshing an unread one sets it back to NULL
(games/table/persistence.py). So a push can never be lost between a commit and a worker, and a
notice the person already read on the site (a chat line reaching their open page) is never
pushed.

1. On commit the change asks for a flush of each notified person (``flush_on_commit``): a
   Celery task ``PUSH_BATCH_SECONDS`` later, at most one per person and window from each
   process, so ten games turning to them at once make one task and one push.
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

None of it runs on the move path: a move only writes its notices and, after commit, sends
one small task message (or, in the embedded default, nothing: the sweep thread flushes).
"""
from __future__ import annotations

import base64
import hmac
import json
import logging
import threading
import time
from datetime import datetime, timedelta, timezone as dt_timezone
from functools import lru_cache, partial
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.db.models import F
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
}
TITLES = {
    PushEvent.YOUR_TURN: "Your move",
    PushEvent.DEADLINE: "Your clock is running",
    PushEvent.GAME_OVER: "Game over",
    PushEvent.INVITATION: "You are invited to a game",
    PushEvent.CHAT: "New chat in your game",
    PushEvent.JOINED: "A player joined your game",
}
# Which notice a push of several from one game opens the game for first.
URGENCY = [PushEvent.YOUR_TURN, PushEvent.DEADLINE, PushEvent.INVITATION, PushEvent.GAME_OVER, PushEvent.JOINED,
           PushEvent.CHAT]

FLUSH_TASK = "games.tasks.push_flush"   # named, not imported: the tasks import the services
MAX_NOTICES = 100          # in one push; more wait for the next
MAX_ATTEMPTS = 6           # a delivery's tries: 5 s, 10 s, 20 s, 40 s, 80 s apart, then dropped
FIRST_RETRY = timedelta(seconds=5)
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

_scheduled: dict[int, float] = {}
_scheduled_lock = threading.Lock()


def flush_on_commit(user_ids) -> None:
    """Once the change commits, a flush of each of these people's notices a batch window
    later. Without Celery (the embedded default) the sweep thread does it on its round."""
    if not settings.TIMERS_USE_CELERY or not user_ids:
        return
    # A Celery send may wait on the broker: never on an event loop (games/table/unit_of_work.py).
    unit_of_work.on_commit(partial(_schedule, tuple(set(user_ids))), blocking=True)


def _schedule(user_ids) -> None:
    """One flush task per person and window from this process: a flush sent less than a
    window ago has not run yet, and will take this change's notices too (they committed
    before it runs); a notice it misses by a hair waits for the sweep."""
    window = settings.PUSH_BATCH_SECONDS
    now = time.monotonic()
    due = []
    with _scheduled_lock:
        for user_id in user_ids:
            if now - _scheduled.get(user_id, float("-inf")) >= window:
                _scheduled[user_id] = now
                due.append(user_id)
        if len(_scheduled) > 10_000:
            for user_id in [u for u, at in _scheduled.items() if now - at >= window]:
                del _scheduled[user_id]
    if not due:
        return
    from grailsite.celery import app

    for user_id in due:
        try:
            app.send_task(FLUSH_TASK, args=(user_id,), countdown=window)
        except Exception:  # the broker is down: the sweep flushes them
            log.warning("could not schedule a push flush for user %s", user_id, exc_info=True)


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
    return [d.pk for d in _flush(user_id, now=now or timezone.now(), claim=False)]


def _flush(user_id: int, *, now: datetime, claim: bool) -> list[PushDelivery]:
    """``flush``; ``claim``: the deliveries are made already claimed by this worker (their
    first attempt counted, a lease ahead), with their subscriptions, to be sent at once
    without reading them back."""
    with transaction.atomic():
        waiting = list(Notification.objects.select_for_update(skip_locked=True)
                       .filter(user_id=user_id, pushed_at__isnull=True, read_at__isnull=True)
                       .order_by("created_at", "id")[:MAX_NOTICES])
        if not waiting:
            return []
        preferences = preferences_of(user_id)
        subscriptions = list(PushSubscription.objects.filter(user_id=user_id))
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
            [PushDelivery(subscription=s, payload=payload, attempts=1 if claim else 0,
                          next_try_at=now + LEASE if claim else now) for s in subscriptions])
    return made


def _url_for(notice: Notification) -> str:
    """Where a click opens: the game, at its chat for a chat line."""
    if notice.match_id is None:
        return "/notifications/"
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

class _PinnedPoster:
    """What pywebpush posts through (its ``requests_session``): grailsite/outbound.py's
    ``post``, which checks the endpoint again, connects only to an address it checked,
    follows no redirect and bounds its time."""

    def post(self, url, data=None, headers=None, timeout=None):
        return outbound.post(url, body=data or b"", headers=dict(headers or {}), policy=endpoint_policy(),
                             connect_timeout=settings.PUSH_TIMEOUT_SECONDS, read_timeout=settings.PUSH_TIMEOUT_SECONDS)


_poster = _PinnedPoster()


def send(subscription: PushSubscription, payload: str) -> None:
    """Encrypt ``payload`` for this browser and hand it to its push service (pywebpush, with
    a fresh VAPID claim per request: its audience is the endpoint's origin). Raises
    WebPushException, ``outbound.Refused`` or an ``OSError``."""
    from pywebpush import webpush

    webpush({"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
            data=payload, vapid_private_key=vapid(), vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=settings.PUSH_TTL_SECONDS, headers={"Urgency": "high"}, requests_session=_poster)


def _retry_after(exc) -> float | None:
    try:
        return float(exc.retry_after) if exc.retry_after else None
    except (TypeError, ValueError):
        return None


def deliver(delivery_id: int, *, now: datetime | None = None) -> str:
    """Send one delivery if it is due and no other worker holds it. Returns what happened:
    "sent", "gone" (subscription deleted), "refused" (its endpoint is no longer one the
    site calls: deleted), "retry", "dropped" or "skipped"."""
    outcome = _deliver(delivery_id, now=now)
    if outcome != "skipped":
        metrics.WEB_PUSHES.labels(outcome).inc()
    return outcome


def _deliver(delivery_id: int, *, now: datetime | None = None) -> str:
    now = now or timezone.now()
    claimed = PushDelivery.objects.filter(pk=delivery_id, next_try_at__lte=now).update(
        next_try_at=now + LEASE, attempts=F("attempts") + 1)
    if not claimed:
        return "skipped"
    delivery = PushDelivery.objects.select_related("subscription").filter(pk=delivery_id).first()
    if delivery is None:
        return "skipped"
    return _send_claimed(delivery, now)


def _send_claimed(delivery: PushDelivery, now: datetime) -> str:
    """Send a delivery this worker holds (its attempt counted), and settle it."""
    from pywebpush import WebPushException

    delivery_id = delivery.pk
    wait = None
    try:
        send(delivery.subscription, delivery.payload)
    except WebPushException as exc:
        if exc.status_code in (404, 410):
            log.info("push subscription %s is gone (%s): deleted", delivery.subscription_id, exc.status_code)
            PushSubscription.objects.filter(pk=delivery.subscription_id).delete()
            return "gone"
        log.warning("push to subscription %s failed: %s", delivery.subscription_id, exc.status_code or exc.message)
        wait = _retry_after(exc)
    except outbound.Refused as exc:
        if exc.lasting:
            # Its URL is one the site no longer calls (a stricter PUSH_ENDPOINT_HOSTS, say).
            log.warning("push subscription %s refused (%s): deleted", delivery.subscription_id, exc.message)
            PushSubscription.objects.filter(pk=delivery.subscription_id).delete()
            return "refused"
        log.warning("push to subscription %s refused: %s", delivery.subscription_id, exc.message)
    except (OSError, ValueError, TypeError) as exc:  # timeouts, refused connects, TLS
        log.warning("push to subscription %s failed: %r", delivery.subscription_id, exc)
    else:
        PushSubscription.objects.filter(pk=delivery.subscription_id).update(last_success_at=now)
        delivery.delete()
        return "sent"
    if delivery.attempts >= MAX_ATTEMPTS:
        log.warning("push delivery %s dropped after %s attempts", delivery_id, delivery.attempts)
        delivery.delete()
        return "dropped"
    backoff = FIRST_RETRY * 2 ** (delivery.attempts - 1)
    if wait is not None:
        backoff = max(backoff, timedelta(seconds=min(wait, 3600)))
    PushDelivery.objects.filter(pk=delivery_id).update(next_try_at=now + backoff)
    return "retry"


def flush_and_deliver(user_id: int, *, now: datetime | None = None) -> int:
    """The flush task's work: flush this person, then send what it made (claimed as it was
    made, so nothing is read back). Returns how many sent."""
    now = now or timezone.now()
    sent = 0
    for delivery in _flush(user_id, now=now, claim=True):
        outcome = _send_claimed(delivery, now)
        metrics.WEB_PUSHES.labels(outcome).inc()
        sent += outcome == "sent"
    return sent


def sweep(*, limit: int = 200, now: datetime | None = None) -> int:
    """The guarantee (see the module's docstring): flush everyone whose notices waited longer
    than a window and is not in quiet hours, then send every due delivery. Each person and
    delivery is tried on its own: one failing never stops the others. Returns how many sent."""
    now = now or timezone.now()
    window = timedelta(seconds=settings.PUSH_BATCH_SECONDS)
    users = list(Notification.objects.filter(pushed_at__isnull=True, read_at__isnull=True,
                                             created_at__lte=now - window)
                 .exclude(user__push_preferences__held_until__gt=now)
                 .order_by().values_list("user_id", flat=True).distinct()[:limit])
    sent = 0
    for user_id in users:
        try:
            sent += flush_and_deliver(user_id, now=now)
        except Exception:  # noqa: BLE001 - logged; the others still go
            log.exception("push flush of user %s failed", user_id)
    due = list(PushDelivery.objects.filter(next_try_at__lte=now).order_by("next_try_at")
               .values_list("pk", flat=True)[:limit])
    for delivery_id in due:
        try:
            sent += deliver(delivery_id, now=now) == "sent"
        except Exception:  # noqa: BLE001 - logged; the others still go
            log.exception("push delivery %s failed", delivery_id)
    return sent
