"""Losing members of a Round Table: a knight or persona slain, a page lost with what he
carried (5.3, FAQ 4). Below the effects, disputes and castles, which all kill."""
from __future__ import annotations

from . import state as S
from .base_events import ev


def member_dies(state, seat, iid, events, elim=False):
    """A knight or persona is slain (or eliminated). His page stays (FAQ 4)."""
    p = state["p"][seat]
    if iid in p["knights"] or iid in p["personas"]:
        S.slay_member(state, seat, iid, elim)
        return
    for pg in p["pages"]:
        if pg["c"] == iid:
            page_dies(state, seat, iid, events, elim)
            return


def page_dies(state, seat, page_iid, events, elim=False):
    """5.3: the page's knight leaves unless another page can take him at once, never at
    the expense of another knight; the page's items go to another page or the dead cart."""
    p = state["p"][seat]
    pg = next(x for x in p["pages"] if x["c"] == page_iid)
    p["pages"].remove(pg)
    (S.eliminate if elim else S.to_dead)(state, page_iid)
    for k in pg["k"]:
        other = S.free_page(state, p, "k")
        if other is not None:
            other["k"].append(k)
            events.append(ev("page", f"{S.title(state, k)} is served by {S.title(state, other['c'])} now."))
        else:
            S.slay_member(state, seat, k)
            events.append(ev("leave", f"{S.title(state, k)} leaves the Round Table with no page to serve him."))
    for it in pg["i"]:
        other = S.free_page(state, p, "i")
        if other is not None:
            other["i"].append(it)
        else:
            p["item_turn"].pop(str(it), None)
            S.to_dead(state, it)
