"""Every ``bonanza`` command starts without loading the web app.

The command line reads every command's options at start, ``serve``'s among them;
loading the app, Starlette and the search pool for them made ``bonanza deal 7``
take most of a second, and a Ctrl-C in that second came before the command ran.
"""

from __future__ import annotations

import subprocess
import sys

HEAVY_MODULES = ("bonanza.web.app", "bonanza.web.service", "uvicorn", "anyio.to_process")


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


def test_the_web_package_still_offers_its_app() -> None:
    from bonanza.web import create_app

    assert callable(create_app)
