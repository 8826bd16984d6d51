"""``bonanza serve --db FILE`` and ``bonanza play --db FILE`` on a file that holds
something other than a game store: one line, status 2, and the file left as it is.

A host gave ``serve --db`` another program's SQLite database by mistake: it was
served, with Bonanza's tables added to it and its journal turned to write-ahead
logging. ``bonanza db`` already refused such a file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bonanza.cli import EXIT_BAD_INPUT, main
from tests.servers import free_port
from tests.storage.test_cli_db import NOT_STORES, OLD_TIME_NS

HOLDING_SOMETHING = [kind for kind in NOT_STORES if kind != "empty"]


def not_served(*args: Any, **kwargs: Any) -> int:
    raise AssertionError("served a file that is not a game store")


@pytest.mark.parametrize("command", ["serve", "play"])
@pytest.mark.parametrize("kind", HOLDING_SOMETHING)
def test_a_file_that_is_not_a_store_is_refused_and_left_as_it_is(
    kind: str,
    command: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("bonanza.cli.serve.serve_on", not_served)
    path = tmp_path / "notes.db"
    content = NOT_STORES[kind][0](path)
    path.write_bytes(content)
    os.utime(path, ns=(OLD_TIME_NS, OLD_TIME_NS))
    extra = ["--port", str(free_port())] if command == "serve" else []
    status = main([command, *extra, "--db", str(path)])
    out, err = capsys.readouterr()
    assert status == EXIT_BAD_INPUT and out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"bonanza {command}: {path} is not a game store"), line
    assert path.read_bytes() == content and path.stat().st_mtime_ns == OLD_TIME_NS
    assert sorted(tmp_path.iterdir()) == [path]  # no journal or log left beside it


def test_serve_makes_a_new_store_in_an_empty_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bonanza.cli.serve.serve_on", lambda *args, **kwargs: 0)
    path = tmp_path / "games.db"
    path.touch()
    assert main(["serve", "--port", str(free_port()), "--db", str(path)]) == 0
    assert path.stat().st_size > 0
