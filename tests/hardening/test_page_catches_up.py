"""The game page notices a push that never came (Redis lost it): its heartbeat asks with its
version, the server answers with the newer state, and the page shows it was catching up."""
import pytest
from django.contrib.auth import get_user_model

from games.live import publisher
from games.table import services
from tests.browser.helpers import sign_up, wait_live

pytestmark = pytest.mark.browser


def test_a_lost_push_is_caught_up_by_the_heartbeat(live_url, new_page, monkeypatch):
    alice_page = new_page()
    sign_up(alice_page, live_url, "lancelot")
    bystander = new_page()
    sign_up(bystander, live_url, "galahad")
    User = get_user_model()
    alice, bob = User.objects.get(username="lancelot"), User.objects.get(username="galahad")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["galahad"], seed=5)
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()

    alice_page.goto(f"{live_url}/games/{match.pk}/")
    wait_live(alice_page)
    seen = alice_page.evaluate("Grail.page.data.version")
    assert seen == match.version
    alice_page.evaluate("""() => {
        window.connStates = [];
        const dot = document.getElementById('conn');
        new MutationObserver(() => window.connStates.push(dot.dataset.state))
            .observe(dot, {attributes: true, attributeFilter: ['data-state']});
    }""")

    monkeypatch.setattr(publisher, "group_send", lambda group, message: None)  # the push is lost
    monkeypatch.setattr(publisher, "group_send_many", lambda messages: None)
    move = {"type": "play", "card": match.state["hands"][0][0]}
    services.move_submit(match_id=match.pk, user=alice, move=move, version=match.version)
    alice_page.wait_for_timeout(1000)
    assert alice_page.evaluate("Grail.page.data.version") == seen  # nothing arrived by itself

    alice_page.evaluate("Grail.page.ping(Grail.page.ws)")  # what the 25 s heartbeat does
    alice_page.wait_for_function(f"Grail.page.data.version > {seen}")
    alice_page.wait_for_function("document.getElementById('conn').dataset.state === 'up'")
    assert "catching" in alice_page.evaluate("window.connStates")
