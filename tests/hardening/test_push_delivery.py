"""A push service that hangs, trickles or keeps failing delays only itself
(games/inbox/push.py, grailsite/outbound.py): every exchange is bounded, a delivery run
returns within its budget, a host that timed out is not asked again in the same run, one
person's endpoints get no more than their share of a run, and an endpoint that keeps failing
is paused (and comes back with one success).

The push services here listen on loopback (PUSH_ALLOW_LOOPBACK, the tests' setting): the
suite's push service (tests/push_service.py) and listeners that accept a connection and
then never answer, or answer a byte at a time."""
from __future__ import annotations

import socket
import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.inbox import push
from games.models import Notification
from grailsite import outbound
from grailsite.accounts.models import PushDelivery, PushSubscription
from tests.push_service import BrowserKeys, push_on, push_service  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


class Hanging:
    """Accepts every connection, reads what comes, and never answers; ``trickle``: answers
    one byte every so many seconds, for ever."""

    def __init__(self, trickle: float | None = None):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.trickle = trickle
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            self.open.append(conn)
            if self.trickle:
                threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn):
        try:
            conn.recv(65536)
            for byte in iter(lambda: b"H", None):
                conn.sendall(byte)
                time.sleep(self.trickle)
        except OSError:
            return

    def close(self):
        self.sock.close()
        for conn in self.open:
            conn.close()


@pytest.fixture
def hanging():
    made = []

    def make(**kwargs) -> Hanging:
        made.append(Hanging(**kwargs))
        return made[-1]

    yield make
    for listener in made:
        listener.close()


@pytest.fixture
def quick(push_on):
    """Short limits, so the bounds are seconds."""
    push_on.PUSH_CONNECT_TIMEOUT_SECONDS = 1
    push_on.PUSH_READ_TIMEOUT_SECONDS = 1
    push_on.PUSH_SEND_SECONDS = 2
    push_on.PUSH_RUN_SECONDS = 4
    push_on.PUSH_PER_USER_PER_RUN = 5
    return push_on


def subscribed(user, endpoint: str, *, due: bool = True) -> PushSubscription:
    keys = BrowserKeys().subscription(endpoint)["keys"]
    subscription = PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=keys["p256dh"],
                                                   auth=keys["auth"])
    if due:
        PushDelivery.objects.create(subscription=subscription, payload='{"title": "Your move"}',
                                    next_try_at=timezone.now() - timedelta(seconds=1))
    return subscription


def test_a_push_service_that_never_answers_costs_a_run_one_read_timeout(quick, push_service, hanging, make_user):
    """Three pushes of one person to a service that accepts and never answers, and one of
    another person to a working one: the run takes about one read timeout (it took 10 s a
    push, 30 s here, before), the working one is sent, the hanging host is not asked again
    in this run."""
    stuck, bob = make_user("stuck"), make_user("bob")
    service = hanging()
    for name in ("phone", "tablet", "laptop"):
        subscribed(stuck, service.url(name))
    subscribed(bob, push_service.url("bob"))
    started = time.monotonic()
    assert push.sweep() == 1
    elapsed = time.monotonic() - started
    assert elapsed < quick.PUSH_SEND_SECONDS + 1, elapsed
    assert len(push_service.received) == 1 and service.accepted == 1
    assert sorted(PushDelivery.objects.filter(subscription__user=stuck).values_list("attempts", flat=True)) == [0, 0, 1]
    assert PushSubscription.objects.get(endpoint=service.url("phone")).failures == 1


def test_a_run_stops_taking_sends_when_its_budget_is_spent(quick, hanging, make_user):
    """Eight people, each on a host of their own that hangs: the run gives up after its
    budget (plus at most one send), and what it did not try is due for the next run."""
    quick.PUSH_RUN_SECONDS = 2.5
    for i in range(8):
        subscribed(make_user(), hanging().url("x"))
    started = time.monotonic()
    push.sweep()
    elapsed = time.monotonic() - started
    assert elapsed < quick.PUSH_RUN_SECONDS + quick.PUSH_SEND_SECONDS + 1, elapsed
    untried = PushDelivery.objects.filter(attempts=0, next_try_at__lte=timezone.now())
    assert 3 <= untried.count() <= 6, untried.count()


def test_an_answer_trickled_a_byte_at_a_time_is_cut_off_at_the_send_limit(quick, hanging):
    """Each byte comes within the read timeout, so only the whole exchange's limit ends it."""
    service = hanging(trickle=0.2)
    policy = outbound.Policy(allow_loopback=True)
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        outbound.post(service.url("x"), body=b"{}", headers={}, policy=policy, connect_timeout=1, read_timeout=1,
                      total_timeout=2)
    assert time.monotonic() - started < 3.5


def test_an_endpoint_that_keeps_failing_is_paused_and_one_success_clears_it(quick, push_service, make_user):
    quick.PUSH_PAUSE_AFTER_FAILURES = 3
    quick.PUSH_PAUSE_SECONDS = 3600
    push_service.status["bob"] = 503
    bob = make_user("bob")
    subscription = subscribed(bob, push_service.url("bob"), due=False)
    now = timezone.now()
    outcomes = []
    for _ in range(3):
        now += timedelta(minutes=5)  # past the endpoint's back-off each time
        PushDelivery.objects.create(subscription=subscription, payload="{}", next_try_at=now)
        outcomes.append(push.deliver(PushDelivery.objects.latest("pk").pk, now=now))
    assert outcomes == ["retry", "retry", "dropped"]
    subscription.refresh_from_db()
    assert subscription.failures == 3
    assert subscription.paused_until == now + timedelta(hours=1)
    assert not PushDelivery.objects.exists()  # what waited for it is dropped with the pause
    assert len(push_service.received) == 3

    # Paused: a new notice makes no delivery to it, and a delivery due is not sent.
    Notification.objects.create(user=bob, kind=Notification.Kind.YOUR_TURN, text="Your move.")
    assert push.flush(bob.pk, now=now + timedelta(minutes=10)) == []
    PushDelivery.objects.create(subscription=subscription, payload="{}", next_try_at=now)
    assert push.sweep(now=now + timedelta(minutes=30)) == 0 and len(push_service.received) == 3

    # The pause over, it is tried; one success and it is as new.
    push_service.status.clear()
    assert push.sweep(now=now + timedelta(minutes=61)) == 1
    subscription.refresh_from_db()
    assert (subscription.failures, subscription.paused_until) == (0, None)


def test_a_pause_doubles_with_each_failure_after_it(quick, push_service, make_user):
    quick.PUSH_PAUSE_AFTER_FAILURES = 1
    quick.PUSH_PAUSE_SECONDS = 60
    push_service.status["bob"] = 500
    subscription = subscribed(make_user("bob"), push_service.url("bob"), due=False)
    now, pauses = timezone.now(), []
    for _ in range(3):
        PushDelivery.objects.create(subscription=subscription, payload="{}", next_try_at=now)
        push.deliver(PushDelivery.objects.latest("pk").pk, now=now)
        subscription.refresh_from_db()
        pauses.append((subscription.paused_until - now).total_seconds())
        now = subscription.paused_until
    assert pauses == [60, 120, 240]


def test_one_person_s_endpoints_get_no_more_than_their_share_of_a_run(quick, push_service, make_user):
    """Twelve browsers of one person and one of another's: a run sends five of the first
    (PUSH_PER_USER_PER_RUN) and the other's; the next run five more."""
    many, bob = make_user("many"), make_user("bob")
    for i in range(12):
        subscribed(many, push_service.url(f"many-{i}"))
    subscribed(bob, push_service.url("bob"))
    assert push.sweep() == 6
    assert len(push_service.to("bob")) == 1
    assert sum(r.path.startswith("/push/many-") for r in push_service.received) == 5
    assert push.sweep() == 5
    assert PushDelivery.objects.count() == 2


def test_a_flush_sends_the_person_s_share_and_leaves_the_rest_due(quick, push_service, make_user):
    many = make_user("many")
    for i in range(8):
        subscribed(many, push_service.url(f"many-{i}"), due=False)
    Notification.objects.create(user=many, kind=Notification.Kind.YOUR_TURN, text="Your move.")
    assert push.flush_and_deliver(many.pk) == 5
    left = PushDelivery.objects.all()
    assert left.count() == 3 and all(d.attempts == 0 and d.next_try_at <= timezone.now() for d in left)
    assert push.sweep() == 3
