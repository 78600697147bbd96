"""Two reference bots (clients/grailbot.py) play one game of each kind against each other
on the test server, through the streams and the move endpoint alone, to the end."""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from games.models import Match, MoveRecord
from games.table import services
from tests.platform.ccg_helpers import ensure_card_database, prepared_player

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))
import grailbot  # noqa: E402

GAMES = [("duel", 2), ("cupquest", 2), ("fluxx", 2), ("camelot", 3), ("ccg", 2)]


def test_reference_bots_play_every_game_to_the_end(bot_server, make_bot):
    (alice, alice_key), (bob, bob_key), (carol, carol_key) = make_bot("alicebot"), make_bot("bobbot"), make_bot("carolbot")
    ensure_card_database()
    decks = {user.pk: prepared_player(user) for user in (alice, bob)}  # the CCG is played with one's own deck
    policy = grailbot.computer_policy("knight")
    bots = []
    for i, (user, key) in enumerate(((alice, alice_key), (bob, bob_key), (carol, carol_key))):
        accept = {kind: {"seats": None} for kind, _ in GAMES if kind != "ccg" or user.pk in decks}
        if user.pk in decks:
            accept["ccg"]["choice"] = {"deck": str(decks[user.pk].pk)}
        bots.append(grailbot.Bot(grailbot.Api(bot_server, key, timeout=20), accept=accept, policy=policy, seed=i))
    threads = [threading.Thread(target=b.run, daemon=True) for b in bots]
    for t in threads:
        t.start()
    try:
        time.sleep(0.5)  # the event streams are open (a challenge made before is sent on connecting anyway)
        matches = []
        for kind, seats in GAMES:
            invite = [bob.username, carol.username][: seats - 1]
            choice = {"deck": decks[alice.pk].pk} if kind == "ccg" else None
            matches.append(services.match_create(creator=alice, kind=kind, num_seats=seats, invite=invite,
                                                 clock_kind="days", clock_amount=3, creator_choice=choice))
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            status = dict(Match.objects.filter(pk__in=[m.pk for m in matches]).values_list("pk", "status"))
            if all(s in Match.ENDED for s in status.values()):
                break
            time.sleep(0.5)
        ended = {m.kind: Match.objects.get(pk=m.pk) for m in matches}
        assert {k: m.status for k, m in ended.items()} == {k: "finished" for k, _ in GAMES}, [b.errors for b in bots]
        for kind, match in ended.items():
            assert match.outcome is not None
            # Every move was a bot's own, posted after a line of its stream: none by the clock.
            assert MoveRecord.objects.filter(match=match).exclude(user=None).count() > 0
            assert not MoveRecord.objects.filter(match=match, by_timeout=True).exists()
        # Each bot heard each of its games end on its event stream.
        deadline = time.monotonic() + 10
        ours = {m.pk for m in matches}
        while time.monotonic() < deadline and not ours <= {g["id"] for g in bots[1].finished}:
            time.sleep(0.2)
        heard = [g["id"] for g in bots[1].finished if g["id"] in ours]
        assert sorted(heard) == sorted(ours)  # each once
        assert not [e for b in bots for e in b.errors]
    finally:
        for b in bots:
            b.stop.set()
        for t in threads:
            t.join(timeout=5)
