"""The daily leaderboard's reads, on SQLite and on PostgreSQL, and the display names.

A day's board of one rule set is read from the stored games, never from what a
client says: the games won from a daily deal (``extra["daily"]`` names the day,
``rules_key`` the daily rules) by the server's checked moves, as a first game of
that deal (origin ``shared``: a deal played before is a ``replay``), started on
that very day, not assisted and not archived by a statistics reset, and with no
earlier game of that board by the same player stored (in any state, archived or
pruned too: the stored games decide, not the origin, which rows stored before
replays were marked give as ``shared``). Pruned games (``folded_games``) count as
the others. Each player enters once per board, with their best game for its order;
the order's ties go to the game won first.

A player's display name is kept among the settings
(``bonanza.storage.player_settings.setting_key``), not among the settings the
page reads and writes: it is the player's own text, checked by the play layer
(``bonanza.play.leaderboard``).

The reads are read-only queries run through each store's own read helper
(its ``_all``); no schema change. On a large server an index such as
``games (rules_key, created_at) WHERE status = 'won' AND origin = 'shared'`` would
serve them; today they walk the day's finished games by ``games_finished``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from bonanza.session.status import Origin, Status
from bonanza.storage.player_settings import PLAYER_PREFIX, setting_key
from bonanza.storage.protocol import Storage
from bonanza.storage.records import TAKEN_BACK
from bonanza.storage.sqlite import SQLiteStorage

DISPLAY_NAME: Final = "display_name"
"""The name of a player's display name among their entries in the settings."""


class Order(StrEnum):
    """How a board is ranked: by time (then moves), or by moves (then time)."""

    TIME = "time"
    MOVES = "moves"


ORDER_COLUMNS: Final = {
    Order.TIME: "elapsed, moves, finished_at, seq",
    Order.MOVES: "moves, elapsed, finished_at, seq",
}


@dataclass(frozen=True, slots=True)
class Board:
    """Which board: the daily deal of ``day`` (``YYYY-MM-DD``) under ``rules_key``,
    whose games were started from ``start`` to before ``end`` (that day, UTC)."""

    day: str
    rules_key: str
    start: float
    end: float


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's place on a board. ``player`` is the player's token: it stays below
    the front ends, which say only whether the entry is the asker's."""

    place: int
    player: str
    name: str | None
    elapsed: float
    moves: int
    finished_at: float


WON_WHERE: Final = (
    "status = ? AND origin = ? AND NOT assisted AND NOT archived AND rules_key = ?"
    " AND created_at >= ? AND created_at < ? AND finished_at >= ? AND {daily} = ?"
    " AND NOT EXISTS ({earlier_games}) AND NOT EXISTS ({earlier_folded})"
)
"""A game that enters a board (``finished_at >= start`` lets the ``games_finished``
index find the day's games)."""
EARLIER: Final = (
    "SELECT 1 FROM {table} e WHERE e.player = {outer}.player AND e.rules_key = {outer}.rules_key"
    " AND e.created_at >= ? AND e.created_at < {outer}.created_at AND {daily} = ?"
)
"""The same player's games of the board started before the outer game, in any state
(games stored before replays were marked say ``shared``: the stored games decide)."""
RANKED: Final = (
    "WITH won AS ("
    " SELECT player, elapsed, {moves} AS moves, finished_at, {games_seq} AS seq FROM games"
    " WHERE {games_where}"
    " UNION ALL SELECT player, elapsed, {moves} AS moves, finished_at, seq FROM folded_games"
    " WHERE {folded_where}"
    "), best AS (SELECT won.*, ROW_NUMBER() OVER (PARTITION BY player ORDER BY {order}) AS nth"
    " FROM won), ranked AS (SELECT best.*, ROW_NUMBER() OVER (ORDER BY {order}) AS place"
    " FROM best WHERE nth = 1)"
    " SELECT r.place, r.player, s.value, r.elapsed, r.moves, r.finished_at FROM ranked r"
    " LEFT JOIN settings s ON s.key = ? || r.player || ?"
    " WHERE r.place <= ? OR r.player = ? ORDER BY r.place"
)
"""The board's first places, and the asker's place wherever it is."""
MOVES_PLAYED: Final = "moves + COALESCE({taken_back}, 0)"
"""A game's moves as a board counts them: its moves and those it took back (by undo or
restart, ``extra["taken_back"]``; none in rows stored before they were counted)."""


@dataclass(frozen=True, slots=True)
class _Dialect:
    games_seq: str
    daily: str  # the daily day of a row's ``{column}`` (its extra)
    taken_back: str  # the moves taken back, of a row's extra
    placeholder: str


SQLITE: Final = _Dialect(
    "rowid", "json_extract({column}, '$.daily')", f"json_extract(extra, '$.{TAKEN_BACK}')", "?"
)
POSTGRES: Final = _Dialect(
    "seq", "({column}::jsonb ->> 'daily')", f"(extra::jsonb ->> '{TAKEN_BACK}')::integer", "%s"
)
POSTGRES_MODULE: Final = "bonanza.storage.postgres"
"""The PostgreSQL store's module (it needs psycopg: not imported here)."""


def _won_where(dialect: _Dialect, table: str) -> str:
    """``WON_WHERE`` for the games of ``table`` (``games`` or ``folded_games``)."""
    inner = dialect.daily.format(column="e.extra")
    return WON_WHERE.format(
        daily=dialect.daily.format(column=f"{table}.extra"),
        earlier_games=EARLIER.format(table="games", outer=table, daily=inner),
        earlier_folded=EARLIER.format(table="folded_games", outer=table, daily=inner),
    )


def ranked_sql(dialect: _Dialect, order: Order) -> str:
    """The query of a board in ``order`` in that SQL dialect."""
    sql = RANKED.format(games_seq=dialect.games_seq,
                        moves=MOVES_PLAYED.format(taken_back=dialect.taken_back),
                        games_where=_won_where(dialect, "games"),
                        folded_where=_won_where(dialect, "folded_games"),
                        order=ORDER_COLUMNS[order])
    return sql.replace("?", dialect.placeholder)


def _reader(storage: Storage) -> tuple[Callable[[str, tuple[Any, ...]], list[Any]], _Dialect]:
    """The store's read helper and its dialect."""
    if isinstance(storage, SQLiteStorage):
        return storage._all, SQLITE
    postgres = sys.modules.get(POSTGRES_MODULE)  # loaded if such a store was opened
    if postgres is not None and isinstance(storage, postgres.PostgresStorage):
        return storage._all, POSTGRES
    raise TypeError(f"no leaderboard reads for a store of type {type(storage).__name__}")


def board_entries(
    storage: Storage, board: Board, order: Order, first: int, player: str
) -> list[Entry]:
    """The ``first`` places of ``board`` in ``order``, and ``player``'s place if lower
    (after them); a place counts players, each at their best."""
    read, dialect = _reader(storage)
    where = (
        str(Status.WON), str(Origin.SHARED), board.rules_key,
        board.start, board.end, board.start, board.day,
        board.start, board.day, board.start, board.day,  # (no earlier game: EARLIER, twice)
    )  # fmt: skip
    rows = read(
        ranked_sql(dialect, order),
        (*where, *where, PLAYER_PREFIX, f":{DISPLAY_NAME}", first, player),
    )
    return [
        Entry(int(place), str(who), None if name is None else str(name), float(t), int(m), float(f))
        for place, who, name, t, m, f in rows
    ]


def display_name(storage: Storage, player: str) -> str | None:
    """The player's display name as stored (None: none chosen)."""
    return storage.get_setting(setting_key(DISPLAY_NAME, player)) or None


def set_display_name(storage: Storage, player: str, name: str) -> None:
    """Store the player's display name (checked by the caller; empty: none)."""
    storage.set_setting(setting_key(DISPLAY_NAME, player), name)
