"""``bonanza --version`` prints ``bonanza <version>`` and exits 0, without loading
the commands' modules."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import pytest

import bonanza
from bonanza.cli import main, version


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    captured = capsys.readouterr()
    assert captured.out == f"bonanza {importlib.metadata.version('bonanza')}\n"
    assert captured.err == ""


def test_version_falls_back_to_the_package_version(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert version() == bonanza.__version__


def test_version_with_other_options_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    # Through the parser (which has every command), as in `bonanza --version solve 7`.
    with pytest.raises(SystemExit) as stop:
        main(["--version", "solve", "7"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"bonanza {version()}\n"


def test_version_loads_no_command() -> None:
    probe = (
        "import sys\n"
        "from bonanza.cli import main\n"
        "status = main(['--version'])\n"
        "print(status, ' '.join(name for name in sys.modules if name.startswith('bonanza.cli.')))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert output.splitlines() == [f"bonanza {version()}", "0 "]
