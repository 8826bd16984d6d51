"""SQLite storage in WAL mode.

``synchronous=FULL`` (the default) fsyncs every commit: a committed move survives
a power cut. ``NORMAL`` (the server's default, ``bonanza serve --sync``) fsyncs
only at checkpoints: a committed move survives the process being killed, and
the file is never corrupted, but a power cut or an OS crash may lose the
last moves. ``background_checkpoints`` moves the checkpoints (copying the WAL
into the database, with their fsyncs) from the committing writer to a thread of
their own, so no write waits for one.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from bonanza.session.records import GameRecord
from bonanza.session.status import Origin, Status
from bonanza.storage.protocol import DailyDeal, Share, StockedDeal, StorageError

T = TypeVar("T")

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
ADDED_COLUMNS = {
    "origin": "TEXT NOT NULL DEFAULT 'random'",
    "version": "INTEGER NOT NULL DEFAULT 0",
    "client": "TEXT NOT NULL DEFAULT 'web'",
    "assisted": "INTEGER NOT NULL DEFAULT 0",
}
"""Columns added since the first schema: added at start-up to a file that lacks them
(its games then take the default: an older game is not assisted)."""
DEAL_INDEX = "CREATE INDEX IF NOT EXISTS games_player_deal ON games (player, deal)"
DEAL_STOCK_SCHEMA = """
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
"""Winnable deals found ahead of time, and the daily deal of each day (docs/session.md)."""

FIELDS = (
    "id",
    "player",
    "deal",
    "rules_key",
    "state",
    "status",
    "origin",
    "created_at",
    "started_at",
    "finished_at",
    "elapsed",
    "moves",
    "score",
    "cards_home",
    "archived",
    "version",
    "client",
    "assisted",
    "extra",
)
COLUMNS = ", ".join(FIELDS)
SUMMARY_COLUMNS = COLUMNS.replace("state,", "'{}',")
BUSY_TIMEOUT_MS = 5000
SYNC_MODES = ("FULL", "NORMAL", "EXTRA")
CHECKPOINT_SECONDS = 1.0
"""How often the background checkpointer copies the WAL into the database."""
WAL_LIMIT_PAGES = 10_000
"""With background checkpoints, the writer still checkpoints itself past this
many WAL pages (about 40 MB), should the checkpointer fall behind."""


class SQLiteStorage:
    """The :class:`~bonanza.storage.Storage` on one SQLite file.

    One connection writes and another reads (one alone for ``:memory:``), each
    behind a lock that keeps calls from threads apart: the server writes from
    its writer thread and reads from worker threads, and a read never waits
    for a write's commit. A failed statement raises ``StorageError``.
    :meth:`write_batch` commits several writes at once (the server's group
    commit). ``synchronous`` is SQLite's (module docstring); with
    ``background_checkpoints`` a thread checkpoints every ``CHECKPOINT_SECONDS``
    on a connection of its own (a file only; :meth:`close` stops it).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: str = "FULL",
        background_checkpoints: bool = False,
    ) -> None:
        if synchronous.upper() not in SYNC_MODES:
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.RLock()  # reentrant: write_batch's writes take it again
        self.commits = 0
        """Transactions :meth:`write_batch` committed (one fsync each)."""
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        self._db.executescript(SCHEMA)
        present = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        for name, kind in ADDED_COLUMNS.items():
            if name not in present:
                self._db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
        self._db.execute(DEAL_INDEX)
        self._db.executescript(DEAL_STOCK_SCHEMA)
        # Reads have a connection of their own: in WAL mode they see what is
        # committed and never wait while a write commits (and fsyncs).
        if str(path) == ":memory:":  # a second connection would be another database
            self._reader, self._read_lock = self._db, self._lock
        else:
            self._reader = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._reader.execute("PRAGMA query_only=ON")
            self._read_lock = threading.RLock()
        self.checkpoints = 0
        """Checkpoints the background checkpointer ran."""
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpoints = threading.Event()
        if background_checkpoints and str(path) != ":memory:":
            self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_LIMIT_PAGES}")
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="bonanza-store-checkpoints", daemon=True
            )
            self._checkpointer.start()

    def _checkpoints(self) -> None:
        """The checkpointer thread: a passive checkpoint every ``CHECKPOINT_SECONDS``
        (it never waits for a writer or a reader, and no writer waits for it)."""
        db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        try:
            db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            while not self._stop_checkpoints.wait(CHECKPOINT_SECONDS):
                with contextlib.suppress(sqlite3.Error):  # busy: the next round does it
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
        finally:
            db.close()

    def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            try:
                return work(self._db)
            except sqlite3.Error as error:
                raise StorageError(f"the game store failed: {error}") from error

    def _read(self, sql: str, params: tuple[Any, ...], rows: int | None) -> list[Any]:
        """At most ``rows`` rows (None: all) of a query, on the read connection.

        The statement is closed before this returns: one left open would keep its
        read transaction, and every later read would see that old snapshot.
        """
        with self._read_lock:
            try:
                cursor = self._reader.execute(sql, params)
                try:
                    return cursor.fetchall() if rows is None else cursor.fetchmany(rows)
                finally:
                    cursor.close()
            except sqlite3.Error as error:
                raise StorageError(f"the game store failed: {error}") from error

    def _one(self, sql: str, params: tuple[Any, ...]) -> Any:
        found = self._read(sql, params, 1)
        return found[0] if found else None

    def _all(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        return self._read(sql, params, None)

    def write_batch(self, writes: Sequence[Callable[[], T]]) -> list[T | Exception]:
        """Run ``writes`` in one transaction: one commit, so one fsync, for them all.

        Each write is a call of one of this storage's write methods, so one SQL
        statement, which SQLite undoes alone when it fails: its place in the
        result holds its exception (``StorageError``), the others what they
        returned, and they are committed when this returns. If the transaction
        fails as a whole (it cannot begin, SQLite abandons it, or the commit
        fails), nothing of the batch is stored and every place holds a
        ``StorageError``. A batch of one is that statement on its own, which
        commits by itself: the same, in one round trip.
        """
        if len(writes) == 1:
            (write,) = writes
            try:
                result: T = write()
            except Exception as error:  # handed back to its caller
                return [error]
            with self._lock:
                self.commits += 1
            return [result]
        with self._lock:
            db = self._db
            results: list[T | Exception] = []
            try:
                db.execute("BEGIN IMMEDIATE")
                for write in writes:
                    try:
                        results.append(write())
                    except Exception as error:  # handed back to its caller
                        if not db.in_transaction:  # SQLite abandoned the whole batch
                            raise
                        results.append(error)
                db.execute("COMMIT")
            except Exception as error:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                message = (
                    str(error)
                    if isinstance(error, StorageError)
                    else f"the game store failed: {error}"
                )
                return [StorageError(message) for _ in writes]  # one each: each is raised apart
            self.commits += 1
            return results

    @staticmethod
    def _row(record: GameRecord) -> tuple[Any, ...]:
        return (
            record.id,
            record.player,
            record.deal,
            record.rules_key,
            json.dumps(record.state, separators=(",", ":")),
            str(record.status),
            str(record.origin),
            record.created_at,
            record.started_at,
            record.finished_at,
            record.elapsed,
            record.moves,
            record.score,
            record.cards_home,
            int(record.archived),
            record.version,
            record.client,
            int(record.assisted),
            json.dumps(record.extra, separators=(",", ":")),
        )

    @staticmethod
    def _record(row: tuple[Any, ...]) -> GameRecord:
        values = dict(zip(FIELDS, row, strict=True))
        return GameRecord(
            id=values["id"],
            player=values["player"],
            deal=values["deal"],
            rules_key=values["rules_key"],
            state=json.loads(values["state"]),
            status=Status(values["status"]),
            origin=Origin(values["origin"]),
            created_at=values["created_at"],
            started_at=values["started_at"],
            finished_at=values["finished_at"],
            elapsed=values["elapsed"],
            moves=values["moves"],
            score=values["score"],
            cards_home=values["cards_home"],
            archived=bool(values["archived"]),
            version=values["version"],
            client=values["client"],
            assisted=bool(values["assisted"]),
            extra=json.loads(values["extra"]),
        )

    def insert_game(self, record: GameRecord) -> None:
        row = self._row(record)
        self._run(
            lambda db: db.execute(
                f"INSERT INTO games ({COLUMNS}) VALUES ({', '.join('?' * len(FIELDS))})", row
            )
        )

    def update_game(self, record: GameRecord) -> None:
        row = self._row(record)
        assignments = ", ".join(f"{name}=?" for name in FIELDS[1:])
        self._run(
            lambda db: db.execute(f"UPDATE games SET {assignments} WHERE id=?", (*row[1:], row[0]))
        )

    def get_game(self, game_id: str) -> GameRecord | None:
        row = self._one(f"SELECT {COLUMNS} FROM games WHERE id=?", (game_id,))
        return None if row is None else self._record(row)

    def latest_game(self, player: str, client: str = "web") -> GameRecord | None:
        row = self._one(
            f"SELECT {COLUMNS} FROM games WHERE player=? AND client=?"
            " ORDER BY created_at DESC, rowid DESC LIMIT 1",
            (player, client),
        )
        return None if row is None else self._record(row)

    def playing_games(self, player: str, client: str = "web") -> list[GameRecord]:
        rows = self._all(
            f"SELECT {COLUMNS} FROM games WHERE player=? AND status=? AND client=?",
            (player, str(Status.PLAYING), client),
        )
        return [self._record(row) for row in rows]

    def finished_games(self, player: str) -> list[GameRecord]:
        rows = self._all(
            f"SELECT {SUMMARY_COLUMNS} FROM games WHERE player=? AND status IN (?, ?)"
            " AND archived=0 ORDER BY finished_at, rowid",
            (player, str(Status.WON), str(Status.LOST)),
        )
        return [self._record(row) for row in rows]

    def has_played_deal(self, player: str, deal: str) -> bool:
        row = self._one("SELECT 1 FROM games WHERE player=? AND deal=? LIMIT 1", (player, deal))
        return row is not None

    def archive_finished_games(self, player: str) -> int:
        cursor = self._run(
            lambda db: db.execute(
                "UPDATE games SET archived=1 WHERE player=? AND status IN (?, ?) AND archived=0",
                (player, str(Status.WON), str(Status.LOST)),
            )
        )
        return cursor.rowcount

    def add_share(self, share_id: str, game_id: str) -> None:
        self._run(
            lambda db: db.execute(
                "INSERT INTO shares (id, deal, rules_key, game_id)"
                " SELECT ?, deal, rules_key, id FROM games WHERE id=?",
                (share_id, game_id),
            )
        )

    def get_share(self, share_id: str) -> Share | None:
        row = self._one(
            "SELECT s.deal, s.rules_key, s.game_id, g.status FROM shares s"
            " LEFT JOIN games g ON g.id = s.game_id WHERE s.id=?",
            (share_id,),
        )
        if row is None:
            return None
        return Share(row[0], row[1], row[2], row[3] is not None and row[3] != Status.PLAYING)

    def get_setting(self, key: str) -> str | None:
        row = self._one("SELECT value FROM settings WHERE key=?", (key,))
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        self._run(
            lambda db: db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                (key, value),
            )
        )

    def add_stocked_deal(self, deal: StockedDeal) -> None:
        self._run(
            lambda db: db.execute(
                "INSERT INTO deal_stock (stock_key, grade, deal, measure) VALUES (?, ?, ?, ?)",
                (deal.stock_key, deal.grade, deal.deal, deal.measure),
            )
        )

    def take_stocked_deal(self, stock_key: str, grade: str) -> StockedDeal | None:
        def take(db: sqlite3.Connection) -> StockedDeal | None:
            row = db.execute(
                "DELETE FROM deal_stock WHERE id = (SELECT id FROM deal_stock"
                " WHERE stock_key=? AND grade=? ORDER BY id LIMIT 1) RETURNING deal, measure",
                (stock_key, grade),
            ).fetchone()
            return None if row is None else StockedDeal(row[0], stock_key, grade, row[1])

        return self._run(take)

    def stock_counts(self) -> dict[tuple[str, str], int]:
        rows = self._all(
            "SELECT stock_key, grade, COUNT(*) FROM deal_stock GROUP BY stock_key, grade", ()
        )
        return {(key, grade): count for key, grade, count in rows}

    def daily_deal(self, day: str, rules_key: str) -> DailyDeal | None:
        row = self._one(
            "SELECT deal, grade FROM daily_deals WHERE day=? AND rules_key=?", (day, rules_key)
        )
        return None if row is None else DailyDeal(day, rules_key, row[0], row[1])

    def set_daily_deal(self, daily: DailyDeal) -> DailyDeal:
        def store(db: sqlite3.Connection) -> DailyDeal:
            db.execute(
                "INSERT INTO daily_deals (day, rules_key, deal, grade) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (day, rules_key) DO NOTHING",
                (daily.day, daily.rules_key, daily.deal, daily.grade),
            )
            deal, grade = db.execute(
                "SELECT deal, grade FROM daily_deals WHERE day=? AND rules_key=?",
                (daily.day, daily.rules_key),
            ).fetchone()
            return DailyDeal(daily.day, daily.rules_key, deal, grade)

        return self._run(store)

    def close(self) -> None:
        self._stop_checkpoints.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        with self._lock, self._read_lock:
            self._db.close()
            self._reader.close()
