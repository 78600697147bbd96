"""What each open game page receives after a change, built once by the process that made
the change, from the state it holds, and published to that viewer's own group.

Each seated player's sockets listen on ``match-<id>-seat-<n>`` and everyone else's (spectators,
invited players, staff) on ``match-<id>-watch``; a socket joins its group only after the
viewer's seat is known, so another seat's hand never crosses a channel its sockets hear. A
frame is a *change*: the new version, the view and legal moves for that seat, the seats, the
outcome, and the log lines of the moves since ``prev`` that this viewer may see. Receivers
forward the text without touching the database; a page that missed ``prev`` asks for the
whole state (``sync``). One frame per seat and one for the watchers, however many sockets,
and none for a group that nobody listened to last time (``heard``).

What a page keeps: the parts of a view the rules name as lasting (``Game.view_lasting``: the
CCG's card definitions by code, 65–80% of its view) are sent in a change only for the names
the same viewer's frame of ``prev`` did not show, when this process built that frame
(``_Shown``); the frame says so (``"kept"``) and the page merges them into what it has. A page
applies a change only on top of ``prev``, which by then holds every name shown at ``prev``
(it came whole, or merged the same way), so nothing it needs is missing, and it only keeps
what it was shown.
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict

import orjson

from games.live import publisher
from games.table import selectors, unit_of_work
from games import registry

log = logging.getLogger(__name__)


def seat_group(match_id: int, seat: int) -> str:
    return f"match-{match_id}-seat-{seat}"


def watch_group(match_id: int) -> str:
    return f"match-{match_id}-watch"


def group_for(match_id: int, seat: int | None) -> str:
    return watch_group(match_id) if seat is None else seat_group(match_id, seat)


def note_change(match, seats, record=None) -> None:
    """Called inside the transaction before each change bumps the version: the first call
    registers one publication for when the transaction commits (a submission that makes
    preset moves after the player's publishes once, with every move's log lines)."""
    pending = match.__dict__.get("_frame_change")
    if pending is None:
        pending = match.__dict__["_frame_change"] = {"prev": match.version, "records": []}
        unit_of_work.on_commit(lambda: _publish(match, seats), publish_only=True)
    if record is not None:
        pending["records"].append(record)


def _publish(match, seats) -> None:
    change = match.__dict__.pop("_frame_change", None)
    if change is None:
        return
    try:
        messages = frames_for(match, seats, prev=change["prev"], records=change["records"])
        heard(messages, publisher.group_send_many(messages))
    except Exception:  # a dropped push is caught up by the page's heartbeat and sync
        log.warning("could not publish the frames of match %s", match.pk, exc_info=True)


# Groups that no process listened to the last time this process published to them (a player
# who is not on the game's page, a game nobody watches), most recent last. Their next change
# is announced without a frame (a "nudge"), which costs nothing to build; a socket that hears
# one loads its frame itself, once per process and version, and the listener it counts makes
# the next change carry frames again. In a game played over weeks most changes reach nobody.
_unheard: OrderedDict[str, None] = OrderedDict()
UNHEARD_KEPT = 20_000


def heard(messages: list[tuple[str, dict]], receivers: list[int] | None) -> None:
    """After publishing ``messages``: note which frame groups had no listener. ``receivers``
    is what Redis answered each PUBLISH (None: the layer does not say)."""
    if receivers is None:
        return
    for (group, message), count in zip(messages, receivers):
        if message.get("type") != "match.frame":
            continue
        if count:
            _unheard.pop(group, None)
        else:
            _unheard[group] = None
            _unheard.move_to_end(group)
            if len(_unheard) > UNHEARD_KEPT:
                _unheard.popitem(last=False)


def listening(group: str) -> None:
    """A socket of this process joined ``group``: its changes carry frames again at once (one
    in another process hears a nudge first, then frames)."""
    _unheard.pop(group, None)


class _Shown:
    """(match id, seat) -> (version, the names of each lasting part of the view built for that
    viewer at that version), for the last few thousand frames this process built. Frames are
    built on the event loop and in worker threads: every access holds the lock."""

    def __init__(self, size: int = 8192):
        self.size = size
        self._items: OrderedDict[tuple, tuple[int, dict]] = OrderedDict()
        self._lock = threading.Lock()

    def trimmed(self, match_id: int, seat: int | None, version: int, prev: int, data: dict, lasting) -> dict:
        """``data`` with the lasting parts of its view cut to the names not shown at ``prev``
        (and ``"kept"`` naming those parts), if this process built that frame; else ``data``.
        Remembers what this frame shows, whole."""
        view = data.get("view")
        if not isinstance(view, dict):
            return data
        names = {key: frozenset(view[key]) for key in lasting if isinstance(view.get(key), dict)}
        with self._lock:
            before = self._items.pop((match_id, seat), None)
            self._items[(match_id, seat)] = (version, names)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        if before is None or before[0] != prev or not names:
            return data
        shown = before[1]
        view = dict(view)
        for key in names:
            view[key] = {name: value for name, value in view[key].items() if name not in shown.get(key, ())}
        return {**data, "view": view, "kept": sorted(names)}

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


shown = _Shown()


def frames_for(match, seats, *, prev: int, records) -> list[tuple[str, dict]]:
    """(group, channel message) for every seated player and for the watchers: a frame, or
    for a group nobody listened to last time, a nudge (``"text": None``)."""
    game = registry.get(match.kind)
    lasting = game.view_lasting
    viewers = [s.index for s in seats if s.user_id and s.accepted] + [None]
    groups = {seat: group_for(match.pk, seat) for seat in viewers}
    listened = [seat for seat in viewers if groups[seat] not in _unheard]
    # Every listening viewer's view at once: the rules may build the part all of them see once.
    views = game.views_for(match.state, listened) if listened and match.state is not None else {}
    shared = None
    out = []
    for seat in viewers:
        group = groups[seat]
        text = None
        if seat in listened:
            shared = shared or selectors.change_shared(match, seats, records)
            data = selectors.change_payload(match, seats, seat, game=game, prev=prev, records=records, shared=shared,
                                            view=views.get(seat))
            if lasting:
                data = shown.trimmed(match.pk, seat, match.version, prev, data, lasting)
            text = orjson.dumps({"type": "change", "data": data}).decode()
        out.append((group, {"type": "match.frame", "version": match.version, "prev": prev, "text": text}))
    return out
