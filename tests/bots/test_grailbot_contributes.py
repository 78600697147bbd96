"""The reference bot adds its own random bytes to the seed of every game it joins
(docs/verify.md), as a page does: not zeros, not the policy's seeded generator."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients"))
import grailbot  # noqa: E402


class _Recorded:
    def __init__(self):
        self.sent = []

    def request(self, method, path, body=None, **_):
        self.sent.append((method, path, body))
        return {}


def test_the_bot_joins_with_sixteen_random_bytes_of_its_own():
    api = _Recorded()
    bots = [grailbot.Bot(api, accept={"duel": {"seats": None}}, seed=1) for _ in range(2)]
    for bot in bots:
        bot.on_challenge({"id": 7, "kind": "duel", "seats": 2})
    (m1, path, first), (_, _, second) = api.sent
    assert (m1, path) == ("POST", "/api/matches/7/join/")
    assert re.fullmatch(r"[0-9a-f]{32}", first["contribution"]) and first["contribution"] != "0" * 32
    assert first["contribution"] != second["contribution"], "two bots with the same seed still differ"
