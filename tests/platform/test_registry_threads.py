"""The registry fills its table of rooms on first use; a fresh web process's first requests
ask from several threads at once. Before the table was filled under a lock, the thread that
began loading raised the "loaded" flag first, and the others, seeing it, looked up a kind not
yet added: "Unknown game kind 'duel'", a websocket handshake answered 500 (seen in the suite's
PgBouncer and Redis-shard tests, whose servers are fresh processes)."""
import threading
import time

from games import registry


def test_threads_asking_while_the_rooms_load_all_find_their_game(monkeypatch):
    monkeypatch.setattr(registry, "_ROOMS", {})
    monkeypatch.setattr(registry, "_loaded", False)
    add = registry.add

    def slow_add(package):  # widen the window a first caller spends loading
        time.sleep(0.02)
        return add(package)

    monkeypatch.setattr(registry, "add", slow_add)
    last = registry.ROOMS[-1].rsplit(".", 1)[1]
    failures, start = [], threading.Barrier(8)

    def ask():
        start.wait()
        try:
            registry.get(last)
        except LookupError as exc:
            failures.append(str(exc))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert {room.kind for room in registry.rooms()} >= {"duel", "cupquest", "ccg", "fluxx", "camelot"}
