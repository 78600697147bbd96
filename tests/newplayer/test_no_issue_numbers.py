"""No tracked text cites an issue of this project's tracker ("issue 31", "Issue 11:", "see #12"):
a reader of the checkout has no tracker, so a comment, docstring, template, script or
document says in words what the code does and why, or what went wrong once.

Another project's tracker may be cited when the citation names its repository:
"lila #10788" in prose about lichess, or "celery/celery#1234". Pure: reads the files
`git ls-files` lists, no database."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()

# A citation of this project's issues. Not preceded by a letter, digit, "/" or "-", so
# "tissue 3" and a path are not one; "#NN" alone is a game's number ("Camelot #7"), so a
# bare hash counts only after a tracker verb ("see #12", "fixes #12") or in brackets ("(#12)").
ISSUE = re.compile(
    r"(?<![\w/-])(?:"
    r"[Ii]ssues?[ \t]*[-#]?[ \t]*\d+"                                   # issue 31, Issues 10, issue #31, issue-10
    r"|(?:[Ss]ee|[Ff]ix(?:es|ed)?|[Cc]los(?:es|ed)?|[Rr]esolv(?:es|ed)|[Rr]efs?)[ \t]+#\d+"  # see #31
    r"|\(#\d+\)"                                                         # (#31)
    r")")


def citations(text: str) -> list[str]:
    return [m.group(0) for m in ISSUE.finditer(text)]


def _tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split("\0")
    files = []
    for name in names:
        path = ROOT / name
        if not name or name == THIS or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:  # binary: an image, a font
            continue
        files.append(path)
    return files


@pytest.mark.parametrize("text", [
    "Push notifications (issue 31): how fast one worker pushes",
    'A game you come back to (issue 34, "End of a game")',
    "Issue 11: from move 100 on the log's numbers lost their first digit.",
    "(issue 11 \"Decks\" and \"Import\"; issue 12's sample opening)",
    "item 4 of issue 28",
    "issues 10 and 28",
    "as issue #15 describes",
    "the issue-10 item",
    "see #12 for the details",
    "Fixes #7",
    "a line added (#31)",
])
def test_the_pattern_catches_a_citation_of_this_projects_issues(text):
    assert citations(text), text


@pytest.mark.parametrize("text", [
    "lichess answers a repeated move with an error (lila #10788)",
    "owner/repo#12",
    "fixed upstream in celery/celery#1234",
    "Your time ran out in Camelot #7, so the site ends the turn for you.",
    'Game #12 ended without the Grail found',
    "a tissue 3 mm thick",
    "no issues found",
])
def test_the_pattern_lets_other_repositories_and_game_numbers_through(text):
    assert citations(text) == [], text


def test_no_tracked_file_cites_this_projects_issues():
    found = []
    for path in _tracked_text_files():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for citation in citations(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {citation!r} in {line.strip()[:100]}")
    assert found == [], "say what the code does and why instead:\n" + "\n".join(found)
