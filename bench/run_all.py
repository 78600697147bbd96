"""Run every benchmark and print their figures (`make bench`). Each script also runs alone."""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNS = [
    ["ccg_engine.py"],
    ["cupquest_playout.py"],
    ["fluxx_engine.py", "--games", "200"],
    ["camelot_engine.py", "--games", "40"],
    ["camelot_takeback.py"],
    ["move_offered.py"],
    ["computer_players.py", "--games", "200"],
    ["card_search.py"],
    # a Swiss round of 1,000 players and tables for 600; then a tournament page's statements
    ["tournaments.py"],
    ["tournaments.py", "--page"],
    ["move_roundtrip.py", "--games", "40", "--seconds", "15"],
    ["move_roundtrip.py", "--games", "40", "--seconds", "15", "--rate", "200"],
    ["spectators.py", "--spectators", "500", "--moves", "10"],
    # make prod's shape: through nginx with two web processes against one direct (CCG, Cup Quest)
    ["prod_roundtrip.py", "--games", "20", "--seconds", "15"],
    ["notifications.py"],
    ["bot_streams.py", "--idle", "200", "--games", "20", "--interval", "1.0"],
]


def main() -> int:
    failed = 0
    for run in RUNS:
        print(f"== {' '.join(run)}", flush=True)
        failed += subprocess.run([sys.executable, str(HERE / run[0]), *run[1:]], cwd=HERE.parent).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
