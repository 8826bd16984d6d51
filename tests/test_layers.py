"""Layers: who may import whom, read from every import (in functions too), and no circles.

From the bottom: ``core`` (stdlib only); ``session`` and ``solver`` on it;
``storage`` on the session; ``play`` on all four; ``rl`` on core and solver;
then the front ends ``web``, ``tui`` and ``cli``, which nothing below imports.

Imports are read from the source, at any depth (a function's too, relative ones
made absolute). The layer rules read every import, even those only for type
checking; the circle test leaves out those under ``if TYPE_CHECKING:`` (they
never run). Modules loaded by name (``importlib``) are not seen.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "src" / "bonanza"
ROOT = PACKAGE.parent
"""The folder holding the ``bonanza`` package (module names are paths from here)."""
FRONT_ENDS = ("bonanza.web", "bonanza.tui", "bonanza.cli")
BELOW_THE_FRONT_ENDS = ("core", "session", "solver", "storage", "play", "rl")
MIN_MODULES = 40
MIN_IMPORT_EDGES = 100
"""The graph is the package's (a broken reader would find no circle in an empty graph)."""


# -- reading imports -------------------------------------------------------------


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str, root: Path = ROOT) -> bool:
    """Whether ``name`` is a module or package (a C extension's stub counts, built or not)."""
    path = root.joinpath(*name.split("."))
    return (
        path.with_suffix(".py").exists()
        or path.with_suffix(".pyi").exists()
        or (path / "__init__.py").exists()
        or any(path.parent.glob(path.name + ".*.so"))
    )


def is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` test is ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_nodes(node: ast.AST, *, runtime: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in ``node``, at any depth (functions, classes, branches);
    ``runtime`` leaves out those under ``if TYPE_CHECKING:``."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
        return
    children: Iterable[ast.AST] = ast.iter_child_nodes(node)
    if runtime and isinstance(node, ast.If) and is_type_checking(node.test):
        children = node.orelse
    for child in children:
        yield from import_nodes(child, runtime=runtime)


def imports(path: Path, root: Path = ROOT, *, runtime: bool = False) -> set[str]:
    """The modules ``path`` imports anywhere in it, relative imports made absolute;
    ``from package import name`` counts ``package.name`` when that is a module."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: set[str] = set()
    for node in import_nodes(ast.parse(path.read_text(), str(path)), runtime=runtime):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
            continue
        if node.level:
            base = package.rsplit(".", node.level - 1)[0]
            module = f"{base}.{node.module}" if node.module else base
        else:
            module = node.module or ""
        submodules = {f"{module}.{alias.name}" for alias in node.names}
        found = {sub for sub in submodules if is_module(sub, root)}
        names |= found
        if len(found) < len(submodules):  # some names come from the module itself
            names.add(module)
    return names


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports at run time (in functions too)."""
    modules = {module_name(path, root): path for path in sorted((root / package).rglob("*.py"))}
    return {
        name: {imported for imported in imports(path, root, runtime=True) if imported in modules}
        - {name}
        for name, path in modules.items()
    }


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


# -- the rules -------------------------------------------------------------------


def modules_in(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


def within(name: str, packages: tuple[str, ...]) -> bool:
    """Whether module ``name`` is one of ``packages`` or inside one."""
    return any(name == package or name.startswith(package + ".") for package in packages)


def imports_of(*layers: str) -> Iterator[tuple[Path, str]]:
    """(file, imported module) for every import in the files of ``layers``."""
    for layer in layers:
        for path in modules_in(layer):
            for name in imports(path):
                yield path, name


def is_stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names


def test_core_imports_only_the_standard_library_and_itself() -> None:
    assert modules_in("core")
    for path, name in imports_of("core"):
        assert within(name, ("bonanza.core",)) or is_stdlib(name), f"{path.name} imports {name}"


def test_core_does_no_io() -> None:
    for path in modules_in("core"):
        source = path.read_text()
        for banned in ("print(", "open(", "time.time", "random.", "input("):
            assert banned not in source, f"{path.name} uses {banned}"


def test_solver_depends_on_core_only() -> None:
    for path, name in imports_of("solver"):
        if within(name, ("bonanza",)):
            assert within(name, ("bonanza.core", "bonanza.solver")), f"{path} imports {name}"


def test_nothing_below_the_front_ends_imports_them() -> None:
    for path, name in imports_of(*BELOW_THE_FRONT_ENDS):
        assert not within(name, FRONT_ENDS), f"{path} imports {name}"


def test_session_depends_on_core_only_and_does_no_io() -> None:
    assert modules_in("session")
    for path, name in imports_of("session"):
        inside = within(name, ("bonanza.core", "bonanza.session"))
        assert inside or is_stdlib(name), f"{path.name} imports {name}"
    for path in modules_in("session"):
        source = path.read_text()
        for banned in ("print(", "open(", "time.time", "sqlite3", "input("):
            assert banned not in source, f"{path.name} uses {banned}"


def test_storage_sits_on_the_session_and_below_the_apps() -> None:
    for path, name in imports_of("storage"):
        if within(name, ("bonanza",)):
            allowed = ("bonanza.core", "bonanza.session", "bonanza.storage")
            assert within(name, allowed), f"{path} imports {name}"


def test_play_sits_on_the_engine_session_solver_and_storage() -> None:
    # bonanza.play may be new or partial: no file is required yet.
    allowed = ("bonanza.core", "bonanza.session", "bonanza.solver", "bonanza.storage")
    for path, name in imports_of("play"):
        inside = within(name, (*allowed, "bonanza.play"))
        assert inside or is_stdlib(name), f"{path} imports {name}"


def test_nothing_below_play_imports_it() -> None:
    for path, name in imports_of("core", "session", "solver", "storage", "rl"):
        assert not within(name, ("bonanza.play",)), f"{path} imports {name}"


def test_the_learning_tools_sit_on_core_and_solver_and_nothing_needs_them() -> None:
    assert modules_in("rl")
    for path, name in imports_of("rl"):
        if within(name, ("bonanza",)):
            allowed = ("bonanza.core", "bonanza.solver", "bonanza.rl")
            assert within(name, allowed), f"{path} imports {name}"
    for path, name in imports_of("core", "session", "solver", "storage", "play", "web", "tui"):
        assert not within(name, ("bonanza.rl",)), f"{path} imports {name}"


def test_the_apps_never_import_each_other_except_the_cli() -> None:
    for layer, others in (
        ("web", ("bonanza.tui", "bonanza.cli")),
        ("tui", ("bonanza.web", "bonanza.cli")),
    ):
        for path, name in imports_of(layer):
            assert not within(name, others), f"{path} imports {name}"


# -- the reader itself, on small packages --------------------------------------------


def write_package(root: Path, files: dict[str, str]) -> None:
    for name, source in files.items():
        path = root.joinpath(*name.split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)


def test_the_circle_finder_finds_circles() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_a_circle_through_an_import_in_a_function_is_found(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/low.py": "def f() -> None:\n    from pkg.high import g\n",
            "pkg/high.py": "from pkg import low\n\ndef g() -> None:\n    pass\n",
        },
    )
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.low"] == {"pkg.high"} and graph["pkg.high"] == {"pkg.low"}
    assert find_circle(graph) == ["pkg.high", "pkg.low", "pkg.high"]


def test_relative_imports_in_functions_are_read(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "pkg/__init__.py": "from . import sub\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/a.py": "class A:\n    def m(self) -> None:\n        from ..b import x\n",
            "pkg/sub/c.py": "def f() -> None:\n    from . import a\n    from .. import b\n",
            "pkg/b.py": "x = 1\n",
        },
    )
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg"] == {"pkg.sub"}
    assert graph["pkg.sub.a"] == {"pkg.b"}
    assert graph["pkg.sub.c"] == {"pkg.sub.a", "pkg.b"}
    assert find_circle(graph) is None


def test_imports_for_type_checking_only_make_no_circle(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "import pkg.b\n",
            "pkg/b.py": (
                "import typing\nfrom typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from pkg.a import A\nelse:\n    import pkg.c\n"
                "if typing.TYPE_CHECKING:\n    import pkg.a\n"
            ),
            "pkg/c.py": "",
        },
    )
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.b"] == {"pkg.c"}
    assert find_circle(graph) is None
    assert "pkg.a" in imports(tmp_path / "pkg" / "b.py", tmp_path)  # the layer rules see it


def test_no_import_circles() -> None:
    graph = import_graph(ROOT, "bonanza")
    assert len(graph) > MIN_MODULES and sum(map(len, graph.values())) > MIN_IMPORT_EDGES
    circle = find_circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])
