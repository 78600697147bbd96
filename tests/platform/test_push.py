"""Push notifications: a push service on loopback takes the real requests that
pywebpush makes (tests/push_service.py); each test subscribes a browser's generated keys
through the API, and decrypts what arrives with that browser's private key. Nothing of the
push library is replaced."""
from __future__ import annotations

import json
import os
import time
from datetime import datetime, time as clock_time, timedelta, timezone as dt_timezone

import pytest
from django.utils import timezone

from games.inbox import push
from games.table import services
from games.models import Notification
from grailsite.accounts.models import PushDelivery, PushPreferences, PushSubscription
from tests.celery_worker import wait_for
from tests.push_service import BrowserKeys, PushService, b64url, push_on, push_service, vapid_claims  # noqa: F401 (fixtures)


def subscribe(client, user, service: PushService, name: str) -> BrowserKeys:
    keys = BrowserKeys()
    client.force_login(user)
    response = client.post("/api/push/subscriptions/", data=json.dumps(keys.subscription(service.url(name))),
                           content_type="application/json", HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Chrome/130.0")
    assert response.status_code == 201, response.content
    assert response.json()["label"] == "Chrome on Android"
    return keys


def duel(make_user, **kwargs):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], seed=5, **kwargs)
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match, alice, bob


def play(match, user, seat):
    services.move_submit(match_id=match.pk, user=user, move={"type": "play", "card": match.state["hands"][seat][0]},
                         version=match.version)
    match.refresh_from_db()


def bobs_notices_are_done():
    Notification.objects.filter(user__username="bob").update(pushed_at=timezone.now())


# --- through a real Celery worker ----------------------------------------------------------

@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_turn_reaches_the_players_browser_encrypted_for_it_and_signed_by_the_site(worker, push_on, push_service,
                                                                                    client, make_user):
    match, alice, bob = duel(make_user)
    bobs_notices_are_done()  # the invitation, before bob's browser subscribed
    keys = subscribe(client, bob, push_service, "bob-phone")
    started = time.time()
    play(match, alice, 0)
    assert push_service.wait(1), "no push arrived"
    received = push_service.received[0]
    assert received.path == "/push/bob-phone"
    payload = keys.payload(received)
    assert payload["title"] == "Your move"
    assert payload["body"] == f"Your move in Grail Duel #{match.pk}."
    assert payload["url"] == f"/games/{match.pk}/"
    claims, key = vapid_claims(received)
    assert key == push.public_key()
    assert claims["aud"] == f"http://127.0.0.1:{push_service.port}" and claims["sub"] == "mailto:test@grailsite.local"
    assert claims["exp"] > time.time()
    assert received.headers["urgency"] == "high" and int(received.headers["ttl"]) > 3600
    assert received.at - started < 15
    assert wait_for(lambda: not PushDelivery.objects.exists())
    assert PushSubscription.objects.get().last_success_at is not None
    assert not Notification.objects.filter(user=bob, pushed_at__isnull=True).exists()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_burst_of_ten_games_turning_to_a_player_gives_one_push(worker, push_on, push_service, client, make_user):
    push_on.PUSH_BATCH_SECONDS = 3  # ten moves on a busy machine fit in it
    alice, bob = make_user("alice"), make_user("bob")
    matches = []
    for seed in range(10):
        match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], seed=seed)
        services.match_join(match_id=match.pk, user=bob)
        match.refresh_from_db()
        matches.append(match)
    bobs_notices_are_done()
    keys = subscribe(client, bob, push_service, "bob-phone")
    for match in matches:
        play(match, alice, 0)
    assert push_service.wait(1)
    time.sleep(4)  # a window more: nothing else comes
    assert len(push_service.received) == 1
    payload = keys.payload(push_service.received[0])
    assert payload["title"] == "Your move in 10 games" and payload["count"] == 10
    assert payload["url"] == "/"  # "My games"


# --- the pieces, called directly ---------------------------------------------------------

@pytest.mark.django_db
def test_a_subscription_the_push_service_says_is_gone_is_deleted(push_on, push_service, client, make_user):
    push_service.status["gone"] = 410
    push_service.status["unknown"] = 404
    match, alice, bob = duel(make_user)
    bobs_notices_are_done()
    keys = subscribe(client, bob, push_service, "bob-laptop")
    subscribe(client, bob, push_service, "gone-old-phone")
    subscribe(client, bob, push_service, "unknown-tablet")
    play(match, alice, 0)
    assert push.flush_and_deliver(bob.pk) == 1
    assert len(push_service.received) == 3  # each of them was tried
    assert keys.payload(push_service.to("bob-laptop")[0])["title"] == "Your move"
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [push_service.url("bob-laptop")]
    assert not PushDelivery.objects.exists()


@pytest.mark.django_db
def test_other_failures_are_retried_with_a_growing_wait_until_the_service_takes_it(push_on, push_service, client,
                                                                                     make_user):
    push_service.status["bob"] = 503
    match, alice, bob = duel(make_user)
    bobs_notices_are_done()
    keys = subscribe(client, bob, push_service, "bob-phone")
    play(match, alice, 0)
    assert match.version > 0  # the move was made whatever the push service does
    t0 = timezone.now()
    assert push.flush_and_deliver(bob.pk) == 0
    delivery = PushDelivery.objects.get()
    assert delivery.attempts == 1
    assert timedelta(seconds=5) <= delivery.next_try_at - t0 < timedelta(seconds=6)
    assert push.sweep(now=t0 + timedelta(seconds=1)) == 0 and len(push_service.received) == 1  # not due yet
    assert push.sweep(now=t0 + timedelta(seconds=6)) == 0 and len(push_service.received) == 2
    delivery.refresh_from_db()
    assert delivery.attempts == 2 and delivery.next_try_at >= t0 + timedelta(seconds=15)  # 10 s after the 2nd
    push_service.status.clear()
    assert push.sweep(now=t0 + timedelta(seconds=17)) == 1
    assert keys.payload(push_service.received[-1])["title"] == "Your move"
    assert not PushDelivery.objects.exists()


@pytest.mark.django_db
def test_a_delivery_is_dropped_after_its_last_attempt(push_on, push_service, client, make_user):
    push_on.PUSH_PAUSE_AFTER_FAILURES = 100  # the endpoint's own pause: tests/hardening/test_push_delivery.py
    push_service.status["bob"] = 500
    match, alice, bob = duel(make_user)
    bobs_notices_are_done()
    subscribe(client, bob, push_service, "bob-phone")
    play(match, alice, 0)
    push.flush(bob.pk)
    now = timezone.now()
    outcomes = []
    for _ in range(push.MAX_ATTEMPTS):
        now += timedelta(hours=1)
        outcomes.append(push.deliver(PushDelivery.objects.get().pk, now=now))
    assert outcomes == ["retry"] * (push.MAX_ATTEMPTS - 1) + ["dropped"]
    assert not PushDelivery.objects.exists() and PushSubscription.objects.exists()


@pytest.mark.django_db
def test_quiet_hours_hold_pushes_and_send_them_as_one_when_they_end(push_on, push_service, client, make_user):
    match, alice, bob = duel(make_user)
    bobs_notices_are_done()
    keys = subscribe(client, bob, push_service, "bob-phone")
    PushPreferences.objects.create(user=bob, time_zone="Europe/London", quiet_start=clock_time(22, 0),
                                   quiet_end=clock_time(7, 30))
    play(match, alice, 0)
    night = datetime(2026, 7, 1, 23, 15, tzinfo=dt_timezone.utc)  # 00:15 in London (summer time)
    Notification.objects.filter(user=bob).update(created_at=night - timedelta(minutes=5))
    assert push.flush(bob.pk, now=night) == []
    held = PushPreferences.objects.get(user=bob).held_until
    assert held == datetime(2026, 7, 2, 6, 30, tzinfo=dt_timezone.utc)  # 07:30 in London
    assert push.sweep(now=night + timedelta(hours=3)) == 0 and push_service.received == []
    assert push.sweep(now=held + timedelta(seconds=5)) == 1
    assert keys.payload(push_service.received[0])["title"] == "Your move"
    assert PushPreferences.objects.get(user=bob).held_until is None


@pytest.mark.django_db
def test_only_the_events_a_person_chose_are_pushed_and_never_what_they_read_on_the_site(push_on, push_service,
                                                                                         client, make_user):
    match, alice, bob = duel(make_user)
    bobs_notices_are_done()
    subscribe(client, bob, push_service, "bob-phone")
    PushPreferences.objects.create(user=bob, events=["game_over", "chat"])
    play(match, alice, 0)  # bob's turn: not chosen
    assert push.flush(bob.pk) == []
    assert not Notification.objects.filter(user=bob, pushed_at__isnull=True).exists()
    services.chat_post(match_id=match.pk, user=alice, text="Your move, sir knight")
    services.chat_notices_read(match_id=match.pk, user_id=bob.pk)  # bob's page is open: he read it
    assert push.flush(bob.pk) == [] and push_service.received == []


@pytest.mark.django_db
def test_a_chat_push_opens_the_game_at_its_chat_and_a_join_tells_the_creator(push_on, push_service, client,
                                                                             make_user):
    alice, bob = make_user("alice"), make_user("bob")
    keys = subscribe(client, alice, push_service, "alice-phone")
    PushPreferences.objects.create(user=alice, events=["chat", "joined"])
    match = services.match_create(creator=alice, kind="duel", num_seats=2)
    services.match_join(match_id=match.pk, user=bob)
    assert push.flush_and_deliver(alice.pk) == 1
    joined = keys.payload(push_service.received[-1])
    assert joined["title"] == "A player joined your game"
    assert joined["body"] == f"bob joined your game of Grail Duel #{match.pk}."
    services.chat_post(match_id=match.pk, user=bob, text="Well met")
    assert push.flush_and_deliver(alice.pk) == 1
    chat = keys.payload(push_service.received[-1])
    assert chat["url"] == f"/games/{match.pk}/#chat" and "Well met" in chat["body"]


@pytest.mark.django_db
def test_without_a_subscription_or_a_key_notices_are_passed_over_not_kept(push_on, make_user):
    match, alice, bob = duel(make_user)
    play(match, alice, 0)
    assert push.flush(bob.pk) == []
    assert not Notification.objects.filter(pushed_at__isnull=True, read_at__isnull=True).exclude(user=alice).exists()
    assert push.sweep(now=timezone.now() + timedelta(minutes=1)) == 0


# --- subscribing -------------------------------------------------------------------------

# Which endpoints are accepted: tests/hardening/test_push_endpoints.py.

@pytest.mark.django_db
def test_bad_keys_are_a_clear_error(push_on, client, make_user):
    client.force_login(make_user("bob"))
    body = BrowserKeys().subscription("https://push.example.com/1")
    body["keys"]["p256dh"] = "B" + "A" * 86  # 65 bytes, not a point on the curve
    response = client.post("/api/push/subscriptions/", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 400 and "P-256" in response.json()["error"]["message"]
    body["keys"]["auth"] = "short"
    response = client.post("/api/push/subscriptions/", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 400


@pytest.mark.django_db
def test_subscriptions_are_listed_and_removed_only_by_their_owner(push_on, push_service, client, make_user):
    bob, eve = make_user("bob"), make_user("eve")
    subscribe(client, bob, push_service, "bob-phone")
    mine = client.get("/api/push/subscriptions/").json()["subscriptions"]
    assert [s["label"] for s in mine] == ["Chrome on Android"]
    client.force_login(eve)
    assert client.get("/api/push/subscriptions/").json()["subscriptions"] == []
    assert client.delete(f"/api/push/subscriptions/{mine[0]['id']}/").status_code == 404
    client.force_login(bob)
    assert client.delete(f"/api/push/subscriptions/{mine[0]['id']}/").status_code == 204
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_the_same_browser_subscribing_again_is_one_subscription_of_whoever_is_signed_in(push_on, push_service,
                                                                                         client, make_user):
    bob, carol = make_user("bob"), make_user("carol")
    keys = BrowserKeys()
    for user in (bob, carol):
        client.force_login(user)
        client.post("/api/push/subscriptions/", data=json.dumps(keys.subscription(push_service.url("shared"))),
                    content_type="application/json")
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["carol"]


@pytest.mark.django_db
def test_a_subscription_the_push_service_replaced_is_renewed_by_proof_of_the_old_one_alone(push_on, push_service,
                                                                                          client, make_user):
    """The service worker's pushsubscriptionchange (templates/pwa/sw.js) sends no cookie: the
    old endpoint and its auth secret say whose subscription it was, and nothing else will do."""
    bob = make_user("bob")
    old = subscribe(client, bob, push_service, "bob-phone")
    client.logout()
    new = BrowserKeys()
    body = {"old": {"endpoint": push_service.url("bob-phone"), "auth": b64url(os.urandom(16))},
            "new": new.subscription(push_service.url("bob-phone-2"))}
    wrong = client.post("/api/push/subscriptions/renew/", data=json.dumps(body), content_type="application/json")
    assert wrong.status_code == 404 and wrong.json()["error"]["message"] == "No such push subscription."
    assert PushSubscription.objects.get().endpoint == push_service.url("bob-phone")

    body["old"]["auth"] = b64url(old.auth)
    body["new"]["endpoint"] = "http://" + "a" * 2000
    assert client.post("/api/push/subscriptions/renew/", data=json.dumps(body),
                       content_type="application/json").status_code == 400
    body["new"]["endpoint"] = push_service.url("bob-phone-2")
    response = client.post("/api/push/subscriptions/renew/", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    kept = PushSubscription.objects.get()
    assert (kept.user, kept.endpoint, kept.p256dh, kept.auth) == (bob, push_service.url("bob-phone-2"),
                                                                  b64url(new.public), b64url(new.auth))
    # The old proof is spent: the same request again finds nothing.
    again = client.post("/api/push/subscriptions/renew/", data=json.dumps(body), content_type="application/json")
    assert again.status_code == 404


@pytest.mark.django_db
def test_the_settings_page_lists_devices_with_remove_and_saves_events_and_quiet_hours(push_on, push_service, client,
                                                                                      make_user):
    bob = make_user("bob")
    subscribe(client, bob, push_service, "bob-phone")
    page = client.get("/accounts/settings/").content.decode()
    assert "Chrome on Android" in page and 'name="remove_push"' in page and push.public_key() in page
    response = client.post("/accounts/settings/", {"save_push": "1", "events": ["your_turn", "chat"],
                                                   "time_zone": "Asia/Tokyo", "quiet_start": "23:00",
                                                   "quiet_end": "06:00"})
    assert response.status_code == 302
    prefs = PushPreferences.objects.get(user=bob)
    assert (prefs.events, prefs.time_zone, prefs.quiet_start) == (["your_turn", "chat"], "Asia/Tokyo", clock_time(23))
    response = client.post("/accounts/settings/", {"save_push": "1", "time_zone": "UTC", "quiet_start": "23:00"})
    assert response.status_code == 200 and "both ends" in response.content.decode()
    device = PushSubscription.objects.get()
    assert client.post("/accounts/settings/", {"remove_push": str(device.pk)}).status_code == 302
    assert not PushSubscription.objects.exists()


def test_the_vapid_key_command_makes_a_key_pywebpush_signs_with(capsys):
    from django.core.management import call_command

    call_command("vapid_keys")
    line = capsys.readouterr().out.splitlines()[0]
    key = line.split("=", 1)[1]
    assert len(push.b64url_decode(key)) == 32
    assert push._vapid_for(key).sign({"sub": "mailto:a@b.c", "aud": "https://x", "exp": 9999999999})["Authorization"]


@pytest.mark.django_db
def test_a_push_whose_worker_died_after_the_flush_is_sent_once_its_lease_lapses(push_on, push_service, client,
                                                                               make_user):
    match, alice, bob = duel(make_user)
    bobs_notices_are_done()
    keys = subscribe(client, bob, push_service, "bob-phone")
    play(match, alice, 0)
    now = timezone.now()
    [held] = push._flush(bob.pk, now=now, claim=1)  # flushed and claimed; the worker dies here
    assert push.sweep(now=now + timedelta(seconds=30)) == 0 and push_service.received == []
    assert push.sweep(now=now + push.LEASE + timedelta(seconds=1)) == 1
    assert keys.payload(push_service.received[0])["title"] == "Your move"
    assert not PushDelivery.objects.filter(pk=held.pk).exists()
