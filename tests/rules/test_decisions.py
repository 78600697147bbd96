"""The shared decision stack (games/rules/decisions.py): frames of simultaneous decisions,
nesting, answers checked against the options, defaults, and what each seat may see."""
import pytest

from games.rules import decisions
from games.rules.base import IllegalMove, Pending


def _opts(*values):
    return [{"value": v, "label": f"card {v}"} for v in values]


def test_one_decision_is_pending_for_its_seat_with_its_id_as_key():
    state = {}
    d = decisions.ask(state, seat=1, kind="goal", prompt="Which goal stays?", options=_opts("a", "b"), default="a")
    assert decisions.pending(state) == [Pending(1, "goal", str(d["id"]))]
    assert decisions.waiting(state)
    assert decisions.moves(state, 1) == [{"type": "decide", "id": d["id"], "choice": "a"},
                                         {"type": "decide", "id": d["id"], "choice": "b"}]
    assert decisions.moves(state, 0) == []


def test_a_frame_of_simultaneous_decisions_pops_when_the_last_is_answered():
    state = {}
    a, b = decisions.push(state, [
        dict(seat=0, kind="discard", prompt="Discard 1", options=_opts(1, 2), default=1),
        dict(seat=2, kind="discard", prompt="Discard 1", options=_opts(5, 6), default=5),
    ])
    assert {p.seat for p in decisions.pending(state)} == {0, 2}
    # Either may answer first; the other's decision is untouched by it.
    assert decisions.answer(state, 2, {"type": "decide", "id": b["id"], "choice": 6}) is None
    assert decisions.pending(state) == [Pending(0, "discard", str(a["id"]))]
    frame = decisions.answer(state, 0, {"type": "decide", "id": a["id"], "choice": 2})
    assert [d["answer"] for d in frame] == [2, 6]
    assert not decisions.waiting(state) and "decisions" not in state


def test_a_nested_frame_is_answered_before_the_one_below_it():
    state = {}
    outer = decisions.ask(state, seat=0, kind="target", prompt="Whom?", options=_opts(1, 2), default=1)
    inner = decisions.ask(state, seat=1, kind="block", prompt="Block?", options=_opts(True, False), default=False)
    assert decisions.pending(state) == [Pending(1, "block", str(inner["id"]))]
    with pytest.raises(IllegalMove):
        decisions.answer(state, 0, {"type": "decide", "id": outer["id"], "choice": 1})
    decisions.answer(state, 1, {"type": "decide", "id": inner["id"], "choice": True})
    assert decisions.pending(state) == [Pending(0, "target", str(outer["id"]))]


def test_answers_outside_the_options_or_bounds_are_refused_and_change_nothing():
    state = {}
    d = decisions.ask(state, seat=0, kind="discard", prompt="Discard 2", options=_opts("x", "y", "z"),
                      default=["x", "y"], pick=(2, 2))
    for bad in (["x"], ["x", "x"], ["x", "w"], "x", ["x", "y", "z"], None):
        with pytest.raises(IllegalMove):
            decisions.answer(state, 0, {"type": "decide", "id": d["id"], "choice": bad})
    assert decisions.open_for(state, 0)[0]["answer"] is None
    with pytest.raises(IllegalMove):  # another seat cannot answer it
        decisions.answer(state, 1, {"type": "decide", "id": d["id"], "choice": ["x", "y"]})


def test_small_multi_picks_list_every_combination_large_ones_their_default():
    state = {}
    d = decisions.ask(state, seat=0, kind="discard", prompt="Discard 2", options=_opts(*"abcd"),
                      default=["a", "b"], pick=(2, 2))
    assert len(decisions.moves(state, 0)) == 6
    decisions.answer(state, 0, {"type": "decide", "id": d["id"], "choice": ["c", "d"]})
    big = decisions.ask(state, seat=0, kind="discard", prompt="Discard 6", options=_opts(*range(14)),
                        default=list(range(6)), pick=(6, 6))
    assert decisions.moves(state, 0) == [{"type": "decide", "id": big["id"], "choice": list(range(6))}]
    # Any other legal combination is accepted though not listed.
    assert decisions.answer(state, 0, {"type": "decide", "id": big["id"], "choice": list(range(8, 14))})


def test_the_default_is_the_timeout_answer_and_must_itself_be_legal():
    state = {}
    d = decisions.ask(state, seat=3, kind="yes_no", prompt="Allow?", options=_opts(True, False), default=False)
    assert decisions.default_move(state, 3) == {"type": "decide", "id": d["id"], "choice": False}
    assert decisions.default_move(state, 0) is None
    with pytest.raises(IllegalMove):
        decisions.ask(state, seat=0, kind="x", prompt="?", options=_opts(1), default=2)
    with pytest.raises(ValueError):
        decisions.ask(state, seat=0, kind="x", prompt="?", options=_opts(1, 1), default=1)


def test_others_see_who_decides_what_but_never_the_options_or_the_engine_notes():
    state = {}
    decisions.ask(state, seat=0, kind="discard", prompt="Discard The Holy Hand Grenade?",
                  public="Seat 1 chooses a card to discard.", options=_opts("grenade", "rabbit"),
                  default="grenade", data={"secret": "deck order"})
    mine, theirs = decisions.view(state, 0), decisions.view(state, 1)
    assert mine[0]["options"] and mine[0]["prompt"].startswith("Discard The Holy")
    assert "data" not in mine[0]
    assert "grenade" not in repr(theirs) and "Grenade" not in repr(theirs) and "deck order" not in repr(theirs)
    assert theirs[0]["public"] == "Seat 1 chooses a card to discard."
    assert decisions.view(state, None) == theirs


def test_distinct_count_counts_as_the_hashable_form_does():
    from games.rules.decisions import _distinct_count, _hashable
    cases = [["a", "b", "a"], [1, True, 1.0, 2], [[1], [1], "x"], [{"a": 1}, {"a": 1}, [1]], ["[1]", [1]], [], [None, None]]
    for values in cases:
        assert _distinct_count(values) == len(set(map(_hashable, values)))


def test_pending_records_are_the_constructors_records():
    """decisions.pending builds each Pending as its tuple directly: the same class, fields,
    equality, hash and repr as Pending(...)."""
    state = {}
    decisions.push(state, [dict(seat=s, kind="judge", prompt="Does it count?", options=[{"value": "yes", "label": "Yes"}],
                                default="yes") for s in (2, 0, 2)])
    got = decisions.pending(state)
    want = [Pending(2, "judge", str(state["decisions"][-1][0]["id"])), Pending(0, "judge", str(state["decisions"][-1][1]["id"]))]
    assert [type(p) for p in got] == [Pending, Pending]
    assert got == want and [repr(p) for p in got] == [repr(p) for p in want] and list(map(hash, got)) == list(map(hash, want))
    assert [(p.seat, p.kind, p.key) for p in got] == [(p.seat, p.kind, p.key) for p in want]
