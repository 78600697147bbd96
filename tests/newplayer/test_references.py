"""The checkout stands alone: no document, docstring, comment, template or script points at a
file outside the repository, neither by one machine's absolute path nor by a relative path
that climbs out of it (``../shared``, or more ``../`` than the file's folder is deep), and no
Python module builds a path above the repository's root. A fresh clone anywhere passes
``make test``. Published rules are cited by title and edition, never by a file: every game's
rules page names its sources. Pure: reads the files ``git ls-files`` lists, no database."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()
TEXT = (".md", ".py", ".html", ".js", ".css", ".txt", ".toml", ".yml", ".yaml", ".sh", ".conf", ".cfg", ".ini",
        ".json", ".template", ".env")
TEXT_NAMES = ("Makefile", "Dockerfile", ".dockerignore", ".gitignore", "run")
# A home or work folder of one machine, written as a path (not a URL's path, not a glob).
ABSOLUTE = re.compile(r"(?<![\w.:/])/(?:work|home|root|Users|tmp/[\w-]+/main)/[\w.-]+")
# A relative path starting with "../" (not "a/../b", not an ellipsis such as ".../chat/").
UPWARD = re.compile(r"(?<![\w./])((?:\.\./)+(?:\.\.(?![\w.]))?[\w.*-]*)")
# The folder beside the checkout where rules texts once lay: outside the repository wherever it is named.
SIBLING = re.compile(r"\.\./shared\b")
# Python reaching the checkout's root from a module, then one folder further up.
PARENTS = re.compile(r"Path\(__file__\)\.resolve\(\)((?:\.parent(?!s))+|\.parents\[(\d+)\])")
ROOT_PARENT = re.compile(r"\b(?:ROOT|BASE_DIR|REPO_ROOT)\.parent\b")


def _tracked() -> list[str]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [n for n in names if n != THIS and (n.endswith(TEXT) or PurePosixPath(n).name in TEXT_NAMES)
            and (ROOT / n).is_file()]


def _lines():
    for name in _tracked():
        for number, line in enumerate((ROOT / name).read_text(errors="replace").splitlines(), 1):
            yield name, number, line


def climbs_out(name: str, line: str) -> list[str]:
    """The paths in ``line`` of the tracked file ``name`` that lead outside the checkout."""
    found = [m.group(0) for m in SIBLING.finditer(line)]
    depth = len(PurePosixPath(name).parent.parts)  # how many "../" lead from the file's folder to the root
    for match in UPWARD.finditer(line):
        ups = match.group(1).count("..")
        if ups > depth and match.group(1) not in found:
            found.append(match.group(1))
    if name.endswith(".py"):
        steps_to_root = len(PurePosixPath(name).parts)  # a/b.py: .parent.parent, or parents[1]
        for match in PARENTS.finditer(line):
            steps = int(match.group(2)) + 1 if match.group(2) else match.group(1).count(".parent")
            if steps > steps_to_root:
                found.append(match.group(0))
        found += [m.group(0) for m in ROOT_PARENT.finditer(line)]
    return found


@pytest.mark.parametrize("name, line", [
    ("docs/rules/ccg.md", "Rule numbers refer to the rules texts in `../shared/rules/` (from the root)"),
    ("games/kinds/ccg/templates/ccg/rules.html", "text (../shared/rules/mphg-ccg-rules-*.txt)"),
    ("README.md", "see ../notes.md"),
    ("docs/deploy.md", "copy ../../secrets/key"),
    ("tests/newplayer/test_x.py", 'shared = ROOT.parent / "shared" / "rules"'),
    ("tests/newplayer/test_x.py", "OUTSIDE = Path(__file__).resolve().parents[3]"),
    ("grailsite/x.py", "OUTSIDE = Path(__file__).resolve().parent.parent.parent"),
])
def test_a_path_out_of_the_checkout_is_caught(name, line):
    assert climbs_out(name, line), line


@pytest.mark.parametrize("name, line", [
    ("docs/rules/ccg.md", "the engine's choices (see ../architecture.md)"),
    ("grailsite/deploy/web.sh", 'cd "$(dirname "$0")/../.."'),
    ("tests/rules/cupquest/test_cq_board.py", 'load_board("../../secrets")'),
    ("docs/architecture.md", "(`GET .../chat/?after=<id>`, oldest first)"),
    ("tests/newplayer/test_x.py", "ROOT = Path(__file__).resolve().parents[2]"),
    ("grailsite/settings.py", "BASE_DIR = Path(__file__).resolve().parent.parent"),
])
def test_a_path_within_the_checkout_passes(name, line):
    assert climbs_out(name, line) == [], line


def test_no_file_points_at_a_machines_absolute_path():
    found = [f"{name}:{number}: {line.strip()[:100]}" for name, number, line in _lines() if ABSOLUTE.search(line)]
    assert found == []


def test_no_file_points_outside_the_checkout():
    found = [f"{name}:{number}: {path!r} in {line.strip()[:100]}"
             for name, number, line in _lines() for path in climbs_out(name, line)]
    assert found == [], "cite a published text by title and edition, and keep every file the repository needs in it:\n" \
        + "\n".join(found)


def test_every_rules_page_names_its_sources_by_title():
    pages = sorted(ROOT.glob("games/kinds/*/templates/*/rules.html"))
    assert pages, "every game brings a rules page"
    for page in pages:
        text = page.read_text()
        block = re.search(r"{% block sources %}(.*?){% endblock %}", text, re.S)
        assert block, f"{page.relative_to(ROOT)} has no sources block"
        words = re.sub(r"<[^>]+>", " ", block.group(1)).strip()
        assert len(words) > 20, f"{page.relative_to(ROOT)}: the sources block is empty"
        assert not re.search(r"[\w-]+\.txt\b|/rules/", words), f"{page.relative_to(ROOT)} names a file: {words}"
