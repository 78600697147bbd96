"""Where push cannot reach: the settings page offers reminders by e-mail instead (shown at
once when the site has no push, and by the page's script when a browser refuses or fails);
one press turns them on, asking for an address only of an account that has none, and never
changing one it has (a password reset goes there)."""
import re

import pytest
from django.contrib.auth import get_user_model

from grailsite.accounts.models import PushPreferences

pytestmark = pytest.mark.django_db


def _fallback(page: str) -> str:
    return re.search(r'<div class="push-fallback"[^>]*>.*?</div>\s*\n', page, re.S).group(0)


def test_without_push_on_the_site_the_email_offer_shows_at_once(client, make_user, settings):
    settings.VAPID_PRIVATE_KEY = ""
    client.force_login(make_user("arthur"))
    offer = _fallback(client.get("/accounts/settings/").content.decode())
    assert " hidden" not in offer.split(">")[0] and 'data-testid="email-reminders"' in offer


def test_with_push_on_the_site_the_offer_waits_for_the_browser_to_fail(client, make_user, settings):
    from games.inbox import push
    settings.VAPID_PRIVATE_KEY = push.generate_private_key()
    client.force_login(make_user("arthur"))
    offer = _fallback(client.get("/accounts/settings/").content.decode())
    assert " hidden" in offer.split(">")[0]


def test_one_press_turns_email_reminders_on_with_the_default_cadence(client, make_user):
    arthur = make_user("arthur")
    PushPreferences.objects.create(user=arthur, reminder_hours=[], remind_by_email=False)
    client.force_login(arthur)
    page = client.get("/accounts/settings/").content.decode()
    assert 'name="email"' not in _fallback(page) and "arthur@example.com" in _fallback(page)
    response = client.post("/accounts/settings/", {"email_reminders": "1", "email": "someone@else.example"})
    assert response.status_code == 302
    prefs = PushPreferences.objects.get(user=arthur)
    assert prefs.remind_by_email and prefs.reminder_hours == [24, 4, 1]
    assert get_user_model().objects.get(pk=arthur.pk).email == "arthur@example.com"  # never changed here
    page = client.get("/accounts/settings/").content.decode()
    assert "by e-mail to arthur@example.com" in page
    assert "Your reminders come by e-mail to <b>arthur@example.com</b>" in _fallback(page)


def test_an_account_without_an_address_gives_one(client, make_user):
    patsy = make_user("patsy", email="")
    client.force_login(patsy)
    assert 'name="email"' in _fallback(client.get("/accounts/settings/").content.decode())
    page = client.post("/accounts/settings/", {"email_reminders": "1", "email": ""}).content.decode()
    assert "This field is required." in page and not PushPreferences.objects.filter(user=patsy).exists()
    assert client.post("/accounts/settings/", {"email_reminders": "1", "email": "patsy@coconut.example"}).status_code == 302
    assert get_user_model().objects.get(pk=patsy.pk).email == "patsy@coconut.example"
    assert PushPreferences.objects.get(user=patsy).remind_by_email
