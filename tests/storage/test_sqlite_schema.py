"""SQLite's schema versions: a new file, a file made before versions (the upgrade test of
issue 15), an older file lacking later columns, a newer file refused, a failed step."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bonanza.core import Deal, Rules
from bonanza.play.ledger import statistics
from bonanza.session import Session
from bonanza.session.status import Origin, Status
from bonanza.storage import SCHEMA_VERSION, SchemaTooNewError, SQLiteStorage, open_storage
from bonanza.storage import schema as schema_module
from bonanza.storage import sqlite_migrate as migrate_module
from bonanza.storage.protocol import DailyDeal, Share, StockedDeal, StorageError
from bonanza.storage.records import GameRecord
from bonanza.storage.rows import COLUMNS, FIELDS, game_row
from bonanza.storage.schema import PLAYING, SQLITE_MIGRATIONS, Migration, check_migrations

from .conftest import OPENERS, open_at_once

NOW = 1000.0

# The schema as src/bonanza/storage/sqlite.py made it at commit 88ce9c6, before schema
# versions: these tables, then the columns added one by one, the deal index, the stock.
PREVIOUS_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    deal TEXT NOT NULL,
    rules_key TEXT NOT NULL,
    state TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL,
    elapsed REAL NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    score INTEGER NOT NULL DEFAULT 0,
    cards_home INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    extra TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS games_player ON games (player, created_at);
CREATE TABLE IF NOT EXISTS shares (
    id TEXT PRIMARY KEY,
    deal TEXT NOT NULL,
    rules_key TEXT NOT NULL,
    game_id TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
PREVIOUS_ADDED_COLUMNS = {
    "origin": "TEXT NOT NULL DEFAULT 'random'",
    "version": "INTEGER NOT NULL DEFAULT 0",
    "client": "TEXT NOT NULL DEFAULT 'web'",
    "assisted": "INTEGER NOT NULL DEFAULT 0",
}
PREVIOUS_DEAL_INDEX = "CREATE INDEX IF NOT EXISTS games_player_deal ON games (player, deal)"
PREVIOUS_STOCK_SCHEMA = """
CREATE TABLE IF NOT EXISTS deal_stock (
    id INTEGER PRIMARY KEY,
    stock_key TEXT NOT NULL,
    grade TEXT NOT NULL,
    deal TEXT NOT NULL,
    measure REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS deal_stock_grade ON deal_stock (stock_key, grade, id);
CREATE TABLE IF NOT EXISTS daily_deals (
    day TEXT NOT NULL,
    rules_key TEXT NOT NULL,
    deal TEXT NOT NULL,
    grade TEXT NOT NULL,
    PRIMARY KEY (day, rules_key)
);
"""


def record(game_id: str, deal: int = 3, **changes: Any) -> GameRecord:
    session = Session.new(Deal.from_number(deal), Rules.preset("klondike"), NOW)
    return dataclasses.replace(GameRecord.of(game_id, "ann", session, NOW), **changes)


def games() -> list[GameRecord]:
    return [
        record("playing", deal=1, version=3, client="terminal", extra={"grade": "easy"}),
        record("won", deal=2, status=Status.WON, finished_at=NOW + 9, elapsed=9.5, moves=99),
        record("lost", deal=4, status=Status.LOST, finished_at=NOW + 5, assisted=True),
        record("typed", deal=5, status=Status.WON, finished_at=NOW + 7, origin=Origin.TYPED),
    ]


def previous_file(path: Path, *, added: bool = True) -> None:
    """A file as the previous release left it, with games (``added``: with every column
    added later; else as a release before them left it, its games in the first columns)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(PREVIOUS_SCHEMA)
    if added:
        for name, kind in PREVIOUS_ADDED_COLUMNS.items():
            db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
        db.execute(PREVIOUS_DEAL_INDEX)
        db.executescript(PREVIOUS_STOCK_SCHEMA)
        for game in games():
            db.execute(
                f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join('?' * len(FIELDS))})",
                game_row(game),
            )
        db.execute(
            "INSERT INTO deal_stock (stock_key, grade, deal, measure) VALUES"
            " ('k', 'easy', 'd1', 0.9)"
        )
        db.execute("INSERT INTO daily_deals VALUES ('2024-01-02', 'k', 'd2', 'medium')")
    else:
        first = [name for name in FIELDS if name not in PREVIOUS_ADDED_COLUMNS]
        for game in games():
            values = dict(zip(FIELDS, game_row(game), strict=True))
            db.execute(
                f"INSERT INTO games ({', '.join(first)}) VALUES ({', '.join('?' * len(first))})",
                [values[name] for name in first],
            )
    db.execute("INSERT INTO shares SELECT 's1', deal, rules_key, id FROM games WHERE id='won'")
    db.execute("INSERT INTO settings VALUES ('local_player', 'ann')")
    db.close()


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def columns(path: Path, table: str = "games") -> set[str]:
    with sqlite3.connect(path) as db:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def test_the_steps_lead_to_this_codes_version() -> None:
    check_migrations(SQLITE_MIGRATIONS)
    assert SQLITE_MIGRATIONS[-1].version == SCHEMA_VERSION


def test_a_new_file_gets_every_step_and_its_version(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "new.db")
    assert (store.found_version, store.schema_version()) == (0, SCHEMA_VERSION)
    store.close()
    assert user_version(tmp_path / "new.db") == SCHEMA_VERSION
    again = SQLiteStorage(tmp_path / "new.db")
    assert again.found_version == SCHEMA_VERSION
    again.close()


def test_a_file_of_the_previous_schema_is_upgraded_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "previous.db"
    previous_file(path)
    store = SQLiteStorage(path)
    assert (store.found_version, user_version(path)) == (0, SCHEMA_VERSION)
    assert [store.get_game(game.id) for game in games()] == games()
    finished = [dataclasses.replace(g, state={}) for g in games() if g.status.is_over]
    assert store.finished_games("ann") == sorted(finished, key=lambda g: g.finished_at or 0)
    assert statistics(store.finished_games("ann")) == statistics(finished)
    won = games()[1]
    assert store.get_share("s1") == Share(won.deal, won.rules_key, "won", opens=True)
    assert store.get_setting("local_player") == "ann"
    assert store.stock_counts() == {("k", "easy"): 1}
    assert store.daily_deal("2024-01-02", "k") == DailyDeal("2024-01-02", "k", "d2", "medium")
    assert store.take_stocked_deal("k", "easy") == StockedDeal("d1", "k", "easy", 0.9)
    assert columns(path) == columns_of_a_new_file(tmp_path)
    assert store.prune_finished(NOW + 100) == 3
    assert [g.id for g in store.finished_games("ann")] == ["lost", "typed", "won"]
    store.close()


def columns_of_a_new_file(tmp_path: Path) -> set[str]:
    SQLiteStorage(tmp_path / "fresh.db").close()
    return columns(tmp_path / "fresh.db")


def test_a_file_lacking_later_columns_gets_them_with_their_defaults(tmp_path: Path) -> None:
    path = tmp_path / "older.db"
    previous_file(path, added=False)
    assert "assisted" not in columns(path)
    store = SQLiteStorage(path)
    assert columns(path) == columns_of_a_new_file(tmp_path)
    assert [store.get_game(g.id) for g in games()] == [  # the later columns' defaults
        dataclasses.replace(g, origin=Origin.RANDOM, version=0, client="web", assisted=False)
        for g in games()
    ]
    assert store.daily_deal("2024-01-02", "k") is None  # the tables it lacked are there
    store.close()


def test_a_file_newer_than_the_code_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    SQLiteStorage(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNewError, match=f"version {SCHEMA_VERSION + 1}, newer"):
        SQLiteStorage(path)
    with pytest.raises(SchemaTooNewError):
        open_storage(path)
    assert user_version(path) == SCHEMA_VERSION + 1


def test_a_step_that_fails_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.db"
    SQLiteStorage(path).close()
    step = Migration(SCHEMA_VERSION + 1, "a test step", ("CREATE TABLE half (x)", "NOT SQL"))
    monkeypatch.setattr(schema_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(migrate_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(migrate_module, "SQLITE_MIGRATIONS", (*SQLITE_MIGRATIONS, step))
    with pytest.raises(StorageError, match="cannot open the game store"):
        open_storage(path)
    assert user_version(path) == SCHEMA_VERSION
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT 1 FROM sqlite_master WHERE name='half'").fetchone() is None


def test_stores_opening_a_previous_file_at_once_upgrade_it_once(tmp_path: Path) -> None:
    path = tmp_path / "previous.db"
    previous_file(path)
    opened = open_at_once(lambda: SQLiteStorage(path))
    assert sorted(store.found_version for store in opened) == [0] + [SCHEMA_VERSION] * (OPENERS - 1)
    assert [opened[0].get_game(g.id) for g in games()] == games()
    for store in opened:
        store.close()


VERSION_2 = 2
"""The schema before the new-game counts (``new_game_starts``, version 3)."""


def test_a_version_2_file_with_games_is_upgraded_and_nothing_is_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "version-2.db"
    with monkeypatch.context() as older:  # this code as it stood at version 2
        older.setattr(schema_module, "SCHEMA_VERSION", VERSION_2)
        older.setattr(migrate_module, "SCHEMA_VERSION", VERSION_2)
        older.setattr(migrate_module, "SQLITE_MIGRATIONS", SQLITE_MIGRATIONS[:VERSION_2])
        old = SQLiteStorage(path)
        for game in games():
            old.insert_game(game)
        old.add_share("s1", "won")
        assert old.prune_finished(NOW + 6) == 1  # "lost" is folded
        figures = statistics(old.finished_games("ann"))
        old.close()
    assert user_version(path) == VERSION_2 and "new_game_starts" not in tables(path)
    store = SQLiteStorage(path)
    assert (store.found_version, user_version(path)) == (VERSION_2, SCHEMA_VERSION)
    kept = [game for game in games() if game.id != "lost"]
    assert [store.get_game(game.id) for game in kept] == kept
    assert statistics(store.finished_games("ann")) == figures
    assert store.get_share("s1") is not None
    assert store.count_new_game("1.2.3.4", NOW, 1, 60.0)
    assert not store.count_new_game("1.2.3.4", NOW + 1, 1, 60.0)
    assert tables(path) == tables(fresh_file(tmp_path))
    store.close()


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master")}


def fresh_file(tmp_path: Path) -> Path:
    SQLiteStorage(tmp_path / "fresh.db").close()
    return tmp_path / "fresh.db"


def test_a_players_games_in_play_are_found_by_their_own_index(tmp_path: Path) -> None:
    assert str(Status.PLAYING) == PLAYING  # the index names the status as the games hold it
    SQLiteStorage(tmp_path / "games.db").close()
    db = sqlite3.connect(tmp_path / "games.db")
    plan = db.execute(
        f"EXPLAIN QUERY PLAN SELECT id FROM games WHERE player=? AND client=?"
        f" AND status='{PLAYING}'",
        ("ann", "web"),
    ).fetchall()
    db.close()
    assert "USING INDEX games_playing" in str(plan)
