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

Whether there is a seat to take (an open one, or a new one the rules deal in: Fluxx's late
joiners) is the service's question, asked again under the match lock; this module says only
whether this person may take one. Everything here reads the seats the caller already has:
no query of its own."""
from __future__ import annotations

from games.errors import NotAllowed, ServiceError, Unauthenticated


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
    An invitation admits its holder whatever the table; a private game admits nobody else;
    nobody sits again at a table they left."""
    if not _signed_in(user):
        return Unauthenticated("Log in to join a game.")
    mine = seat_of(user, seats)
    if mine is not None and mine.accepted:
        return ServiceError("You already have a seat in this game.")
    if left(user, seats):
        return NotAllowed("You left this game: a seat once left stays left, so you cannot sit down again.")
    if mine is not None:
        return None  # an unanswered invitation: theirs to accept
    if is_private(match):
        return NotAllowed("This game is by invitation only.")
    return None


def may_join(match, user, seats) -> bool:
    return join_refusal(match, user, seats) is None


def check_join(match, user, seats) -> None:
    refusal = join_refusal(match, user, seats)
    if refusal is not None:
        raise refusal


def can_chat(match, user, seats) -> bool:
    """Whether this person may post in the game's chat: a seated player, or, where the table
    lets spectators talk among themselves, anyone signed in who may watch."""
    if not _signed_in(user):
        return False
    mine = seat_of(user, seats)
    if mine is not None and mine.accepted:
        return True
    return match.allow_spectators and match.spectator_chat
