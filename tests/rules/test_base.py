"""Event and Pending are tuple-backed records (games/rules/base.py, for speed); they must
behave as the frozen dataclasses they replaced, written out here as the reference."""
import copy
import dataclasses
import pickle

import pytest

from games.rules.base import EVERYONE, Event, Pending


@dataclasses.dataclass(frozen=True)
class RefEvent:
    kind: str
    text: str
    audience: tuple | None = EVERYONE
    data: dict = dataclasses.field(default_factory=dict)
    hidden_from: tuple = ()


@dataclasses.dataclass(frozen=True)
class RefPending:
    seat: int
    kind: str = "turn"
    key: str = ""


def _ref_as_dict(e):
    d = dataclasses.asdict(e)
    d["audience"] = None if e.audience is None else list(e.audience)
    d["hidden_from"] = list(e.hidden_from)
    return d


ARGS = [
    ("play", "Seat 1 plays Tim."),
    ("draw", "You draw Tim.", (0,)),
    ("draw", "Seat 1 draws a card.", EVERYONE, {"seat": 0, "cards": ["a", "b"]}, (0,)),
    ("odd", "Nested data.", (1, 2), {"t": (1, [2, {"x": (3,)}]), "n": None, "f": 1.5, "b": True, 3: "k"}, ()),
    ("none", "Data given as None.", None, None),
]


def _ref_visible_to(e, seat):
    """Event.visible_to as the dataclass defined it."""
    if seat is not None and seat in e.hidden_from:
        return False
    return e.audience is EVERYONE or (seat is not None and seat in e.audience)


def _named(e):
    return (e.kind, e.text, e.audience, e.data, e.hidden_from)


@pytest.mark.parametrize("args", ARGS)
def test_event_fields_repr_as_dict_and_visibility_match_the_dataclass(args):
    e, r = Event(*args), RefEvent(*args)
    assert _named(e) == (r.kind, r.text, r.audience, r.data, r.hidden_from)
    assert repr(e) == repr(r).replace("RefEvent", "Event")
    if r.data is not None:
        d = e.as_dict()
        assert d == _ref_as_dict(r) and list(d) == list(_ref_as_dict(r))  # key order too
        assert d["data"] is not e.data or not e.data  # a copy, as asdict made
    for seat in (None, 0, 1, 2, 3):
        assert e.visible_to(seat) == _ref_visible_to(r, seat)
    kw = dict(zip(("kind", "text", "audience", "data", "hidden_from"), args))
    assert Event(**kw) == e


def test_visibility_follows_audience_and_hidden_from():
    assert Event("k", "t").visible_to(None) and Event("k", "t").visible_to(3)
    private = Event("k", "t", (1,))
    assert private.visible_to(1) and not private.visible_to(0) and not private.visible_to(None)
    public_but = Event("k", "t", EVERYONE, {}, (2,))
    assert public_but.visible_to(None) and public_but.visible_to(0) and not public_but.visible_to(2)


def test_each_event_gets_its_own_default_data():
    a, b = Event("k", "t"), Event("k", "t")
    assert a.data == {} and a.data is not b.data


def test_equality_and_hash_as_the_dataclass():
    assert Event("k", "t", (1,)) == Event("k", "t", (1,))
    assert Event("k", "t", (1,)) != Event("k", "t", (2,))
    assert not (Event("k", "t") != Event("k", "t"))
    assert Pending(1) == Pending(1, "turn", "") and Pending(1) != Pending(2)
    # never equal to a plain tuple of the same fields, nor to another record type
    for record, fields in ((Pending(1), (1, "turn", "")), (Event("k", "t"), ("k", "t", None, {}, ()))):
        assert record != fields and fields != record and not (record == fields) and not (fields == record)
    assert Pending(1, "k", "t") != Event(1, "k", "t")
    assert hash(Pending(1, "turn", "3")) == hash(RefPending(1, "turn", "3"))
    assert len({Pending(1), Pending(1), Pending(2)}) == 2
    with pytest.raises(TypeError):
        hash(Event("k", "t"))  # its data dict is unhashable, as with the dataclass
    with pytest.raises(TypeError):
        hash(RefEvent("k", "t"))


def test_records_have_no_order():
    for a, b in ((Pending(1), Pending(2)), (Pending(1), (1, "turn", "")), ((1, "a", ""), Pending(1))):
        with pytest.raises(TypeError):
            a < b  # noqa: B015
        with pytest.raises(TypeError):
            a >= b  # noqa: B015


def test_records_are_read_only():
    e, p = Event("k", "t"), Pending(0)
    for obj, name in ((e, "text"), (e, "other"), (p, "seat")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(obj, name)
    assert (e.text, p.seat) == ("t", 0)


def test_pending_fields_defaults_and_repr():
    assert (Pending(2).seat, Pending(2).kind, Pending(2).key) == (2, "turn", "")
    assert repr(Pending(2, "goal", "7")) == repr(RefPending(2, "goal", "7")).replace("RefPending", "Pending")
    assert Pending(seat=1, key="x").kind == "turn"


@pytest.mark.parametrize("record", [Event(*ARGS[2]), Event(*ARGS[3]), Pending(3, "discard", "12")])
def test_pickle_and_copies_give_equal_records(record):
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(record, protocol))
        assert again == record and type(again) is type(record)
    shallow, deep = copy.copy(record), copy.deepcopy(record)
    assert shallow == record == deep and type(deep) is type(record)
    if isinstance(record, Event):
        assert shallow.data is record.data and deep.data is not record.data


def test_from_dict_round_trips_as_dict():
    for args in ARGS[:4]:
        e = Event(*args)
        assert Event.from_dict(e.as_dict()).as_dict() == e.as_dict()


def _a_game():
    from games.rules.cupquest.game import CupQuest
    return CupQuest()


def test_the_default_state_copy_is_deepcopys_for_plain_data():
    shared = [1, [2, 3]]
    state = {"a": shared, "b": shared, "t": (1, [2]), "keys": {1: "x", "y": None}, "f": 1.5, "yes": True,
             "big": 2 ** 100, "text": "Ni! ☃", "set": {1, 2}}
    copied = _a_game().copy_state(state)
    assert copied == state == copy.deepcopy(state)
    assert copied["a"] is copied["b"] and copied["a"] is not shared and copied["a"][1] is not shared[1]
    assert type(copied["t"]) is tuple and type(copied["yes"]) is bool and type(copied["keys"]) is dict


def test_the_default_state_copy_falls_back_to_deepcopy_for_other_objects():
    class Token:
        def __init__(self, n):
            self.n = n

        def __eq__(self, other):
            return isinstance(other, Token) and other.n == self.n

    state = {"token": Token(3), "list": [1]}
    copied = _a_game().copy_state(state)
    assert copied == state and copied["token"] is not state["token"] and copied["list"] is not state["list"]
