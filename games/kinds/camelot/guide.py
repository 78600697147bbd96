"""How Camelot explains itself (games/kinds/base.py, Guide): the rules page is
templates/camelot/rules.html beside this file. The goal depends on the variations chosen,
as the rules' winning conditions say."""
from games.kinds.base import Guide

ITEMS = "two of the Crown, Scepter, Robe and Throne"


def goal_for(options: dict, players: int) -> str:
    """The winning conditions of one table: each variation chosen adds its goal, and with the
    Accoutrements at five or six players Excalibur is one more item (never a goal of its own)."""
    goals = []
    if options.get("accoutrements"):
        goals.append("two of the Crown, Scepter, Robe, Throne and Excalibur" if players >= 5 else ITEMS)
    if options.get("gold"):
        goals.append("15 gold")
    if not goals:
        goals.append("Excalibur")
    what = goals[0] if len(goals) == 1 else f"{goals[0]}, or {goals[1]},"
    line = f"Be the first to bring {what} to your Entry hex"
    if options.get("gold"):
        line += " (if all the gold is gathered first, the most gold wins)"
    return line + "."


GUIDE = Guide(
    summary="A fast wargame for three to six, where two players take their turns at the same moment: "
            "send your small army to seize Excalibur and carry it home.",
    goal="Be the first to bring Excalibur to your Entry hex.",
    goal_for=goal_for,
)
