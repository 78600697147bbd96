"""The JSON API of push notifications: a browser subscribes (the settings page's "Turn on
push on this device" calls it with what ``PushManager.subscribe`` gave), lists and removes
its subscriptions; anyone may read the site's VAPID public key."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated

from ninja import Field, Router, Schema, Status

from games.inbox import push
from grailsite.api_types import ERRORS, NO_NUL, PUBLIC, In
from grailsite.api_auth import Viewer
from grailsite.accounts.models import PushSubscription

router = Router(auth=Viewer(), tags=["push"])
Id = Annotated[int, Field(ge=1, le=2**63 - 1)]


class KeyOut(Schema):
    enabled: bool
    public_key: str = Field(description="The VAPID public key (base64url): PushManager.subscribe's applicationServerKey.")


@router.get("push/key/", response={200: KeyOut, **ERRORS}, auth=PUBLIC, url_name="api_push_key")
def push_key(request):
    key = push.public_key()
    return {"enabled": bool(key), "public_key": key}


BASE64URL = r"^[A-Za-z0-9_-]+=*$"


class KeysIn(In):
    p256dh: str = Field(min_length=80, max_length=100, pattern=BASE64URL,
                        description="The browser's P-256 public key, base64url.")
    auth: str = Field(min_length=16, max_length=32, pattern=BASE64URL,
                      description="The browser's 16-byte auth secret, base64url.")


class SubscriptionIn(In):
    endpoint: str = Field(min_length=12, max_length=1000, pattern=NO_NUL,
                          description="The push service's URL for this browser.")
    keys: KeysIn


class SubscriptionOut(Schema):
    id: int
    label: str
    created_at: datetime


class SubscriptionsOut(Schema):
    subscriptions: list[SubscriptionOut]


@router.post("push/subscriptions/", response={201: SubscriptionOut, **ERRORS}, url_name="api_push_subscribe")
def push_subscribe(request, body: SubscriptionIn):
    subscription = push.subscription_save(user=request.user, endpoint=body.endpoint, p256dh=body.keys.p256dh,
                                          auth=body.keys.auth,
                                          label=push.device_label(request.headers.get("User-Agent", "")))
    return Status(201, subscription)


class HeldIn(In):
    endpoint: str = Field(min_length=12, max_length=1000, pattern=NO_NUL, description="The endpoint being replaced.")
    auth: str = Field(min_length=16, max_length=32, pattern=BASE64URL, description="Its auth secret, base64url.")


class RenewalIn(In):
    old: HeldIn
    new: SubscriptionIn


@router.post("push/subscriptions/renew/", response={200: SubscriptionOut, **ERRORS}, auth=PUBLIC,
             url_name="api_push_renew")
def push_renew(request, body: RenewalIn):
    """The service worker's call when the push service replaced this browser's subscription:
    no session, the old subscription's endpoint and auth secret prove whose it is."""
    return push.subscription_renew(old_endpoint=body.old.endpoint, old_auth=body.old.auth,
                                   endpoint=body.new.endpoint, p256dh=body.new.keys.p256dh, auth=body.new.keys.auth)


@router.get("push/subscriptions/", response={200: SubscriptionsOut, **ERRORS}, url_name="api_push_subscriptions")
def push_subscriptions(request):
    return {"subscriptions": list(PushSubscription.objects.filter(user=request.user))}


@router.delete("push/subscriptions/{id}/", response={204: None, **ERRORS}, url_name="api_push_unsubscribe")
def push_unsubscribe(request, id: Id):
    push.subscription_remove(user=request.user, subscription_id=id)
    return Status(204, None)
