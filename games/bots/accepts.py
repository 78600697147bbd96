"""What a bot accepts: its declaration's shape, read from the bot page's form or the API, and
in words for its profile. The check made when someone invites a bot is the table's
(``games.table.access.bot_accepts_game``), so every door that offers a game asks the same."""
from __future__ import annotations

from games import registry
from games.table.access import BOT_CLOCKS, bot_accepts_in_words as in_words  # noqa: F401
from grailsite.errors import ServiceError

CLOCKS = BOT_CLOCKS


def clean(entries) -> list[dict]:
    """A declaration as stored: one entry a game, seats within its player counts, known clocks."""
    if not isinstance(entries, list) or len(entries) > 32:
        raise ServiceError("Declare at most 32 entries.")
    out, seen = [], set()
    for entry in entries:
        if not isinstance(entry, dict):
            raise ServiceError("Each entry is {\"kind\", \"seats\": [least, most], \"clocks\": [...]}.")
        kind = entry.get("kind")
        try:
            game = registry.get(kind) if isinstance(kind, str) else None
        except LookupError:
            game = None
        if game is None or kind in seen:
            raise ServiceError(f"Unknown or repeated game: {kind!r}.")
        seats = entry.get("seats")
        if (not isinstance(seats, list) or len(seats) != 2 or not all(isinstance(n, int) and not isinstance(n, bool)
                                                                      for n in seats)
                or not game.min_players <= seats[0] <= seats[1] <= game.max_players):
            raise ServiceError(f"{game.name}: seats from {game.min_players} to {game.max_players}, least first.")
        clocks = entry.get("clocks")
        if not isinstance(clocks, list) or not clocks or not set(clocks) <= set(CLOCKS):
            raise ServiceError(f"{game.name}: clocks among {', '.join(CLOCKS)}.")
        seen.add(kind)
        out.append({"kind": kind, "seats": list(seats), "clocks": [c for c in CLOCKS if c in clocks]})
    return out


def from_form(post) -> list[dict]:
    """The bot page's form: per game a tick, the least and most seats and the clocks ticked."""
    entries = []
    for game in registry.kinds():
        if not post.get(f"on_{game.kind}"):
            continue
        try:
            seats = [int(post.get(f"least_{game.kind}", "")), int(post.get(f"most_{game.kind}", ""))]
        except ValueError:
            raise ServiceError(f"{game.name}: give the least and most seats as numbers.") from None
        entries.append({"kind": game.kind, "seats": seats,
                        "clocks": [c for c in CLOCKS if post.get(f"clock_{game.kind}_{c}")]})
    return clean(entries)


def form_rows(accepts) -> list[dict]:
    declared = {e.get("kind"): e for e in accepts or () if isinstance(e, dict)}
    rows = []
    for game in registry.kinds():
        entry = declared.get(game.kind)
        rows.append({"kind": game.kind, "name": game.name, "on": entry is not None,
                     "least": entry["seats"][0] if entry else game.min_players,
                     "most": entry["seats"][1] if entry else game.max_players,
                     "clocks": entry["clocks"] if entry else list(CLOCKS),
                     "min": game.min_players, "max": game.max_players})
    return rows
