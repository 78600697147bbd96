"""Who may post in a game's chat: the players; spectators only when the table
allows it, and then in a channel of their own that the players never read."""
import json

import pytest

from games.table import selectors, services
from grailsite.errors import NotAllowed
from games.models import ChatMessage


def test_a_spectator_cannot_post_in_the_players_chat(client, make_match, make_user):
    match, (alice, _) = make_match()
    watcher = make_user()
    with pytest.raises(NotAllowed):
        services.chat_post(match_id=match.pk, user=watcher, text="Go left!")
    client.force_login(watcher)
    response = client.post(f"/api/matches/{match.pk}/chat/", data=json.dumps({"text": "Go left!"}),
                           content_type="application/json")
    assert response.status_code == 403
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert 'id="chat-form"' not in page and "Only the players chat here." in page
    assert not ChatMessage.objects.exists()
    services.chat_post(match_id=match.pk, user=alice, text="Ni!")


def test_with_the_table_option_spectators_talk_among_themselves(client, make_match, make_user):
    match, (alice, bob) = make_match()
    watcher = make_user()
    with pytest.raises(NotAllowed):
        services.chat_spectators_set(match_id=match.pk, user=bob, allowed=True)  # only the creator
    client.force_login(alice)
    client.post(f"/games/{match.pk}/spectator-chat/", {"allowed": "1"})
    match.refresh_from_db()
    assert match.spectator_chat
    services.chat_post(match_id=match.pk, user=watcher, text="He should run away.")
    services.chat_post(match_id=match.pk, user=alice, text="Ni!")
    assert [m["text"] for m in selectors.chat_for(match, player=True)] == ["Ni!"]
    assert [m["text"] for m in selectors.chat_for(match, player=False)] == ["He should run away.", "Ni!"]
    # The players' page never carries the spectators' channel; the spectators' page does.
    assert "run away" not in client.get(f"/games/{match.pk}/").content.decode()
    client.force_login(watcher)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "He should run away." in page and 'id="chat-form"' in page
