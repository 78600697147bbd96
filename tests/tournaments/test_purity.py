"""The tournament core stays pure: no Django (models, pages and tasks sit on top), no clocks,
no global randomness, no I/O."""
import ast
import subprocess
import sys
from pathlib import Path

TOURNAMENTS = Path(__file__).resolve().parents[2] / "games" / "tournaments"
FORBIDDEN_ROOTS = {"django", "channels", "celery", "redis", "psycopg", "requests", "time", "datetime", "random",
                   "socket", "subprocess"}


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_no_tournament_module_imports_a_forbidden_package():
    modules = sorted(TOURNAMENTS.rglob("*.py"))
    assert len(modules) >= 7
    offenders = {p.name: sorted(set(_imports(p)) & FORBIDDEN_ROOTS) for p in modules}
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
        "for m in pkgutil.walk_packages(t.__path__, 'games.tournaments.'):\n"
        "    importlib.import_module(m.name)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=TOURNAMENTS.parents[1], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
