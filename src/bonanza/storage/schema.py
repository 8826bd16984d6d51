"""Schema versions: the version this code speaks, and the steps that bring a database to it.

Each backend keeps its schema's version in the database (PostgreSQL: the
``schema_version`` table, one row per step applied; SQLite: ``PRAGMA
user_version``). At start-up a store applies
the steps newer than the database's version, in order, and refuses a database
whose version is newer than :data:`SCHEMA_VERSION` (:class:`SchemaTooNewError`):
an older release must not write to a schema it does not know.

Adding a change: append a :class:`Migration` with the next version to each
backend's list and raise :data:`SCHEMA_VERSION` to it. A step never changes once
released; a database made by any earlier release upgrades in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bonanza.storage.protocol import StorageError

SCHEMA_VERSION = 4
PLAYING = "playing"
"""``str(Status.PLAYING)``, as the partial index ``games_playing`` and its queries name it
(a step never changes, so it is written out)."""
"""The schema this code reads and writes."""


class SchemaTooNewError(StorageError):
    """The database was made or upgraded by a newer Bonanza than this one."""

    def __init__(self, found: int, known: int = SCHEMA_VERSION) -> None:
        super().__init__(
            f"the database's schema is version {found}, newer than this Bonanza's"
            f" (version {known}): run a newer Bonanza on it"
        )
        self.found = found
        self.known = known


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of a schema: the statements that bring version ``version - 1`` to ``version``."""

    version: int
    summary: str
    statements: tuple[str, ...]


POSTGRES_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, shares, settings, the winnable deal stock and the daily deals",
        (
            """
            CREATE TABLE games (
                id TEXT PRIMARY KEY,
                seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
                player TEXT NOT NULL,
                deal TEXT NOT NULL,
                rules_key TEXT NOT NULL,
                state TEXT NOT NULL,
                status TEXT NOT NULL,
                origin TEXT NOT NULL DEFAULT 'random',
                created_at DOUBLE PRECISION NOT NULL,
                started_at DOUBLE PRECISION,
                finished_at DOUBLE PRECISION,
                elapsed DOUBLE PRECISION NOT NULL DEFAULT 0,
                moves INTEGER NOT NULL DEFAULT 0,
                score INTEGER NOT NULL DEFAULT 0,
                cards_home INTEGER NOT NULL DEFAULT 0,
                archived BOOLEAN NOT NULL DEFAULT FALSE,
                version INTEGER NOT NULL DEFAULT 0,
                client TEXT NOT NULL DEFAULT 'web',
                assisted BOOLEAN NOT NULL DEFAULT FALSE,
                extra TEXT NOT NULL DEFAULT '{}'
            )
            """,
            "CREATE INDEX games_player ON games (player, created_at)",
            "CREATE INDEX games_player_deal ON games (player, deal)",
            """
            CREATE TABLE shares (
                id TEXT PRIMARY KEY,
                deal TEXT NOT NULL,
                rules_key TEXT NOT NULL,
                game_id TEXT NOT NULL
            )
            """,
            "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE deal_stock (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                stock_key TEXT NOT NULL,
                grade TEXT NOT NULL,
                deal TEXT NOT NULL,
                measure DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX deal_stock_grade ON deal_stock (stock_key, grade, id)",
            """
            CREATE TABLE daily_deals (
                day TEXT NOT NULL,
                rules_key TEXT NOT NULL,
                deal TEXT NOT NULL,
                grade TEXT NOT NULL,
                PRIMARY KEY (day, rules_key)
            )
            """,
        ),
    ),
    Migration(
        2,
        "folded_games: pruned finished games, their figures kept for the statistics",
        (
            """
            CREATE TABLE folded_games (
                id TEXT PRIMARY KEY,
                seq BIGINT NOT NULL,
                player TEXT NOT NULL,
                deal TEXT NOT NULL,
                rules_key TEXT NOT NULL,
                status TEXT NOT NULL,
                origin TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                started_at DOUBLE PRECISION,
                finished_at DOUBLE PRECISION,
                elapsed DOUBLE PRECISION NOT NULL,
                moves INTEGER NOT NULL,
                score INTEGER NOT NULL,
                cards_home INTEGER NOT NULL,
                archived BOOLEAN NOT NULL,
                version INTEGER NOT NULL,
                client TEXT NOT NULL,
                assisted BOOLEAN NOT NULL,
                extra TEXT NOT NULL
            )
            """,
            "CREATE INDEX folded_games_player ON folded_games (player, finished_at)",
            "CREATE INDEX folded_games_player_deal ON folded_games (player, deal)",
            "CREATE INDEX games_finished ON games (finished_at)",
        ),
    ),
    Migration(
        3,
        "new_game_starts: the new games each client address started lately, for the rate limit",
        (
            """
            CREATE TABLE new_game_starts (
                client TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX new_game_starts_client ON new_game_starts (client, at)",
            "CREATE INDEX new_game_starts_at ON new_game_starts (at)",
        ),
    ),
    Migration(
        4,
        "games_playing: a player's games in play, found without reading their other games",
        (f"CREATE INDEX games_playing ON games (player, client) WHERE status = '{PLAYING}'",),
    ),
)
"""PostgreSQL's steps, oldest first: step ``n`` has version ``n``."""

SQLITE_LEGACY_COLUMNS = {
    "origin": "TEXT NOT NULL DEFAULT 'random'",
    "version": "INTEGER NOT NULL DEFAULT 0",
    "client": "TEXT NOT NULL DEFAULT 'web'",
    "assisted": "INTEGER NOT NULL DEFAULT 0",
}
"""Columns of ``games`` that a SQLite file from before schema versions may lack (they
were added one by one): added, with these defaults, when such a file is brought to
step 1 (its games then take the default: an older game is not assisted)."""

SQLITE_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, shares, settings, the winnable deal stock and the daily deals",
        (
            # IF NOT EXISTS: a file from before schema versions has some of these already.
            """
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
                extra TEXT NOT NULL DEFAULT '{}',
                origin TEXT NOT NULL DEFAULT 'random',
                version INTEGER NOT NULL DEFAULT 0,
                client TEXT NOT NULL DEFAULT 'web',
                assisted INTEGER NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX IF NOT EXISTS games_player ON games (player, created_at)",
            "CREATE INDEX IF NOT EXISTS games_player_deal ON games (player, deal)",
            """
            CREATE TABLE IF NOT EXISTS shares (
                id TEXT PRIMARY KEY,
                deal TEXT NOT NULL,
                rules_key TEXT NOT NULL,
                game_id TEXT NOT NULL
            )
            """,
            "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS deal_stock (
                id INTEGER PRIMARY KEY,
                stock_key TEXT NOT NULL,
                grade TEXT NOT NULL,
                deal TEXT NOT NULL,
                measure REAL NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS deal_stock_grade ON deal_stock (stock_key, grade, id)",
            """
            CREATE TABLE IF NOT EXISTS daily_deals (
                day TEXT NOT NULL,
                rules_key TEXT NOT NULL,
                deal TEXT NOT NULL,
                grade TEXT NOT NULL,
                PRIMARY KEY (day, rules_key)
            )
            """,
        ),
    ),
    Migration(
        2,
        "folded_games: pruned finished games, their figures kept for the statistics",
        (
            """
            CREATE TABLE folded_games (
                id TEXT PRIMARY KEY,
                seq INTEGER NOT NULL,
                player TEXT NOT NULL,
                deal TEXT NOT NULL,
                rules_key TEXT NOT NULL,
                status TEXT NOT NULL,
                origin TEXT NOT NULL,
                created_at REAL NOT NULL,
                started_at REAL,
                finished_at REAL,
                elapsed REAL NOT NULL,
                moves INTEGER NOT NULL,
                score INTEGER NOT NULL,
                cards_home INTEGER NOT NULL,
                archived INTEGER NOT NULL,
                version INTEGER NOT NULL,
                client TEXT NOT NULL,
                assisted INTEGER NOT NULL,
                extra TEXT NOT NULL
            )
            """,
            "CREATE INDEX folded_games_player ON folded_games (player, finished_at)",
            "CREATE INDEX folded_games_player_deal ON folded_games (player, deal)",
            "CREATE INDEX games_finished ON games (finished_at)",
        ),
    ),
    Migration(
        3,
        "new_game_starts: the new games each client address started lately, for the rate limit",
        (
            """
            CREATE TABLE new_game_starts (
                client TEXT NOT NULL,
                at REAL NOT NULL
            )
            """,
            "CREATE INDEX new_game_starts_client ON new_game_starts (client, at)",
            "CREATE INDEX new_game_starts_at ON new_game_starts (at)",
        ),
    ),
    Migration(
        4,
        "games_playing: a player's games in play, found without reading their other games",
        (f"CREATE INDEX games_playing ON games (player, client) WHERE status = '{PLAYING}'",),
    ),
)
"""SQLite's steps, oldest first: step ``n`` has version ``n``. Step 1 is the schema
as it stood before versions, every column included."""


def check_migrations(migrations: Sequence[Migration]) -> None:
    """Raise ``ValueError`` unless the steps are versions 1, 2, ... up to :data:`SCHEMA_VERSION`."""
    versions = [migration.version for migration in migrations]
    if versions != list(range(1, SCHEMA_VERSION + 1)):
        raise ValueError(f"migrations must be versions 1 to {SCHEMA_VERSION}, not {versions}")


def pending(found: int, migrations: Sequence[Migration]) -> list[Migration]:
    """The steps that bring a database at version ``found`` (0: empty) to
    :data:`SCHEMA_VERSION`; :class:`SchemaTooNewError` if it is newer."""
    check_migrations(migrations)
    if found > SCHEMA_VERSION:
        raise SchemaTooNewError(found, SCHEMA_VERSION)
    return [migration for migration in migrations if migration.version > found]
