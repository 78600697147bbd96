"""Who may see, join and talk in a game, as a table: every registered kind of the site ×
status (open, active, finished) × door (page, API, join by API and by page, chat, history
and replay, the record and its check, websocket) × who (anonymous, a stranger, a person
invited, a seated player, staff). The rule is games/table/access.py's, written down in docs/architecture.md ("Who may see
and join a game"); this file states it again, door by door, as the expected answers.

A private game (no spectators) admits only the people invited to it, before and after it
starts: a stranger once took a seat in a private Fluxx game under way (its
late-joiners option on) through the join endpoint, though every read refused them.
A public game must stay open to all: the second test checks the rule does not shut it."""
from __future__ import annotations

import asyncio

import pytest
from django.test import Client

from decks import services as deck_services
from decks.models import Deck
from games.table import services
from games import registry
from games.models import Match, Seat
from tests.platform.wsclient import communicator, session_cookie
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# The site's own kinds (the registry also holds the suite's test games).
SITE_KINDS = sorted(__import__(p, fromlist=["ROOM"]).ROOM.kind for p in registry.ROOMS)
STATUSES = ("open", "active", "finished")
VIEW_DOORS = ("page", "history page", "replay page", "API game", "API log", "API chat list", "API replay",
              "API record", "API check", "websocket")


def test_the_site_kinds_are_the_five_of_the_registry():
    assert SITE_KINDS == ["camelot", "ccg", "cupquest", "duel", "fluxx"]


# --- the cast and their games ---------------------------------------------------------------

def choice_for(kind: str, user) -> dict | None:
    """A kind that asks each seat for a choice (the CCG's deck) gets the player's starter deck."""
    if registry.room(kind).seat_form is None:
        return None
    if not Deck.objects.filter(owner=user).exists():
        deck_services.starter_grant(user=user)
    return {"deck": Deck.objects.filter(owner=user).order_by("id").first().pk}


def new_game(kind: str, creator, invitees, *, private: bool = True, open_seats: int = 0) -> Match:
    seats = max(registry.get(kind).min_players, 1 + len(invitees) + open_seats)
    return services.match_create(creator=creator, kind=kind, num_seats=seats, invite=[u.username for u in invitees],
                                 allow_spectators=not private, seed=7, creator_choice=choice_for(kind, creator))


def started(kind: str, creator, invitees, *, private: bool = True) -> Match:
    match = new_game(kind, creator, invitees, private=private)
    for user in invitees:
        services.match_join(match_id=match.pk, user=user, choice=choice_for(kind, user))
    match.refresh_from_db()
    assert match.status == "active", (kind, match.status)
    return match


def finished(kind: str, creator, invitees, *, private: bool = True) -> Match:
    """Started, played a while, then every invitee resigns until the game is over (three-seat
    games need two)."""
    match = started(kind, creator, invitees, private=private)
    seated_players_moved(match)  # a resignation before one's first move would abort it instead
    for user in invitees:
        if match.status != "active":
            break
        services.match_resign(match_id=match.pk, user=user)
        match.refresh_from_db()
    assert match.status == "finished", (kind, match.status)
    return match


@pytest.fixture
def cast(make_user, cards):
    """The creator (a seated player), the invited (one for each seat after the creator's in
    the largest minimum, Camelot's three), a stranger and a member of staff."""
    return {"player": make_user("creator"), "invited": make_user("invited"), "third": make_user("third"),
            "stranger": make_user("stranger"), "staff": make_user("staff", is_staff=True)}


def invitees_for(kind: str, cast) -> list:
    return [cast["invited"], cast["third"]][:registry.get(kind).min_players - 1]


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


# --- what each door answers ---------------------------------------------------------------

def view_door(client, door: str, match) -> int:
    paths = {"page": f"/games/{match.pk}/", "history page": f"/games/{match.pk}/history/",
             "replay page": f"/games/{match.pk}/replay/", "API game": f"/api/matches/{match.pk}/",
             "API log": f"/api/matches/{match.pk}/log/", "API chat list": f"/api/matches/{match.pk}/chat/",
             "API replay": f"/api/matches/{match.pk}/replay/", "API record": f"/api/matches/{match.pk}/record/",
             "API check": f"/api/matches/{match.pk}/check/"}
    return client.get(paths[door]).status_code


def sockets_open(match, cookies: dict) -> dict:
    """{who: whether the game's websocket accepted them} through the real Redis layer."""
    async def opens(cookie) -> bool:
        ws = communicator(f"/ws/matches/{match.pk}/", cookie)
        connected, _ = await ws.connect()
        if connected:
            await ws.disconnect()
        return connected

    async def all_of():
        return {who: await opens(cookie) for who, cookie in cookies.items()}

    return asyncio.run(all_of())


def expected_view(door: str, status: str, may: bool) -> set[int]:
    """The answers a door may give: to someone who may see the game, and to someone who may
    not (a page says 404, the API 403: the same as for a game that does not exist)."""
    if not may:
        return {404} if door in ("page", "history page", "replay page") else {403}
    if door == "API replay" and status == "open":
        return {404}  # "This game has not started": nothing to replay yet
    return {200}


def seat_count(match, user) -> int:
    return Seat.objects.filter(match=match, user=user).count()


# --- a private game ----------------------------------------------------------------------

# Who may see a private game: its players, those invited to it, staff. Who may join it: only
# someone invited (an invitation exists only while the game is open). Who may talk: players.
PRIVATE_VIEW = {"anonymous": False, "stranger": False, "invited": True, "player": True, "staff": True}


@pytest.mark.parametrize("kind", SITE_KINDS)
def test_a_private_game_admits_only_the_people_invited_at_every_door(kind, cast):
    invitees = invitees_for(kind, cast)
    games = {"open": new_game(kind, cast["player"], invitees), "active": started(kind, cast["player"], invitees),
             "finished": finished(kind, cast["player"], invitees)}
    clients = {"anonymous": client_for(None), **{who: client_for(cast[who])
                                                 for who in ("stranger", "invited", "player", "staff")}}
    cookies = {"anonymous": None, **{who: session_cookie(cast[who]) for who in ("stranger", "invited", "player", "staff")}}
    problems = []

    def check(status, door, who, got, allowed):
        if got not in allowed:
            problems.append(f"{kind} {status} {door} as {who}: {got}, expected {sorted(allowed)}")

    for status, match in games.items():
        match.refresh_from_db()
        before = (match.version, match.num_seats, match.status, match.move_count)
        # Before it starts the invited person holds an invitation; after, a seat.
        for who, client in clients.items():
            for door in VIEW_DOORS[:-1]:
                check(status, door, who, view_door(client, door, match),
                      expected_view(door, status, PRIVATE_VIEW[who]))
        for who, connected in sockets_open(match, cookies).items():
            if connected is not PRIVATE_VIEW[who]:
                problems.append(f"{kind} {status} websocket as {who}: {'open' if connected else 'refused'}")
        # Chat: the players' channel; an invitation is not a seat, staff and strangers are outside.
        for who, client in clients.items():
            got = client.post(f"/api/matches/{match.pk}/chat/", {"text": "hello"}, content_type="application/json")
            seated = who == "player" or (who == "invited" and status != "open")
            check(status, "API chat post", who, got.status_code,
                  {201} if seated else {401} if who == "anonymous" else {403})
        # Joining, by the API and by the page's button, for all but the invited (whose
        # acceptance changes the game: below, on games of their own).
        for who in ("anonymous", "stranger", "player", "staff"):
            client = clients[who]
            got = client.post(f"/api/matches/{match.pk}/join/", "{}", content_type="application/json")
            refused = {"anonymous": {401}, "stranger": {403}, "staff": {403}, "player": {400}}[who]
            check(status, "API join", who, got.status_code, refused)
            got = client.post(f"/games/{match.pk}/join/")
            # The page: to the login (anonymous), "no such game" (who may not see it), or
            # back to the game with the reason (who may).
            check(status, "page join", who, got.status_code, {302} if who != "stranger" else {404})
            if who == "staff" and got.status_code == 302:
                check(status, "page join redirect", who, got["Location"], {f"/games/{match.pk}/"})
        if status != "open":
            # An invitation exists only before the start: by then the invited person plays.
            got = clients["invited"].post(f"/api/matches/{match.pk}/join/", "{}", content_type="application/json")
            check(status, "API join", "invited (now seated)", got.status_code, {400})
        for who in ("stranger", "staff"):
            if seat_count(match, cast[who]):
                problems.append(f"{kind} {status}: {who} was given a seat")
        match.refresh_from_db()
        if (match.version, match.num_seats, match.status, match.move_count) != before:
            problems.append(f"{kind} {status}: the game changed under refused requests: "
                            f"{before} -> {(match.version, match.num_seats, match.status, match.move_count)}")
    # The invited person's own door, by the API and by the page: each accepts their invitation.
    for door in ("API join", "page join"):
        match = new_game(kind, cast["player"], invitees)
        client, choice = clients["invited"], choice_for(kind, cast["invited"])
        if door == "API join":
            got = client.post(f"/api/matches/{match.pk}/join/", {"choice": choice} if choice else {},
                              content_type="application/json").status_code
            check("open", door, "invited", got, {200})
        else:
            form = {f"seat-{k}": v for k, v in (choice or {}).items()}
            got = client.post(f"/games/{match.pk}/join/", form)
            check("open", door, "invited", (got.status_code, got["Location"]), {(302, f"/games/{match.pk}/")})
        seat = Seat.objects.get(match=match, user=cast["invited"])
        if not seat.accepted:
            problems.append(f"{kind} open {door} as invited: the invitation was not accepted")
    assert not problems, "\n".join(problems)


def test_no_private_game_offers_a_seat_to_strangers(cast):
    """A private game's seats are all given: to people invited, or to computer players. One
    with a seat left open could be joined by no one (or, before, by anyone from the lobby)."""
    from grailsite.errors import ServiceError

    with pytest.raises(ServiceError, match="invitation"):
        services.match_create(creator=cast["player"], kind="cupquest", num_seats=3, invite=["invited"],
                              allow_spectators=False)
    match = services.match_create(creator=cast["player"], kind="cupquest", num_seats=3, invite=["invited"],
                                  allow_spectators=False, computers_at={2: "knight"})
    assert match.status == "open"
    client = client_for(cast["stranger"])
    assert f"/games/{match.pk}/" not in client.get("/lobby/").content.decode()


# --- a public game stays open ---------------------------------------------------------------

@pytest.mark.parametrize("kind", SITE_KINDS)
def test_a_public_game_is_open_to_watch_and_its_free_seats_to_take(kind, cast):
    """The same doors on a game with spectators: anyone sees every status of it; a stranger
    takes an open seat before the start and, in a game whose rules deal newcomers in (Fluxx,
    with late joiners allowed), a new one while it runs; nobody talks but the players."""
    invitees = invitees_for(kind, cast)
    games = {"open": new_game(kind, cast["player"], [], private=False, open_seats=len(invitees)),
             "active": started(kind, cast["player"], invitees, private=False),
             "finished": finished(kind, cast["player"], invitees, private=False)}
    clients = {"anonymous": client_for(None), "stranger": client_for(cast["stranger"])}
    problems = []
    for status, match in games.items():
        for who, client in clients.items():
            for door in VIEW_DOORS[:-1]:
                got = view_door(client, door, match)
                if got not in expected_view(door, status, True):
                    problems.append(f"{kind} {status} {door} as {who}: {got}")
        opened = sockets_open(match, {"anonymous": None, "stranger": session_cookie(cast["stranger"])})
        if not all(opened.values()):
            problems.append(f"{kind} {status} websocket: {opened}")
        got = clients["stranger"].post(f"/api/matches/{match.pk}/chat/", {"text": "hi"}, content_type="application/json")
        if got.status_code != 403:
            problems.append(f"{kind} {status} chat as stranger: {got.status_code}")
        choice = choice_for(kind, cast["stranger"])
        got = clients["stranger"].post(f"/api/matches/{match.pk}/join/", {"choice": choice} if choice else {},
                                       content_type="application/json")
        takes_newcomers = status == "active" and kind == "fluxx"
        want = 200 if status == "open" or takes_newcomers else 400
        if got.status_code != want:
            problems.append(f"{kind} {status} API join as stranger: {got.status_code} {got.content[:120]}, want {want}")
        if seat_count(match, cast["stranger"]) != (want == 200):
            problems.append(f"{kind} {status}: the stranger's seats: {seat_count(match, cast['stranger'])}")
    assert not problems, "\n".join(problems)
