"""The rules packages stay pure: no Django, no clocks, no global randomness, no I/O."""
import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "games" / "rules"
# ``secrets`` too: a committed game's secret is drawn by the site, never by the rules
# (games/rules/commitment.py), so that all of a game's chance stays in its seed.
FORBIDDEN_ROOTS = {"django", "channels", "celery", "redis", "psycopg", "requests", "time", "datetime", "random",
                   "secrets", "socket", "subprocess"}


def _imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_no_rules_module_imports_a_forbidden_package():
    offenders = {str(p.relative_to(RULES)): sorted(set(_imports(p)) & FORBIDDEN_ROOTS)
                 for p in RULES.rglob("*.py")}
    offenders = {k: v for k, v in offenders.items() if v}
    assert offenders == {}


def test_rules_import_without_django_installed_in_the_path():
    # A fresh interpreter where importing django fails must still import every rules package.
    code = (
        "import sys, importlib, pkgutil\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('django', 'channels', 'celery'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import games.rules as r\n"
        "for m in pkgutil.walk_packages(r.__path__, 'games.rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "print('ok')\n"
    )
    root = RULES.parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
