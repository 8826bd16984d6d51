"""``bonanza db upgrade|stats|prune`` on SQLite and PostgreSQL, and its one-line errors."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bonanza.cli import EXIT_BAD_INPUT, main
from bonanza.cli.db import SECONDS_PER_DAY
from bonanza.core import Deal, Rules
from bonanza.play.ledger import statistics
from bonanza.session import Session
from bonanza.session.status import Status
from bonanza.storage import SCHEMA_VERSION, SQLiteStorage, open_storage
from bonanza.storage.records import GameRecord
from tests.servers import PostgresServer

from .contract.conftest import finished, record
from .test_sqlite_schema import games, previous_file

DAYS = 30


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``bonanza ARGS`` in this process: its status, stdout and stderr."""
    try:
        status = main(list(args))
    except SystemExit as leaving:  # the parser's own errors
        status = int(leaving.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line ``bonanza ARGS`` fails with (status 2)."""
    status, out, err = run(capsys, *args)
    assert (status, out) == (EXIT_BAD_INPUT, "")
    assert err.count("\n") == 1 and err.startswith("bonanza db: ") and "Traceback" not in err
    return err


def with_old_games(spec: str | Path) -> None:
    """Games finished 100 and 10 days ago, one in play since 100 days, and Bob's."""
    now = time.time()
    old, recent = now - 100 * SECONDS_PER_DAY, now - 10 * SECONDS_PER_DAY
    store: Any = open_storage(spec)
    store.insert_game(finished("old-won", old, created_at=old))
    store.insert_game(finished("old-lost", old + 1, Status.LOST, created_at=old))
    store.insert_game(record("old-playing", created_at=old))
    store.insert_game(finished("recent", recent, created_at=recent))
    store.insert_game(finished("bobs", old, player="bob", created_at=old))
    store.close()


def figures(spec: str | Path) -> Any:
    store: Any = open_storage(spec)
    try:
        games = [store.finished_games(player) for player in ("ann", "bob")]
        return [(mine, statistics(mine)) for mine in games]
    finally:
        store.close()


def test_upgrade_brings_a_previous_file_to_this_version_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "previous.db"
    previous_file(path)
    assert run(capsys, "db", "upgrade", "--db", str(path)) == (
        0,
        f"upgraded {path} from schema version 0 to {SCHEMA_VERSION}\n",
        "",
    )
    status, out, _ = run(capsys, "db", "upgrade", "--db", str(path))
    assert (status, out) == (0, f"{path} is already at schema version {SCHEMA_VERSION}\n")
    store = SQLiteStorage(path)
    assert [store.get_game(game.id) for game in games()] == games()
    store.close()


def test_stats_shows_every_tables_rows_and_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.db"
    with_old_games(path)
    status, out, _ = run(capsys, "db", "stats", "--db", str(path))
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith(f"{path}: schema version {SCHEMA_VERSION}, ")
    assert lines[1].split() == ["table", "rows", "bytes"]
    table = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    assert table["games"][0] == "5" and table["folded_games"][0] == "0"
    assert all(size.replace(",", "").isdigit() for _, size in table.values())


def test_prune_folds_old_finished_games_and_keeps_the_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.db"
    with_old_games(path)
    before = figures(path)
    status, out, _ = run(capsys, "db", "prune", "--db", str(path), "--older-than", str(DAYS))
    assert status == 0 and out.startswith("folded 3 games finished before ")
    assert f"({DAYS} days ago) in {path}" in out
    assert figures(path) == before
    with sqlite3.connect(path) as db:
        kept = {row[0] for row in db.execute("SELECT id FROM games")}
    assert kept == {"old-playing", "recent"}
    _, out, _ = run(capsys, "db", "prune", "--db", str(path))  # 90 days by default
    assert out.startswith("folded 0 games")


def test_prune_can_end_games_left_in_play_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.db"
    with_old_games(path)
    now = time.time()
    store: Any = open_storage(path)
    left = Session.new(Deal.from_number(8), Rules(), now - 100 * SECONDS_PER_DAY)
    left.play("sw", now - 99 * SECONDS_PER_DAY)
    store.insert_game(GameRecord.of("left", "ann", left, now - 99 * SECONDS_PER_DAY))
    back = Session.new(Deal.from_number(9), Rules(), now - 100 * SECONDS_PER_DAY)
    back.play("sw", now - SECONDS_PER_DAY)  # created long ago, played yesterday
    store.insert_game(GameRecord.of("back", "ann", back, now - SECONDS_PER_DAY))
    store.close()
    played_before = figures(path)[0][1]["groups"][0]["played"]
    status, out, _ = run(
        capsys, "db", "prune", "--db", str(path), "--older-than", str(DAYS), "--end-idle"
    )
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("ended 2 games left in play with no action since")
    assert lines[1].startswith("folded 5 games finished before ")
    with sqlite3.connect(path) as db:
        kept = {row[0]: row[1] for row in db.execute("SELECT id, status FROM games")}
        folded = dict(db.execute("SELECT id, status FROM folded_games").fetchall())
    assert kept == {"back": "playing", "recent": "won"}
    assert folded["left"] == "lost" and folded["old-playing"] == "abandoned"
    assert figures(path)[0][1]["groups"][0]["played"] == played_before + 1  # the game left
    _, out, _ = run(capsys, "db", "prune", "--db", str(path), "--end-idle")
    assert out.startswith("ended 0 games left in play")


@pytest.mark.parametrize("days", ["1000000", "1e9", "99999999999999999999"])
def test_prune_from_before_1970_folds_and_ends_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], days: str
) -> None:
    # Past the years datetime holds: the cutoff is taken from the epoch, as early
    # as any game can be, rather than ending in a traceback.
    path = tmp_path / "games.db"
    with_old_games(path)
    status, out, err = run(
        capsys, "db", "prune", "--db", str(path), "--older-than", days, "--end-idle"
    )
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "ended 0 games left in play with no action since 1970-01-01 00:00 UTC",
        f"folded 0 games finished before 1970-01-01 00:00 UTC ({float(days):g} days ago: "
        f"earlier than any game) in {path}: their moves are gone, their statistics kept",
    ]
    assert len(games_in(path)) == 5


def games_in(path: Path) -> set[str]:
    """The ids of the games a SQLite store keeps whole."""
    with sqlite3.connect(path) as db:
        return {row[0] for row in db.execute("SELECT id FROM games")}


def test_the_default_store_is_the_one_serve_and_play_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("BONANZA_DB", raising=False)
    default = tmp_path / "bonanza" / "bonanza.db"
    assert refused(capsys, "db", "stats") == (
        f"bonanza db: no game store at {default} (made by 'bonanza serve', 'bonanza play' or"
        " 'bonanza db upgrade --create')\n"
    )
    assert not default.exists()
    SQLiteStorage(default).close()
    assert (
        run(capsys, "db", "upgrade")[1]
        == f"{default} is already at schema version {SCHEMA_VERSION}\n"
    )
    other = tmp_path / "other.db"
    SQLiteStorage(other).close()
    monkeypatch.setenv("BONANZA_DB", str(other))
    assert (
        run(capsys, "db", "upgrade")[1]
        == f"{other} is already at schema version {SCHEMA_VERSION}\n"
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("prune", "--older-than", "-1"), "--older-than must be a number of days"),
        (("prune", "--older-than", "nan"), "--older-than must be a number of days"),
        (("prune", "--older-than", "soon"), "--older-than must be a number of days"),
        (("stats", "--db", "missing.db"), "no game store at missing.db"),
        (("upgrade", "--db", "junk.db"), "junk.db is not a game store: it is not a SQLite"),
        (("stats", "--db", "newer.db"), f"schema is version {SCHEMA_VERSION + 1}, newer than"),
        (("stats", "--db", "postgresql://u:secret@127.0.0.1:1/x"), "u:***@127.0.0.1:1/x"),
        (("stats", "--db", "mysql://u@h/x"), "unknown database URL scheme 'mysql'"),
        (("vacuum",), "invalid choice: 'vacuum'"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    args: tuple[str, ...],
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BONANZA_DB", raising=False)
    (tmp_path / "junk.db").write_text("not a database\n")
    SQLiteStorage(tmp_path / "newer.db").close()
    with sqlite3.connect(tmp_path / "newer.db") as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    error = refused(capsys, "db", *args)
    assert words in error and "secret" not in error


def test_every_action_on_postgresql(
    postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url = postgres_server.new_store()
    with_old_games(url)
    before = figures(url)
    status, out, _ = run(capsys, "db", "upgrade", "--db", url)
    assert (status, out) == (0, f"{url} is already at schema version {SCHEMA_VERSION}\n")
    status, out, _ = run(capsys, "db", "stats", "--db", url)
    table = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:]}
    assert (
        status == 0
        and table["games"][0] == "5"
        and table["schema_version"][0] == str(SCHEMA_VERSION)
    )
    assert all(size.replace(",", "").isdigit() for _, size in table.values())
    status, out, _ = run(capsys, "db", "prune", "--db", url, "--older-than", str(DAYS))
    assert status == 0 and out.startswith("folded 3 games")
    assert figures(url) == before


# -- files that are not stores (issue 31, A3) ----------------------------------------

OLD_TIME_NS = 1_000_000_000 * 10**9
"""An mtime no write could leave: a file that keeps it was not written."""


def sqlite_file(path: Path, statements: tuple[str, ...]) -> bytes:
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement)
    db.close()
    return path.read_bytes()


NOT_STORES: dict[str, tuple[Callable[[Path], bytes], str]] = {
    "empty": (lambda path: b"", "is empty, not a game store"),
    "text": (lambda path: b"my notes\n", "it is not a SQLite database"),
    "bytes": (lambda path: bytes(range(256)) * 8, "it is not a SQLite database"),
    "SQLite header, then junk": (
        lambda path: b"SQLite format 3\x00" + b"junk" * 100, "is not a game store"),
    "SQLite, other tables": (
        lambda path: sqlite_file(path, ("CREATE TABLE notes (text TEXT)",)),
        "a SQLite database without Bonanza's tables"),
    "SQLite in WAL mode, other tables": (
        lambda path: sqlite_file(path, ("PRAGMA journal_mode=WAL", "CREATE TABLE t (x)")),
        "a SQLite database without Bonanza's tables"),
    "SQLite, empty": (
        lambda path: sqlite_file(path, ("PRAGMA user_version=0",)),
        "a SQLite database without Bonanza's tables"),
}


@pytest.mark.parametrize("kind", NOT_STORES, ids=NOT_STORES.keys())
@pytest.mark.parametrize(
    "action", [("stats",), ("prune",), ("prune", "--end-idle"), ("upgrade",)],
    ids=["stats", "prune", "prune --end-idle", "upgrade"],
)
def test_a_file_that_is_not_a_store_is_refused_and_left_as_it_is(
    kind: str, action: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "not-a-store.txt"
    path.write_bytes(b"")
    make, words = NOT_STORES[kind]
    content = make(path)
    path.write_bytes(content)
    os.utime(path, ns=(OLD_TIME_NS, OLD_TIME_NS))
    error = refused(capsys, "db", *action, "--db", str(path))
    assert str(path) in error and words in error
    assert path.read_bytes() == content and path.stat().st_mtime_ns == OLD_TIME_NS
    assert sorted(tmp_path.iterdir()) == [path]  # no journal or log left beside it


@pytest.mark.parametrize("kind", [kind for kind in NOT_STORES if kind != "empty"])
def test_create_makes_no_store_of_a_file_that_holds_something(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "not-a-store.db"
    content = NOT_STORES[kind][0](path)
    path.write_bytes(content)
    os.utime(path, ns=(OLD_TIME_NS, OLD_TIME_NS))
    refused(capsys, "db", "upgrade", "--create", "--db", str(path))
    assert path.read_bytes() == content and path.stat().st_mtime_ns == OLD_TIME_NS


@pytest.mark.parametrize("empty", [True, False], ids=["empty file", "no file"])
def test_upgrade_create_makes_a_new_store(
    empty: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new.db"
    if empty:
        path.touch()
    assert run(capsys, "db", "upgrade", "--create", "--db", str(path)) == (
        0, f"made a new game store {path} at schema version {SCHEMA_VERSION}\n", "")
    status, out, _ = run(capsys, "db", "stats", "--db", str(path))
    assert status == 0 and out.startswith(f"{path}: schema version {SCHEMA_VERSION}")
    assert run(capsys, "db", "upgrade", "--create", "--db", str(path))[1] == (
        f"{path} is already at schema version {SCHEMA_VERSION}\n")


def test_a_store_being_served_is_read_through_its_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new store whose tables are still only in its write-ahead log is a store."""
    path = tmp_path / "served.db"
    store = SQLiteStorage(path)  # open, as a server keeps it: its log not yet folded in
    try:
        assert (tmp_path / "served.db-wal").exists()
        status, out, _ = run(capsys, "db", "stats", "--db", str(path))
        assert status == 0 and out.startswith(f"{path}: schema version {SCHEMA_VERSION}")
    finally:
        store.close()


def test_prune_of_minus_zero_days_says_zero_days(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.db"
    with_old_games(path)
    status, out, err = run(capsys, "db", "prune", "--db", str(path), "--older-than", "-0")
    assert (status, err) == (0, "")
    assert "(0 days ago)" in out and "(-0" not in out  # before: "(-0 days ago)"
