"""The import picture of docs/architecture.md: layers only import downwards, and no two modules
import each other (directly or round a longer circle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("cli", "api", "loaders", "store", "dashboard")
# Which parts each part may import (besides itself); docs/architecture.md draws the same.
MAY_IMPORT = {
    "cli": {"api", "loaders", "store"},
    "api": {"store"},
    "loaders": {"store"},
    "store": set(),
    "dashboard": set(),
}
# api -> loaders only where the admin upload runs the release loader.
API_MODULES_USING_LOADERS = {"api.routes.admin"}
VOCABULARY = "store.reference"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every project module the file imports, at module level or inside functions."""
    found: set[str] = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found.add(base)
            # `from api.routes import accounts` imports the module api.routes.accounts
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in PARTS}


def project_graph() -> dict[str, set[str]]:
    files = [p for part in PARTS for p in (ROOT / part).rglob("*.py")]
    modules = {module_name(p): p for p in files}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


GRAPH = project_graph()


def test_architecture_parts_import_only_downwards():
    wrong = []
    for module, targets in GRAPH.items():
        part = module.split(".")[0]
        for target in targets:
            other = target.split(".")[0]
            if other == part:
                continue
            allowed = other in MAY_IMPORT[part] or (
                part == "api" and other == "loaders" and module in API_MODULES_USING_LOADERS)
            if not allowed:
                wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_architecture_api_reaches_loaders_only_for_the_upload():
    users = {m for m, targets in GRAPH.items() if m.startswith("api") and any(t.startswith("loaders") for t in targets)}
    assert users <= API_MODULES_USING_LOADERS


def test_architecture_vocabulary_imports_no_other_part():
    for module, targets in GRAPH.items():
        if module.startswith(VOCABULARY):
            assert all(t.startswith(VOCABULARY) for t in targets), (module, targets)


def test_architecture_nothing_imports_the_command():
    assert [m for m, targets in GRAPH.items() if not m.startswith("cli") and any(t.startswith("cli") for t in targets)] == []


def test_architecture_no_two_modules_import_each_other():
    # Tarjan's strongly connected components: any component of two or more modules is a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in GRAPH:
        if module not in index:
            visit(module)
    assert circles == []


def test_architecture_modules_stay_small():
    # house-style.md: modules under about 400 lines.
    sizes = {module_name(p): len(p.read_text(encoding="utf-8").splitlines())
             for part in PARTS for p in (ROOT / part).rglob("*.py")}
    assert {m: n for m, n in sizes.items() if n > 420} == {}


# api/transport/ moves bytes: what parses parameters is in api/params.py, and what reads the store
# reaches it as one of the app's services (api/context.py `extension`), such as the cursor key. It
# may refuse what it moves (a late body, a Host on another port, too many ETags) in the one problem shape.
TRANSPORT_MAY_IMPORT = ("api.transport", "api.context", "api.description", "api.problems")


def test_architecture_transport_parses_no_parameters_and_opens_no_session():
    wrong = {f"{module} -> {target}" for module, targets in GRAPH.items() if module.startswith("api.transport")
             for target in targets if not target.startswith(TRANSPORT_MAY_IMPORT)}
    assert wrong == set()


# One way to the request, its globals and the app in api/: api/context.py (docs/architecture.md).
FLASK_PROXIES = {"request", "g", "current_app", "session"}


def test_architecture_only_the_context_module_imports_flasks_proxies():
    users = set()
    for path in (ROOT / "api").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "flask":
                if FLASK_PROXIES & {alias.name for alias in node.names}:
                    users.add(module_name(path))
    assert users == {"api.context"}
