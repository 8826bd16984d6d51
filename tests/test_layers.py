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
    for layer in ("core", "solver", "rl"):
        for path in modules_in(layer):
            for name in imports(path):
                assert not name.startswith(apps), f"{path} imports {name}"


def test_session_depends_on_core_only_and_does_no_io() -> None:
    assert modules_in("session")
    for path in modules_in("session"):
        source = path.read_text()
        for name in imports(path):
            top = name.split(".")[0]
            inside = name.startswith(("bonanza.core", "bonanza.session"))
            assert inside or top in sys.stdlib_module_names, f"{path.name} imports {name}"
        for banned in ("print(", "open(", "time.time", "sqlite3", "input("):
            assert banned not in source, f"{path.name} uses {banned}"


def test_storage_sits_on_the_session_and_below_the_apps() -> None:
    for path in modules_in("storage"):
        for name in imports(path):
            if name.startswith("bonanza"):
                allowed = ("bonanza.core", "bonanza.session", "bonanza.storage")
                assert name.startswith(allowed), f"{path} imports {name}"


def test_the_learning_tools_sit_on_core_and_solver_and_nothing_needs_them() -> None:
    assert modules_in("rl")
    for path in modules_in("rl"):
        for name in imports(path):
            if name.startswith("bonanza"):
                allowed = ("bonanza.core", "bonanza.solver", "bonanza.rl")
                assert name.startswith(allowed), f"{path} imports {name}"
    for layer in ("core", "session", "solver", "storage", "web", "tui"):
        for path in modules_in(layer):
            for name in imports(path):
                assert not name.startswith("bonanza.rl"), f"{path} imports {name}"


def test_the_apps_never_import_each_other_except_the_cli() -> None:
    for layer, others in (
        ("web", ("bonanza.tui", "bonanza.cli")),
        ("tui", ("bonanza.web", "bonanza.cli")),
    ):
        for path in modules_in(layer):
            for name in imports(path):
                assert not name.startswith(others), f"{path} imports {name}"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top_level_imports(path: Path) -> set[str]:
    """Modules imported when ``path`` is imported (not those inside functions)."""
    tree = ast.parse(path.read_text(), str(path))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names}
            found = {name for name in submodules if is_module(name)}
            names |= found
            if len(found) < len(submodules):  # some names come from the module itself
                names.add(node.module)
    return names


def is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return (
        path.with_suffix(".py").exists()
        or (path / "__init__.py").exists()
        or any(path.parent.glob(path.name + ".*.so"))
    )


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle in ``graph`` (module -> modules it imports), or None."""
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> list[str] | None:
        if name in trail:
            return [*trail[trail.index(name) :], name]
        if name in done:
            return None
        for imported in sorted(graph.get(name, ())):
            circle = visit(imported, [*trail, name])
            if circle:
                return circle
        done.add(name)
        return None

    for name in sorted(graph):
        circle = visit(name, [])
        if circle:
            return circle
    return None


def test_the_circle_finder_finds_circles() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circles() -> None:
    modules = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    graph = {
        name: {imported for imported in top_level_imports(path) if imported in modules} - {name}
        for name, path in modules.items()
    }
    assert len(graph) > 40 and sum(map(len, graph.values())) > 100
    circle = find_circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])
