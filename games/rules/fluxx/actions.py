"""What each Action card does: one function per ``op`` of the vocabulary (cards.py).

Each is written as "look at the frame, do one thing, pop or wait" (see frames.py). An
Action that makes its player play more cards pushes their frames above its own, so Actions
nest to any depth as one play.
"""
from __future__ import annotations

from math import ceil

from .. import decisions
from ..base import Event
from ..rng import Rng
from .cards import EFFECT, NAME, TYPE
from .current_rules import active_seats, number
from .frames import (EFFECT_HANDLER, after_rules_removed, ask, card_options, choose_then, done, others_in_order,
                     play_card, say, seat_options, table_cards)
from .zones import card_list, draw_cards, draw_to_hand, new_event, own, own_at, owner_on_table, seat_name


def _draw_use(state, frame, events):
    """Draw N into a private pool, play M of them (each a nested play), discard the rest."""
    seat = frame["seat"]
    if "pool" not in frame:
        frame["pool"] = draw_cards(state, seat, number(state, frame["draw"]), events)
        frame["left"] = number(state, frame["play"])
        if frame["pool"]:
            events.append(Event("pool", f"You draw {card_list(frame['pool'])} to use.", audience=(seat,),
                                data={"cards": list(frame["pool"])}))
        say(events, "pool", f"{seat_name(seat)} draws {len(frame['pool'])} cards to use at once.",
            seat=seat, count=len(frame["pool"]))
    pool = frame["pool"]
    if "answer" in frame:
        chosen = frame.pop("answer")
    elif frame["left"] <= 0 or not pool:
        done(state)
        if pool:
            state["discard"].extend(pool)
            say(events, "discard", f"{seat_name(seat)} discards the unused {card_list(pool)}.",
                seat=seat, cards=list(pool))
        return
    elif len(pool) == 1:
        chosen = pool[0]
    else:
        ask(state, frame, seat=seat, kind="use_card", prompt="Which of these cards do you play next?",
            options=card_options(pool), default=pool[0],
            public=f"{seat_name(seat)} chooses which drawn card to play next.")
        return
    pool.remove(chosen)
    frame["left"] -= 1
    state["limbo"].append(chosen)
    say(events, "play", f"{seat_name(seat)} plays {NAME[chosen]} (as part of {NAME[frame['card']]}).",
        seat=seat, card=chosen, nested=True)
    play_card(state, seat, chosen)


def _draw(state, frame, events):
    done(state)
    draw_to_hand(state, frame["seat"], number(state, frame["draw"]), events, NAME[frame["card"]])


def _trade_hands(state, frame, events):
    seat = frame["seat"]
    hands = state["hands"]

    def trade(other):
        hands[seat], hands[other] = hands[other], hands[seat]
        say(events, "trade", f"{seat_name(seat)} and {seat_name(other)} trade hands.", seat=seat, other=other)

    choose_then(state, frame, events, candidates=others_in_order(state, seat), kind="choose_player",
                prompt="Trade hands with whom?", public=f"{seat_name(seat)} chooses whom to trade hands with.",
                apply=trade, options=seat_options(others_in_order(state, seat)))


def _trash(state, frame, events):
    def trash(card):
        owner = owner_on_table(state, card)
        own_at(state, "tables", owner).remove(card)
        state["discard"].append(card)
        say(events, "trash", f"{NAME[card]} is taken from {seat_name(owner)} and discarded.", card=card, owner=owner)

    choose_then(state, frame, events, candidates=table_cards(state, frame["what"]), kind="choose_card",
                 prompt=f"{NAME[frame['card']]}: discard which card?",
                 public=f"{seat_name(frame['seat'])} chooses what to discard.", apply=trash)


def _steal_keeper(state, frame, events):
    seat = frame["seat"]
    theirs = [c for s in others_in_order(state, seat) for c in state["tables"][s] if TYPE[c] == "keeper"]

    def steal(card):
        owner = owner_on_table(state, card)
        own_at(state, "tables", owner).remove(card)
        own_at(state, "tables", seat).append(card)
        say(events, "steal", f"{seat_name(seat)} takes {NAME[card]} from {seat_name(owner)}.", card=card, owner=owner)

    choose_then(state, frame, events, candidates=theirs, kind="choose_card", prompt="Steal which Keeper?",
                public=f"{seat_name(seat)} chooses a Keeper to steal.", apply=steal)


def _scramble_hands(state, frame, events):
    done(state)
    seats = [frame["seat"]] + others_in_order(state, frame["seat"])
    sizes = [len(state["hands"][s]) for s in seats]
    pile = [c for s in seats for c in state["hands"][s]]
    Rng(own(state, "rng")).shuffle(pile)
    for s, size in zip(seats, sizes):
        state["hands"][s], pile = pile[:size], pile[size:]
    say(events, "scramble", "Every hand is shuffled together and dealt back out.", seats=seats)


def _rotate_hands(state, frame, events):
    seat = frame["seat"]

    def rotate(direction):
        seats = [seat] + others_in_order(state, seat)
        old = [state["hands"][s] for s in seats]
        shift = 1 if direction == "next" else -1
        for i, s in enumerate(seats):
            state["hands"][seats[(i + shift) % len(seats)]] = old[i]
        way = "on to the next player" if direction == "next" else "back to the previous player"
        say(events, "rotate", f"Every hand passes {way}.", direction=direction)

    choose_then(state, frame, events, candidates=["next", "previous"], kind="choose_direction",
                prompt="Pass every hand which way?", public=f"{seat_name(seat)} chooses which way hands pass.",
                apply=rotate, options=[{"value": "next", "label": "On to the next player"},
                                        {"value": "previous", "label": "Back to the previous player"}])


def _discard_rules(state, seat, rules, events):
    for rule in rules:
        own(state, "rules").remove(rule)
        state["discard"].append(rule)
    if rules:
        say(events, "rule", f"{card_list(rules)} {'is' if len(rules) == 1 else 'are'} discarded.", rules=list(rules))
    after_rules_removed(state, seat)


def _remove_rules(state, frame, events):
    done(state)
    if frame["which"] == "all":
        gone = list(state["rules"])
    else:
        gone = [r for r in state["rules"] if EFFECT[r]["slot"] in ("hand_limit", "keeper_limit")]
    _discard_rules(state, frame["seat"], gone, events)


def _trash_rule(state, frame, events):
    choose_then(state, frame, events, candidates=list(state["rules"]), kind="choose_rule",
                prompt="Discard which New Rule?", public=f"{seat_name(frame['seat'])} chooses a rule to discard.",
                apply=lambda rule: _discard_rules(state, frame["seat"], [rule], events))


def _simplify(state, frame, events):
    seat = frame["seat"]
    if "answer" in frame:
        done(state)
        _discard_rules(state, seat, list(frame.pop("answer")), events)
        return
    rules = list(state["rules"])
    if not rules:
        done(state)
        return
    most = ceil(len(rules) / 2)
    decisions.ask(state, seat=seat, kind="choose_rules", prompt=f"Discard up to {most} New Rules (or none).",
                  options=card_options(rules), default=[], pick=(0, most),
                  public=f"{seat_name(seat)} chooses rules to discard.",
                  data={"handler": EFFECT_HANDLER, "op": frame["op"]})


def _exchange_keepers(state, frame, events):
    seat = frame["seat"]
    mine = [c for c in state["tables"][seat] if TYPE[c] == "keeper"]
    theirs = [c for s in others_in_order(state, seat) for c in state["tables"][s] if TYPE[c] == "keeper"]
    if "answer" in frame and "give" not in frame:
        frame["give"] = frame.pop("answer")
    if "answer" in frame:
        done(state)
        take, give = frame.pop("answer"), frame["give"]
        owner = owner_on_table(state, take)
        if take not in theirs or give not in mine:
            say(events, "fizzle", f"{NAME[frame['card']]}: that choice is gone; nothing happens.", card=frame["card"])
            return
        theirs_now, mine_now = own_at(state, "tables", owner), own_at(state, "tables", seat)
        theirs_now.remove(take)
        mine_now.remove(give)
        mine_now.append(take)
        theirs_now.append(give)
        say(events, "exchange", f"{seat_name(seat)} swaps {NAME[give]} for {seat_name(owner)}'s {NAME[take]}.",
            seat=seat, owner=owner, gave=give, took=take)
        return
    if not mine or not theirs:
        done(state)
        say(events, "fizzle", f"{NAME[frame['card']]} needs a Keeper on each side.", card=frame["card"])
        return
    if "give" not in frame:
        ask(state, frame, seat=seat, kind="choose_card", prompt="Which of your Keepers do you give away?",
            options=card_options(mine), default=mine[0], public=f"{seat_name(seat)} chooses a Keeper to give.")
    else:
        ask(state, frame, seat=seat, kind="choose_card", prompt="Which Keeper do you take in exchange?",
            options=card_options(theirs), default=theirs[0], public=f"{seat_name(seat)} chooses a Keeper to take.")


def _empty_trash(state, frame, events):
    done(state)
    own(state, "draw").extend(state["discard"])
    state["discard"] = []
    Rng(own(state, "rng")).shuffle(state["draw"])
    say(events, "reshuffle", "The discard pile is shuffled into the draw pile.", count=len(state["draw"]))


def _discard_draw(state, frame, events):
    done(state)
    seat = frame["seat"]
    hand = state["hands"][seat]
    count = len(hand)
    state["discard"].extend(hand)
    if hand:
        say(events, "discard", f"{seat_name(seat)} discards {card_list(hand)}.", seat=seat, cards=list(hand))
    state["hands"][seat] = []
    draw_to_hand(state, seat, count, events, NAME[frame["card"]])


def _another_turn(state, frame, events):
    done(state)
    state["extra_turns"] += 1
    say(events, "extra_turn", f"{seat_name(frame['seat'])} will take another turn.", seat=frame["seat"])


def _do_again(state, frame, events):
    seat = frame["seat"]
    again = [c for c in state["discard"] if TYPE[c] in ("action", "rule")]

    def replay(card):
        state["discard"].remove(card)
        state["limbo"].append(card)
        say(events, "play", f"{seat_name(seat)} plays {NAME[card]} again from the discard pile.", seat=seat, card=card)
        play_card(state, seat, card)

    choose_then(state, frame, events, candidates=sorted(set(again), key=again.index), kind="choose_card",
                prompt="Play which Action or New Rule from the discard pile?",
                public=f"{seat_name(seat)} chooses a card from the discard pile.", apply=replay)


def _everybody_gets_1(state, frame, events):
    """Draw one card per player; hand one to each other player (the drawer's choice) and
    keep the last. A recipient learns the card; everyone else only that one was given."""
    seat = frame["seat"]
    if "pool" not in frame:
        frame["pool"] = draw_cards(state, seat, len(active_seats(state)), events)
        frame["to"] = others_in_order(state, seat)
        if frame["pool"]:
            events.append(Event("pool", f"You draw {card_list(frame['pool'])} to hand out.", audience=(seat,),
                                data={"cards": list(frame["pool"])}))
    pool, to = frame["pool"], frame["to"]
    if "answer" in frame and not state["active"][to[0]]:
        frame.pop("answer")  # the player it was meant for left meanwhile: the card stays
    to[:] = [s for s in to if state["active"][s]]
    # One card handed over per step, so the limits are checked before the next hand-over.
    if "answer" in frame:
        _give(state, seat, to.pop(0), frame.pop("answer"), pool, events)
    elif to and len(pool) == 1:
        _give(state, seat, to.pop(0), pool[0], pool, events)
    elif not to or not pool:
        done(state)
        own_at(state, "hands", seat).extend(pool)
        del pool[:]
    else:
        ask(state, frame, seat=seat, kind="give_card", prompt=f"Which card goes to {seat_name(to[0])}?",
            options=card_options(pool), default=pool[0],
            public=f"{seat_name(seat)} chooses a card for {seat_name(to[0])}.")


def _give(state, giver, receiver, card, pool, events):
    """``pool``: the cards ``card`` comes from, this state's own (a frame's pool, or the
    giver's hand through ``own_at``)."""
    pool.remove(card)
    own_at(state, "hands", receiver).append(card)
    only = (receiver,)
    events.append(new_event(Event, ("give", f"{seat_name(giver)} gives you {NAME[card]}.", only, {"card": card}, ())))
    events.append(new_event(Event, ("give", f"{seat_name(giver)} gives {seat_name(receiver)} a card.", None,
                                    {"seat": giver, "to": receiver}, only)))


def _share_wealth(state, frame, events):
    done(state)
    seats = [frame["seat"]] + others_in_order(state, frame["seat"])
    keepers = []
    for s in seats:
        keepers += [c for c in state["tables"][s] if TYPE[c] == "keeper"]
        state["tables"][s] = [c for c in state["tables"][s] if TYPE[c] != "keeper"]
    Rng(own(state, "rng")).shuffle(keepers)
    for i, card in enumerate(keepers):
        state["tables"][seats[i % len(seats)]].append(card)  # a list made just above: this state's own
    say(events, "share", "Every Keeper is gathered, shuffled and dealt out again.", count=len(keepers))


def _use_what_you_take(state, frame, events):
    seat = frame["seat"]
    targets = [s for s in others_in_order(state, seat) if state["hands"][s]]

    def take(target):
        hand = own_at(state, "hands", target)
        card = hand.pop(Rng(own(state, "rng")).below(len(hand)))
        state["limbo"].append(card)
        say(events, "play", f"{seat_name(seat)} pulls {NAME[card]} from {seat_name(target)}'s hand and plays it.",
            seat=seat, target=target, card=card)
        play_card(state, seat, card)

    choose_then(state, frame, events, candidates=targets, kind="choose_player",
                prompt="Take a random card from whose hand?", public=f"{seat_name(seat)} chooses whose card to take.",
                apply=take, options=seat_options(targets))


def _zap(state, frame, events):
    seat = frame["seat"]
    in_play = list(state["rules"]) + list(state["goals"]) + table_cards(state, ("keeper", "creeper"))

    def zap(card):
        if card in state["rules"]:
            own(state, "rules").remove(card)
        elif card in state["goals"]:
            own(state, "goals").remove(card)
        else:
            own_at(state, "tables", owner_on_table(state, card)).remove(card)
        own_at(state, "hands", seat).append(card)
        say(events, "zap", f"{seat_name(seat)} takes {NAME[card]} into their hand.", seat=seat, card=card)
        after_rules_removed(state, seat)

    choose_then(state, frame, events, candidates=in_play, kind="choose_card", prompt="Take which card into your hand?",
                public=f"{seat_name(seat)} chooses a card in play to take.", apply=zap)


def _taxation(state, frame, events):
    """Every other player with cards chooses one to give; all of them answer at once."""
    seat = frame["seat"]
    if "answer" in frame:
        done(state)
        for taxed, card in frame.pop("answer").items():
            taxed = int(taxed)
            if card in state["hands"][taxed]:  # a player who left the game gives nothing
                _give(state, taxed, seat, card, own_at(state, "hands", taxed), events)
        return
    taxed = [s for s in others_in_order(state, seat) if state["hands"][s]]
    if not taxed:
        done(state)
        return
    decisions.push(state, [dict(seat=s, kind="give_card", prompt=f"Taxation: give {seat_name(seat)} which card?",
                                options=card_options(state["hands"][s]), default=state["hands"][s][0],
                                public=f"{seat_name(s)} chooses a card to give {seat_name(seat)}.",
                                data={"handler": EFFECT_HANDLER, "op": frame["op"], "per_seat": True})
                           for s in taxed])


def _move_creeper(state, frame, events):
    seat = frame["seat"]
    if "answer" in frame and "creeper" not in frame:
        frame["creeper"] = frame.pop("answer")
    mine = [c for c in state["tables"][seat] if TYPE[c] == "creeper"]
    others = others_in_order(state, seat)
    if "answer" in frame:
        done(state)
        to = frame.pop("answer")
        if frame["creeper"] in mine and to in others:
            _hand_over(state, frame["creeper"], to, events)
        return
    if not mine or not others:
        done(state)
        say(events, "fizzle", f"{NAME[frame['card']]} has nothing to act on.", card=frame["card"])
    elif "creeper" not in frame:
        ask(state, frame, seat=seat, kind="choose_card", prompt="Hand over which Creeper?", options=card_options(mine),
             default=mine[0], public=f"{seat_name(seat)} chooses a Creeper to hand over.")
    else:
        ask(state, frame, seat=seat, kind="choose_player", prompt=f"Give {NAME[frame['creeper']]} to whom?",
            options=seat_options(others), default=others[0], public=f"{seat_name(seat)} chooses who gets a Creeper.")


def _hand_over(state, card, to, events):
    owner = owner_on_table(state, card)
    own_at(state, "tables", owner).remove(card)
    own_at(state, "tables", to).append(card)
    say(events, "move", f"{NAME[card]} moves from {seat_name(owner)} to {seat_name(to)}.",
        card=card, owner=owner, to=to)


def _sweep_creepers(state, frame, events):
    done(state)
    swept = table_cards(state, ("creeper",))
    for s in active_seats(state):
        state["tables"][s] = [c for c in state["tables"][s] if TYPE[c] != "creeper"]
    state["discard"].extend(swept)
    say(events, "sweep", f"Creepers discarded: {card_list(swept)}.", cards=swept)


INQUISITION = "spanish-inquisition"


def _inquisition(state, frame, events):
    holder = owner_on_table(state, INQUISITION)
    if holder is None:
        done(state)
        draw_to_hand(state, frame["seat"], number(state, frame["draw"]), events, NAME[frame["card"]])
        return
    targets = [s for s in active_seats(state) if s != holder]
    choose_then(state, frame, events, candidates=targets, kind="choose_player",
                prompt=f"Send {NAME[INQUISITION]} to whom?",
                public=f"{seat_name(frame['seat'])} chooses where {NAME[INQUISITION]} goes.",
                apply=lambda to: _hand_over(state, INQUISITION, to, events), options=seat_options(targets))


def _trash_goal(state, frame, events):
    def trash(goal):
        own(state, "goals").remove(goal)
        state["discard"].append(goal)
        say(events, "goal", f"{NAME[goal]} is discarded.", card=goal)

    choose_then(state, frame, events, candidates=list(state["goals"]), kind="choose_card",
                prompt="Discard which Goal?", public=f"{seat_name(frame['seat'])} chooses a Goal to discard.",
                apply=trash)


def _revive_keeper(state, frame, events):
    seat = frame["seat"]
    dead = [c for c in state["discard"] if TYPE[c] == "keeper"]

    def revive(card):
        state["discard"].remove(card)
        own_at(state, "hands", seat).append(card)
        say(events, "revive", f"{seat_name(seat)} takes {NAME[card]} from the discard pile.", seat=seat, card=card)

    choose_then(state, frame, events, candidates=dead, kind="choose_card",
                prompt="Take which Keeper from the discard pile?",
                public=f"{seat_name(seat)} chooses a Keeper from the discard pile.", apply=revive)


ACTION_OPS = {
    "draw_use": _draw_use, "draw": _draw, "trade_hands": _trade_hands, "trash": _trash,
    "steal_keeper": _steal_keeper, "scramble_hands": _scramble_hands, "rotate_hands": _rotate_hands,
    "remove_rules": _remove_rules, "trash_rule": _trash_rule, "exchange_keepers": _exchange_keepers,
    "empty_trash": _empty_trash, "discard_draw": _discard_draw, "another_turn": _another_turn,
    "do_again": _do_again, "simplify": _simplify, "everybody_gets_1": _everybody_gets_1,
    "share_wealth": _share_wealth, "use_what_you_take": _use_what_you_take, "zap": _zap, "taxation": _taxation,
    "move_creeper": _move_creeper, "sweep_creepers": _sweep_creepers, "inquisition": _inquisition,
    "trash_goal": _trash_goal, "revive_keeper": _revive_keeper,
}
