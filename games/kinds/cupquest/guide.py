"""How Cup Quest explains itself (games/kinds/base.py, Guide): the rules page is
templates/cupquest/rules.html beside this file."""
from games.kinds.base import Guide

GUIDE = Guide(
    summary="A race across a hex map on playing cards: grab the Holy Grail from between two monsters "
            "and carry it home, while the others freeze, fight and snipe you.",
    goal="Pick up the Holy Grail and bring it back to your own alcove.",
)
