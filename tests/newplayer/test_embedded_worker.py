"""The embedded worker's threads survive any error one round hits (the timer thread once died
on a locked database and no timer fired after that), and the side lane never holds up the
clocks' lane."""
from __future__ import annotations

import threading

from games import embedded_worker


def test_a_failing_step_is_logged_and_the_next_step_still_runs(monkeypatch, caplog):
    ran = []

    def broken():
        raise RuntimeError("database is locked")

    monkeypatch.setattr(embedded_worker, "_steps", lambda lane: (("sweep", broken), ("mail", lambda: ran.append("mail")))
                        if lane == "clocks" else ())
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

    monkeypatch.setattr(embedded_worker, "_steps", lambda lane: (("sweep", flaky),) if lane == "clocks" else ())
    stop = embedded_worker.start(interval=0.01)
    try:
        assert enough.wait(5), "the sweep stopped after its first error"
    finally:
        stop.set()


def test_a_side_step_that_hangs_never_holds_up_the_clocks(monkeypatch):
    """A push service that never answers holds the side thread; the clocks' thread keeps
    sweeping on its own."""
    release, clock_rounds, side_started = threading.Event(), [], threading.Event()

    def hanging_push():
        side_started.set()
        release.wait(10)

    def clock():
        clock_rounds.append(1)

    monkeypatch.setattr(embedded_worker, "_steps",
                        lambda lane: (("deadline sweep", clock),) if lane == "clocks" else (("pushes", hanging_push),))
    stop = embedded_worker.start(interval=0.01)
    try:
        assert side_started.wait(5)
        before = len(clock_rounds)
        threading.Event().wait(0.3)
        assert len(clock_rounds) >= before + 5, "the clocks stopped while a push hung"
    finally:
        release.set()
        stop.set()
