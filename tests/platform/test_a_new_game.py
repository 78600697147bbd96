"""Adding a game touches only its own folders and one registry line: a fifth, toy game is
written here into a temporary folder, registered, and then created on the new-game page
with its own option, played through the API, drawn by its own script and answered by its
own URL, without a line of the shell changing."""
import importlib
import sys
import textwrap
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import clear_url_caches

from games.table import services
from games import registry
from games.models import Match

SHELL = Path(__file__).resolve().parents[2]
TOY_RULES = '''
from games.rules.base import Event, Game, IllegalMove, Outcome, Pending


class Toy(Game):
    kind = "toy"
    name = "Toy Tower"
    option_schema = {"target": {"type": "int", "default": 3, "min": 1, "max": 9, "label": "Blocks to win"}}

    def setup(self, players, options, seed):
        options = self.options_with_defaults(options)
        return {"target": options["target"], "towers": [0] * players, "turn": 0, "over": None}

    def legal_moves(self, state, seat):
        return [{"type": "stack"}] if seat == state["turn"] and state["over"] is None else []

    def _apply(self, state, seat, move):
        if seat != state["turn"] or move["type"] != "stack":
            raise IllegalMove("Wait for your turn.")
        state["towers"][seat] += 1
        if state["towers"][seat] >= state["target"]:
            state["over"] = seat
        state["turn"] = 1 - seat
        return [Event("stack", f"Seat {seat + 1} stacks a block.")]

    def view_for(self, state, seat):
        return {"towers": state["towers"], "target": state["target"]}

    def outcome(self, state):
        return None if state["over"] is None else Outcome((state["over"],), reason="A tower stands.")

    def pending(self, state):
        return [] if state["over"] is not None else [Pending(state["turn"])]

    def timeout_move(self, state, seat):
        return {"type": "stack"}

    def _resign(self, state, seat):
        state["over"] = 1 - seat
        return [Event("resign", "Seat %d gives up." % (seat + 1))]
'''
TOY_ROOM = '''
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import path

from games.kinds.base import Room
from toy_rules import Toy


def rules_page(request):
    return HttpResponse(render_to_string("toy/rules.html", {"blocks": 3}))


ROOM = Room(game=Toy(), style="board.css",
            urls=[path("games/toy/rules/", rules_page, name="toy_rules")])
'''


@pytest.fixture
def toy_game(tmp_path):
    (tmp_path / "toy_rules").mkdir()
    (tmp_path / "toy_rules" / "__init__.py").write_text(textwrap.dedent(TOY_RULES))
    room = tmp_path / "toy_room"
    (room / "static").mkdir(parents=True)
    (room / "templates" / "toy").mkdir(parents=True)
    (room / "__init__.py").write_text(textwrap.dedent(TOY_ROOM))
    (room / "static" / "board.js").write_text("Grail.register('toy', {draw: function () {}});\n")
    (room / "static" / "board.css").write_text(".toy { color: brown; }\n")
    (room / "templates" / "toy" / "rules.html").write_text("<p>Stack {{ blocks }} blocks to win.</p>")
    sys.path.insert(0, str(tmp_path))
    registry.add("toy_room")  # the one registry line (ROOMS) a real game would add
    _reload_urls()
    yield
    registry._ROOMS.pop("toy", None)
    sys.path.remove(str(tmp_path))
    for name in ("toy_room", "toy_rules"):
        sys.modules.pop(name, None)
    _reload_urls()


def _reload_urls():
    import games.web.urls
    import grailsite.urls
    importlib.reload(games.web.urls)
    importlib.reload(grailsite.urls)
    clear_url_caches()


def test_a_toy_game_needs_only_its_folders_and_the_registry(toy_game, client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    client.force_login(alice)
    page = client.get("/games/new/").content.decode()
    assert 'data-kind="toy"' in page and 'name="toy-opt-target"' in page and "Blocks to win" in page
    answer = client.post("/games/new/", {"kind": "toy", "seats": 2, "invite": "bob", "clock_kind": "days",
                                         "clock_amount": 3, "vacation_days": 0, "toy-opt-target": "2"})
    assert answer.status_code == 302, answer.content.decode()[:500]
    match = Match.objects.get(kind="toy")
    assert match.options == {"target": 2}
    services.match_join(match_id=match.pk, user=bob)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "games/toy/board.js" in page and "games/toy/board.css" in page
    assert finders.find("games/toy/board.js").endswith("toy_room/static/board.js")
    assert client.get("/games/toy/rules/").content.decode() == "<p>Stack 3 blocks to win.</p>"
    for mover in (alice, bob, alice):  # alice through the JSON API, bob through the service
        match.refresh_from_db()
        if mover == alice:
            r = client.post(f"/api/matches/{match.pk}/moves/", {"move": {"type": "stack"}, "version": match.version},
                            content_type="application/json")
            assert r.status_code == 200, r.content
        else:
            services.move_submit(match_id=match.pk, user=bob, move={"type": "stack"}, version=match.version)
    match.refresh_from_db()
    assert match.status == "finished" and match.outcome["winners"] == [0]


def test_the_generic_shell_names_no_game():
    """The files every game shares stay free of any one game's name."""
    shared = ["games/apps.py", "games/web/urls.py", "games/web/views.py", "games/table/services.py", "games/table/selectors.py",
              "games/web/api.py", "games/live/consumers.py", "games/web/forms.py", "templates/games/new.html",
              "templates/games/match.html", "static/js/match.js"]
    names = [room.kind for room in registry.rooms() if room.folder and room.folder.parent.name == "kinds"]
    assert {"ccg", "cupquest", "duel"} <= set(names)
    found = {path: [n for n in names if n in (SHELL / path).read_text()] for path in shared}
    assert {path: hits for path, hits in found.items() if hits} == {}
