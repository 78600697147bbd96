from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver

from grailsite import time_zones

from .models import Profile, PushPreferences


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def profile_create(sender, instance, created, **kwargs):
    if created:
        Profile.objects.get_or_create(user=instance)


@receiver(user_logged_in)
def time_zone_remember(sender, request, user, **kwargs):
    """The zone this person chose rides in their session, so pages say it without a query
    (grailsite/time_zones.py); none chosen: their browser's own."""
    if request is None or not hasattr(request, "session"):
        return
    chosen = PushPreferences.objects.filter(user=user).values_list("time_zone", flat=True).first()
    request.session[time_zones.SESSION_KEY] = time_zones.canonical(chosen) or ""


@receiver(post_save, sender=Profile)
def bot_names_refresh(sender, instance, created, update_fields=None, **kwargs):
    """The list of bots' names (grailsite/accounts/bots.py) follows a change of the mark."""
    from grailsite.accounts import bots

    if instance.is_bot or (update_fields is not None and "is_bot" in update_fields) or (
            not created and update_fields is None):
        bots.refresh()
