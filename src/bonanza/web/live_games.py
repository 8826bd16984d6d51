"""The server's live games: a cache over the store, each game's lock, and its writes.

Several processes may serve one store, so the store is the truth and the cache
only saves reading it. Every write of a game is conditional on the version this
process read (``Storage.update_game``); a cached game is checked against its
stored version before it is used (a primary-key read; on SQLite, on the event
loop, in microseconds), unless the caller's conditional write is the check.
Reads run in worker threads (on SQLite, a game's own row is read on the loop too);
writes go through the one writer thread, which commits those pending together; a
failed write drops the cached game.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

import anyio
import anyio.to_thread

from bonanza.core import BonanzaError
from bonanza.play.errors import STORE_DOWN, Conflict, NotFound, PlayError, Unavailable
from bonanza.play.games import (
    MAX_ID_LENGTH,
    RACE_ATTEMPTS,
    PreparedGame,
    ending,
    ending_unread,
)
from bonanza.session import Event, Session, SessionError
from bonanza.storage import StaleGameError, StaleStartError, Storage, StorageError
from bonanza.storage.player_settings import SettingValue, player_settings
from bonanza.storage.records import GameRecord
from bonanza.web.limits import ServerLimits
from bonanza.web.writer import PendingWrite, StoreWriter

T = TypeVar("T")
Answer = Callable[[GameRecord, Session, Event], Awaitable[T]]
"""Makes the answer to an action from the game and what the action did."""

CHANGED_MEANWHILE: Final = (
    "this game was changed elsewhere (another window or device) meanwhile, and"
)
"""Begins the refusal of a request that lost the race and is not allowed on the game now."""
CHANGED_ELSEWHERE: Final = (
    "this game was being changed elsewhere (another window or device) at the same time:"
    " reload it and try again"
)


@runtime_checkable
class InstantGameReads(Protocol):
    """A store that reads one game by its ID in microseconds, safely on the event loop
    (``SQLiteStorage.game_now``)."""

    instant_version_checks: bool

    def game_now(self, game_id: str) -> GameRecord | None: ...

    def latest_game_now(self, player: str, client: str = ...) -> GameRecord | None: ...

    def get_setting_now(self, key: str) -> str | None: ...


class _SettingsNow:
    """A store's settings as its instant reads give them (``player_settings`` reads it)."""

    def __init__(self, store: InstantGameReads) -> None:
        self.get_setting = store.get_setting_now


class LiveGames:
    """The games in play on this server, as stored: read, cached, locked and written.

    ``writer`` commits the writes (its owner stops it); ``clock`` times them."""

    def __init__(
        self,
        storage: Storage,
        limits: ServerLimits,
        writer: StoreWriter,
        clock: Callable[[], float],
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.limits = limits
        self.writer = writer
        self._instant: InstantGameReads | None = (
            storage
            if isinstance(storage, InstantGameReads) and storage.instant_version_checks
            else None
        )
        """The store, where it reads a game's row in microseconds on the loop (SQLite)."""
        self._cache: OrderedDict[str, tuple[GameRecord, Session]] = OrderedDict()
        self._shared: OrderedDict[str, None] = OrderedDict()
        """Games another process lately changed (served by several, as without sticky
        routing): their cached copies are checked before an action."""
        self._locks: dict[str, anyio.Lock] = {}

    def forget(self, game_id: str) -> None:
        """Drop the cached game: the next use reads it from the store."""
        self._cache.pop(game_id, None)

    async def read(self, work: Callable[..., Any], *args: Any) -> Any:
        """A read, in a worker thread."""
        try:
            return await anyio.to_thread.run_sync(work, *args)
        except StorageError:
            raise Unavailable(STORE_DOWN) from None

    async def write(self, work: Callable[..., Any], *args: Any) -> Any:
        """A write, by the writer thread; returns once it is committed."""
        return await self.written(self.submit(work, *args))

    def submit(self, work: Callable[..., T], *args: Any) -> PendingWrite[T]:
        """Hand a write to the writer; :meth:`written` must follow (the caller may do
        other work meanwhile, such as a read)."""
        try:
            return self.writer.submit(work, *args)
        except StorageError:
            raise Unavailable(STORE_DOWN) from None

    async def written(self, pending: PendingWrite[T]) -> T:
        """What a submitted write returned, once it is committed."""
        try:
            return await pending.result()
        except StorageError:
            raise Unavailable(STORE_DOWN) from None

    async def start(self, player: str, prepared: PreparedGame) -> None:
        """Store the new game ``prepared``, ending the player's games in play it read
        (``bonanza.play.games.ending``), in one transaction (``Storage.start_game``), which
        stores nothing and raises ``StaleStartError`` if the player's games changed since
        they were read (another start came first: the caller prepares again). On any
        failure the ended games' cached copies, changed in memory only, are forgotten."""
        async with AsyncExitStack() as held:
            for row in prepared.playing:
                await held.enter_async_context(self.lock(row.id))
            ended: list[GameRecord] = []
            try:
                for row in prepared.playing:
                    try:
                        old, session = await self.load(player, row.id)
                    except Conflict:  # its state cannot be read back: ended from its row
                        ended.append(ending_unread(row, prepared.now))
                        continue
                    ended_game = ending(old, session, prepared.now)
                    if ended_game is not None:
                        ended.append(ended_game)
                pending = self.submit(self.storage.start_game, prepared.stored(ended))
                try:
                    await pending.result()
                except StaleStartError:
                    raise
                except StorageError:
                    raise Unavailable(STORE_DOWN) from None
            except BaseException:
                for game in ended:  # changed in memory, not stored: read them again
                    self.forget(game.id)
                raise

    async def latest_game(self, player: str) -> GameRecord | None:
        """The player's latest game's row (None before the first): on the event loop
        where the store reads in microseconds, else in a worker thread."""
        if self._instant is None:
            found: GameRecord | None = await self.read(self.storage.latest_game, player)
        else:
            found = await self._read_by_id(self._instant.latest_game_now, player, instant=True)
        return found

    async def settings(self, player: str) -> dict[str, SettingValue]:
        """Every setting of the player (``player_settings``), read as :meth:`latest_game`."""
        if self._instant is None:
            found: dict[str, SettingValue] = await self.read(
                player_settings, self.storage, player
            )
            return found
        try:
            return player_settings(_SettingsNow(self._instant), player)
        except StorageError:
            raise Unavailable(STORE_DOWN) from None

    def remember(self, record: GameRecord, session: Session) -> None:
        self._cache[record.id] = (record, session)
        self._cache.move_to_end(record.id)
        while len(self._cache) > self.limits.game_cache_size:
            self._cache.popitem(last=False)

    def session_of(self, record: GameRecord) -> Session:
        try:
            return Session.from_json(
                record.state, max_moves=self.limits.max_history_moves, trusted=True
            )
        except BonanzaError:
            message = f"game {record.id!r} cannot be read back: start a new one"
            raise Conflict(message) from None

    async def stored_version(self, game_id: str) -> int | None:
        """The game's version in the store (None: no such game)."""
        version: int | None = await self._read_by_id(
            self.storage.game_version, game_id, instant=self.storage.instant_version_checks
        )
        return version

    async def load(
        self, player: str, game_id: str, *, check: bool = True
    ) -> tuple[GameRecord, Session]:
        """The player's game, as stored; another player's game or an unknown ID is not found.

        Call it holding the game's lock (:meth:`lock`). A cached game is checked
        against its stored version first, and read again if another process changed
        it; without ``check`` it is not (the caller's conditional write checks it)."""
        cached = self._cache.get(game_id)
        if (
            cached is not None
            and check
            and await self.stored_version(game_id) != cached[0].version
        ):
            self._cache.pop(game_id, None)  # another process changed it: read it again
            cached = None
        if cached is not None:
            self._cache.move_to_end(game_id)
            record, session = cached
        else:
            found = await self._stored(game_id) if len(game_id) <= MAX_ID_LENGTH else None
            if found is None or found.player != player:
                raise NotFound.of(f"game {game_id!r}")
            record, session = found, self.session_of(found)
            self.remember(record, session)
        if record.player != player:
            raise NotFound.of(f"game {game_id!r}")
        return record, session

    async def _stored(self, game_id: str) -> GameRecord | None:
        """The game's row: on the event loop where the store reads it in microseconds
        (``InstantGameReads``), else in a worker thread."""
        if self._instant is None:
            found: GameRecord | None = await self._read_by_id(self.storage.get_game, game_id)
        else:
            found = await self._read_by_id(self._instant.game_now, game_id, instant=True)
        return found

    async def _read_by_id(
        self, work: Callable[[str], Any], game_id: str, *, instant: bool = False
    ) -> Any:
        """``work(game_id)``: on the event loop if ``instant``, else in a worker thread."""
        if not instant:
            return await self.read(work, game_id)
        try:
            return work(game_id)
        except StorageError:
            raise Unavailable(STORE_DOWN) from None

    @contextmanager
    def _rollback_on_failure(self, game_id: str) -> Iterator[None]:
        try:
            yield
        except Unavailable:
            self._cache.pop(game_id, None)  # ahead of the store: forget it
            raise

    async def save(self, record: GameRecord, session: Session, now: float) -> None:
        await self.saved(self.start_save(record, session, now), record.id)

    def start_save(self, record: GameRecord, session: Session, now: float) -> PendingWrite[None]:
        """Hand the game's new state to the writer; :meth:`saved` must follow."""
        record.update(session, now)
        record.version += 1
        with self._rollback_on_failure(record.id):
            try:
                # A copy: the writer reads it in its thread, while the loop goes on.
                return self.writer.submit(self.storage.update_game, copy.copy(record))
            except StorageError:
                raise Unavailable(STORE_DOWN) from None

    async def saved(self, pending: PendingWrite[None], game_id: str) -> None:
        """Wait for a save to commit; if it failed, drop the cached game (``Unavailable``),
        or raise ``StaleGameError`` if another process changed the game first."""
        with self._rollback_on_failure(game_id):
            try:
                await pending.result()
            except StaleGameError:
                self._cache.pop(game_id, None)  # behind the store: read it again
                raise
            except StorageError:
                raise Unavailable(STORE_DOWN) from None

    async def update(
        self, player: str, game_id: str, change: Callable[[Session], bool]
    ) -> Session:
        """Apply ``change`` to the game as stored and store it, if ``change`` says it
        changed the game; on a race lost to another process, again on the game read
        anew (refused after ``RACE_ATTEMPTS``). The game as it is then."""
        async with self.lock(game_id):
            for _attempt in range(RACE_ATTEMPTS):
                record, session = await self.load(player, game_id)
                if not change(session):
                    return session
                try:
                    await self.save(record, session, self.clock())
                except StaleGameError:
                    continue
                return session
        raise Conflict(CHANGED_ELSEWHERE)

    async def current(self, player: str, game_id: str) -> tuple[GameRecord, Session]:
        """:meth:`load` under the game's lock: after any change in flight is stored."""
        async with self.lock(game_id):
            return await self.load(player, game_id)

    async def latest(self, latest: GameRecord) -> tuple[GameRecord, Session]:
        """The game whose row ``latest`` was just read (:meth:`latest_game`), as
        :meth:`current` gives it but with no second read of the store: the cached copy
        if it is at least as new as the row (a change this process stored since),
        else the row."""
        async with self.lock(latest.id):
            cached = self._cache.get(latest.id)
            if cached is not None and cached[0].version >= latest.version:
                self._cache.move_to_end(latest.id)
                return cached
            session = self.session_of(latest)
            self.remember(latest, session)
            return latest, session

    def lock(self, game_id: str) -> anyio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            if len(self._locks) > self.limits.game_cache_size:
                for key in [k for k, v in self._locks.items() if not v.locked()]:
                    del self._locks[key]
            lock = self._locks[game_id] = anyio.Lock(fast_acquire=True)  # no yield when free
        return lock

    async def act(
        self,
        player: str,
        game_id: str,
        action: Callable[[Session, float], Event],
        answer: Answer[T],
    ) -> T:
        """Play ``action`` on the game and store it; ``answer`` of it, once it is stored.

        The cached game is checked first only where another process lately changed
        it (``_shared``: there a check costs less than a lost race); elsewhere the
        write is conditional (it stores only over the version read), and a refusal
        stands once the cache is found current. So a game one process plays costs
        no read of the store, not even SQLite's version check, which a write by
        another connection makes cost tens of microseconds. When another process
        changed the game first, the action is played again on the game read anew,
        if still allowed there."""
        async with self.lock(game_id):
            cached = self._cache.get(game_id)
            check = game_id in self._shared
            if check and not self.storage.instant_version_checks:
                self.forget(game_id)  # likely behind: one read of the row, not a check and a read
            record, session = await self.load(player, game_id, check=check)
            behind = cached is not None and cached[0].version != record.version
            self._note_shared(game_id, behind)
            # A cached copy found behind the store: as a race lost, a refusal says so.
            checked, lost_race = check, behind
            for _attempt in range(RACE_ATTEMPTS):
                try:
                    return await self._apply(record, session, action, answer)
                except StaleGameError:
                    lost_race = True
                except Unavailable:
                    raise
                except PlayError as refusal:
                    if not checked and await self.stored_version(game_id) != record.version:
                        lost_race = True  # refused on a cache another process left behind
                    elif lost_race:
                        raise Conflict(f"{CHANGED_MEANWHILE} {refusal}") from None
                    else:
                        raise
                self._note_shared(game_id, lost_race)
                self.forget(game_id)
                record, session = await self.load(player, game_id)
                checked = True
        raise Conflict(CHANGED_ELSEWHERE)

    def _note_shared(self, game_id: str, changed_elsewhere: bool) -> None:
        """Remember whether another process changed the game since this one last did
        (its next action checks first), within ``game_cache_size`` games."""
        if not changed_elsewhere:
            self._shared.pop(game_id, None)
            return
        self._shared[game_id] = None
        self._shared.move_to_end(game_id)
        while len(self._shared) > self.limits.game_cache_size:
            self._shared.popitem(last=False)

    async def _apply(
        self,
        record: GameRecord,
        session: Session,
        action: Callable[[Session, float], Event],
        answer: Answer[T],
    ) -> T:
        """Play ``action`` and store the game; the answer once it is stored, or
        ``StaleGameError`` (the cached game dropped) if another process stored first."""
        now = self.clock()
        try:
            event = action(session, now)
        except SessionError as error:  # game over, undo refused, history full...
            raise Conflict(str(error)) from None
        pending = self.start_save(record, session, now)
        try:  # the answer is made while the write commits; it goes out once committed
            answered = await answer(record, session, event)
        finally:
            await self.saved(pending, record.id)
        return answered
