"""Push endpoints may not reach inside (grailsite/outbound.py, games/inbox/push.py): every
spelling of a loopback, private, link-local, multicast or reserved address is refused when a
browser subscribes, and so is a name that resolves to one; at each push the endpoint is
resolved and checked again, the connection goes to the address checked (the Host header
keeps the name), and no redirect is followed.

DNS is this test's own (``outbound.resolve`` replaced): the machine running the suite may
have none, and a test must decide what a name resolves to."""
from __future__ import annotations

import json
import socket
import threading

import pytest

from games.inbox import push
from grailsite import outbound
from grailsite.accounts.models import PushDelivery, PushSubscription
from tests.push_service import BrowserKeys, PushService, push_on, push_service  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

PUBLIC = "142.250.180.10"  # what the known push services resolve to here


class FakeDNS(dict):
    """Names this test resolves: ``dns["name"] = ["addr", ...]``; any other name resolves
    to PUBLIC; a name mapped to [] does not resolve. ``asked``: the names looked up, in order."""

    def __init__(self):
        super().__init__()
        self.asked: list[str] = []

    def resolve(self, host, port):
        self.asked.append(host)
        found = self.get(host, [PUBLIC])
        if not found:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return list(found)


@pytest.fixture
def dns(monkeypatch):
    fake = FakeDNS()
    monkeypatch.setattr(outbound, "resolve", fake.resolve)
    return fake


@pytest.fixture
def push_set_up(settings):
    settings.VAPID_PRIVATE_KEY = push.generate_private_key()
    settings.PUSH_ALLOW_LOOPBACK = False
    return settings


def subscribe(client, make_user, endpoint: str):
    client.force_login(make_user())
    return client.post("/api/push/subscriptions/", data=json.dumps(BrowserKeys().subscription(endpoint)),
                       content_type="application/json")


INSIDE = [
    "https://127.0.0.1/x", "https://127.1/x", "https://2130706433/x", "https://0x7f000001/x",
    "https://0177.0.0.1/x", "https://0x7f.1/x", "https://127.000.000.001/x", "https://localhost/x",
    "https://localhost./x", "https://LOCALHOST/x", "https://[::1]/x", "https://[::ffff:127.0.0.1]/x",
    "https://[::ffff:7f00:1]/x", "https://[0:0:0:0:0:ffff:127.0.0.1]/x", "https://[::127.0.0.1]/x",
    "https://[64:ff9b::7f00:1]/x", "https://[2002:7f00:1::]/x", "https://[fe80::1%25eth0]/x",
    "https://10.1.2.3/x", "https://172.16.0.1/x", "https://192.168.1.1/x", "https://100.64.0.1/x",
    "https://169.254.169.254/latest/meta-data/", "https://[fe80::1]/x", "https://[fc00::1]/x",
    "https://[fec0::1]/x", "https://224.0.0.1/x", "https://[ff02::1]/x", "https://0.0.0.0/x",
    "https://0/x", "https://240.0.0.1/x", "https://255.255.255.255/x", "https://[::]/x",
    "https://192.0.2.1/x", "https://198.18.0.1/x",
]


@pytest.mark.parametrize("endpoint", INSIDE)
def test_every_spelling_of_an_inside_address_is_refused(push_set_up, dns, client, make_user, endpoint):
    push_set_up.PUSH_ENDPOINT_HOSTS = ["*"]  # any public host: the address alone refuses these
    dns["localhost"] = ["127.0.0.1", "::1"]
    response = subscribe(client, make_user, endpoint)
    assert response.status_code == 400, (endpoint, response.content)
    assert response.json()["error"]["code"] == "bad_request"
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("resolved", [["127.0.0.1"], ["::1"], ["10.0.0.5"], ["169.254.169.254"],
                                      ["::ffff:127.0.0.1"], [PUBLIC, "127.0.0.1"], ["fe80::1%eth0"], []])
def test_a_name_is_refused_unless_every_address_it_resolves_to_is_public(push_set_up, dns, client, make_user,
                                                                        resolved):
    push_set_up.PUSH_ENDPOINT_HOSTS = ["*"]
    dns["push.evil.example"] = resolved
    response = subscribe(client, make_user, "https://push.evil.example/x")
    assert response.status_code == 400, response.content
    assert "push.evil.example" in dns.asked


@pytest.mark.parametrize("endpoint, allowed", [
    ("https://fcm.googleapis.com/fcm/send/abc", True),
    ("https://updates.push.services.mozilla.com/wpush/v2/abc", True),
    ("https://wns2-par02p.notify.windows.com/w/?token=abc", True),
    ("https://web.push.apple.com/QGz", True),
    ("https://FCM.googleapis.com./fcm/send/abc", True),  # the same host, spelled otherwise
    ("https://push.example.com/x", False),             # public, but no push service
    ("https://notify.windows.com.evil.example/x", False),
    ("https://evilnotify.windows.com/x", False),
    ("http://fcm.googleapis.com/fcm/send/abc", False),  # https only
    ("https://fcm.googleapis.com:8443/fcm/send/abc", False),
    ("https://user:pw@fcm.googleapis.com/fcm/send/abc", False),
    ("ftp://fcm.googleapis.com/x", False),
])
def test_by_default_only_the_browsers_push_services_over_https_on_443(push_set_up, dns, client, make_user,
                                                                      endpoint, allowed):
    response = subscribe(client, make_user, endpoint)
    assert response.status_code == (201 if allowed else 400), response.content


def test_loopback_is_let_in_only_by_the_tests_own_setting(push_set_up, dns, client, make_user):
    assert subscribe(client, make_user, "http://127.0.0.1:9/push/x").status_code == 400
    push_set_up.PUSH_ALLOW_LOOPBACK = True
    assert subscribe(client, make_user, "http://127.0.0.1:9/push/x").status_code == 201
    # ... and nothing else: a private address is still refused.
    assert subscribe(client, make_user, "http://10.0.0.1:9/push/x").status_code == 400


# -- at delivery ----------------------------------------------------------------------------

class Listener:
    """A TCP listener on loopback that counts the connections it accepts."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.close()

    def close(self):
        self.sock.close()


def _subscription(user, endpoint: str) -> PushSubscription:
    keys = BrowserKeys().subscription(endpoint)["keys"]
    return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"])


def test_a_name_that_resolves_inside_by_the_time_of_the_push_is_not_called(push_set_up, dns, make_user):
    """DNS rebinding: public when the browser subscribed, loopback when the push goes."""
    listener = Listener()
    try:
        push_set_up.PUSH_ENDPOINT_HOSTS = ["*"]
        push_set_up.PUSH_ENDPOINT_PORTS = [listener.port]
        subscription = _subscription(make_user(), f"https://push.rebind.example:{listener.port}/x")
        dns["push.rebind.example"] = ["127.0.0.1"]
        with pytest.raises(outbound.Refused):
            push.send(subscription, json.dumps({"title": "t"}))
        PushDelivery.objects.create(subscription=subscription, payload="{}", next_try_at=subscription.created_at)
        assert push.deliver(PushDelivery.objects.get().pk) == "retry"
        assert listener.accepted == 0
    finally:
        listener.close()


def test_the_push_connects_to_the_address_checked_with_the_name_as_host(push_on, push_service, dns, make_user):
    """The name is resolved at the push (not when subscribing only), the socket goes to the
    address found, and the request still names the host."""
    endpoint = f"http://push.test:{push_service.port}/push/bob"
    subscription = _subscription(make_user(), endpoint)
    dns["push.test"] = ["127.0.0.1"]
    dns.asked.clear()
    push.send(subscription, json.dumps({"title": "t"}))
    assert dns.asked == ["push.test"]
    [received] = push_service.received
    assert received.path == "/push/bob" and received.headers["host"] == f"push.test:{push_service.port}"


def test_a_redirect_is_not_followed(push_on, push_service, make_user):
    inside = PushService().start()
    try:
        push_service.status["bob"] = 307
        push_service.location["bob"] = inside.url("metadata")
        subscription = _subscription(make_user(), push_service.url("bob"))
        PushDelivery.objects.create(subscription=subscription, payload="{}", next_try_at=subscription.created_at)
        assert push.deliver(PushDelivery.objects.get().pk) == "retry"
        assert len(push_service.received) == 1 and inside.received == []
    finally:
        inside.stop()
