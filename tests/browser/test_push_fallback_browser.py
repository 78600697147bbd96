"""Push where the browser cannot, in Chromium: a browser that refuses notifications, and one
whose push service will not register it, are told in words what to do next (never the
browser's own error), and offered reminders by e-mail, which one press turns on."""
import pytest

from grailsite.accounts.models import PushPreferences
from tests.browser.helpers import log_in
from tests.push_service import push_on  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

REFUSED = """() => {
  Object.defineProperty(Notification, "permission", { get: () => "default" });
  Notification.requestPermission = async () => "denied";
}"""
NO_PUSH_SERVICE = """() => {
  PushManager.prototype.getSubscription = async function () { return null; };
  PushManager.prototype.subscribe = async function () {
    throw new DOMException("Registration failed - push service error", "AbortError");
  };
}"""


@pytest.fixture
def settings_page(own_server, new_page, make_user, push_on):  # noqa: F811
    url, _ = own_server(VAPID_PRIVATE_KEY=push_on.VAPID_PRIVATE_KEY, VAPID_SUBJECT=push_on.VAPID_SUBJECT)
    make_user("arthur")

    def open_with(script, grant=False):
        page = new_page()
        if grant:
            page.context.grant_permissions(["notifications"], origin=url)
        page.add_init_script(f"({script})()")
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, url, "arthur")
        page.goto(f"{url}/accounts/settings/")
        assert page.locator("[data-testid=push-fallback]").is_hidden()  # nothing failed yet
        return page, errors

    return open_with


def test_a_browser_that_refuses_notifications_is_told_how_to_allow_them_and_offered_email(settings_page):
    page, errors = settings_page(REFUSED)
    page.click("[data-testid=push-on]")
    page.wait_for_selector("[data-push-status][data-reason=denied]")
    said = page.inner_text("[data-push-status]")
    assert "blocks notifications" in said and "set Notifications to “Allow”" in said
    page.wait_for_selector("[data-testid=push-fallback]:visible")
    page.click("[data-testid=email-reminders]")
    page.wait_for_selector("text=Reminders before your deadlines will come by e-mail to arthur@example.com.")
    assert PushPreferences.objects.get(user__username="arthur").remind_by_email
    assert errors == []


def test_a_browser_its_push_service_will_not_register_is_told_so_in_words(settings_page):
    page, errors = settings_page(NO_PUSH_SERVICE, grant=True)
    page.click("[data-testid=push-on]")
    page.wait_for_selector("[data-push-status][data-reason=failed]")
    said = page.inner_text("[data-push-status]")
    assert "could not sign up with its push service" in said
    assert "Registration failed" not in page.content() and "AbortError" not in page.content()
    assert page.locator("[data-testid=push-fallback]").is_visible()
    assert errors == []


def test_a_refusal_on_the_game_page_is_answered_with_how_to_allow_and_the_email_option(live_url, new_page, make_user,
                                                                                        make_match):
    """The game page asks for notifications at the first click; answered "Block", it says
    what the settings page says of a refusal, and links to the e-mail reminders there."""
    match, _ = make_match(kind="duel", users=[make_user("arthur"), make_user("bedevere")])
    page = new_page()
    page.add_init_script(f"({REFUSED})()")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_url, "arthur")
    page.goto(f"{live_url}/games/{match.pk}/")
    refused = page.locator("[data-testid=push-refused]")
    assert refused.is_hidden()  # nothing was asked yet
    page.click("h1")
    refused.wait_for()
    said = " ".join(refused.inner_text().split())
    assert "blocks notifications from the site" in said and "set Notifications to “Allow”" in said
    page.click("[data-testid=push-refused-email]")
    page.wait_for_selector("[data-testid=email-reminders]:visible")  # the option is in view, with or without push
    assert page.url.endswith("/accounts/settings/#email-reminders")
    assert errors == []
