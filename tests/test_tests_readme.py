"""tests/README.md stays true: every module and test file it names exists (a pattern such as
`dashboard/views/*.py` names at least one), and each project module it maps is named with a test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "tests" / "README.md"
NAMED = re.compile(r"`([A-Za-z0-9_./*-]+\.py)`")


def named_paths() -> list[str]:
    return sorted(set(NAMED.findall(README.read_text(encoding="utf-8"))))


def test_every_module_and_test_file_the_tests_readme_names_exists():
    missing = [name for name in named_paths() if not list(ROOT.glob(name))]
    assert missing == [], f"tests/README.md names files that do not exist: {missing}"


def test_the_tests_readme_maps_every_module_to_a_test_file():
    rows = [line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    without = [row for row in rows if "tests/" not in row.split("|")[2]]
    assert rows and without == []
