"""The backup and restore drill: games of every kind under way, a backup taken
mid-game (`make backup`: pg_dump's custom format and the media), restored into a fresh
database (`make restore`); there every game replays to its snapshot (replay_check), every
holding equals its ledger with the CCG's ante staked (ledger_check), the media are back, and
every game goes on from where it was."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.table import services
from games import registry
from games.models import Match, Seat
from tests.browser_fixtures import _database_url
from grailsite.deploy.backup import check_environment
from tests.platform.ccg_helpers import ensure_card_database, prepared_player, start_two_player

ROOT = Path(__file__).resolve().parents[2]
BACKUP = ROOT / "grailsite" / "deploy" / "backup.py"
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

ENDING = {"resign", "concede", "abandon", "leave"}


def play(match_id: int, moves: int) -> None:
    """``moves`` moves of whoever is to act (a move that would end the game is passed over)."""
    for _ in range(moves):
        match = Match.objects.get(pk=match_id)
        game = registry.get(match.kind)
        pending = game.pending(match.state)
        if match.status != Match.Status.ACTIVE or not pending:
            return
        seat = pending[0].seat
        legal = [m for m in game.legal_moves(match.state, seat) if m.get("type") not in ENDING]
        user = Seat.objects.get(match=match, index=seat).user
        services.move_submit(match_id=match.pk, user=user, move=legal[0], version=match.version)


def on_database(url: str, *args: str, code: str | None = None) -> subprocess.CompletedProcess:
    """A command on the restored database, in the environment the drill checks it in (no
    Redis: nothing reaches this run's, as nothing may reach a live site's)."""
    env = check_environment(url, {k: v for k, v in os.environ.items() if k != "GRAILSITE_TEST_DB"})
    cmd = [sys.executable, "manage.py", *args] if code is None else [sys.executable, "manage.py", "shell", "-c", code]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


# Run on the restored database: one more move in each game, by whoever is to act there.
GO_ON = """
import json
from games.table import services
from games import registry
from games.models import Match, Seat
out = {}
for match in Match.objects.filter(pk__in=%s).order_by("pk"):
    game = registry.get(match.kind)
    seat = game.pending(match.state)[0].seat
    move = [m for m in game.legal_moves(match.state, seat) if m.get("type") not in %r][0]
    result = services.move_submit(match_id=match.pk, user=Seat.objects.get(match=match, index=seat).user,
                                  move=move, version=match.version)
    out[match.pk] = [match.version, result["version"]]
print(json.dumps(out))
"""


def test_a_backup_taken_mid_game_restores_and_the_games_go_on(make_match, make_user, tmp_path, settings):
    ensure_card_database()
    games = {}
    for kind in ("duel", "camelot", "cupquest", "fluxx"):
        match, _ = make_match(kind, seats=registry.get(kind).min_players)
        games[kind] = match.pk
    alice, bob = make_user("alice"), make_user("bob")
    games["ccg"] = start_two_player(((alice, prepared_player(alice)), (bob, prepared_player(bob))))[0].pk
    for match_id in games.values():
        play(match_id, 6)
    media = tmp_path / "media"
    (media / "avatars").mkdir(parents=True)
    (media / "avatars" / "alice.png").write_bytes(b"\x89PNG not really")
    before = dict(Match.objects.filter(pk__in=games.values()).values_list("pk", "version"))
    assert all(v > 1 for v in before.values())
    assert Match.objects.filter(pk__in=games.values(), status=Match.Status.ACTIVE).count() == len(games)

    source = _database_url()
    out = tmp_path / "backup"
    taken = subprocess.run([sys.executable, str(BACKUP), "backup", "--database-url", source, "--media-root", str(media),
                            "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert taken.returncode == 0, taken.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["database_bytes"] > 0 and "games" in manifest["migrations"]
    # The site moves on after the backup: the restore is of the moment it was taken.
    play(games["duel"], 1)

    target = f"{source.rsplit('/', 1)[0]}/{settings.DATABASES['default']['NAME']}_restored"
    subprocess.run(["psql", f"{source.rsplit('/', 1)[0]}/postgres", "-qc",
                    f"DROP DATABASE IF EXISTS {target.rsplit('/', 1)[1]} WITH (FORCE)"], check=True)
    restored_media = tmp_path / "restored-media"
    try:
        done = subprocess.run([sys.executable, str(BACKUP), "restore", str(out), "--database-url", target,
                               "--media-root", str(restored_media)], cwd=ROOT, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        again = subprocess.run([sys.executable, str(BACKUP), "restore", str(out), "--database-url", target,
                                "--media-root", str(restored_media)], cwd=ROOT, capture_output=True, text=True,
                               timeout=600)
        assert again.returncode != 0 and "exists" in again.stderr  # never over a database
        assert (restored_media / "avatars" / "alice.png").read_bytes() == b"\x89PNG not really"

        migrate = on_database(target, "migrate", "--check")
        assert migrate.returncode == 0, migrate.stdout + migrate.stderr
        checked = subprocess.run([sys.executable, str(BACKUP), "check", "--database-url", target], cwd=ROOT,
                                 capture_output=True, text=True, timeout=600)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "0 mismatch(es)" in checked.stdout and "Ledger check passed" in checked.stdout, checked.stdout

        went_on = on_database(target, code=GO_ON % (sorted(games.values()), ENDING))
        assert went_on.returncode == 0, went_on.stderr
        versions = {int(k): v for k, v in json.loads(went_on.stdout.strip().splitlines()[-1]).items()}
        assert set(versions) == set(games.values())
        for match_id, (restored, after) in versions.items():
            assert restored == before[match_id] and after > restored, (match_id, restored, before[match_id], after)
        # ... and still replay, the new moves with them.
        assert on_database(target, "replay_check").returncode == 0
    finally:
        subprocess.run(["psql", f"{source.rsplit('/', 1)[0]}/postgres", "-qc",
                        f"DROP DATABASE IF EXISTS {target.rsplit('/', 1)[1]} WITH (FORCE)"])
