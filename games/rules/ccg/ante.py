"""The ante (2.3, 15.3) and doubling it (16.2).

Each player cuts the next player's deck at a position of their choosing; the card on top
after the cut is turned face up into the ante. With doubling on, a player ending their
turn may double: every other player must accept or concede (no third way). On
acceptance each player still in adds as many cards from the top of their deck as they
already have in the ante (1 -> 2 -> 4 -> 8 ...). A player who has doubled may not double
again until every other player still in has doubled since.

A card going into the ante is staked from its owner's collection, and a copy staked in the
owner's other games cannot be staked twice. The site says, when the game starts, how many
copies of each card of each deck its owner can stake (``state["stakeable"]``, per seat a
{code: copies} or None for no limit; absent in older games and practice). A card whose
copies are used up is passed over, face down where it lies, and the next card of the deck
that can be staked goes in instead: a cut at any position is made, and says nothing of the
cards passed over. A player who cannot pay a doubling from the cards he can stake may not
accept it (nor double), and is told so before answering (docs/rules/ccg-web.md).

A seat handed to a computer player after its person left (``S.stakes_nothing``) stakes
nothing more: the cards its person already put in stay there, but no card of that deck
goes in from then on, so it may neither double nor accept a double; an offer made to it
can only be conceded, as for any player who cannot pay. The person's cards are theirs to
risk, and nobody is left to risk them.
"""
from __future__ import annotations

from collections import Counter

from . import state as S
from . import turns
from .base_events import ev


def cut_target(state, cutter):
    return (cutter + 1) % state["n"]


def cut(state, cutter, at, events):
    victim = cut_target(state, cutter)
    deck = state["p"][victim]["deck"]
    # Decks are stored bottom..top; "at" counts cards lifted from the top.
    lifted = deck[len(deck) - at:]
    rest = deck[:len(deck) - at]
    deck[:] = lifted + rest
    top = draw(state, victim)
    if top is None:
        events.append(ev("ante", f"Seat {cutter + 1} cuts seat {victim + 1}'s deck at {at}: no card of that deck "
                         "can be staked (each is staked in another game), so nothing goes into the ante."))
        return
    events.append(ev("ante", f"Seat {cutter + 1} cuts seat {victim + 1}'s deck at {at}: "
                     f"{S.title(state, top)} goes into the ante.", data={"card": top, "code": state["inst"][top]}))


def _limits(state, seat):
    """{code: copies seat can still stake}, or None when the site set no limit."""
    limits = state.get("stakeable")
    return None if limits is None else limits[seat]


def draw(state, seat):
    """The topmost card of ``seat``'s deck that its owner can stake goes into the ante (the
    cards above it stay as they lie, face down); None if there is none."""
    if S.stakes_nothing(state, seat):
        return None
    deck = state["p"][seat]["deck"]
    limits = _limits(state, seat)
    index = len(deck) - 1
    if limits is not None:
        while index >= 0 and limits.get(state["inst"][deck[index]], 0) <= 0:
            index -= 1
    if index < 0:
        return None
    iid = deck.pop(index)
    if limits is not None:
        limits[state["inst"][iid]] -= 1
    state["ante"].append(iid)
    return iid


def stakeable_count(state, seat):
    """How many cards of ``seat``'s deck its owner can still stake."""
    deck = state["p"][seat]["deck"]
    limits = _limits(state, seat)
    if limits is None:
        return len(deck)
    counts = Counter(state["inst"][i] for i in deck)
    return sum(min(n, limits.get(code, 0)) for code, n in counts.items())


def can_match(state, seat):
    """Whether ``seat`` can pay its share of a doubled ante from cards it can stake. A deck
    too short to pay at all is the rules' own case (paying from it loses), not this one.
    A seat that stakes nothing can never pay."""
    if S.stakes_nothing(state, seat):
        return False
    deck = state["p"][seat]["deck"]
    return stakeable_count(state, seat) >= min(stake(state, seat), len(deck))


def stake(state, seat):
    return sum(1 for i in state["ante"] if state["own"][i] == seat)


def may_double(state, seat):
    if not state["opts"]["double_the_ante"] or state["solo"] is not None or S.stakes_nothing(state, seat):
        return False
    return seat not in state["doubling"]["since"] and can_match(state, seat)


def open_offer(state, seat, events):
    wait = [s for s in S.alive(state) if s != seat]
    if not wait or state["p"][seat]["out"] or S.stakes_nothing(state, seat):
        return
    state["steps"].append({"k": "offer", "from": seat, "wait": wait, "accepted": []})
    events.append(ev("offer", f"Seat {seat + 1} doubles the ante: accept or concede.", data={"from": seat}))


def answer(state, seat, accept, events):
    step = state["steps"][-1]
    step["wait"].remove(seat)
    if accept:
        step["accepted"].append(seat)
        events.append(ev("offer", f"Seat {seat + 1} accepts the doubled ante."))
    else:
        events.append(ev("offer", f"Seat {seat + 1} concedes rather than double."))
        turns.defeat(state, seat, events, "conceded the doubled ante")
    if not step["wait"] and state["steps"] and state["steps"][-1] is step:
        state["steps"].pop()
        settle_offer(state, step, events)


def settle_offer(state, step, events):
    if state["result"] is not None:
        return
    offerer = step["from"]
    if not step["accepted"]:
        return
    for s in [offerer] + step["accepted"]:
        if state["p"][s]["out"]:
            continue
        add = stake(state, s)
        deck = state["p"][s]["deck"]
        for _ in range(add):
            if not deck:
                turns.defeat(state, s, events, "ran out of cards doubling the ante")
                break
            iid = draw(state, s)
            if iid is None:
                break  # not for a seat that could double or accept (can_match); kept safe all the same
            events.append(ev("ante", f"{S.title(state, iid)} from seat {s + 1} goes into the ante.",
                             data={"card": iid, "code": state["inst"][iid]}))
    d = state["doubling"]
    d["count"] += 1
    d["since"].append(offerer)
    if all(s in d["since"] for s in S.alive(state)):
        d["since"] = []


def ante_result(state):
    """Who gets which ante cards: the finder wins them all; a draw carries them over to
    the rematch; any other ending returns each card to its owner, and says why ("home")
    when only a seat handed to a computer kept the ante from being won or carried."""
    res = state["result"]
    cards = [{"iid": i, "code": state["inst"][i], "owner": state["own"][i]} for i in state["ante"]]
    if res is None:
        return {"status": "in_play", "cards": cards}
    if res["ante"] == "won":
        return {"status": "won", "winner": res["finder"], "cards": cards}
    if res["ante"] == "carried":
        return {"status": "carried_over", "cards": cards,
                "carried_ante": [{"owner": c["owner"], "card": state["cards"][c["code"]]} for c in cards]}
    if res.get("home"):  # won or carried but for a seat handed to a computer (turns.ante_kept_home)
        return {"status": "returned", "cards": cards, "home": res["home"]}
    return {"status": "returned", "cards": cards}


# --- the ante in words, for the end of the game (Game.ending_notes) -----------------------

def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _cards(state, seat=None) -> str:
    """The ante's cards with their owners ("Rabbit (Seat 2), Bridge (Seat 1)"), or a
    seat's own ("Rabbit and Bridge")."""
    if seat is not None:
        return _listed([S.title(state, i) for i in state["ante"] if state["own"][i] == seat])
    return ", ".join(f"{S.title(state, i)} (Seat {state['own'][i] + 1})" for i in state["ante"])


def ending_words(state, seat):
    """What the ante did at the end, or, in a game that goes on after a player fell, what is
    still at stake and why the game goes on (15.3), for ``seat`` (None: a spectator).
    Every card of the ante lies face up: nothing here is hidden from anyone."""
    res = state["result"]
    if res is not None:
        if not state["ante"]:
            return ["Nothing was in the ante."]
        if res["ante"] == "won":
            return [f"Seat {res['finder'] + 1} found the Holy Grail and wins the ante: {_cards(state)}."]
        if res.get("home") == "computer_found":
            return [f"Seat {res['finder'] + 1} found the Holy Grail for the player who left it, but a seat played by a "
                    f"computer wins no cards, so the ante goes back to its owners: {_cards(state)}."]
        if res.get("home") == "computer_seat":
            return [f"The game is drawn, and a seat is played by a computer since its player left, so no rematch "
                    f"starts and nothing is carried over: the ante goes back to its owners: {_cards(state)}."]
        if res["ante"] == "carried":
            return [f"The game is drawn: the ante ({_cards(state)}) is carried over to a rematch between the same "
                    "players, which starts at once, each adding a new card (15.1)."]
        return [f"The ante goes back to its owners: {_cards(state)}. Only a player who finds the Holy Grail "
                "wins the ante (15.3), and this game ended another way."]
    if state["phase"] == "cut":
        return []
    out = seat is not None and 0 <= seat < state["n"] and state["p"][seat]["out"]
    solo = state["solo"]
    fallen = "; ".join(f"Seat {s + 1} {turns.out_why(p)}" for s, p in enumerate(state["p"]) if p["out"])
    mine = _cards(state, seat) if out and any(state["own"][i] == seat for i in state["ante"]) else ""
    if solo is not None:
        if seat == solo:
            return [f"{fallen}. You may go on searching for the Grail alone (15.3): find it and you win the ante "
                    f"({_cards(state)}). Give up the search, or call it a draw, and the game ends with every ante "
                    "card going back to its owner; you win the game either way, but not the ante."]
        stake = (f"if they find it they win the ante, your {mine} with it; if they give up or call it a draw, "
                 f"your cards come back to you." if mine else
                 f"finding it wins the ante ({_cards(state)}); giving up or calling a draw sends every card home.")
        # The player who fell is told that the game is over for them by the shell's headline.
        lead = "" if out else f"{fallen}. "
        return [f"{lead}Seat {solo + 1} may go on searching for the Grail alone (15.3): {stake}"]
    if mine:
        return [f"Whoever finds the Holy Grail wins the ante, your {mine} with it; if no one does, your cards "
                "come back to you."]
    return []
