"""SQLiteStorage.write_batch: several writes, one transaction, each failing alone."""

from __future__ import annotations

import sqlite3
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from bonanza.core import Deal, Rules
from bonanza.session import Session
from bonanza.storage import SQLiteStorage, StorageError
from bonanza.storage import sqlite as sqlite_module
from bonanza.storage.records import GameRecord


def record(game_id: str, player: str = "player-one") -> GameRecord:
    session = Session.new(Deal.from_number(3), Rules.preset("klondike"), 1000.0)
    return GameRecord.of(game_id, player, session, 1000.0)


def test_the_store_stays_as_durable_as_before(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    db = sqlite3.connect(tmp_path / "games.db")
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert storage._db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    storage.close()


def test_a_batch_is_one_commit_and_every_write_is_stored(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    records = [record(f"game-{n}") for n in range(10)]
    results = storage.write_batch([partial(storage.insert_game, r) for r in records])
    assert results == [None] * 10
    assert storage.commits == 1
    other = SQLiteStorage(tmp_path / "games.db")  # another connection sees it all
    assert all(other.get_game(r.id) is not None for r in records)
    other.close()
    storage.close()


def test_a_failing_write_is_undone_alone(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    first, second = record("first"), record("second")

    def refused() -> None:
        raise StorageError("the game store failed: disk I/O error")

    results = storage.write_batch(
        [
            lambda: storage.insert_game(first),
            lambda: storage.insert_game(first),  # a second insert of the same ID: fails
            refused,
            lambda: storage.insert_game(second),
        ]
    )
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], StorageError) and "UNIQUE" in str(results[1])
    assert isinstance(results[2], StorageError)
    assert storage.commits == 1
    assert storage.get_game("first") is not None and storage.get_game("second") is not None
    storage.close()


def test_a_batch_of_one_is_its_statement_alone(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    assert storage.write_batch([lambda: storage.insert_game(record("one"))]) == [None]
    (failed,) = storage.write_batch([lambda: storage.insert_game(record("one"))])
    assert isinstance(failed, StorageError)
    assert storage.commits == 1
    assert not storage._db.in_transaction
    storage.close()


def test_a_batch_that_cannot_begin_stores_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_module, "BUSY_TIMEOUT_MS", 50)
    storage = SQLiteStorage(tmp_path / "games.db")
    holder = sqlite3.connect(tmp_path / "games.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    results = storage.write_batch([lambda: storage.insert_game(record("a"))] * 2)
    assert all(isinstance(r, StorageError) and "locked" in str(r) for r in results)
    assert storage.commits == 0
    holder.execute("ROLLBACK")
    assert storage.get_game("a") is None
    assert storage.write_batch([lambda: storage.insert_game(record("a"))]) == [None]
    holder.close()
    storage.close()


def test_single_writes_still_commit_on_their_own(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    storage.insert_game(record("alone"))
    other = SQLiteStorage(tmp_path / "games.db")
    assert other.get_game("alone") is not None
    other.close()
    storage.close()


def test_a_read_does_not_wait_for_a_write_in_progress(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    storage.insert_game(record("before"))
    inside, release = threading.Event(), threading.Event()

    def slow() -> None:
        storage.insert_game(record("during"))
        inside.set()
        release.wait(10)  # as a commit's fsync would, with the write lock held

    after = record("after")
    batch = threading.Thread(
        target=lambda: storage.write_batch([slow, lambda: storage.insert_game(after)])
    )
    batch.start()
    assert inside.wait(10)
    started = time.monotonic()
    assert storage.get_game("before") is not None  # the committed state, at once
    assert storage.get_game("during") is None  # not the batch still open
    assert time.monotonic() - started < 1
    release.set()
    batch.join(10)
    assert storage.get_game("during") is not None and storage.get_game("after") is not None
    storage.close()


def test_in_memory_storage_reads_what_it_writes() -> None:
    storage = SQLiteStorage(":memory:")
    storage.insert_game(record("here"))
    assert storage.get_game("here") is not None
    assert storage.write_batch([lambda: storage.insert_game(record("too"))]) == [None]
    assert storage.get_game("too") is not None
    storage.close()


def test_reads_always_see_the_latest_commit(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    for n in range(3):
        storage.insert_game(record(f"game-{n}"))
    for moves in range(1, 4):
        assert storage.playing_games("player-one") and storage.latest_game("player-one")
        changed = record("game-0")
        changed.moves = changed.version = moves  # each update adds one to the version
        storage.write_batch([partial(storage.update_game, changed)] * 2)  # the second: stale
        found = storage.get_game("game-0")
        assert found is not None and found.moves == moves
    storage.close()


def test_background_checkpoints_empty_the_wal_off_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_module, "CHECKPOINT_SECONDS", 0.01)
    storage = SQLiteStorage(
        tmp_path / "games.db", synchronous="NORMAL", background_checkpoints=True
    )
    assert storage._db.execute("PRAGMA synchronous").fetchone() == (1,)  # NORMAL
    autocheckpoint = storage._db.execute("PRAGMA wal_autocheckpoint").fetchone()
    assert autocheckpoint == (sqlite_module.WAL_LIMIT_PAGES,)  # the writer's is only a backstop
    for n in range(20):
        storage.insert_game(record(f"game-{n}"))
    ran = storage.checkpoints
    deadline = time.monotonic() + 10
    while storage.checkpoints < ran + 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert storage.checkpoints >= ran + 2  # one at least since the last write
    storage.close()
    assert not any(t.name == "bonanza-store-checkpoints" for t in threading.enumerate())
    reopened = SQLiteStorage(tmp_path / "games.db")
    assert reopened.get_game("game-19") is not None
    reopened.close()
