"""Time zones: a new account starts in its browser's zone (the sign-up page's hidden field);
the settings list one zone per place, named with its offset ("Paris (UTC+1)"), never an
alias ("Zulu", "W-SU"); and every page says the chosen zone, for its clocks to show moments
in, without a statement of its own."""
import re
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from grailsite import time_zones
from grailsite.accounts.models import PushPreferences
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _sign_up(client, name, zone):
    return client.post("/accounts/signup/", {"username": name, "email": f"{name}@example.com", "password1": PASSWORD,
                                             "password2": PASSWORD, "time_zone": zone})


@pytest.mark.parametrize("sent, kept", [("Europe/Paris", "Europe/Paris"), ("Asia/Calcutta", "Asia/Kolkata"),
                                        ("Etc/UTC", "UTC"), ("Mars/Olympus_Mons", None), ("", None)])
def test_a_new_account_starts_in_its_browsers_zone(client, sent, kept):
    assert _sign_up(client, "arthur", sent).status_code == 302
    assert PushPreferences.objects.filter(user__username="arthur").values_list("time_zone", flat=True).first() == kept


def test_the_sign_up_form_has_the_hidden_zone_field_and_its_script(client):
    page = client.get("/accounts/signup/").content.decode()
    assert re.search(r'<input type="hidden" name="time_zone"[^>]*>', page)
    assert "resolvedOptions().timeZone" in page
    assert '<label for="id_time_zone"' not in page  # a hidden field, not a row


def _zone_options(page: str) -> dict[str, str]:
    select = page.split('name="time_zone"')[1].split("</select>")[0]
    return dict(re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select))


def test_the_settings_list_places_with_their_offsets_and_no_aliases(client, make_user):
    user = make_user("arthur")
    PushPreferences.objects.create(user=user, time_zone="Asia/Calcutta")  # stored before the list was curated
    client.force_login(user)
    page = client.get("/accounts/settings/").content.decode()
    options = _zone_options(page)
    now = datetime.now(timezone.utc)
    paris = time_zones.offset_words(ZoneInfo("Europe/Paris"), now)
    assert options["Europe/Paris"] == f"Paris ({paris})" and paris in ("UTC+1", "UTC+2")
    assert options["Asia/Kathmandu"] == "Kathmandu (UTC+5:45)" and options["UTC"] == "UTC (UTC+0)"
    assert options["America/Argentina/San_Juan"] == "San Juan, Argentina (UTC-3)"
    for alias in ("Zulu", "W-SU", "Asia/Calcutta", "US/Eastern", "Etc/UTC", "GMT", "Europe/Kiev"):
        assert alias not in options
    assert 300 < len(options) < 500
    assert re.search(r'<option value="Asia/Kolkata" selected>', page)  # the alias shows as its place
    assert '<optgroup label="Europe">' in page


def test_pages_say_the_chosen_zone_without_a_statement_more(client, make_user):
    user = make_user("arthur")
    PushPreferences.objects.create(user=user, time_zone="Asia/Tokyo")
    client.login(username="arthur", password=PASSWORD)
    assert 'data-time-zone="Asia/Tokyo"' in client.get("/lobby/").content.decode()
    response = client.post("/accounts/settings/", {"save_push": "1", "time_zone": "America/New_York"})
    assert response.status_code == 302
    with CaptureQueriesContext(connection) as ctx:
        page = client.get("/lobby/").content.decode()
    assert 'data-time-zone="America/New_York"' in page
    assert not any("push_preferences" in q["sql"].lower() or "pushpreferences" in q["sql"].lower()
                   for q in ctx.captured_queries)
    client.logout()
    assert "data-time-zone" not in client.get("/lobby/").content.decode()


def test_someone_who_never_chose_gets_their_browsers_zone(client, make_user):
    make_user("arthur")
    client.login(username="arthur", password=PASSWORD)
    assert "data-time-zone" not in client.get("/lobby/").content.decode()
