"""Personal API tokens: made and revoked by their owner, stored as a SHA-256 digest only.

A key is ``gb_`` and 40 random URL-safe characters (240 bits): long enough that a digest
without salt or stretching is safe (no one guesses a key from its digest), and looked up by
that digest in one indexed read. The key itself is returned once, by ``token_create``."""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from grailsite.accounts.models import ApiToken, Profile
from grailsite.errors import NotFound, ServiceError

PREFIX = "gb_"
MAX_TOKENS = 20          # live tokens per account
TOUCH_EVERY = timedelta(minutes=10)  # "last used" is written at most this often per token
ALL_SCOPES = frozenset(ApiToken.SCOPES)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def token_create(*, user, name: str, scopes) -> tuple[ApiToken, str]:
    """A new token of ``user``: (the row, the key, to be shown once and never again)."""
    name = (name or "").strip()
    if not 1 <= len(name) <= 60:
        raise ServiceError("Name the token in 1 to 60 characters (what uses it: \"my bot\").")
    scopes = sorted(set(scopes or ()))
    if not scopes or not set(scopes) <= ALL_SCOPES:
        raise ServiceError("A token's scopes are 'read', 'play' or both.")
    with transaction.atomic():
        live = ApiToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True)
        if len(live) >= MAX_TOKENS:
            raise ServiceError(f"An account keeps at most {MAX_TOKENS} tokens: revoke one first.")
        key = PREFIX + secrets.token_urlsafe(30)
        token = ApiToken.objects.create(user=user, name=name, digest=digest(key), prefix=key[:8], scopes=scopes)
    return token, key


def token_revoke(*, user, token_id: int) -> ApiToken:
    token = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).first()
    if token is None:
        raise NotFound("No such token of yours.")
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    return token


def tokens_of(user) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user, revoked_at__isnull=True))


def key_user(key: str):
    """(user, scopes, token id) of a key, or None: a live token of an active account, or the
    account's older single key (``Profile.api_token``, every scope)."""
    if key.startswith(PREFIX):
        token = (ApiToken.objects.select_related("user")
                 .filter(digest=digest(key), revoked_at__isnull=True, user__is_active=True).first())
        if token is None:
            return None
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, frozenset(token.scopes), token.pk
    profile = Profile.objects.select_related("user").filter(api_token=key, user__is_active=True).first()
    return (profile.user, ALL_SCOPES, None) if profile else None
