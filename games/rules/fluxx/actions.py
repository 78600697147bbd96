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
from .cards import EFFECT, NAME, TAGS, TYPE
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
        # One line a viewer: the drawer reads the cards, everyone else the count.
        drawer = ()
        if frame["pool"]:
            events.append(Event("pool", f"You draw {card_list(frame['pool'])} to use.", audience=(seat,),
                                data={"cards": list(frame["pool"])}))
            drawer = (seat,)
        events.append(new_event(Event, ("pool", f"{seat_name(seat)} draws {len(frame['pool'])} cards to use at once.",
                                         None, {"seat": seat, "count": len(frame["pool"])}, drawer)))
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
    """``which``: ``all`` or ``limits``; or ``keep``: the slots whose rules stay (This Game
    Has Become Too Silly keeps the Draw and Play rules)."""
    done(state)
    if "keep" in frame:
        gone = [r for r in state["rules"] if EFFECT[r]["slot"] not in frame["keep"]]
    elif frame["which"] == "all":
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
    # Let's Simplify (legacy): up to half, rounded up; My Brain Hurts! ("most": "all"): any number.
    most = len(rules) if frame.get("most") == "all" else ceil(len(rules) / 2)
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


# --- the printed deck's Actions --------------------------------------------------------

def _move_any_creeper(state, frame, events):
    """Move a Creeper (printed): any Creeper on any table, to some other player than its owner."""
    seat = frame["seat"]
    if "answer" in frame and "creeper" not in frame:
        frame["creeper"] = frame.pop("answer")
    creepers = table_cards(state, ("creeper",))
    if "answer" in frame:
        done(state)
        to = frame.pop("answer")
        owner = owner_on_table(state, frame["creeper"])
        if owner is not None and owner != to and state["active"][to]:
            _hand_over(state, frame["creeper"], to, events)
        else:
            say(events, "fizzle", f"{NAME[frame['card']]}: that choice is gone; nothing happens.", card=frame["card"])
        return
    if "creeper" not in frame:
        targets = [c for c in creepers if _receivers(state, c)]
        if not targets:
            done(state)
            say(events, "fizzle", f"{NAME[frame['card']]} has nothing to act on.", card=frame["card"])
            return
        ask(state, frame, seat=seat, kind="choose_card", prompt="Move which Creeper?", options=card_options(targets),
            default=targets[0], public=f"{seat_name(seat)} chooses a Creeper to move.")
        return
    receivers = _receivers(state, frame["creeper"])
    if not receivers:
        done(state)
        say(events, "fizzle", f"{NAME[frame['card']]}: that choice is gone; nothing happens.", card=frame["card"])
        return
    ask(state, frame, seat=seat, kind="choose_player", prompt=f"Move {NAME[frame['creeper']]} to whom?",
        options=seat_options(receivers), default=receivers[0],
        public=f"{seat_name(seat)} chooses who gets {NAME[frame['creeper']]}.")


def _receivers(state, card) -> list[int]:
    """The players still in, other than ``card``'s owner, in turn order from its owner."""
    owner = owner_on_table(state, card)
    return [] if owner is None else others_in_order(state, owner)


def _something_different(state, frame, events):
    """Everybody at once: Keepers to the player on the right (the one before you in turn
    order), Creepers to the player on the left (the one after you), hands to the discard
    pile; then everyone draws the printed 3, starting with the player of the card."""
    done(state)
    seat = frame["seat"]
    seats = [seat] + others_in_order(state, seat)
    if len(seats) > 1:
        new_tables = {s: [] for s in seats}
        for i, s in enumerate(seats):
            right, left = seats[i - 1], seats[(i + 1) % len(seats)]
            for card in state["tables"][s]:
                new_tables[right if TYPE[card] == "keeper" else left].append(card)
        for s in seats:
            state["tables"][s] = new_tables[s]  # new lists: this state's own
        say(events, "pass", "Every Keeper passes to the right and every Creeper to the left.", seats=seats)
    for s in seats:
        hand = state["hands"][s]
        if hand:
            state["discard"].extend(hand)
            say(events, "discard", f"{seat_name(s)} discards their hand ({len(hand)} cards).", seat=s,
                count=len(hand))
        state["hands"][s] = []
    count = number(state, frame["draw"])
    for s in seats:
        draw_to_hand(state, s, count, events, NAME[frame["card"]])


def _bring_out_your_dead(state, frame, events):
    """Every player with cards chooses, all at once, which of their hand and table cards to
    throw away (any number, none by default); then the discard pile is shuffled into the
    draw pile, and this card (discarded after, by the frame under this one) starts the new
    discard pile."""
    seat = frame["seat"]
    if "answer" in frame:
        for who, chosen in sorted(frame.pop("answer").items(), key=lambda item: int(item[0])):
            _throw_away(state, int(who), chosen if isinstance(chosen, list) else [chosen], events)
    elif "asked" not in frame:
        frame["asked"] = True
        specs = []
        for s in [seat] + others_in_order(state, seat):
            cards = state["hands"][s] + state["tables"][s]
            if cards:
                specs.append(dict(seat=s, kind="discard_any", prompt="Bring out your dead: throw away which cards "
                                  "of your hand and table? (any number, or none)", options=card_options(cards),
                                  default=[], pick=(0, len(cards)),
                                  public=f"{seat_name(s)} chooses cards to throw away.",
                                  data={"handler": EFFECT_HANDLER, "op": frame["op"], "per_seat": True}))
        if specs:
            decisions.push(state, specs)
            return
    done(state)
    own(state, "draw").extend(state["discard"])
    state["discard"] = []
    Rng(own(state, "rng")).shuffle(state["draw"])
    say(events, "reshuffle", "The discard pile is shuffled into the draw pile.", count=len(state["draw"]))


def _throw_away(state, seat, cards, events):
    """``cards`` of ``seat``'s hand or table to the discard pile (those still there: a player
    who left has none)."""
    gone = []
    for card in cards:
        for zone in ("hands", "tables"):
            if card in state[zone][seat]:
                own_at(state, zone, seat).remove(card)
                state["discard"].append(card)
                gone.append(card)
                break
    if gone:
        say(events, "discard", f"{seat_name(seat)} throws away {card_list(gone)}.", seat=seat, cards=gone)


def _run_away(state, frame, events):
    """Everyone with a Keeper of the tag (Knights of the Round Table) hands all of them to
    some other player of their own choosing; all choose at once, then all move at once."""
    seat, tag = frame["seat"], frame["tag"]
    if "answer" in frame:
        done(state)
        moving = []
        for who, to in sorted(frame.pop("answer").items(), key=lambda item: int(item[0])):
            who = int(who)
            if state["active"][who] and state["active"][to] and to != who:
                moving.append((who, to, [c for c in state["tables"][who] if tag in TAGS[c]]))
        for who, to, knights in moving:  # chosen from the tables as they were: moved together
            mine = own_at(state, "tables", who)
            for card in knights:
                mine.remove(card)
            own_at(state, "tables", to).extend(knights)
            if knights:
                say(events, "move", f"{seat_name(who)} runs away: {card_list(knights)} go to {seat_name(to)}.",
                    owner=who, to=to, cards=knights)
        return
    specs = []
    for s in [seat] + others_in_order(state, seat):
        knights = [c for c in state["tables"][s] if tag in TAGS[c]]
        others = others_in_order(state, s)
        if knights and others:
            specs.append(dict(seat=s, kind="choose_player", prompt=f"Run away! Hand {card_list(knights)} to whom?",
                              options=seat_options(others), default=others[0],
                              public=f"{seat_name(s)} chooses whom to hand their Knights to.",
                              data={"handler": EFFECT_HANDLER, "op": frame["op"], "per_seat": True}))
    if not specs:
        done(state)
        say(events, "fizzle", f"{NAME[frame['card']]} has nothing to act on.", card=frame["card"])
        return
    decisions.push(state, specs)


_ON_A_TABLE = ("keeper", "creeper")


def _not_dead_yet(state, frame, events):
    """The top Keeper or Creeper of the discard pile goes in front of any player its player
    chooses; with none there, cards are turned from the draw pile onto the discard pile
    until one shows, and it goes in front of the player of this card. (Only the draw pile is
    turned over: when it runs out first, nothing happens.)"""
    seat = frame["seat"]
    if "answer" in frame:
        done(state)
        to, card = frame.pop("answer"), frame["found"]
        if card in state["discard"] and state["active"][to]:
            _raise(state, card, to, events)
        else:
            say(events, "fizzle", f"{NAME[frame['card']]}: that choice is gone; nothing happens.", card=frame["card"])
        return
    found = next((c for c in reversed(state["discard"]) if TYPE[c] in _ON_A_TABLE), None)
    if found is not None:
        frame["found"] = found
        seats = [seat] + others_in_order(state, seat)
        ask(state, frame, seat=seat, kind="choose_player", prompt=f"Put {NAME[found]} in front of whom?",
            options=seat_options(seats), default=seat, public=f"{seat_name(seat)} chooses who gets {NAME[found]}.")
        return
    done(state)
    while state["draw"]:
        card = own(state, "draw").pop()
        state["discard"].append(card)
        say(events, "flip", f"{seat_name(seat)} turns over {NAME[card]}.", seat=seat, card=card)
        if TYPE[card] in _ON_A_TABLE:
            _raise(state, card, seat, events)
            return
    say(events, "fizzle", f"{NAME[frame['card']]} finds no Keeper or Creeper.", card=frame["card"])


def _raise(state, card, to, events):
    state["discard"].remove(card)
    own_at(state, "tables", to).append(card)
    say(events, "revive", f"{NAME[card]} is not dead yet: it goes in front of {seat_name(to)}.", card=card, to=to)


ACTION_OPS = {
    "draw_use": _draw_use, "draw": _draw, "trade_hands": _trade_hands, "trash": _trash,
    "steal_keeper": _steal_keeper, "scramble_hands": _scramble_hands, "rotate_hands": _rotate_hands,
    "remove_rules": _remove_rules, "trash_rule": _trash_rule, "exchange_keepers": _exchange_keepers,
    "empty_trash": _empty_trash, "discard_draw": _discard_draw, "another_turn": _another_turn,
    "do_again": _do_again, "simplify": _simplify, "everybody_gets_1": _everybody_gets_1,
    "share_wealth": _share_wealth, "use_what_you_take": _use_what_you_take, "zap": _zap, "taxation": _taxation,
    "move_creeper": _move_creeper, "sweep_creepers": _sweep_creepers, "inquisition": _inquisition,
    "trash_goal": _trash_goal, "revive_keeper": _revive_keeper,
    "move_any_creeper": _move_any_creeper, "something_different": _something_different,
    "bring_out_your_dead": _bring_out_your_dead, "run_away": _run_away, "not_dead_yet": _not_dead_yet,
}
