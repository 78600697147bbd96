"""How the MPHG CCG explains itself (games/kinds/base.py, Guide): the rules page is
templates/ccg/rules.html beside this file."""
from games.kinds.base import Guide

GUIDE = Guide(
    summary="The collectible card game of the film: lead your Round Table through England, past taunts, "
            "perils and adversaries, into Avalon to find the Grail, with real cards at stake.",
    goal="Reach Avalon with your Round Table and find the Holy Grail there: the finder wins the ante.",
)
