"""SQLite storage in WAL mode, synchronous=FULL: a committed move survives a crash."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from bonanza.web.records import GameRecord, Status

SCHEMA = """
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
"""

COLUMNS = (
    "id, player, deal, rules_key, state, status, created_at, started_at, finished_at,"
    " elapsed, moves, score, cards_home, archived, extra"
)
SUMMARY_COLUMNS = COLUMNS.replace("state,", "'{}',")


class SQLiteStorage:
    """The :class:`~bonanza.web.storage.Storage` on one SQLite file.

    One connection serves the whole process; a lock keeps calls from threads
    apart (the server calls from its event loop, tests may call from others).
    """

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        if synchronous.upper() not in {"FULL", "NORMAL", "EXTRA"}:
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(SCHEMA)

    def _row(self, record: GameRecord) -> tuple[Any, ...]:
        return (
            record.id,
            record.player,
            record.deal,
            record.rules_key,
            json.dumps(record.state, separators=(",", ":")),
            str(record.status),
            record.created_at,
            record.started_at,
            record.finished_at,
            record.elapsed,
            record.moves,
            record.score,
            record.cards_home,
            int(record.archived),
            json.dumps(record.extra, separators=(",", ":")),
        )

    @staticmethod
    def _record(row: tuple[Any, ...]) -> GameRecord:
        return GameRecord(
            id=row[0],
            player=row[1],
            deal=row[2],
            rules_key=row[3],
            state=json.loads(row[4]),
            status=Status(row[5]),
            created_at=row[6],
            started_at=row[7],
            finished_at=row[8],
            elapsed=row[9],
            moves=row[10],
            score=row[11],
            cards_home=row[12],
            archived=bool(row[13]),
            extra=json.loads(row[14]),
        )

    def insert_game(self, record: GameRecord) -> None:
        with self._lock:
            self._db.execute(
                f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join('?' * 15)})", self._row(record)
            )

    def update_game(self, record: GameRecord) -> None:
        row = self._row(record)
        with self._lock:
            self._db.execute(
                "UPDATE games SET player=?, deal=?, rules_key=?, state=?, status=?, created_at=?,"
                " started_at=?, finished_at=?, elapsed=?, moves=?, score=?, cards_home=?,"
                " archived=?, extra=? WHERE id=?",
                (*row[1:], row[0]),
            )

    def get_game(self, game_id: str) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(f"SELECT {COLUMNS} FROM games WHERE id=?", (game_id,)).fetchone()
        return None if row is None else self._record(row)

    def latest_game(self, player: str) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {COLUMNS} FROM games WHERE player=? ORDER BY created_at DESC, rowid DESC"
                " LIMIT 1",
                (player,),
            ).fetchone()
        return None if row is None else self._record(row)

    def playing_games(self, player: str) -> list[GameRecord]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {COLUMNS} FROM games WHERE player=? AND status=?",
                (player, str(Status.PLAYING)),
            ).fetchall()
        return [self._record(row) for row in rows]

    def finished_games(self, player: str) -> list[GameRecord]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {SUMMARY_COLUMNS} FROM games WHERE player=? AND status IN (?, ?)"
                " AND archived=0 ORDER BY finished_at, rowid",
                (player, str(Status.WON), str(Status.LOST)),
            ).fetchall()
        return [self._record(row) for row in rows]

    def archive_finished_games(self, player: str) -> int:
        with self._lock:
            cursor = self._db.execute(
                "UPDATE games SET archived=1 WHERE player=? AND status IN (?, ?) AND archived=0",
                (player, str(Status.WON), str(Status.LOST)),
            )
        return cursor.rowcount

    def close(self) -> None:
        with self._lock:
            self._db.close()
