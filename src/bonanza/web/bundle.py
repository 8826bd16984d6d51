"""The page's modules joined into one module, and its style sheets into one sheet.

A first load of some twenty files waits on them: a browser opens six connections
to a server and queues the rest, and compiles each module apart. Joined, the
page loads one script and one sheet. The files stay as they are in the folder
(and are still served one by one); the joined ones are made by the server from
them (``static_files``), again whenever one of them changes.

The modules are joined as the browser would run them: each module's code in its
own function, run once, in the order the browser runs modules (a module's imports
first, in the order they are written), its exports handed on as an object to the
modules importing it; comments on lines of their own and the lines' indentation are
left out (and so in the joined style sheet). That holds for
what the page's modules use and nothing more, and anything else is refused:
imports are ``import { a, b as c } from "./x.js";`` of files in the folder,
exports are declarations (``export function``, ``class``, ``const``), and imports
never go round in a cycle.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

IMPORT: Final = re.compile(
    r'^import\s*\{(?P<names>[^}]*)\}\s*from\s*"(?P<path>\./[\w./-]+)";[ \t]*\n?', re.M
)
EXPORT: Final = re.compile(
    r"^export\s+(?=(?:(?:async\s+)?function\*?|class|const)\s+(?P<name>[A-Za-z_$][\w$]*))", re.M
)
OTHER: Final = re.compile(r"^\s*(?:import|export)\b(?!\s*\()", re.M)
"""An import or export that no pattern above reads (``export let``, ``export default``...)."""
LINE_COMMENT: Final = re.compile(r"^[ \t]*//[^\n]*\n", re.M)
BLOCK_COMMENT: Final = re.compile(r"^[ \t]*/\*.*?\*/[ \t]*\n", re.M | re.S)
"""Comments on lines of their own: the joined script leaves them out (they are about a
third of the page's weight)."""
TRAILING_COMMENT: Final = re.compile(r"^(?P<code>[^'\"`/\n]*[^'\"`/\s])[ \t]+//[^\n]*$", re.M)
"""A comment after code on its line, where the code has no quote and no slash (so the
``//`` cannot be inside a string, a regular expression or a division): left out too.
Any other comment after code stays."""
TRAILING_BLOCK: Final = re.compile(r"^(?P<code>[^'\"/\n]*[;{}])[ \t]*/\*[^\n]*?\*/[ \t]*$", re.M)
"""A style sheet's comment after a rule's code on its line (no quote, no slash before it)."""
INDENT: Final = re.compile(r"^[ \t]+", re.M)
"""A line's indentation: the joined files leave it out (about a tenth of their weight)."""
NAMED: Final = re.compile(r"^(?P<name>[A-Za-z_$][\w$]*)(?:\s+as\s+(?P<alias>[A-Za-z_$][\w$]*))?$")


class BundleError(ValueError):
    """The files cannot be joined: the message says where and why."""


@dataclass(frozen=True, slots=True)
class Joined:
    """A joined file's text and the files it was made of."""

    text: str
    sources: tuple[Path, ...]


@dataclass(frozen=True, slots=True)
class _Module:
    path: Path
    imports: tuple[tuple[Path, str], ...]
    """Each imported module, with its names as a destructuring pattern (``a, b: c``)."""
    exports: tuple[str, ...]
    body: str


def _pattern(names: str, where: str) -> str:
    """``a, b as c`` as ``a, b: c``."""
    parts = []
    for item in filter(None, (part.strip() for part in names.split(","))):
        named = NAMED.match(" ".join(item.split()))
        if named is None:
            raise BundleError(f"{where}: cannot read the imported name {item!r}")
        alias = named["alias"]
        parts.append(f"{named['name']}: {alias}" if alias else named["name"])
    return ", ".join(parts)


def _read(path: Path, folder: Path) -> _Module:
    where = str(path.relative_to(folder))
    text = path.read_text()
    imports = tuple(
        ((path.parent / found["path"]).resolve(), _pattern(found["names"], where))
        for found in IMPORT.finditer(text)
    )
    exports = tuple(found["name"] for found in EXPORT.finditer(text))
    body = without_comments(EXPORT.sub("", IMPORT.sub("", text)))
    other = OTHER.search(body)
    if other is not None:
        line = body[other.start() :].strip().splitlines()[0]
        raise BundleError(f"{where}: cannot join this import or export: {line!r}")
    for source, _ in imports:
        if folder not in source.parents or not source.is_file():
            raise BundleError(f"{where} imports {source.name!r}, which is not in the folder")
    return _Module(path, imports, exports, body)


def without_comments(body: str) -> str:
    """``body`` without its comments on lines of their own, nor its indentation. A module
    with a template literal over several lines (an odd number of backticks on a line) is
    left whole, since a line of such a text may begin with ``//``, ``/*`` or spaces."""
    if any(line.count("`") % 2 for line in body.splitlines()):
        return body
    body = LINE_COMMENT.sub("", BLOCK_COMMENT.sub("", body))
    return INDENT.sub("", TRAILING_COMMENT.sub(r"\g<code>", body))


def _variable(path: Path, folder: Path) -> str:
    """The name that holds a module's exports in the joined script."""
    return "$module_" + re.sub(r"\W", "_", str(path.relative_to(folder).with_suffix("")))


def join_modules(folder: Path, entries: Sequence[str]) -> Joined:
    """The modules ``entries`` (paths under ``folder``), with every module they import,
    as one module script that runs them in the browser's order."""
    folder = folder.resolve()
    modules: dict[Path, _Module] = {}
    visiting: list[Path] = []

    def visit(path: Path) -> None:
        if path in modules:
            return
        if path in visiting:
            cycle = [p.name for p in visiting[visiting.index(path) :]] + [path.name]
            raise BundleError(f"imports go round in a cycle: {' -> '.join(cycle)}")
        visiting.append(path)
        module = _read(path, folder)
        for source, _ in module.imports:
            visit(source)
        visiting.pop()
        modules[path] = module

    for entry in entries:
        visit((folder / entry).resolve())
    names = {path: _variable(path, folder) for path in modules}
    if len(set(names.values())) < len(names):
        raise BundleError(f"two modules would share a name: {sorted(names.values())}")
    parts = []
    for path, module in modules.items():
        lines = [f"// {path.relative_to(folder)}", f"const {names[path]} = (() => {{"]
        lines += [f"const {{ {pattern} }} = {names[source]};" for source, pattern in module.imports]
        lines += [module.body.rstrip("\n"), f"return {{ {', '.join(module.exports)} }};", "})();"]
        parts.append("\n".join(lines))
    return Joined("\n".join(parts) + "\n", tuple(modules))


def join_sheets(folder: Path, sheets: Sequence[str]) -> Joined:
    """The style sheets ``sheets`` (paths under ``folder``) as one, in that order."""
    paths = tuple((folder / sheet).resolve() for sheet in sheets)
    text = "".join(
        f"/* {sheet} */\n{trimmed_sheet(path.read_text())}"
        for sheet, path in zip(sheets, paths, strict=True)
    )
    return Joined(text, paths)


def trimmed_sheet(text: str) -> str:
    """A style sheet without its comments on lines of their own, nor its indentation (no
    sheet of the page has a string running over lines)."""
    return INDENT.sub("", TRAILING_BLOCK.sub(r"\g<code>", BLOCK_COMMENT.sub("", text)))
