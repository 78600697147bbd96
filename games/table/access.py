"""Who may see a game, join it, and talk in it: the one answer every door asks (the game's
page, history and replay, the JSON API, the websocket, joining by page or API, chat).
The rule, in words, is in docs/architecture.md ("Who may see and join a game"):

- A game with spectators (``allow_spectators``) is public: anyone may watch it, signed in
  or not, in every status.
- A game without spectators is private: only the people tied to it see it (those seated,
  those invited, those who left their seat to a computer player) and staff; to anyone
  else it answers as a game that does not exist would (a page's 404, the API's 403).
- Only someone invited sits at a private game, before or after it starts; its seats are
  all given when it is created (to people invited, or to computer players), so it has no
  seat a stranger could take from the lobby.
- A seat once left stays left: a person whose seat a computer player took over (they
  resigned, or ran out of time) may not sit at that table again. The site has no way to
  invite someone back into a game, so they cannot rejoin it.
- The game's chat is the players'; spectators talk only when the table allows it, in a
  channel of their own (services.chat_post). An invitation is not a seat.
- A block (grailsite.accounts.models.Block) keeps the blocked person away from the one who
  blocked them: they may not take a seat, even an invited one, at a table where the blocker
  sits, nor invite the blocker (services.match_create asks ``invite_refusal``); a rematch
  seats no blocked pair together (``blocked_pairs``). A game both were already playing goes
  on. A block never silences anyone at a table: the blocked person keeps talking, and only
  the blocker stops reading them (``muted_authors``, asked where lines are read: the page,
  the API, the socket, the recap), so the rest of the table hears everyone.
- A table that asks for reliable players (``Match.min_reliability``) seats only someone
  whose record meets it (games/table/reliability.py), whether they take an open seat or
  accept an invitation; the creator cannot invite anyone who could not accept.

Whether there is a seat to take (an open one, or a new one the rules deal in: Fluxx's late
joiners) is the service's question, asked again under the match lock; this module says only
whether this person may take one. Everything here reads the seats the caller already has;
the queries of its own are whether anyone seated blocked this person (``blocked_by_seated``),
asked only of someone signed in who wants to sit, and their reliability, asked only at a
table that wants a minimum; ``muted_authors`` is a subquery, joined into the statement that
reads the lines."""
from __future__ import annotations

from games import registry
from games.table import reliability
from grailsite.errors import NotAllowed, ServiceError, Unauthenticated
from grailsite.accounts.models import Block, Profile


class Unreliable(NotAllowed):
    """The table asks for players who finish their games, and this record falls short: the
    page says so where the join button would be."""


def is_private(match) -> bool:
    return not match.allow_spectators


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated


def seat_of(user, seats):
    """This person's seat, accepted or an unanswered invitation, or None."""
    if not _signed_in(user):
        return None
    return next((s for s in seats if s.user_id == user.id), None)


def left(user, seats) -> bool:
    """Whether this person held a seat here that a computer player took over."""
    return _signed_in(user) and any(s.left_by_id == user.id for s in seats)


def can_view(match, user, seats) -> bool:
    """Anyone, in a public game; in a private one, those tied to it and staff."""
    if not is_private(match):
        return True
    if not _signed_in(user):
        return False
    return user.is_staff or seat_of(user, seats) is not None or left(user, seats)


def join_refusal(match, user, seats) -> ServiceError | None:
    """Why this person may not take a seat in this game (None: they may, if there is one).
    An invitation admits its holder to a private game; a private game admits nobody else;
    nobody sits again at a table they left; nobody joins a tournament's or a ladder's game
    under way; a table that asks for players who finish their games seats only those whose
    record meets it, invited or not."""
    if not _signed_in(user):
        return Unauthenticated("Log in to join a game.")
    mine = seat_of(user, seats)
    if mine is not None and mine.accepted:
        return ServiceError("You already have a seat in this game.")
    if left(user, seats):
        return NotAllowed("You left this game: a seat once left stays left, so you cannot sit down again.")
    if blocked_by_seated(user, seats):
        return NotAllowed("A player at this table has blocked you, so you cannot sit down here.")
    if mine is None and is_private(match):
        return NotAllowed("This game is by invitation only.")
    if match.competition:
        # The competition chose its players and owes each a result: a stranger dealt in
        # would play a game that counts for nothing, or spoil one that counts for others.
        return NotAllowed("This is a tournament or ladder game: only the players it drew play here.")
    # Asked last, of someone who could otherwise sit (an open seat, or their invitation).
    return reliability_refusal(match, user)


def reliability_refusal(match, user) -> ServiceError | None:
    """Why this person may not sit at a table that asks for players who finish their games
    (None: they may, or it asks nothing): one statement, only when it asks."""
    if not match.min_reliability:
        return None
    record = reliability.of(user.id)
    if record.meets(match.min_reliability):
        return None
    return Unreliable(reliability.refusal_text(match.min_reliability, record))


def may_join(match, user, seats) -> bool:
    return join_refusal(match, user, seats) is None


def check_join(match, user, seats) -> None:
    refusal = join_refusal(match, user, seats)
    if refusal is not None:
        raise refusal


def chat_refusal(match, user, seats) -> ServiceError | None:
    """Why this person may not post in the game's chat (None: they may). A seated player may,
    and, where the table lets spectators talk among themselves, anyone signed in who may
    watch. A block is no reason: it hides the blocked person's lines from the blocker alone
    (``muted_authors``), and the rest of the table still hears them. ``seats``: all the
    game's seats."""
    if not _signed_in(user):
        return Unauthenticated("Log in to chat.")
    mine = seat_of(user, seats)
    if not (mine is not None and mine.accepted) and not (match.allow_spectators and match.spectator_chat):
        return NotAllowed("Only the players can chat in this game.")
    return None


def can_chat(match, user, seats) -> bool:
    return chat_refusal(match, user, seats) is None


def blocked_by_seated(user, seats) -> bool:
    """Whether anyone holding a seat here (or invited to one) blocked this person. One query;
    none when nobody else is seated."""
    others = {s.user_id for s in seats if s.user_id is not None and s.user_id != user.id}
    return bool(others) and Block.objects.filter(blocked_id=user.id, blocker_id__in=others).exists()


def muted_authors(reader):
    """The people whose chat lines this reader does not read (those they blocked), as a
    subquery of user ids for the statement that reads the lines; None for nobody signed in."""
    if not _signed_in(reader):
        return None
    return Block.objects.filter(blocker_id=reader.id).values("blocked_id")


def muted_author_ids(reader) -> frozenset[int]:
    """``muted_authors`` as a set, for a reader that filters lines one at a time (a socket)."""
    authors = muted_authors(reader)
    return frozenset() if authors is None else frozenset(authors.values_list("blocked_id", flat=True))


def muting(author_id: int, reader_ids) -> set[int]:
    """Which of these readers blocked this author, and so do not read their lines. One query,
    none when there is nobody to ask about."""
    readers = {i for i in reader_ids if i is not None and i != author_id}
    if not readers:
        return set()
    return set(Block.objects.filter(blocked_id=author_id, blocker_id__in=readers).values_list("blocker_id", flat=True))


def blocked_pairs(user_ids) -> set[frozenset[int]]:
    """The pairs among these people that a block keeps apart (either way round). One query."""
    ids = {i for i in user_ids if i is not None}
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list("blocker_id", "blocked_id")
    return {frozenset(pair) for pair in rows}


def invite_refusal(creator, invitees) -> ServiceError | None:
    """Why ``creator`` may not invite these people (None: they may): someone of them blocked
    the creator. Named, as the creator typed the name; it says no more than that."""
    ids = {u.id: u for u in invitees}
    blocker = (Block.objects.filter(blocked_id=creator.id, blocker_id__in=ids).order_by("blocker_id")
               .values_list("blocker_id", flat=True).first()) if ids else None
    if blocker is not None:
        return NotAllowed(f"{ids[blocker].username} does not take invitations from you.")
    mine = (Block.objects.filter(blocker_id=creator.id, blocked_id__in=ids).order_by("blocked_id")
            .values_list("blocked_id", flat=True).first()) if ids else None
    if mine is not None:
        return NotAllowed(f"You blocked {ids[mine].username}: unblock them to invite them.")
    return None


# --- bots: what they accept --------------------------------------------------------------

BOT_CLOCKS = ("days", "hours", "minutes", "none")


def bot_accepts_game(accepts, kind: str, num_seats: int, clock_kind: str) -> bool:
    """Whether a bot's declared ``accepts`` (``Profile.bot_accepts``: a list of
    ``{"kind", "seats": [least, most], "clocks": [...]}``) take a game of this kind, this many
    seats and this clock. A declaration that is not of that shape takes nothing."""
    if not isinstance(accepts, list):
        return False
    for entry in accepts:
        if not isinstance(entry, dict) or entry.get("kind") != kind:
            continue
        seats = entry.get("seats")
        if (isinstance(seats, list) and len(seats) == 2 and all(isinstance(n, int) for n in seats)
                and seats[0] <= num_seats <= seats[1] and clock_kind in (entry.get("clocks") or ())):
            return True
    return False


def bot_refusal(invitees, *, kind: str, num_seats: int, clock_kind: str) -> ServiceError | None:
    """Why these invitees cannot be offered this game (None: they can): a bot is offered only
    the games it declared it accepts (one query for all the invitees)."""
    ids = [u.id for u in invitees]
    if not ids:
        return None
    for user_id, accepts in (Profile.objects.filter(user_id__in=ids, is_bot=True).order_by("user_id")
                             .values_list("user_id", "bot_accepts")):
        if not bot_accepts_game(accepts, kind, num_seats, clock_kind):
            name = next(u.username for u in invitees if u.id == user_id)
            return ServiceError(f"{name} is a bot that does not accept this game (its profile says which it "
                                "accepts).")
    return None


def bot_ids(user_ids) -> set[int]:
    """Which of these people are bots (one query; none when there is nobody to ask about)."""
    ids = [i for i in user_ids if i is not None]
    return set(Profile.objects.filter(user_id__in=ids, is_bot=True).values_list("user_id", flat=True)) if ids else set()


CLOCK_WORDS = {"days": "days", "hours": "hours", "minutes": "minutes", "none": "no clock"}


def bot_accepts_in_words(accepts) -> list[str]:
    """"Grail Duel, 2 players, clocks in days or hours" for each declared game."""
    out = []
    for entry in accepts or ():
        try:
            name = registry.get(entry["kind"]).name
            least, most = entry["seats"]
        except (LookupError, KeyError, TypeError, ValueError):
            continue
        players = f"{least} players" if least == most else f"{least} to {most} players"
        clocks = " or ".join(CLOCK_WORDS.get(c, c) for c in entry.get("clocks", ()))
        out.append(f"{name}, {players}, {clocks}")
    return out
