"""Layers: core imports only the stdlib, solver only core, and nothing imports the apps."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "src" / "bonanza"


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def modules_in(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


def test_core_imports_only_the_standard_library_and_itself() -> None:
    assert modules_in("core")
    for path in modules_in("core"):
        for name in imports(path):
            top = name.split(".")[0]
            inside = name.startswith("bonanza.core")
            assert inside or top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_core_does_no_io() -> None:
    for path in modules_in("core"):
        source = path.read_text()
        for banned in ("print(", "open(", "time.time", "random.", "input("):
            assert banned not in source, f"{path.name} uses {banned}"


def test_solver_depends_on_core_only() -> None:
    for path in modules_in("solver"):
        for name in imports(path):
            if name.startswith("bonanza"):
                assert name.startswith(("bonanza.core", "bonanza.solver")), f"{path} imports {name}"


def test_nothing_depends_on_the_apps() -> None:
    apps = ("bonanza.web", "bonanza.tui", "bonanza.cli")
    for layer in ("core", "solver"):
        for path in modules_in(layer):
            for name in imports(path):
                assert not name.startswith(apps), f"{path} imports {name}"
