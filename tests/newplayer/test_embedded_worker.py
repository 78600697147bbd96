"""The embedded timer thread survives any error one round hits (it once died on a
locked database and no timer fired after that)."""
from __future__ import annotations

import threading

from games import embedded_worker


def test_a_failing_step_is_logged_and_the_next_step_still_runs(monkeypatch, caplog):
    ran = []

    def broken():
        raise RuntimeError("database is locked")

    monkeypatch.setattr(embedded_worker, "_steps", lambda: (("sweep", broken), ("mail", lambda: ran.append("mail"))))
    assert embedded_worker.sweep_once() == 1
    assert ran == ["mail"]
    assert "sweep failed" in caplog.text


def test_the_thread_keeps_sweeping_after_errors(monkeypatch):
    rounds = []
    enough = threading.Event()

    def flaky():
        rounds.append(1)
        if len(rounds) >= 5:
            enough.set()
        raise ValueError("a rules bug in one game")

    monkeypatch.setattr(embedded_worker, "_steps", lambda: (("sweep", flaky),))
    stop = embedded_worker.start(interval=0.01)
    try:
        assert enough.wait(5), "the sweep stopped after its first error"
    finally:
        stop.set()
