"""tests/README.md stays true and whole: every module and test file it names exists (a pattern such as
`dashboard/views/*.py` names at least one), each project module it maps is named with a test, every
module of the project's parts has a line (an `__init__.py` holding only its docstring excepted), and
every test file is named at least once."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "tests" / "README.md"
NAMED = re.compile(r"`([A-Za-z0-9_./*-]+\.py)`")
PARTS = ("api", "cli", "dashboard", "loaders", "store")


def named_paths() -> list[str]:
    return sorted(set(NAMED.findall(README.read_text(encoding="utf-8"))))


def named_files() -> set[str]:
    """Every file the README names, its patterns expanded, as paths from the project's root."""
    return {path.relative_to(ROOT).as_posix() for name in named_paths() for path in ROOT.glob(name)}


def only_a_docstring(path: Path) -> bool:
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return all(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) for node in body)


def test_every_module_and_test_file_the_tests_readme_names_exists():
    missing = [name for name in named_paths() if not list(ROOT.glob(name))]
    assert missing == [], f"tests/README.md names files that do not exist: {missing}"


def test_the_tests_readme_maps_every_module_to_a_test_file():
    rows = [line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    without = [row for row in rows if "tests/" not in row.split("|")[2]]
    assert rows and without == []


def test_every_module_of_the_project_has_a_line():
    modules = [path for part in PARTS for path in (ROOT / part).rglob("*.py")]
    assert modules
    named = named_files()
    unnamed = sorted(rel for path in modules if (rel := path.relative_to(ROOT).as_posix()) not in named
                     and not (path.name == "__init__.py" and only_a_docstring(path)))
    assert unnamed == [], f"tests/README.md has no line for: {unnamed}"


def test_every_test_file_is_named():
    test_files = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "tests").rglob("test_*.py"))
    assert test_files
    unnamed = sorted(set(test_files) - named_files())
    assert unnamed == [], f"tests/README.md names nowhere: {unnamed}"
