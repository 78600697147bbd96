#!/usr/bin/env python3
"""grailbot: a reference bot for grailsite, in the standard library alone.

It signs in with a personal API token, follows the account's event stream, accepts the
challenges it is configured for with a contribution of its own to each game's seed (and
declines the rest), opens a game stream for each game that starts, and answers each of its turns with a move chosen by a policy:

    python clients/grailbot.py --url https://grail.example --token gb_... \\
        --accept duel,fluxx --policy knight

``--policy random`` picks a uniformly random legal move; any other name is one of the site's
own computer players (``games/rules/<kind>/players.py``, "random" and "knight" in every game),
which needs this repository on the path (they are pure Python: no Django). To write your own,
give ``Bot`` a ``policy(kind, view, legal_moves) -> move``.

Everything the server says is one JSON object a line; an empty line is a keep-alive. A game
stream begins with ``gameFull`` and sends ``gameState`` after every change, so the bot holds
no state of its own beyond the latest version: it answers the newest position it was shown,
and a refusal (the game moved on, 409) just waits for the next line. A 429 is waited out for
the ``Retry-After`` seconds it names. See docs/api.md, "Bots".
"""
from __future__ import annotations

import argparse
import http.client
import json
import logging
import random
import secrets
import sys
import threading
import time
import urllib.parse
import uuid

log = logging.getLogger("grailbot")


class ApiError(Exception):
    def __init__(self, status: int, body: dict):
        error = (body or {}).get("error") or {}
        super().__init__(f"{status} {error.get('code')}: {error.get('message')}")
        self.status, self.code, self.body = status, error.get("code"), body


class Api:
    """JSON requests and NDJSON streams with one token."""

    def __init__(self, url: str, token: str, timeout: float = 30.0):
        parts = urllib.parse.urlsplit(url)
        self.https = parts.scheme == "https"
        self.host = parts.netloc
        self.token = token
        self.timeout = timeout

    def _connection(self, timeout: float):
        cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
        return cls(self.host, timeout=timeout)

    def _headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}", "Accept": "application/json",
                "Content-Type": "application/json", "User-Agent": "grailbot/1"}

    def request(self, method: str, path: str, body: dict | None = None, *, attempts: int = 5) -> dict:
        """The answer's JSON; waits out a 429 (its Retry-After) a few times, raises ApiError otherwise."""
        for _ in range(attempts):
            conn = self._connection(self.timeout)
            try:
                conn.request(method, path, body=json.dumps(body) if body is not None else None,
                             headers=self._headers())
                response = conn.getresponse()
                raw = response.read()
            finally:
                conn.close()
            data = json.loads(raw) if raw else {}
            if response.status == 429:
                wait = float(response.getheader("Retry-After") or 1)
                log.info("rate limited on %s: waiting %s s", path, wait)
                time.sleep(wait)
                continue
            if response.status >= 400:
                raise ApiError(response.status, data)
            return data
        raise ApiError(429, {"error": {"code": "rate_limited", "message": "still limited"}})

    def stream(self, path: str, stop: threading.Event | None = None):
        """Each JSON line of a stream; ends when the server ends it or ``stop`` is set (checked
        at every line, keep-alives included)."""
        conn = self._connection(self.timeout)
        try:
            conn.request("GET", path, headers={**self._headers(), "Accept": "application/x-ndjson"})
            response = conn.getresponse()
            if response.status != 200:
                raw = response.read()
                raise ApiError(response.status, json.loads(raw) if raw else {})
            while stop is None or not stop.is_set():
                line = response.readline()
                if not line:
                    return  # the server ended the stream
                line = line.strip()
                if line:
                    yield json.loads(line)
        finally:
            conn.close()


def contribution() -> str:
    """The bot's share in a game's seed (docs/verify.md): 16 bytes from the system's random
    source, never from the policy's seeded generator, which anyone who knows the seed could
    repeat."""
    return secrets.token_bytes(16).hex()


def random_policy(kind: str, view: dict, legal: list[dict], rng: random.Random) -> dict:
    return rng.choice(legal)


def computer_policy(level: str):
    """One of the site's own computer players, as a policy (they see only the view and the
    legal moves, as a bot does)."""
    from games.rules import computer
    from games.rules.rng import Rng, new_rng_state

    def choose(kind: str, view: dict, legal: list[dict], rng: random.Random) -> dict:
        module = computer.players_module(kind)
        level_fn = module.LEVELS.get(level) if module is not None else None
        if level_fn is None:
            return rng.choice(legal)
        try:
            chosen = level_fn(json.loads(json.dumps(view)), json.loads(json.dumps(legal)),
                              Rng(new_rng_state(rng.getrandbits(62))))
        except Exception:  # noqa: BLE001 - a policy's failure must not stall the game
            log.exception("the %s player failed: a random move instead", level)
            return rng.choice(legal)
        return chosen if chosen in legal else rng.choice(legal)

    return choose


class Bot:
    """``accept``: {kind: {"seats": (least, most) or None, "choice": {...} or None}}; a
    challenge of a kind not in it is declined."""

    def __init__(self, api: Api, *, accept: dict, policy=random_policy, seed: int | None = None,
                 max_games: int | None = None):
        self.api, self.accept, self.policy = api, accept, policy
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.max_games = max_games
        self.finished: list[dict] = []
        self.games: dict[int, threading.Thread] = {}
        self.errors: list[str] = []
        self._lock = threading.Lock()

    # --- the account's events ---
    def run(self) -> None:
        """Follow the event stream until ``stop`` (reconnecting with backoff)."""
        backoff = 1.0
        while not self.stop.is_set():
            try:
                for event in self.api.stream("/api/stream/events/", self.stop):
                    backoff = 1.0
                    self.on_event(event)
            except (OSError, ApiError, http.client.HTTPException) as exc:
                if self.stop.is_set():
                    break
                log.warning("event stream: %s; again in %.0f s", exc, backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 60)

    def on_event(self, event: dict) -> None:
        kind = event.get("type")
        if kind == "challenge":
            self.on_challenge(event["challenge"])
        elif kind == "gameStart":
            self.start_game(event["game"]["id"])
        elif kind == "gameFinish":
            with self._lock:
                self.finished.append(event["game"])
                if self.max_games is not None and len(self.finished) >= self.max_games:
                    self.stop.set()

    def on_challenge(self, challenge: dict) -> None:
        wanted = self.accept.get(challenge["kind"])
        seats = (wanted or {}).get("seats")
        if wanted is None or (seats and not seats[0] <= challenge["seats"] <= seats[1]):
            log.info("declining game %s (%s)", challenge["id"], challenge["kind"])
            self._quietly("POST", f"/api/matches/{challenge['id']}/decline/", {})
            return
        body = {"choice": wanted["choice"]} if wanted.get("choice") else {}
        body["contribution"] = contribution()
        log.info("accepting game %s (%s)", challenge["id"], challenge["kind"])
        self._quietly("POST", f"/api/matches/{challenge['id']}/join/", body)

    def _quietly(self, method, path, body):
        try:
            return self.api.request(method, path, body)
        except (ApiError, OSError) as exc:
            log.warning("%s %s: %s", method, path, exc)
            return None

    # --- one game ---
    def start_game(self, match_id: int) -> None:
        with self._lock:
            running = self.games.get(match_id)
            if running is not None and running.is_alive():
                return
            thread = threading.Thread(target=self.play, args=(match_id,), name=f"game-{match_id}", daemon=True)
            self.games[match_id] = thread
        thread.start()

    def play(self, match_id: int) -> None:
        """Follow one game's stream, moving whenever the seat has moves, until it ends."""
        backoff = 1.0
        while not self.stop.is_set():
            try:
                for line in self.api.stream(f"/api/stream/games/{match_id}/", self.stop):
                    backoff = 1.0
                    if line["type"] in ("gameFull", "gameState"):
                        self.on_state(match_id, line)
                    elif line["type"] == "gameEnd":
                        return
                return
            except (OSError, ApiError, http.client.HTTPException) as exc:
                if self.stop.is_set() or getattr(exc, "status", 0) in (401, 403, 404):
                    self.errors.append(f"game {match_id}: {exc}")
                    return
                log.warning("game %s stream: %s; again in %.0f s", match_id, exc, backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 30)

    def on_state(self, match_id: int, state: dict) -> None:
        if state.get("kind"):
            self._kinds = getattr(self, "_kinds", {})
            self._kinds[match_id] = state["kind"]
        legal = state.get("legal_moves") or []
        if not legal or not state.get("my_turn"):
            return  # some games list a move (a pause) to a seat that is not to act: only act when asked
        kind = getattr(self, "_kinds", {}).get(match_id, "")
        tried = []
        for _ in range(3):
            move = self.policy(kind, state["view"], [m for m in legal if m not in tried] or legal, self.rng)
            try:
                self.api.request("POST", f"/api/matches/{match_id}/moves/",
                                 {"move": move, "version": state["version"], "key": uuid.uuid4().hex})
                return
            except ApiError as exc:
                if exc.status == 409:
                    return  # the game moved on: the stream brings the new position
                if exc.status == 422:
                    log.warning("game %s refused %s: %s", match_id, move, exc)
                    tried.append(move)
                    continue
                self.errors.append(f"game {match_id}: {exc}")
                return


def parse_accept(text: str) -> dict:
    """"duel,camelot:3-4" -> {"duel": {"seats": None}, "camelot": {"seats": (3, 4)}}."""
    out = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        kind, _, seats = item.partition(":")
        least, _, most = seats.partition("-")
        out[kind] = {"seats": (int(least), int(most or least)) if least else None}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the site, e.g. https://grail.example")
    parser.add_argument("--token", required=True, help="a personal API token with the read and play scopes")
    parser.add_argument("--accept", default="", help="games to accept: duel,fluxx,camelot:3-4 (kind[:least-most])")
    parser.add_argument("--policy", default="random", help="random, or a computer player's level (knight)")
    parser.add_argument("--games", type=int, default=None, help="stop after this many games have finished")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    policy = random_policy if args.policy == "random" else computer_policy(args.policy)
    bot = Bot(Api(args.url, args.token), accept=parse_accept(args.accept), policy=policy, max_games=args.games)
    try:
        bot.run()
    except KeyboardInterrupt:
        bot.stop.set()
    return 0


if __name__ == "__main__":
    sys.exit(main())
