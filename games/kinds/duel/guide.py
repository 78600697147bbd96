"""How Grail Duel explains itself (games/kinds/base.py, Guide): the rules page is
templates/duel/rules.html beside this file."""
from games.kinds.base import Guide


def goal_for(options: dict, players: int) -> str:
    rounds = options.get("rounds") or 4
    return f"After {rounds} card{'s' if rounds != 1 else ''} each, have the higher total of cards laid."


GUIDE = Guide(
    summary="A quick duel of secret hands: lay numbered cards in turn, and the higher total wins.",
    goal="After the last round, have the higher total of cards laid.",
    goal_for=goal_for,
)
