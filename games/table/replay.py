"""Replaying stored games from their seed and move log (pure rules, stored moves)."""
from __future__ import annotations

from games import registry
from games.models import Match, MoveRecord
from games.rules.base import IllegalMove


# The record of a newcomer taking a new seat in a game under way (services.match_join): the
# rules' ``add_seat``, not a move. Players cannot submit it (services.move_submit refuses it).
JOIN_MOVE = {"type": "join"}


def setup_state(match: Match) -> dict:
    """The state right after setup, rebuilt from the stored seed and setup options, for the
    players seated at the start (those who joined later are dealt in by their records)."""
    joined = MoveRecord.objects.filter(match=match, move=JOIN_MOVE).count()
    return registry.get(match.kind).setup(match.num_seats - joined, match.setup_options or {}, match.seed)


def state_at(match: Match, upto: int) -> tuple[dict, list[MoveRecord]]:
    game = registry.get(match.kind)
    state = setup_state(match)
    records = list(MoveRecord.objects.filter(match=match, seq__lte=upto).order_by("seq"))
    for record in records:
        if record.move == JOIN_MOVE:
            state, _ = game.add_seat(state)
        else:
            state, _ = game.apply(state, record.seat, record.move)
    return state, records


def replay_check(match: Match) -> str | None:
    """None when replaying the log reproduces the stored snapshot, else what differs."""
    if match.state is None:
        return None
    try:
        state, records = state_at(match, match.move_count)
    except IllegalMove as exc:  # e.g. set up from other options than the game was: say so, do not crash
        return f"a stored move is refused on replay: {exc.reason}"
    if len(records) != match.move_count:
        return f"{match.move_count} moves counted but {len(records)} stored"
    if state != match.state:
        differing = sorted(k for k in set(state) | set(match.state) if state.get(k) != match.state.get(k))
        return f"replayed state differs in {', '.join(differing[:8])}"
    return None
