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
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from bonanza.core.rules import Rules
from bonanza.session.status import Status
from bonanza.storage.protocol import (
    DailyDeal,
    NewGame,
    Share,
    StaleGameError,
    StockedDeal,
    StorageError,
    TableSize,
)
from bonanza.storage.records import GameRecord
from bonanza.storage.rows import (
    COLUMNS,
    FINISHED_STATUSES,
    FOLDED_COLUMNS,
    OVER_STATUSES,
    SUMMARY_COLUMNS,
    game_record,
    on_same_table,
)
from bonanza.storage.schema import PLAYING
from bonanza.storage.sqlite_migrate import migrate
from bonanza.storage.sqlite_start import insert_game_row, start_game_rows
from bonanza.storage.sqlite_update import update_game_row

T = TypeVar("T")

BUSY_TIMEOUT_MS = 5000
SYNC_MODES = ("FULL", "NORMAL", "EXTRA")
CHECKPOINT_SECONDS = 1.0
"""How often the background checkpointer copies the WAL into the database."""
WAL_LIMIT_PAGES = 10_000
"""With background checkpoints, the writer still checkpoints itself past this
many WAL pages (about 40 MB), should the checkpointer fall behind."""
PRUNE_SAVEPOINT = "prune"
"""The savepoint :meth:`SQLiteStorage.prune_finished` folds and deletes in (a
transaction of its own, or part of a batch's)."""
OVER = ", ".join("?" * len(OVER_STATUSES))
LATEST_GAME = (
    f"SELECT {COLUMNS} FROM games WHERE player=? AND client=?"
    " ORDER BY created_at DESC, rowid DESC LIMIT 1"
)
SETTING = "SELECT value FROM settings WHERE key=?"
FOLD_GAMES = (
    f"INSERT INTO folded_games (seq, {FOLDED_COLUMNS}) SELECT rowid, {FOLDED_COLUMNS}"
    f" FROM games WHERE status IN ({OVER}) AND finished_at < ?"
)
DELETE_FOLDED = f"DELETE FROM games WHERE status IN ({OVER}) AND finished_at < ?"
COUNT_NEW_GAME = (
    "INSERT INTO new_game_starts (client, at) SELECT ?, ?"
    " WHERE (SELECT COUNT(*) FROM new_game_starts WHERE client=? AND at > ?) < ?"
)
"""A client's new game, counted unless its limit is reached: one statement, so one write
transaction, which no other process's count can interleave with."""


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

    :meth:`game_version` reads on a third connection of its own, which only it
    uses: a primary-key read of a local file that never waits for a write (WAL),
    cheap enough for the server to call on its event loop
    (``instant_version_checks``).
    """

    instant_version_checks = True
    """:meth:`game_version` takes microseconds and never waits for a writer."""

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
        self.syncs_commits = synchronous.upper() != "NORMAL"
        """Whether each commit waits for the disk (an fsync): not with ``NORMAL``."""
        self._lock = threading.RLock()  # reentrant: write_batch's writes take it again
        self.commits = 0
        """Transactions :meth:`write_batch` committed (one fsync each)."""
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        try:
            self.found_version = migrate(self._db)
            """The schema version the file had when this store opened it (0: none)."""
        except BaseException:
            self._db.close()
            raise
        # Reads have a connection of their own: in WAL mode they see what is
        # committed and never wait while a write commits (and fsyncs).
        self._reader, self._read_lock = self._connect_reader()
        self._checker, self._check_lock = self._connect_reader()
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

    def _connect_reader(self) -> tuple[sqlite3.Connection, threading.RLock]:
        """A read-only connection to the file and its lock (the writer's for ``:memory:``,
        where a second connection would be another database)."""
        if str(self.path) == ":memory:":
            return self._db, self._lock
        reader = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        reader.execute("PRAGMA query_only=ON")
        return reader, threading.RLock()

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
        statement or a savepoint, which is undone alone when it fails: its place in the
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

    def insert_game(self, record: GameRecord) -> None:
        self._run(lambda db: insert_game_row(db, record))

    def start_game(self, new: NewGame) -> None:
        self._run(lambda db: start_game_rows(db, new))

    def update_game(self, record: GameRecord) -> None:
        if self._run(lambda db: update_game_row(db, record)) == 0:  # nothing was written
            raise StaleGameError(record.id, record.version - 1)

    def game_version(self, game_id: str) -> int | None:
        row = self._check("SELECT version FROM games WHERE id=?", (game_id,))
        return None if row is None else int(row[0])

    def game_now(self, game_id: str) -> GameRecord | None:
        """:meth:`get_game` on the connection of the version checks, which only such
        primary-key reads use: microseconds, never waiting for a long read or a write,
        so the server reads a game another process changed on its event loop."""
        row = self._check(f"SELECT {COLUMNS} FROM games WHERE id=?", (game_id,))
        return None if row is None else game_record(row)

    def _check(self, sql: str, params: tuple[Any, ...]) -> Any:
        """The first row of a primary-key read on the checks' connection, or None."""
        with self._check_lock:
            try:
                cursor = self._checker.execute(sql, params)
                try:
                    return cursor.fetchone()
                finally:
                    cursor.close()  # else it keeps its read transaction: an old snapshot
            except sqlite3.Error as error:
                raise StorageError(f"the game store failed: {error}") from error

    def get_game(self, game_id: str) -> GameRecord | None:
        row = self._one(f"SELECT {COLUMNS} FROM games WHERE id=?", (game_id,))
        return None if row is None else game_record(row)

    def latest_game(self, player: str, client: str = "web") -> GameRecord | None:
        row = self._one(LATEST_GAME, (player, client))
        return None if row is None else game_record(row)

    def latest_game_now(self, player: str, client: str = "web") -> GameRecord | None:
        """:meth:`latest_game` on the checks' connection, as :meth:`game_now` reads."""
        row = self._check(LATEST_GAME, (player, client))
        return None if row is None else game_record(row)

    def playing_games(self, player: str, client: str = "web") -> list[GameRecord]:
        rows = self._all(
            f"SELECT {COLUMNS} FROM games WHERE player=? AND client=? AND status='{PLAYING}'",
            (player, client),  # the status written out, so the partial index games_playing serves
        )
        return [game_record(row) for row in rows]

    def finished_games(self, player: str) -> list[GameRecord]:
        # Folded games finished before any game still in ``games`` (but for ties of
        # ``finished_at``, which ``seq``, the row's order, settles as before).
        where = "WHERE player=? AND status IN (?, ?) AND archived=0"
        rows = self._all(
            f"SELECT {SUMMARY_COLUMNS}, rowid AS seq FROM games {where}"
            f" UNION ALL SELECT {SUMMARY_COLUMNS}, seq FROM folded_games {where}"
            " ORDER BY finished_at, seq",
            (player, *FINISHED_STATUSES) * 2,
        )
        return [game_record(row[:-1]) for row in rows]

    def played_deals(self, player: str) -> list[str]:
        rows = self._all(
            "SELECT deal FROM games WHERE player=?"
            " UNION SELECT deal FROM folded_games WHERE player=?",
            (player, player),
        )
        return [deal for (deal,) in rows]

    def has_played_deal(self, player: str, deal: str, rules: Rules) -> bool:
        keys = self._all(
            "SELECT DISTINCT rules_key FROM games WHERE player=? AND deal=?"
            " UNION SELECT DISTINCT rules_key FROM folded_games WHERE player=? AND deal=?",
            (player, deal) * 2,
        )
        return on_same_table([key for (key,) in keys], rules)

    def archive_finished_games(self, player: str) -> int:
        def archive(db: sqlite3.Connection) -> int:
            where = "WHERE player=? AND status IN (?, ?) AND archived=0"
            params = (player, *FINISHED_STATUSES)
            # One statement per table, each atomic; a reset between them is harmless.
            kept = db.execute(
                f"UPDATE games SET archived=1, version=version+1 {where}", params
            ).rowcount
            return kept + db.execute(f"UPDATE folded_games SET archived=1 {where}", params).rowcount

        return self._run(archive)

    def count_new_game(self, client: str, now: float, limit: int, window: float) -> bool:
        def count(db: sqlite3.Connection) -> bool:
            start = now - window
            db.execute("DELETE FROM new_game_starts WHERE at <= ?", (start,))  # expired
            counted: int = db.execute(COUNT_NEW_GAME, (client, now, client, start, limit)).rowcount
            return counted == 1

        return self._run(count)

    def games_in_play_before(self, before: float) -> list[GameRecord]:
        rows = self._all(
            f"SELECT {COLUMNS} FROM games WHERE status=? AND created_at<?"
            " ORDER BY created_at, rowid",
            (str(Status.PLAYING), before),
        )
        return [game_record(row) for row in rows]

    def prune_finished(self, before: float) -> int:
        def prune(db: sqlite3.Connection) -> int:
            params = (*OVER_STATUSES, before)
            db.execute(f"SAVEPOINT {PRUNE_SAVEPOINT}")
            try:
                db.execute(FOLD_GAMES, params)
                count = db.execute(DELETE_FOLDED, params).rowcount
            except BaseException:
                db.execute(f"ROLLBACK TO {PRUNE_SAVEPOINT}")
                db.execute(f"RELEASE {PRUNE_SAVEPOINT}")
                raise
            db.execute(f"RELEASE {PRUNE_SAVEPOINT}")
            return count

        return self._run(prune)

    def schema_version(self) -> int:
        return int(self._one("PRAGMA user_version", ())[0])

    def table_sizes(self) -> list[TableSize]:
        def sizes(db: sqlite3.Connection) -> list[TableSize]:
            names = [
                row[0]
                for row in db.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'"
                    " AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            ]
            try:  # the table's pages and its indexes' (dbstat: if SQLite has it)
                pages = dict(
                    db.execute(
                        "SELECT m.tbl_name, SUM(d.pgsize) FROM dbstat d"
                        " JOIN sqlite_master m ON m.name = d.name GROUP BY m.tbl_name"
                    ).fetchall()
                )
            except sqlite3.OperationalError:  # no dbstat: the whole file only
                pages = {}
            return [
                TableSize(
                    name,
                    db.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0],
                    int(pages[name]) if name in pages else None,
                )
                for name in names
            ]

        return self._run(sizes)

    def database_bytes(self) -> int:
        count = self._one("PRAGMA page_count", ())[0]
        size = self._one("PRAGMA page_size", ())[0]
        return int(count) * int(size)

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
            "SELECT s.deal, s.rules_key, s.game_id, coalesce(g.status, f.status) FROM shares s"
            " LEFT JOIN games g ON g.id = s.game_id LEFT JOIN folded_games f ON f.id = s.game_id"
            " WHERE s.id=?",
            (share_id,),
        )
        if row is None:
            return None
        return Share(row[0], row[1], row[2], row[3] is not None and row[3] != Status.PLAYING)

    def get_setting(self, key: str) -> str | None:
        row = self._one(SETTING, (key,))
        return None if row is None else str(row[0])

    def get_setting_now(self, key: str) -> str | None:
        """:meth:`get_setting` on the checks' connection, as :meth:`game_now` reads."""
        row = self._check(SETTING, (key,))
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
        with self._lock, self._read_lock, self._check_lock:
            self._db.close()
            self._reader.close()
            self._checker.close()
