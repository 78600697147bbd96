"""References that resolve: no document, docstring, comment or template points at
a file by one machine's absolute path, and each rules text cited as ``../shared/rules/<file>``
(beside the checkout, where CI puts it) is there."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (".md", ".py", ".html", ".js", ".css", ".txt", ".toml", ".yml", ".yaml", ".sh", ".conf", ".cfg", ".ini")
# A home or work folder of one machine, written as a path (not a URL's path, not a glob).
ABSOLUTE = re.compile(r"(?<![\w.:/])/(?:work|home|root|Users|tmp/[\w-]+/main)/[\w.-]+")
SHARED = re.compile(r"\.\./shared/rules/([\w.*-]+)")


def _tracked() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / n for n in names if n.endswith(TEXT) and n != "tests/newplayer/test_references.py"]


def test_no_file_points_at_a_machines_absolute_path():
    found = []
    for path in _tracked():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if ABSOLUTE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert found == []


def test_every_rules_text_cited_beside_the_checkout_is_there():
    shared = ROOT.parent / "shared" / "rules"
    cited = {name for path in _tracked() for name in SHARED.findall(path.read_text(errors="replace"))}
    assert cited, "the rules pages cite their rules texts"
    missing = [name for name in sorted(cited) if not list(shared.glob(name))]
    assert missing == [], f"cited but not in {shared}: {missing}"
