"""The shell's modules (games/*.py) import each other without a cycle, counting the imports
made inside functions: services call computers and notify, which hand work to Celery by
task name, so no module reaches back up to the services that use it. (The rules' layers
have their own test: tests/rules/test_import_layers.py.)"""
import ast
from pathlib import Path

SHELL = Path(__file__).resolve().parents[2] / "games"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "games":
                names |= {alias.name for alias in node.names}
            elif node.module.startswith("games.") and node.module.count(".") == 1:
                names.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            names |= {a.name.split(".")[1] for a in node.names if a.name.startswith("games.") and a.name.count(".") >= 1}
    return names


def _graph() -> dict[str, set[str]]:
    modules = {p.stem: p for p in SHELL.glob("*.py")}
    return {name: _imports(path) & set(modules) - {name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_shell_has_no_import_cycle():
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()))


def test_the_check_finds_a_cycle():
    assert _cycle({"services": {"notify"}, "notify": {"tasks"}, "tasks": {"services"}}) == [
        "notify", "tasks", "services", "notify"]
    graph = _graph()
    assert "computers" in graph["services"] and "computers" in graph["selectors"]  # the imports are read
