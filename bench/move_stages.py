"""Where the time from a socket move's submission to the opponent's frame goes, stage by
stage: the server's stamps (games/live/move_trace.py) joined with the load generator's.

    .venv/bin/python bench/move_roundtrip.py --kind ccg --path ws --rate 200 --stages /tmp/stages
    .venv/bin/python bench/move_stages.py /tmp/stages      # the same table again, from the files

``move_roundtrip.py --stages DIR`` empties DIR, runs the server with GRAILSITE_MOVE_TRACE=DIR,
writes the load generator's own lines (``client <match> <version> <opponent's seat>
<submitted> <frame received>``) to DIR/client.txt and prints this table after its figures.
Tracing costs each move a few lines of I/O: compare traced runs with traced runs.
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

# (name, from, to): each stage is the time between two stamps of one move.
STAGES = [
    ("to the committer", "submitted", "queued"),
    ("waiting for a batch", "queued", "taken"),
    ("lock round trip", "taken", "locked"),
    ("deciding", "locked", "sent"),
    ("write and COMMIT round trip", "sent", "committed"),
    ("after the commit, to publication", "committed", "publishing"),
    ("Redis, to the opponent's socket", "publishing", "arrived"),
    ("sent on, to the load generator", "arrived", "received"),
]


def join(folder: Path) -> list[dict]:
    """One dict of stamps per measured move whose every stage was stamped."""
    moves, frames, forwards, clients = {}, {}, {}, []
    for path in folder.glob("*.txt"):
        for line in path.read_text().splitlines():
            kind, *f = line.split()
            if kind == "move":
                moves[(int(f[0]), int(f[1]))] = dict(batch=int(f[2]), queued=float(f[3]), taken=float(f[4]),
                                                     locked=float(f[5]), sent=float(f[6]), committed=float(f[7]))
            elif kind == "frames":
                frames[(f[0], int(f[1]))] = dict(built_from=float(f[2]), built=float(f[3]), publishing=float(f[4]))
            elif kind == "forward":
                forwards[(int(f[0]), int(f[1]), f[2])] = dict(arrived=float(f[3]))
            elif kind == "client":
                clients.append((int(f[0]), int(f[1]), f[2], float(f[3]), float(f[4])))
    rows = []
    for match, version, seat, submitted, received in clients:
        move = moves.get((match, version))
        frame = frames.get((f"match-{match}-seat-{seat}", version))
        forward = forwards.get((match, version, seat))
        if move and frame and forward:
            rows.append({**move, **frame, **forward, "submitted": submitted, "received": received})
    return rows


def report(rows: list[dict]) -> str:
    """Mean of each stage (ms) around the median move and among the slowest 5%."""
    if len(rows) < 20:
        return f"{len(rows)} moves joined: too few for a table"
    rows = sorted(rows, key=lambda r: r["received"] - r["submitted"])
    n = len(rows)
    groups = [("around the median", rows[int(n * 0.45):int(n * 0.55)]), ("slowest 5%", rows[int(n * 0.95):])]
    lines = [f"{n} moves joined; mean ms of each stage", f"{'stage':36s}" + "".join(f"{g:>20s}" for g, _ in groups)]
    for name, start, end in STAGES + [("total", "submitted", "received")]:
        means = [statistics.mean((r[end] - r[start]) * 1000 for r in group) for _, group in groups]
        lines.append(f"{name:36s}" + "".join(f"{m:20.2f}" for m in means))
    lines.append(f"{'of which building the frames':36s}" + "".join(
        f"{statistics.mean((r['built'] - r['built_from']) * 1000 for r in group):20.2f}" for _, group in groups))
    lines.append(f"{'moves in the batch':36s}" + "".join(
        f"{statistics.mean(r['batch'] for r in group):20.2f}" for _, group in groups))
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(join(Path(sys.argv[1]))))
