"""Every ``bonanza`` command starts without loading the web app, and
``bonanza solve`` loads only the core and the solver.

The command line used to read every command's options at start, ``serve``'s
among them; loading the app, Starlette and the search pool for them made
``bonanza deal 7`` take most of a second, and a Ctrl-C in that second came
before the command ran. Now words naming a command load that command's module
alone: ``bonanza solve 7`` took 0.19 s of CPU and loaded 379 modules, and
takes 0.075 s with 150 (the interpreter alone: 0.035 s, 98). Since session 51 it
builds the table of shared moves as they are first asked for, and loads the
relatives' searches (``generic``, ``wide``) only for a relative: 0.128 -> 0.089 s
in one paired run, on a machine where the interpreter alone takes 0.021 s.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from bonanza.cli import COMMANDS, build_parser, main

HEAVY_MODULES = ("bonanza.web.app", "bonanza.web.service", "uvicorn", "anyio.to_process")
NOT_FOR_SOLVE = (
    "textual", "starlette", "uvicorn", "msgspec", "numpy", "psycopg", "sqlite3",
    "multiprocessing", "asyncio", "rich",
)
"""Packages ``bonanza solve`` has no use for (each took milliseconds to load)."""
SOLVE_PACKAGES = {"bonanza", "bonanza.cli", "bonanza.core", "bonanza.solver"}
"""The packages of ours that ``bonanza solve`` needs: not the web app, the
terminal interface, the session, storage or games (nor ``rl``)."""
RELATIVES_ONLY = ("bonanza.solver.generic", "bonanza.solver.wide")
"""The searches of Klondike's relatives, which a Klondike deal does not need."""


def test_building_the_command_line_loads_no_web_app() -> None:
    probe = (
        "import sys\n"
        "from bonanza.cli import build_parser\n"
        "build_parser()\n"
        f"print(' '.join(name for name in {HEAVY_MODULES!r} if name in sys.modules))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == []


def test_solving_a_deal_loads_only_the_core_and_the_solver() -> None:
    # As `python -m bonanza solve 7` runs, the modules loaded at the end.
    probe = (
        "import sys\n"
        "from bonanza.cli import main\n"
        "status = main(['solve', '7'])\n"
        "print(status, ' '.join(sorted(sys.modules)))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert "deal 7 (draw 1, " in output  # it did solve
    status, *loaded = output.splitlines()[-1].split()
    assert status == "0"
    assert [name for name in loaded if name.partition(".")[0] in NOT_FOR_SOLVE] == []
    ours = {".".join(name.split(".")[:2]) for name in loaded if name.startswith("bonanza")}
    assert ours <= SOLVE_PACKAGES
    assert [name for name in RELATIVES_ONLY if name in loaded] == []


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_alone_has_the_same_help(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `bonanza COMMAND ...` sets up that command's parser alone.
    subparsers = next(
        action for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == subparsers.choices[command].format_help()


def test_the_web_package_still_offers_its_app() -> None:
    from bonanza.web import create_app

    assert callable(create_app)
