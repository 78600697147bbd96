"""Players (games/players/profiles.py): profiles, leaderboards, follows, blocks and
challenges. Private games never show to outsiders; a blocked player is refused at every
door a test can reach (invite, join by page, API and service, a game under way, a
challenge, a rematch), and a block hides their chat from the blocker alone."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.inbox import recap
from games.players import ratings
from games.table import services
from grailsite.errors import NotAllowed, ServiceError
from games.models import Match, Notification
from games.players import profiles as players
from grailsite.accounts.models import Block, Follow
from tests.conftest import PASSWORD
from tests.conftest import seated_players_moved
from tests.podium_game import everyone_moves

pytestmark = pytest.mark.django_db


def _end(match, creator, winners, draw=False):
    everyone_moves(match)
    services.move_submit(match_id=match.pk, user=creator, move={"type": "end", "winners": winners, "draw": draw},
                         version=None)


def _client(client, user):
    client.login(username=user.username, password=PASSWORD)
    return client


def _ids(html: str) -> set[int]:
    return {int(n) for n in re.findall(r'data-match="(\d+)"', html)}


def test_a_profile_shows_record_rating_chart_current_and_recent_games(client, make_match, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    won, _ = make_match(kind="podium", users=[alice, bob])
    _end(won, alice, [0])
    drawn, _ = make_match(kind="podium", users=[alice, bob])
    _end(drawn, alice, [], draw=True)
    going, _ = make_match(kind="duel", users=[alice, bob])
    page = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "Member since" in page
    row = re.search(r'<tr data-kind="podium">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r"<td>(\d+)</td>", row) == ["2", "1", "1", "0"]  # played, won, drawn, lost
    shown = round(ratings.display(*_mu_sigma(alice, "podium")))
    assert f"<b>{shown}</b>" in row and "Provisional" in row
    assert 'data-testid="chart-podium"' in row and "<polyline" in row
    assert _ids(page) >= {won.pk, drawn.pk, going.pk}
    assert reverse("match_replay", args=[won.pk]) in page
    assert 'href="/players/bob/"' in page  # names link to profiles
    assert reverse("account_settings") not in page.split("<main>")[1]  # a visitor sees no settings link
    mine = _client(client, alice).get(reverse("player_profile", args=["alice"])).content.decode()
    assert 'data-testid="my-settings"' in mine
    assert client.get(reverse("player_profile", args=["nobody"])).status_code == 404


def _mu_sigma(user, kind):
    r = user.ratings.get(kind=kind)
    return r.mu, r.sigma


def test_private_games_never_show_to_outsiders(client, make_match, make_user, django_user_model):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    public_done, _ = make_match(kind="podium", users=[alice, bob])
    _end(public_done, alice, [0])
    private_done, _ = make_match(kind="podium", users=[alice, bob], allow_spectators=False)
    _end(private_done, alice, [0])
    private_going, _ = make_match(kind="duel", users=[alice, bob], allow_spectators=False)
    private = {private_done.pk, private_going.pk}
    url = reverse("player_profile", args=["alice"])

    anonymous = client.get(url).content.decode()
    assert _ids(anonymous) == {public_done.pk}
    outsider = _client(client, carol).get(url).content.decode()
    assert _ids(outsider) == {public_done.pk}
    assert re.findall(r"<td>(\d+)</td>", re.search(r'<tr data-kind="podium">(.*?)</tr>', outsider, re.S).group(1)) \
        == ["1", "1", "0", "0"]  # the private game is not counted for an outsider either
    for who in (bob, alice):
        assert _ids(_client(client, who).get(url).content.decode()) >= private
    staff = django_user_model.objects.create_user("warden", password=PASSWORD, is_staff=True)
    assert _ids(_client(client, staff).get(url).content.decode()) >= private
    # The friends list does not offer a private game to someone not invited.
    dave = make_user("dave")
    secret = services.match_create(creator=alice, kind="podium", num_seats=2, invite=["bob"], allow_spectators=False)
    players.follow(user=dave, name="alice")
    players.follow(user=bob, name="alice")
    assert [m.pk for m in players.friends(dave)[0].open_games] == []
    assert [m.pk for m in players.friends(bob)[0].open_games] == [secret.pk]


def test_profile_queries_do_not_grow_with_games(client, make_match, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    viewer = make_user("viewer")
    _client(client, viewer)
    url = reverse("player_profile", args=["alice"])

    def cost():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    match, _ = make_match(kind="podium", users=[alice, bob])
    _end(match, alice, [0])
    make_match(kind="duel", users=[alice, bob])
    few = cost()
    for n in range(12):
        match, _ = make_match(kind="podium", users=[alice, make_user()])
        _end(match, alice, [n % 2])
        make_match(kind="duel", users=[alice, make_user()])
    assert cost() == few


def test_usernames_link_to_profiles_in_the_lobby_game_page_and_leaderboard(client, make_match, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    services.match_create(creator=alice, kind="podium", num_seats=2)
    assert 'href="/players/alice/"' in client.get(reverse("lobby")).content.decode()
    waiting = services.match_create(creator=alice, kind="podium", num_seats=2, invite=["bob"])
    assert 'href="/players/bob/"' in client.get(reverse("match_detail", args=[waiting.pk])).content.decode()
    for n in range(ratings.PROVISIONAL_GAMES):
        game, _ = make_match(kind="podium", users=[alice, bob])
        _end(game, alice, [n % 2])
    board = client.get(reverse("leaderboard", args=["podium"])).content.decode()
    assert 'href="/players/alice/"' in board and 'href="/players/bob/"' in board


def test_the_leaderboard_lists_established_players_paginated_at_constant_cost(client, make_user, make_match):
    from games.models import Rating
    people = [make_user() for _ in range(120)]
    Rating.objects.bulk_create([Rating(user=u, kind="podium", mu=20 + i / 10, sigma=2, display=ratings.display(
        20 + i / 10, 2), games=ratings.PROVISIONAL_GAMES + (i % 3)) for i, u in enumerate(people[:110])])
    Rating.objects.bulk_create([Rating(user=u, kind="podium", mu=40, sigma=2, display=ratings.display(40, 2), games=3)
                                for u in people[110:]])  # provisional: not ranked however high
    url = reverse("leaderboard", args=["podium"])
    with CaptureQueriesContext(connection) as first:
        page1 = client.get(url).content.decode()
    with CaptureQueriesContext(connection) as third:
        page3 = client.get(url + "?page=3").content.decode()
    assert len(first.captured_queries) == len(third.captured_queries)
    names = re.findall(r'<tr data-player="([^"]+)">', page1)
    assert len(names) == 50 and names[0] == people[109].username
    assert len(re.findall(r'<tr data-player="([^"]+)">', page3)) == 10
    # The provisional are listed apart, under the ranked table, marked.
    ranked = [page.split('data-testid="leaderboard"')[1].split("</table>")[0] for page in (page1, page3)]
    assert not any(u.username in "".join(ranked) for u in people[110:])
    assert set(re.findall(r'<tr data-provisional="([^"]+)">', page1)) == {u.username for u in people[110:]}
    assert client.get(reverse("leaderboard", args=["nosuchgame"])).status_code == 404


def test_bots_rated_in_their_own_pool_have_a_board_of_their_own(client, make_user, settings):
    """A bot's rated games are against bots only: its rating is never ranked among people's,
    and the bots' board (``?board=bots``) lists bots alone, at the same cost as the people's."""
    from games.models import Rating
    from grailsite.accounts.models import Profile
    settings.BOT_GAMES_RATED = "pool"
    person, bot, young_bot = make_user("person"), make_user("botty"), make_user("youngbot")
    Profile.objects.filter(user__in=[bot, young_bot]).update(is_bot=True)
    Rating.objects.bulk_create([
        Rating(user=person, kind="podium", mu=25, sigma=2, display=ratings.display(25, 2),
               games=ratings.PROVISIONAL_GAMES),
        Rating(user=bot, kind="podium", mu=45, sigma=2, display=ratings.display(45, 2),
               games=ratings.PROVISIONAL_GAMES + 5),
        Rating(user=young_bot, kind="podium", mu=30, sigma=2, display=ratings.display(30, 2), games=2)])
    url = reverse("leaderboard", args=["podium"])
    with CaptureQueriesContext(connection) as people_queries:
        people = client.get(url).content.decode()
    with CaptureQueriesContext(connection) as bot_queries:
        bots = client.get(url + "?board=bots").content.decode()
    assert re.findall(r'<tr data-player="([^"]+)">', people) == ["person"]
    assert not re.findall(r'<tr data-provisional="([^"]+)">', people)
    assert re.findall(r'<tr data-player="([^"]+)">', bots) == ["botty"]
    assert re.findall(r'<tr data-provisional="([^"]+)">', bots) == ["youngbot"]
    assert 'data-testid="bots-pool"' in bots and 'data-testid="bots-pool"' not in people
    assert '?board=bots">Bots</a>' in people
    assert len(people_queries.captured_queries) == len(bot_queries.captured_queries)
    # Unrated bots have no board to offer.
    settings.BOT_GAMES_RATED = "unrated"
    assert 'data-testid="board-tabs"' not in client.get(url).content.decode()


def test_follow_and_the_friends_list(client, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    _client(client, alice)
    client.post(reverse("player_tie", args=["bob", "follow"]))
    client.post(reverse("player_tie", args=["bob", "follow"]))  # twice is once
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [("alice", "bob")]
    open_game = services.match_create(creator=bob, kind="podium", num_seats=2)
    page = client.get(reverse("friends")).content.decode()
    assert 'data-friend="bob"' in page and 'data-friend="carol"' not in page and _ids(page) == {open_game.pk}
    assert "Unfollow" in client.get(reverse("player_profile", args=["bob"])).content.decode()
    client.post(reverse("player_tie", args=["bob", "unfollow"]))
    assert not Follow.objects.exists()
    assert client.post(reverse("player_tie", args=["alice", "follow"])).status_code == 302  # yourself: refused
    assert not Follow.objects.exists()
    assert client.post(reverse("player_tie", args=["bob", "befriend"])).status_code == 404
    client.logout()
    assert client.post(reverse("player_tie", args=["bob", "follow"])).status_code == 302 and not Follow.objects.exists()


def test_a_challenge_opens_the_new_game_form_with_that_player_invited(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    _client(client, alice)
    profile = client.get(reverse("player_profile", args=["bob"])).content.decode()
    href = re.search(r'href="([^"]+)" data-testid="challenge"', profile).group(1)
    assert href == reverse("match_new") + "?invite=bob"
    form = client.get(href).content.decode()
    assert re.search(r'name="invite"[^>]*value="bob"', form)


def _chosen(form: str) -> tuple[str, str]:
    """(the game selected, the number of players) of the new-game form's page."""
    kind = re.search(r'<option value="(\w+)"[^>]*selected', form.split('id="id_kind"')[1]).group(1)
    return kind, re.search(r'name="seats" value="(\d+)"', form).group(1)


def test_a_challenge_opens_on_a_game_for_two_they_played_last_or_grail_duel(client, make_user, make_match):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    _client(client, alice)
    challenge = reverse("match_new") + "?invite=bob"
    assert _chosen(client.get(challenge).content.decode()) == ("duel", "2")  # never played: Grail Duel
    make_match(kind="fluxx", users=[alice, bob])
    make_match(kind="cupquest", users=[alice, carol])  # with someone else
    make_match(kind="camelot", seats=3, users=[bob, alice, carol])  # not a game for two
    assert _chosen(client.get(challenge).content.decode()) == ("fluxx", "2")
    # A game asked for by name is kept, with seats it takes.
    assert _chosen(client.get(challenge + "&kind=camelot").content.decode()) == ("camelot", "3")


# --- blocks -------------------------------------------------------------------------------

@pytest.fixture
def blocked(make_user):
    """alice blocked bob."""
    alice, bob = make_user("alice"), make_user("bob")
    players.follow(user=alice, name="bob")
    players.follow(user=bob, name="alice")
    players.block(user=alice, name="bob")
    return alice, bob


def test_a_block_ends_follows_both_ways_and_stops_new_ones(blocked):
    alice, bob = blocked
    assert not Follow.objects.exists()
    with pytest.raises(NotAllowed):
        players.follow(user=bob, name="alice")
    with pytest.raises(NotAllowed):
        players.follow(user=alice, name="bob")


def test_a_blocked_player_cannot_invite_the_blocker(client, blocked):
    alice, bob = blocked
    with pytest.raises(NotAllowed, match="does not take invitations from you"):
        services.match_create(creator=bob, kind="podium", num_seats=2, invite=["alice"])
    with pytest.raises(NotAllowed, match="unblock them"):
        services.match_create(creator=alice, kind="podium", num_seats=2, invite=["bob"])
    _client(client, bob)
    page = client.post(reverse("match_new"), {"kind": "podium", "seats": 2, "invite": "alice", "clock_kind": "days",
                                              "clock_amount": 3, "vacation_days": 0, "allow_spectators": "on",
                                              "rated": "on"}).content.decode()
    assert "does not take invitations from you" in page
    response = client.post("/api/matches/", {"kind": "podium", "seats": 2, "invite": ["alice"]},
                           content_type="application/json")
    assert response.status_code == 403 and "invitations" in response.json()["error"]["message"]
    assert not Match.objects.exists()


def test_a_blocked_player_cannot_join_the_blockers_open_game_by_page_api_or_service(client, blocked, make_user):
    alice, bob = blocked
    game = services.match_create(creator=alice, kind="podium", num_seats=3)
    with pytest.raises(NotAllowed, match="blocked you"):
        services.match_join(match_id=game.pk, user=bob)
    _client(client, bob)
    page = client.get(reverse("match_detail", args=[game.pk])).content.decode()
    assert 'action="/games/%d/join/"' % game.pk not in page
    client.post(reverse("match_action", args=[game.pk, "join"]))
    assert client.post(f"/api/matches/{game.pk}/join/", {}, content_type="application/json").status_code == 403
    # ... nor a game where the blocker sits though another created it
    carol = make_user("carol")
    other = services.match_create(creator=carol, kind="podium", num_seats=3)
    services.match_join(match_id=other.pk, user=alice)
    with pytest.raises(NotAllowed):
        services.match_join(match_id=other.pk, user=bob)
    assert not game.seats.filter(user=bob).exists() and not other.seats.filter(user=bob).exists()
    # ... and the lobby does not offer them.
    assert _ids(client.get(reverse("lobby")).content.decode()).isdisjoint({game.pk, other.pk})


def test_a_blocked_player_cannot_join_a_game_under_way_where_the_blocker_sits(blocked, make_user):
    alice, bob = blocked
    carol = make_user("carol")
    fluxx = services.match_create(creator=alice, kind="fluxx", num_seats=2, invite=["carol"])
    services.match_join(match_id=fluxx.pk, user=carol)
    with pytest.raises(NotAllowed, match="blocked you"):
        services.match_join(match_id=fluxx.pk, user=bob)


def test_a_block_hides_the_blocked_players_lines_from_the_blocker_alone(client, make_user, make_match):
    """The blocked player keeps talking and the rest of the table keeps hearing them; the
    blocker reads only the place of their lines (page, API, recap), so no gap shows, and is
    sent no notice of them."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match, _ = make_match(kind="fluxx", seats=3, users=[alice, bob, carol])
    services.chat_post(match_id=match.pk, user=bob, text="before the block")
    players.block(user=alice, name="bob")
    Notification.objects.filter(kind="chat").update(read_at=timezone.now())
    line = services.chat_post(match_id=match.pk, user=bob, text="after the block")
    assert not Notification.objects.filter(user=alice, kind="chat", read_at__isnull=True).exists()
    assert Notification.objects.filter(user=carol, kind="chat", read_at__isnull=True).exists()
    services.chat_post(match_id=match.pk, user=alice, text="the blocker still talks")

    def heard(user):
        _client(client, user)
        api = client.get(f"/api/matches/{match.pk}/chat/").json()["messages"]
        page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
        return api, page

    api, page = heard(bob)  # the blocked player keeps a working chat box
    assert 'id="chat-form"' in page and [m["text"] for m in api][-2:] == ["after the block", "the blocker still talks"]
    api, page = heard(carol)  # the rest of the table hears everyone
    assert "after the block" in page and [m["user"] for m in api] == ["bob", "bob", "alice"]
    api, page = heard(alice)
    assert "before the block" not in page and "after the block" not in page
    assert [(m["seq"], m["muted"], m["user"], m["text"]) for m in api] == [
        (1, True, "", ""), (2, True, "", ""), (3, False, "alice", "the blocker still talks")]
    after = client.get(f"/api/matches/{match.pk}/chat/?after={line.pk - 1}").json()["messages"]
    assert [m["muted"] for m in after] == [True, False]
    # The game itself goes on: bob still resigns.
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=bob)


def test_the_recap_leaves_out_the_lines_of_those_the_reader_blocked(make_user, make_match):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match, _ = make_match(kind="fluxx", seats=3, users=[alice, bob, carol])
    recap.visit_record(match=match, user=alice)
    players.block(user=alice, name="bob")
    services.chat_post(match_id=match.pk, user=bob, text="you will not read this")
    services.chat_post(match_id=match.pk, user=carol, text="you will read this")
    said = recap.recap_for(match, alice, list(match.seats.all()))["chat"]
    assert [m["text"] for m in said] == ["you will read this"]


def test_a_spectator_blocked_by_a_player_still_talks_in_the_spectators_channel(make_user, make_match):
    alice = make_user("alice")
    game, _ = make_match(kind="duel", users=[alice, make_user()])
    services.chat_spectators_set(match_id=game.pk, user=alice, allowed=True)
    bob = make_user("bob")
    players.block(user=alice, name="bob")
    assert services.chat_post(match_id=game.pk, user=bob, text="from the rail").spectators


def test_the_blocked_player_sees_no_challenge_on_the_blockers_profile(client, blocked):
    alice, bob = blocked
    page = _client(client, bob).get(reverse("player_profile", args=["alice"])).content.decode()
    assert 'data-testid="challenge"' not in page and 'data-testid="follow"' not in page
    assert "alice does not take challenges from you." in page
    page = _client(client, alice).get(reverse("player_profile", args=["bob"])).content.decode()
    assert 'data-testid="challenge"' not in page and 'data-testid="unblock"' in page


def test_a_rematch_never_seats_a_blocked_pair_together(make_user, make_match):
    """Round the table from the one who asks, a person a block ties to someone already
    seated is left out; the others are invited, at a table a seat smaller."""
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    four, _ = make_match(kind="podium", seats=4, users=[alice, bob, carol, dave])
    three, _ = make_match(kind="podium", seats=3, users=[alice, bob, carol])
    for match in (four, three):
        services.move_submit(match_id=match.pk, user=alice, move={"type": "end", "winners": [0], "draw": False}, version=None)
    players.block(user=carol, name="bob")  # two people the asker is on good terms with
    rematch, _ = services.match_rematch(match_id=four.pk, user=alice)
    assert [s.user for s in rematch.seats.order_by("index")] == [alice, bob, dave] and rematch.num_seats == 3
    assert not Notification.objects.filter(user=carol, match=rematch).exists()
    # Asked by the one blocked, the blocker is left out.
    rematch, _ = services.match_rematch(match_id=three.pk, user=bob)
    assert [s.user for s in rematch.seats.order_by("index")] == [bob, alice]


def test_a_two_player_rematch_of_a_blocked_pair_leaves_the_seat_open(make_user, make_match):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match, _ = make_match(kind="podium", users=[alice, bob])
    private, _ = make_match(kind="podium", users=[alice, carol], allow_spectators=False)
    for game in (match, private):
        services.move_submit(match_id=game.pk, user=alice, move={"type": "end", "winners": [0], "draw": False}, version=None)
    players.block(user=bob, name="alice")
    players.block(user=alice, name="carol")
    rematch, _ = services.match_rematch(match_id=match.pk, user=alice)
    assert [(s.user, s.accepted) for s in rematch.seats.order_by("index")] == [(alice, True), (None, False)]
    assert not Notification.objects.filter(user=bob, match=rematch).exists()
    with pytest.raises(ServiceError, match="start a new game"):
        services.match_rematch(match_id=private.pk, user=alice)


def test_unblock_lets_them_back(blocked):
    alice, bob = blocked
    players.unblock(user=alice, name="bob")
    assert not Block.objects.exists()
    game = services.match_create(creator=bob, kind="podium", num_seats=2, invite=["alice"])
    services.match_join(match_id=game.pk, user=alice)


def test_public_decks_show_on_the_profile_and_private_ones_nowhere(client, make_user):
    from decks import services as deck_services
    from decks.models import Card, Deck

    alice, carol = make_user("alice"), make_user("carol")
    official = Card.objects.filter(author__isnull=True).order_by("code").first()
    shared = deck_services.deck_save(user=alice, name="Knights of Ni", cards={official.code: 2})
    hidden = deck_services.deck_save(user=alice, name="Secret plan", cards={official.code: 1})
    _client(client, alice)
    client.post(reverse("deck_share", args=[shared.pk]), {"public": "1"})
    assert Deck.objects.get(pk=shared.pk).public and not Deck.objects.get(pk=hidden.pk).public
    _client(client, carol)
    profile = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "Knights of Ni" in profile and "Secret plan" not in profile
    page = client.get(reverse("deck_public", args=[shared.pk])).content.decode()
    assert f"2 × <a href=\"{reverse('card_detail', args=[official.code])}\">{official.title}</a>" in page
    assert client.get(reverse("deck_public", args=[hidden.pk])).status_code == 404
    assert client.post(reverse("deck_share", args=[hidden.pk]), {"public": "1"}).status_code == 404  # not hers
    client.logout()
    assert client.get(reverse("deck_public", args=[hidden.pk])).status_code == 404
    assert client.get(reverse("deck_public", args=[shared.pk])).status_code == 200


def test_the_history_page_links_the_players_names_and_escapes_the_rest(client, make_user, make_match):
    alice, bob = make_user("alice"), make_user("bob")
    match, _ = make_match(kind="duel", users=[alice, bob])
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=bob)
    page = client.get(reverse("match_history", args=[match.pk])).content.decode()
    assert '<a class="player" href="/players/bob/">bob</a> resigns' in page


def test_linked_names_escapes_text_around_names():
    from types import SimpleNamespace

    from games.templatetags.players import linked_names

    seats = [SimpleNamespace(user_id=1, computer="", user=SimpleNamespace(username="al")),
             SimpleNamespace(user_id=None, computer="knight", user=None)]
    assert str(linked_names("a rally, royal", seats)) == "a rally, royal"
    out = str(linked_names("<b>al</b> & al's", seats))
    assert out == ('&lt;b&gt;<a class="player" href="/players/al/">al</a>&lt;/b&gt; &amp; '
                   '<a class="player" href="/players/al/">al</a>&#x27;s')
