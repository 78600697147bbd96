"""What each seat and a spectator may see: one's own hand and nothing hidden of anyone else."""
from games.rules.fluxx.cards import LEGACY
from games.rules.fluxx.cards import BY_ID

from .helpers import GAME, act, give, play, rules, stack, table_for
from .playout import play as play_game

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


def _strings(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value


def _shown_cards(view) -> set:
    return {s for s in _strings(view) if s in BY_ID}


def _hidden_from(state, seat) -> set:
    hidden = set(state["draw"])
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            hidden |= set(hand)
    if seat != state["turn"]["seat"]:
        hidden |= {c for f in state["effects"] for c in f.get("pool", ())}
    return hidden


def check_views(state):
    for seat in list(range(len(state["active"]))) + [None]:
        view = GAME.view_for(state, seat)
        assert not _shown_cards(view) & _hidden_from(state, seat), seat
        assert "rng" not in view and "draw" not in view and "seed" not in repr(view)


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    state = table_for()
    give(state, 0, "cow", "coconuts")
    give(state, 1, "holy-grail")
    view = GAME.view_for(state, 0)
    assert view["my_hand"] == ["cow", "coconuts"] and view["hand_counts"] == [2, 1, 0]
    assert "holy-grail" not in repr(view)
    spectator = GAME.view_for(state, None)
    assert spectator["my_hand"] is None and "cow" not in repr(spectator)


def test_cards_drawn_to_use_at_once_are_shown_to_their_drawer_only():
    state = table_for()
    give(state, 0, "draw-3-play-2")
    stack(state, "cow", "coconuts", "holy-grail")
    state, events = play(state, 0, "draw-3-play-2")
    assert GAME.view_for(state, 0)["my_pool"] == ["cow", "coconuts", "holy-grail"]
    assert GAME.view_for(state, 1)["my_pool"] is None and GAME.view_for(state, 1)["pool_count"] == 3
    assert "holy-grail" not in repr(GAME.view_for(state, 1))
    private = [e for e in events if "Holy Grail" in e.text]
    assert private and all(e.audience == (0,) for e in private)
    check_views(state)


def test_someone_elses_decision_shows_who_decides_what_but_not_the_options():
    state = table_for()
    give(state, 2, "cow", "coconuts", "swallow")
    give(state, 0, "hand-limit-1")
    state, _ = play(state, 0, "hand-limit-1")
    theirs, mine = GAME.view_for(state, 0)["decisions"], GAME.view_for(state, 2)["decisions"]
    assert theirs[0]["public"] == "Seat 3 chooses 2 cards to discard." and "options" not in theirs[0]
    assert {o["value"] for o in mine[0]["options"]} == {"cow", "coconuts", "swallow"}
    check_views(state)


def test_the_table_shows_the_rules_goals_keepers_and_the_turn():
    state = table_for()
    rules(state, "play-3", "one-two-five")
    give(state, 0, "cow", "the-quest", "death")
    state, _ = play(state, 0, "cow")
    view = GAME.view_for(state, 1)
    assert view["rules"] == ["play-3", "one-two-five"] and view["basic_rules"] == "basic-rules"
    assert view["effective"]["play"] == {"value": 5, "text": "Play 3 (One, Two, Five! (Three, Sir!) makes it 5)",
                                         "label": "Play 5", "why": "Play 3 (One, Two, Five! (Three, Sir!) makes it 5)"}
    assert view["keepers"][0] == ["cow"] and view["turn"]["plays_left"] == 2
    assert view["turn"]["seat"] == 0 and view["draw_count"] == len(state["draw"])


def test_events_name_a_drawn_card_only_to_its_drawer():
    state = table_for()
    give(state, 0, "jackpot")
    stack(state, "cow", "coconuts", "swallow")
    state, events = play(state, 0, "jackpot")
    for e in events:
        if "Cow" in e.text:
            assert e.visible_to(0) and not e.visible_to(1) and not e.visible_to(None)
    assert any(e.visible_to(1) and "draws 3 cards" in e.text for e in events)


def _pool_of(state, before, seat) -> list:
    if seat not in (state["turn"]["seat"], before["turn"]["seat"]):
        return []
    return [c for st in (state, before) for f in st["effects"] for c in f.get("pool", ())]


def _public(state) -> set:
    out = set(state["discard"]) | set(state["rules"]) | set(state["goals"]) | set(state["limbo"])
    return out.union(*map(set, state["tables"]))


# Events that name a card to everyone: each tells of a card going face up (played, put on
# the table, discarded, moved between tables). Events that name cards in a hand are private.
PUBLIC_CARD_EVENTS = {"play", "table", "rule", "goal", "action", "creeper", "discard", "trash", "steal",
                      "exchange", "move", "power", "zap", "revive", "sweep", "win", "fizzle", "flip"}
PRIVATE_CARD_EVENTS = {"draw", "pool", "give"}


def test_no_view_or_event_ever_shows_a_hidden_card_in_random_games():
    def step(before, state, seat, move, moves, events):
        check_views(state)
        for e in events:
            named = set(e.data.get("cards", [])) | ({e.data["card"]} if "card" in e.data else set())
            if not named:
                continue
            if e.kind in PRIVATE_CARD_EVENTS:
                (holder,) = e.audience  # one seat only: the one now holding the cards
                held = set(state["hands"][holder]) | set(before["hands"][holder]) | set(_pool_of(state, before, holder))
                assert named <= held | _public(state), e.text
            else:
                assert e.kind in PUBLIC_CARD_EVENTS and e.audience is None, e

    for seed in range(8):
        play_game(GAME, seed, players=2 + seed % 5, on_step=step)


def test_a_claim_shows_its_words_to_everyone():
    state = table_for()
    rules(state, "sing-bonus")
    give(state, 0, "cow")
    state, events = act(state, 0, {"type": "sing", "song": "Spam", "words": "Lovely spam"})
    assert all(e.audience is None for e in events if e.kind == "claim")
    assert "Lovely spam" in GAME.view_for(state, 1)["decisions"][0]["prompt"]


def test_the_opening_line_says_who_goes_first_once_to_each_viewer():
    # The generator picks the first player (docs/rules/fluxx.md); the log's first line says
    # whom: "You go first." to that player, "Seat N goes first." to the others and spectators.
    state = GAME.setup(3, {}, 7)
    first = state["first"]
    assert state["turn"]["seat"] == first
    events = GAME.opening_events(state)
    for viewer in (0, 1, 2, None):
        said = [e.text for e in events if e.visible_to(viewer)]
        assert said == (["You go first."] if viewer == first else [f"Seat {first + 1} goes first."]), viewer
    # Words only: the state and the generator are as setup left them.
    assert GAME.setup(3, {}, 7) == state


def test_the_log_opens_with_each_creeper_the_deal_put_on_a_table_then_who_goes_first():
    # The deal's own events are not kept (setup returns a state): the Creepers on the tables
    # at the start are the ones dealt, each replaced by another card, which stays hidden.
    from games.rules.fluxx.cards import NAME, TYPE

    seed, state = next((seed, s) for seed in range(200) for s in [GAME.setup(3, {}, seed)] if any(s["tables"]))
    dealt = [(seat, card) for seat, table in enumerate(state["tables"]) for card in table]
    assert dealt and all(TYPE[card] == "creeper" for _, card in dealt)
    events = GAME.opening_events(state)
    first = state["first"]
    for viewer in (0, 1, 2, None):
        said = [e.text for e in events if e.visible_to(viewer)]
        creepers = [(f"You were dealt {NAME[card]}, a Creeper: it goes on your table, and you draw a card in its place."
                     if viewer == seat else
                     f"Seat {seat + 1} was dealt {NAME[card]}, a Creeper: it goes on their table, and they draw a "
                     "card in its place.") for seat, card in dealt]
        assert said == creepers + (["You go first."] if viewer == first else [f"Seat {first + 1} goes first."]), viewer
        # The card drawn in a Creeper's place is never named to anyone.
        others = {NAME[c] for seat in range(3) if seat != viewer for c in state["hands"][seat]}
        assert not any(name in text for text in said for name in others), viewer
    assert GAME.setup(3, {}, seed) == state  # words only
