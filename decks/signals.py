"""A new account receives its starter collection and decks, through the ledger."""
from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="decks_starter_grant")
def starter_grant_on_signup(sender, instance, created, raw=False, **kwargs):
    if not created or raw:
        return
    # After commit, so a sign-up that rolls back leaves no ledger behind; the grant itself
    # is one transaction and refuses to run twice for the same user.
    transaction.on_commit(lambda: _grant(instance))


def _grant(user):
    from decks import services
    try:
        services.starter_grant(user=user)
    except services.ServiceError:
        # Only possible when the card database lacks the starter cards (an emptied test
        # database); the account itself must still work, so log loudly instead of failing.
        logging.getLogger(__name__).exception("Starter grant failed for user %s", user.pk)
