"""In a person's own prompts their pieces are theirs (words, not internals): the
Camelot player asked to lend units to an ally's attack reads "Your Galahad 2", not
"lancelot_n's Galahad at -3,3"; any rules text "Seat 3's X" is "your X" to seat 3."""
from __future__ import annotations

import re

from games.table import services
from games import registry
from tests.browser.helpers import log_in, open_game
from tests.platform.test_wait_clocks import _path_to, _start


def test_the_ally_asked_for_help_reads_of_their_own_units_as_theirs(live_url, new_page, make_user):
    match, users = _start("camelot", 4, {}, make_user, clock_kind="days", clock_amount=3)
    for seat, move in _path_to(registry.get("camelot"), match.state, "ally"):
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=None)
    match.refresh_from_db()
    ally = next(s for s in match.seats.all() if s.waiting_for == "ally")
    page, errors = new_page(), []
    log_in(page, live_url, ally.user.username)
    open_game(page, f"{live_url}/games/{match.pk}/", errors, "svg.cam-map")
    page.wait_for_selector("[data-testid=decision]")
    labels = page.locator("[data-testid=decision] label.check").all_inner_texts()
    assert labels, "the ask lists units to lend"
    for label in labels:
        label = label.strip()
        assert re.fullmatch(r"Your (Arthur \d|Galahad \d|Lancelot \d|Merlin|Morgan)( carrying .+)?", label), label
        assert ally.user.username not in label and not re.search(r" at -?\d+,-?\d+", label), label
    me = ally.index + 1
    other = 1 if me != 1 else 2
    said = page.evaluate(f"Grail.page.mine(\"Seat {me}'s Arthur 3 stands. Then seat {me}'s Merlin; seat {other}'s Morgan.\")")
    other_name = users[other - 1].username
    assert said == f"Your Arthur 3 stands. Then your Merlin; {other_name}'s Morgan.", said
    assert errors == []
