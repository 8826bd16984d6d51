"""PostgreSQL storage through psycopg 3 and a connection pool: one database for many processes.

Needs the ``postgres`` extra (``pip install -e '.[postgres]'`` in a checkout). The schema is
versioned (``bonanza.storage.schema``): opening the store upgrades an older
database in place, under a lock that keeps processes starting together apart,
and refuses a newer one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import TupleRow
from psycopg.sql import SQL, Identifier
from psycopg_pool import ConnectionPool

from bonanza.core.rules import Rules
from bonanza.session.status import Status
from bonanza.storage.postgres_start import INSERT_GAME, UPDATE_GAME, start_game_rows
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
    game_row,
    on_same_table,
    updated_values,
)
from bonanza.storage.schema import PLAYING, POSTGRES_MIGRATIONS, pending
from bonanza.storage.urls import redacted

T = TypeVar("T")
Connection = psycopg.Connection[TupleRow]

POOL_SIZE = 10
"""Connections a process keeps open at most (reads from worker threads, and the writer)."""
POOL_WAIT_SECONDS = 10.0
"""How long a call waits for a free connection before it fails."""
CONNECT_SECONDS = 10
"""How long opening the store waits for the server (whole seconds, as libpq counts)."""
APPLICATION_NAME = "bonanza"
"""How the connections are named in ``pg_stat_activity`` unless the URL names them."""
MIGRATION_LOCK = 0x626F6E616E7A61
"""The advisory lock key held while the schema is checked and upgraded ("bonanza")."""
NEW_GAMES_LOCK = 0x626F6E61
"""The first key of the advisory locks (the second is the client's hash) that keep two
counts of one client's new games apart ("bona")."""

VERSION_TABLE = """
CREATE TABLE schema_version (
    version INTEGER PRIMARY KEY,
    summary TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""
"""One row per schema step applied: the database's version is the highest."""

FINISHED_WHERE = "WHERE player=%s AND status IN (%s, %s) AND NOT archived"
PRUNE = (
    f"WITH gone AS (DELETE FROM games WHERE status IN ({', '.join(['%s'] * len(OVER_STATUSES))})"
    f" AND finished_at < %s RETURNING seq, {FOLDED_COLUMNS})"
    f" INSERT INTO folded_games (seq, {FOLDED_COLUMNS}) SELECT seq, {FOLDED_COLUMNS} FROM gone"
)
"""Folding in one statement: the rows deleted are the rows kept, whatever else commits."""


def one_line(error: BaseException, url: str = "") -> str:
    """A psycopg error's message on one line, without the password of ``url``."""
    text = "; ".join(line.strip() for line in str(error).splitlines() if line.strip())
    if url:
        text = text.replace(url, redacted(url))
    return text or type(error).__name__


def schema_version(db: Connection) -> int:
    """The version of the schema in ``db`` (0: none yet)."""
    row = db.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(db: Connection) -> int:
    """Bring the schema of ``db`` to this code's version; return the version it had.

    One transaction under an advisory lock: processes starting together upgrade
    once, one after the other, and a step that fails leaves the database as it was.
    A database newer than this code raises ``SchemaTooNewError`` and is not touched.
    """
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        row = db.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
        if not (row and row[0]):
            db.execute(VERSION_TABLE)
        found = schema_version(db)
        for step in pending(found, POSTGRES_MIGRATIONS):
            for statement in step.statements:
                db.execute(statement)
            db.execute(
                "INSERT INTO schema_version (version, summary) VALUES (%s, %s)",
                (step.version, step.summary),
            )
    return found


NUL: Final = "\x00"


def storable(text: str) -> bool:
    """Whether PostgreSQL can hold ``text`` (no NUL): an ID with one names nothing stored,
    and asking for it must find nothing, not fail as if the store were down."""
    return NUL not in text


class PostgresStorage:
    """The :class:`~bonanza.storage.Storage` on a PostgreSQL database at ``url``.

    Calls from any thread take a connection from a pool (each in autocommit: a
    write has committed when it returns). :meth:`write_batch` commits several
    writes in one transaction, and a failing one fails alone (the server's group
    commit, as ``SQLiteStorage.write_batch``): the batch runs with no savepoints, and
    only if a write fails is it rolled back and run again with one for each write.
    A failed statement, or a database that cannot be reached, raises
    ``StorageError``; a database newer than this code, ``SchemaTooNewError``.
    """

    instant_version_checks = False
    """:meth:`game_version` is a round trip to the server: not for the event loop."""

    def __init__(
        self, url: str, *, pool_size: int = POOL_SIZE, connect_timeout: int = CONNECT_SECONDS
    ) -> None:
        self.url = url
        self.commits = 0
        """Transactions :meth:`write_batch` committed."""
        self.batches_redone = 0
        """Batches in which a write failed, so they were run again in savepoints."""
        self._batch = threading.local()
        try:
            with psycopg.connect(
                url,
                autocommit=True,
                connect_timeout=connect_timeout,
                fallback_application_name=APPLICATION_NAME,
            ) as db:
                self.found_version = migrate(db)
                """The schema version the database had when this store opened it (0: none)."""
            self._pool: ConnectionPool[Connection] = ConnectionPool(
                url,
                min_size=1,
                max_size=pool_size,
                kwargs={"autocommit": True, "fallback_application_name": APPLICATION_NAME},
                open=False,
                timeout=POOL_WAIT_SECONDS,
                name=APPLICATION_NAME,
            )
            try:
                self._pool.open(wait=True, timeout=connect_timeout)
            except psycopg.Error:
                self._pool.close()  # its workers would go on trying to connect
                raise
        except psycopg.Error as error:
            raise StorageError(
                f"cannot open the game store {redacted(url)}: {one_line(error, url)}"
            ) from None

    def __repr__(self) -> str:
        return f"PostgresStorage({redacted(self.url)!r})"

    def _run(self, work: Callable[[Connection], T]) -> T:
        """``work`` on this thread's batch connection if a batch is open, else a pooled one."""
        try:
            db: Connection | None = getattr(self._batch, "db", None)
            if db is not None:
                return work(db)
            with self._pool.connection() as db:
                return work(db)
        except psycopg.Error as error:
            raise StorageError(f"the game store failed: {one_line(error, self.url)}") from error

    def _one(self, sql: str, params: tuple[Any, ...]) -> Any:
        return self._run(lambda db: db.execute(sql, params).fetchone())

    def _all(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        return self._run(lambda db: db.execute(sql, params).fetchall())

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        """Run one writing statement; the rows it changed."""
        return self._run(lambda db: db.execute(sql, params).rowcount)

    def write_batch(self, writes: Sequence[Callable[[], T]]) -> list[T | Exception]:
        """Run ``writes`` in one transaction: one commit for them all.

        Each write is a call of one of this storage's write methods, run as if in a
        savepoint (module notes): one that fails is undone alone and its place in the result
        holds its exception (``StorageError``), the others what they returned,
        committed when this returns. If the transaction fails as a whole (no
        connection, a lost connection, a failed commit), nothing of the batch is
        stored and every place holds a ``StorageError``. A batch of one is that
        write on its own, which commits by itself.
        """
        if len(writes) == 1:
            (write,) = writes
            try:
                result: T = write()
            except Exception as error:  # handed back to its caller
                return [error]
            self.commits += 1
            return [result]
        try:
            with self._pool.connection() as db:
                results = self._batch_at_once(db, writes)
                if results is None:  # one failed: the whole batch again, each write apart
                    self.batches_redone += 1
                    results = self._batch_in_savepoints(db, writes)
        except Exception as error:
            message = (
                str(error)
                if isinstance(error, StorageError)
                else f"the game store failed: {one_line(error, self.url)}"
            )
            return [StorageError(message) for _ in writes]  # one each: each is raised apart
        self.commits += 1
        return results

    def _batch_at_once(
        self, db: Connection, writes: Sequence[Callable[[], T]]
    ) -> list[T | Exception] | None:
        """``writes`` in one transaction with no savepoints (each costs two round trips),
        committed if every one succeeds; None, with nothing stored, if one fails."""
        results: list[T | Exception] = []
        self._batch.db = db
        try:
            with db.transaction():
                for write in writes:
                    results.append(write())
        except Exception:
            if db.broken:
                raise  # the connection is lost: the whole batch fails
            return None  # rolled back
        finally:
            self._batch.db = None
        return results

    def _batch_in_savepoints(
        self, db: Connection, writes: Sequence[Callable[[], T]]
    ) -> list[T | Exception]:
        """``writes`` in one transaction, each in a savepoint: one that fails is undone
        alone, and its place holds its exception."""
        results: list[T | Exception] = []
        with db.transaction():
            self._batch.db = db
            try:
                for write in writes:
                    try:
                        with db.transaction():  # a savepoint
                            results.append(write())
                    except Exception as error:  # handed back to its caller
                        if db.broken or db.info.transaction_status != TransactionStatus.INTRANS:
                            raise  # the transaction is lost: the whole batch fails
                        results.append(error)
            finally:
                self._batch.db = None
        return results

    def insert_game(self, record: GameRecord) -> None:
        self._write(INSERT_GAME, game_row(record, bool))

    def start_game(self, new: NewGame) -> None:
        self._run(lambda db: start_game_rows(db, new))

    def update_game(self, record: GameRecord) -> None:
        row = game_row(record, bool)
        read_version = record.version - 1
        if self._write(UPDATE_GAME, (*updated_values(row), record.id, read_version)) == 0:
            raise StaleGameError(record.id, read_version)  # nothing was written

    def game_version(self, game_id: str) -> int | None:
        if not storable(game_id):
            return None
        row = self._one("SELECT version FROM games WHERE id=%s", (game_id,))
        return None if row is None else int(row[0])

    def get_game(self, game_id: str) -> GameRecord | None:
        if not storable(game_id):
            return None
        row = self._one(f"SELECT {COLUMNS} FROM games WHERE id=%s", (game_id,))
        return None if row is None else game_record(row)

    def latest_game(self, player: str, client: str = "web") -> GameRecord | None:
        row = self._one(
            f"SELECT {COLUMNS} FROM games WHERE player=%s AND client=%s"
            " ORDER BY created_at DESC, seq DESC LIMIT 1",
            (player, client),
        )
        return None if row is None else game_record(row)

    def playing_games(self, player: str, client: str = "web") -> list[GameRecord]:
        rows = self._all(
            f"SELECT {COLUMNS} FROM games WHERE player=%s AND client=%s"
            f" AND status='{PLAYING}' ORDER BY seq",
            (player, client),  # the status written out, so the partial index games_playing serves
        )
        return [game_record(row) for row in rows]

    def finished_games(self, player: str) -> list[GameRecord]:
        # Folded games finished before any game still in ``games`` (but for ties of
        # ``finished_at``, which ``seq``, the row's order, settles as before).
        rows = self._all(
            f"SELECT {SUMMARY_COLUMNS}, seq FROM games {FINISHED_WHERE}"
            f" UNION ALL SELECT {SUMMARY_COLUMNS}, seq FROM folded_games {FINISHED_WHERE}"
            " ORDER BY finished_at NULLS FIRST, seq",
            (player, *FINISHED_STATUSES) * 2,
        )
        return [game_record(row[:-1]) for row in rows]

    def played_deals(self, player: str) -> list[str]:
        rows = self._all(
            "SELECT deal FROM games WHERE player=%s"
            " UNION SELECT deal FROM folded_games WHERE player=%s",
            (player, player),
        )
        return [deal for (deal,) in rows]

    def has_played_deal(self, player: str, deal: str, rules: Rules) -> bool:
        keys = self._all(
            "SELECT DISTINCT rules_key FROM games WHERE player=%s AND deal=%s"
            " UNION SELECT DISTINCT rules_key FROM folded_games WHERE player=%s AND deal=%s",
            (player, deal) * 2,
        )
        return on_same_table([key for (key,) in keys], rules)

    def archive_finished_games(self, player: str) -> int:
        # Both tables in one statement: one snapshot, one commit.
        row = self._one(
            f"WITH kept AS (UPDATE games SET archived=TRUE, version=version+1 {FINISHED_WHERE}"
            " RETURNING 1),"
            f" folded AS (UPDATE folded_games SET archived=TRUE {FINISHED_WHERE} RETURNING 1)"
            " SELECT (SELECT COUNT(*) FROM kept) + (SELECT COUNT(*) FROM folded)",
            (player, *FINISHED_STATUSES) * 2,
        )
        return int(row[0])

    def count_new_game(self, client: str, now: float, limit: int, window: float) -> bool:
        def count(db: Connection) -> bool:
            start = now - window
            with db.transaction():  # a savepoint within a batch
                # Counts of one client take turns (to the transaction's end): under READ
                # COMMITTED two counting at once would both see room for one more.
                db.execute(
                    "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (NEW_GAMES_LOCK, client)
                )
                db.execute("DELETE FROM new_game_starts WHERE at <= %s", (start,))  # expired
                counted = db.execute(
                    "INSERT INTO new_game_starts (client, at) SELECT %s, %s WHERE"
                    " (SELECT COUNT(*) FROM new_game_starts WHERE client=%s AND at > %s) < %s",
                    (client, now, client, start, limit),
                ).rowcount
            return counted == 1

        return self._run(count)

    def games_in_play_before(self, before: float) -> list[GameRecord]:
        rows = self._all(
            f"SELECT {COLUMNS} FROM games WHERE status=%s AND created_at<%s"
            " ORDER BY created_at, seq",
            (str(Status.PLAYING), before),
        )
        return [game_record(row) for row in rows]

    def prune_finished(self, before: float) -> int:
        return self._write(PRUNE, (*OVER_STATUSES, before))

    def schema_version(self) -> int:
        return self._run(schema_version)

    def table_sizes(self) -> list[TableSize]:
        def sizes(db: Connection) -> list[TableSize]:
            tables = db.execute(
                "SELECT tablename, pg_total_relation_size("
                "(quote_ident(schemaname) || '.' || quote_ident(tablename))::regclass)"
                " FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
            ).fetchall()
            found = []
            for name, size in tables:
                count = db.execute(SQL("SELECT COUNT(*) FROM {}").format(Identifier(name)))
                found.append(TableSize(name, int(count.fetchone()[0]), int(size)))  # type: ignore[index]
            return found

        return self._run(sizes)

    def database_bytes(self) -> int:
        row = self._one("SELECT pg_database_size(current_database())", ())
        return int(row[0])

    def add_share(self, share_id: str, game_id: str) -> None:
        self._write(
            "INSERT INTO shares (id, deal, rules_key, game_id)"
            " SELECT %s, deal, rules_key, id FROM games WHERE id=%s",
            (share_id, game_id),
        )

    def get_share(self, share_id: str) -> Share | None:
        if not storable(share_id):
            return None
        row = self._one(
            "SELECT s.deal, s.rules_key, s.game_id, coalesce(g.status, f.status) FROM shares s"
            " LEFT JOIN games g ON g.id = s.game_id LEFT JOIN folded_games f ON f.id = s.game_id"
            " WHERE s.id=%s",
            (share_id,),
        )
        if row is None:
            return None
        return Share(row[0], row[1], row[2], row[3] is not None and row[3] != Status.PLAYING)

    def get_setting(self, key: str) -> str | None:
        row = self._one("SELECT value FROM settings WHERE key=%s", (key,))
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        self._write(
            "INSERT INTO settings (key, value) VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value=EXCLUDED.value",
            (key, value),
        )

    def add_stocked_deal(self, deal: StockedDeal) -> None:
        self._write(
            "INSERT INTO deal_stock (stock_key, grade, deal, measure) VALUES (%s, %s, %s, %s)",
            (deal.stock_key, deal.grade, deal.deal, deal.measure),
        )

    def take_stocked_deal(self, stock_key: str, grade: str) -> StockedDeal | None:
        # One statement: the oldest deal no other taker holds is locked, deleted
        # and returned, so two processes taking at once never get the same deal.
        row = self._one(
            "DELETE FROM deal_stock WHERE id = (SELECT id FROM deal_stock"
            " WHERE stock_key=%s AND grade=%s ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)"
            " RETURNING deal, measure",
            (stock_key, grade),
        )
        return None if row is None else StockedDeal(row[0], stock_key, grade, row[1])

    def stock_counts(self) -> dict[tuple[str, str], int]:
        rows = self._all(
            "SELECT stock_key, grade, COUNT(*) FROM deal_stock GROUP BY stock_key, grade", ()
        )
        return {(key, grade): count for key, grade, count in rows}

    def daily_deal(self, day: str, rules_key: str) -> DailyDeal | None:
        row = self._one(
            "SELECT deal, grade FROM daily_deals WHERE day=%s AND rules_key=%s", (day, rules_key)
        )
        return None if row is None else DailyDeal(day, rules_key, row[0], row[1])

    def set_daily_deal(self, daily: DailyDeal) -> DailyDeal:
        def store(db: Connection) -> DailyDeal:
            db.execute(
                "INSERT INTO daily_deals (day, rules_key, deal, grade) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (day, rules_key) DO NOTHING",
                (daily.day, daily.rules_key, daily.deal, daily.grade),
            )
            # A statement of its own: it sees a choice another process committed meanwhile.
            row = db.execute(
                "SELECT deal, grade FROM daily_deals WHERE day=%s AND rules_key=%s",
                (daily.day, daily.rules_key),
            ).fetchone()
            if row is None:  # chosen and removed meanwhile: cannot happen, the rows stay
                raise StorageError("the game store failed: the daily deal vanished")
            return DailyDeal(daily.day, daily.rules_key, row[0], row[1])

        return self._run(store)

    def close(self) -> None:
        self._pool.close()
