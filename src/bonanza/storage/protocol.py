"""The storage interface the games speak, which SQLite and PostgreSQL implement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bonanza.core.rules import Rules
from bonanza.storage.records import GameRecord


class StorageError(Exception):
    """A write or read of the store failed (the game is rolled back to what is stored)."""


class StaleGameError(StorageError):
    """An update of a game found another version stored than the one its writer read:
    another writer (another process) changed the game first, or it is gone. Nothing
    was written."""

    def __init__(self, game_id: str, read_version: int) -> None:
        super().__init__(
            f"game {game_id!r} is no longer at version {read_version} in the store:"
            " another writer changed it first"
        )
        self.game_id = game_id
        self.read_version = read_version


class StaleStartError(StorageError):
    """A new game's start found the player's games changed since its writer read them
    (:meth:`Storage.start_game`): nothing was written, and the start may be tried again
    on the games as they are now."""

    def __init__(self, game_id: str, why: str) -> None:
        super().__init__(f"new game {game_id!r} not stored: {why}")
        self.game_id = game_id


ENDED_CHANGED = "the game {game_id!r} it ends changed meanwhile"
OTHER_STARTED = "another game of the player started meanwhile on its front end"
DEAL_HAD = "a game of its deal was stored meanwhile, so it is not the player's first"
"""Why a start is stale (:class:`StaleStartError`), as both stores say it."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game to store (``record``) and what its start read: ``ended``, the player's
    other games in play on its front end, each with its new state at the version after
    the one read; ``first_of``, the deal's IDs when its origin says the player never
    had a game of the deal on its table (else empty)."""

    record: GameRecord
    ended: tuple[GameRecord, ...] = ()
    first_of: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Share:
    """What a share ID stands for: the deal and rules of one game.

    ``opens`` is false while that game is still in play: the link would let its
    player (under another identity) look under the cards of the game in play.
    """

    deal: str
    rules_key: str
    game_id: str
    opens: bool


@dataclass(frozen=True, slots=True)
class StockedDeal:
    """A deal the solver proved winnable, kept until a player is dealt it.

    ``stock_key`` names the rules it was solved under (``bonanza.play.deal_stock``),
    ``grade`` its difficulty and ``measure`` the number the grade came from
    (``bonanza.solver.grading``).
    """

    deal: str
    stock_key: str
    grade: str
    measure: float


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """The deal everyone on this server gets as the daily deal of ``day``
    (``YYYY-MM-DD``, UTC) under the rules of ``rules_key``."""

    day: str
    rules_key: str
    deal: str
    grade: str


@dataclass(frozen=True, slots=True)
class TableSize:
    """One table of the store: its rows, and the bytes it takes with its indexes
    (None where the backend cannot tell)."""

    name: str
    rows: int
    bytes: int | None


class Storage(Protocol):
    """Durable game storage. Every method that writes has committed when it returns.

    Opening a store brings its schema to this code's version
    (``bonanza.storage.schema``); ``found_version`` is the version it had then
    (0: a new database, or a SQLite file from before schema versions).

    Pruning (:meth:`prune_finished`) folds old games that are over: each keeps
    every column but its state (the moves, the bulk of a game) in
    ``folded_games``, so the statistics, records, daily streaks and exports,
    which read :meth:`finished_games`, are the same after it as before.
    """

    found_version: int
    instant_version_checks: bool
    """Whether :meth:`game_version` is cheap enough to call on an event loop (no
    round trip, never waits for a writer): then the server calls it there, else in
    a worker thread."""

    def insert_game(self, record: GameRecord) -> None:
        """Store a new game."""
        ...

    def start_game(self, new: NewGame) -> None:
        """Store a new game and end the games it ends, in one transaction, if what its start
        read still holds: each ended game is at the version before its new one, no other
        game of the player is in play on the record's front end, and, with ``first_of``,
        the player has no other game of those deal IDs on the record's table. Else nothing
        is written and :class:`StaleStartError` is raised. The starts of one player take
        turns, across processes, so two at once cannot both find their reads current."""
        ...

    def update_game(self, record: GameRecord) -> None:
        """Store the new state of an existing game (after a move, undo, win...), whose
        writer read it at version ``record.version - 1``: every update adds one. The
        game's identity (``rows.IDENTITY_FIELDS``: its player, deal, rules, client and
        the time it was made) is its insert's: an update writes every other field.

        The update is conditional: if the stored game is not at that version (another
        writer updated it first, or it is gone), nothing is written and
        :class:`StaleGameError` is raised. In :meth:`write_batch` that error takes the
        update's place alone; the batch's other writes are stored.
        """
        ...

    def game_version(self, game_id: str) -> int | None:
        """The stored version of the game, or None if there is no such game (a
        primary-key read: the server checks its cached games with it)."""
        ...

    def get_game(self, game_id: str) -> GameRecord | None:
        """The game with this ID, or None."""
        ...

    def latest_game(self, player: str, client: str = "web") -> GameRecord | None:
        """The player's most recently created game on that front end, or None."""
        ...

    def playing_games(self, player: str, client: str = "web") -> list[GameRecord]:
        """The player's games still in progress on that front end."""
        ...

    def finished_games(self, player: str) -> list[GameRecord]:
        """The player's won and lost games not archived by a statistics reset, oldest first,
        pruned ones included.

        The records returned carry an empty ``state`` (statistics do not need it).
        """
        ...

    def played_deals(self, player: str) -> list[str]:
        """The deal IDs of the player's games, each once, in any state (in play,
        finished, archived or pruned) and on any table."""
        ...

    def has_played_deal(self, player: str, deal: str, rules: Rules) -> bool:
        """Whether the player has had a game of this deal on the same table as ``rules``
        before (any draw or options, any status, pruned or not): Klondike's deal 5
        is not Double Klondike's."""
        ...

    def archive_finished_games(self, player: str) -> int:
        """Take the player's finished games (pruned ones too) out of the statistics;
        return how many. Each archived game's version goes up by one."""
        ...

    def count_new_game(self, client: str, now: float, limit: int, window: float) -> bool:
        """Count a new game started by ``client`` (an address) at ``now`` (a Unix time)
        unless ``limit`` were counted in the ``window`` seconds before; whether it was.

        Counted in the store, atomically, so that every process on it holds the limit
        together; counts older than ``window`` are deleted as they expire.
        """
        ...

    def add_share(self, share_id: str, game_id: str) -> None:
        """Remember that ``share_id`` stands for the deal and rules of a stored game."""
        ...

    def get_share(self, share_id: str) -> Share | None:
        """What ``share_id`` stands for, or None."""
        ...

    def get_setting(self, key: str) -> str | None:
        """A stored setting (such as this machine's local player), or None."""
        ...

    def set_setting(self, key: str, value: str) -> None:
        """Store a setting."""
        ...

    def add_stocked_deal(self, deal: StockedDeal) -> None:
        """Keep a proven winnable deal in the stock."""
        ...

    def take_stocked_deal(self, stock_key: str, grade: str) -> StockedDeal | None:
        """Remove and return the oldest stocked deal of that rule set and grade, or None."""
        ...

    def stock_counts(self) -> dict[tuple[str, str], int]:
        """How many deals the stock holds, by ``(stock_key, grade)``."""
        ...

    def daily_deal(self, day: str, rules_key: str) -> DailyDeal | None:
        """The daily deal of ``day`` under those rules, or None before it is chosen."""
        ...

    def set_daily_deal(self, daily: DailyDeal) -> DailyDeal:
        """Store the daily deal of its day and rules unless one is stored already;
        return the one stored (the first choice stands)."""
        ...

    def games_in_play_before(self, before: float) -> list[GameRecord]:
        """Every player's games in play created before ``before`` (a Unix time),
        oldest first: the games a host may end as left (``bonanza.play.idle``)."""
        ...

    def prune_finished(self, before: float) -> int:
        """Fold every game that is over (won, lost or abandoned) and finished before
        ``before`` (a Unix time): delete it with its state, keeping its other columns for
        the statistics, in one transaction; return how many. Games in play stay."""
        ...

    def schema_version(self) -> int:
        """The version of the database's schema."""
        ...

    def table_sizes(self) -> list[TableSize]:
        """The size of each table of the store, by name."""
        ...

    def database_bytes(self) -> int:
        """The bytes the whole store takes (the SQLite file; the PostgreSQL database)."""
        ...

    def close(self) -> None:
        """Release the storage."""
        ...
