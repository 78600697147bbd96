"""Sign up, log in and out, change and reset a password, settings."""
import re

from django.contrib.auth import get_user_model
from django.core import mail

from tests.conftest import PASSWORD


def test_sign_up_logs_in_and_shows_my_games(client, db):
    r = client.post("/accounts/signup/", {"username": "galahad", "email": "g@example.com",
                                          "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302
    home = client.get("/").content.decode()
    assert "My games" in home and "galahad" in home


def test_sign_up_refuses_weak_or_mismatched_passwords(client, db):
    r = client.post("/accounts/signup/", {"username": "x", "password1": "short", "password2": "other"})
    assert r.status_code == 200 and not get_user_model().objects.filter(username="x").exists()


def test_log_in_and_out(client, make_user):
    user = make_user("robin")
    r = client.post("/accounts/login/", {"username": "robin", "password": PASSWORD})
    assert r.status_code == 302 and client.get("/").context["user"] == user
    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated


def test_password_change(client, make_user):
    user = make_user()
    client.force_login(user)
    r = client.post("/accounts/password/change/", {"old_password": PASSWORD, "new_password1": "brave-sir-robin-99",
                                                    "new_password2": "brave-sir-robin-99"})
    assert r.status_code == 302
    user.refresh_from_db()
    assert user.check_password("brave-sir-robin-99")


def test_password_reset_by_email(client, make_user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = make_user("lancelot")
    client.post("/accounts/password/reset/", {"email": user.email})
    assert len(mail.outbox) == 1
    link = re.search(r"http://[^\s]+/reset/[^\s]+/", mail.outbox[0].body).group(0)
    path = link.split("testserver", 1)[1]
    form_page = client.get(path, follow=True)
    r = client.post(form_page.redirect_chain[-1][0], {"new_password1": "swallow-velocity-24",
                                                      "new_password2": "swallow-velocity-24"})
    assert r.status_code == 302
    user.refresh_from_db()
    assert user.check_password("swallow-velocity-24")


def test_settings_switch_email_off(client, make_user):
    user = make_user()
    client.force_login(user)
    client.post("/accounts/settings/", {"save_preferences": "1"})
    user.profile.refresh_from_db()
    assert user.profile.email_notifications is False
