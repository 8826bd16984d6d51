"""A SQLite store on a read-only disk, or in a folder the server may not write: the
one line says so. A host whose disk was remounted read-only got only SQLite's
"unable to open database file" from ``bonanza serve`` and ``bonanza db``, about a
file that was there and readable."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bonanza.cli import EXIT_BAD_INPUT, main
from bonanza.storage import SQLiteStorage

UNABLE = "unable to open database file"


class ReadOnlyDisk:
    f_flag = os.ST_RDONLY


def store_at(tmp_path: Path) -> Path:
    path = tmp_path / "games.db"
    SQLiteStorage(path).close()
    return path


def cannot_open(*args: Any, **kwargs: Any) -> Any:
    raise sqlite3.OperationalError(UNABLE)  # what SQLite says there


@pytest.mark.parametrize(
    "command", [["db", "stats"], ["db", "prune"], ["serve", "--port", "1"], ["play"]]
)
def test_a_store_on_a_read_only_disk_is_one_line_that_says_so(
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = store_at(tmp_path)
    monkeypatch.setattr("bonanza.storage.SQLiteStorage", cannot_open)
    monkeypatch.setattr("bonanza.cli.play.SQLiteStorage", cannot_open)
    monkeypatch.setattr("bonanza.storage.os.statvfs", lambda folder: ReadOnlyDisk())
    monkeypatch.setattr("bonanza.cli.serving.listening_sockets", lambda host, port: [])
    monkeypatch.setattr("bonanza.cli.serve.listening_sockets", lambda host, port: [])
    assert main([*command, "--db", str(path)]) == EXIT_BAD_INPUT
    (line,) = capsys.readouterr().err.splitlines()
    assert line.endswith(
        f"cannot open the game store {path}: {UNABLE} ({tmp_path} is on a read-only file system)"
    ), line


def test_a_read_only_folder_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = store_at(tmp_path)
    monkeypatch.setattr("bonanza.storage.SQLiteStorage", cannot_open)
    writable = os.access
    monkeypatch.setattr(
        "bonanza.storage.os.access",
        lambda where, mode: mode != os.W_OK and writable(where, mode),
    )
    assert main(["db", "stats", "--db", str(path)]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err.endswith(f"{UNABLE} (the file is read-only)\n")


def test_other_failures_get_no_such_guess(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = store_at(tmp_path)
    monkeypatch.setattr("bonanza.storage.SQLiteStorage", cannot_open)
    assert main(["db", "stats", "--db", str(path)]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err.endswith(f"{UNABLE}\n")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes whatever the permissions say")
def test_a_store_in_a_folder_this_user_cannot_write_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = store_at(tmp_path)
    tmp_path.chmod(0o555)
    try:
        assert main(["db", "stats", "--db", str(path)]) == EXIT_BAD_INPUT
    finally:
        tmp_path.chmod(0o755)
    assert "is read-only" in capsys.readouterr().err
