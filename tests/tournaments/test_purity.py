"""The tournament core stays pure: no Django (models, pages and tasks sit on top), no clocks,
no global randomness, no I/O. The package also holds the shell of tournaments (services,
pages, the API): its ``PURE`` names the modules of the core, and those are checked."""
import ast
import subprocess
import sys
from pathlib import Path

from games.tournaments import PURE

TOURNAMENTS = Path(__file__).resolve().parents[2] / "games" / "tournaments"
CORE = [TOURNAMENTS / f"{name}.py" for name in PURE]
FORBIDDEN_ROOTS = {"django", "channels", "celery", "redis", "psycopg", "requests", "time", "datetime", "random",
                   "socket", "subprocess"}


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def _project_imports(path: Path):
    """Modules of this project a core module imports that are not in the core."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(("games", "grailsite", "decks")):
            if node.module.removeprefix("games.tournaments.") not in PURE:
                yield node.module


def test_the_package_says_which_of_its_modules_are_pure():
    # The package's own __init__ is imported by the core, so it must stay pure too.
    assert not set(_imports(TOURNAMENTS / "__init__.py")) & FORBIDDEN_ROOTS
    assert {"swiss", "tables", "standings", "ladder", "round_robin", "entrants"} <= set(PURE)


def test_no_tournament_module_imports_a_forbidden_package():
    assert len(CORE) >= 7 and all(p.exists() for p in CORE)
    offenders = {p.name: sorted(set(_imports(p)) & FORBIDDEN_ROOTS | set(_project_imports(p))) for p in CORE}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_tournament_core_imports_with_django_blocked():
    code = (
        "import sys, importlib, pkgutil\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('django', 'channels', 'celery'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import games.tournaments as t\n"
        "for name in t.PURE:\n"
        "    importlib.import_module('games.tournaments.' + name)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=TOURNAMENTS.parents[1], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
