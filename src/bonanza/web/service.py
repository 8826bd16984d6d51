"""The game service: the server's truth. Loads, plays and saves games for their owners.

The flow of a game lives in ``bonanza.session``; this module adds what is the
server's own: who owns which game, the cache of live games, storage off the
event loop (writes group-committed by one writer thread, rolled back when they
fail), shares, limits and searches.

Several processes may serve one store, so the store is the truth and the cache
only saves reading it. Every write of a game is conditional on the version this
process read (``Storage.update_game``); a request that loses that race to
another process reads the game again and plays the player's request on it, if
it is still allowed there, else refuses (``Conflict``) naming what stands in the way. A
game served from the cache is first checked against its stored version (a
primary-key read; on SQLite, on the event loop, in microseconds). A move is
not checked first: its conditional write is the check, and a move refused on
the cached game is refused only once the cache is found current.
"""

from __future__ import annotations

import copy
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import anyio
import anyio.to_thread

from bonanza.core import BonanzaError, Deal, Move, Position, Rules, Scoring
from bonanza.play.chosen_deals import daily_overview, deal_labels
from bonanza.play.deal_stock import DealStock
from bonanza.play.errors import (
    STORE_DOWN,
    Conflict,
    NotFound,
    PlayError,
    RateLimited,
    Unavailable,
)
from bonanza.play.games import MAX_ID_LENGTH, StartRequest, choose_start, end, start_game
from bonanza.play.ledger import bankroll_before
from bonanza.session import (
    Action,
    Advisor,
    Event,
    Finisher,
    GameRecord,
    Session,
    SessionError,
    Status,
    random_deal,
)
from bonanza.session.stats import records_set
from bonanza.solver.grading import Grade
from bonanza.storage import StaleGameError, Storage, StorageError
from bonanza.storage.player_settings import set_safe_home
from bonanza.web.checks import checked_move
from bonanza.web.deal_codes import deal_code
from bonanza.web.limits import ServerLimits
from bonanza.web.rate import WINDOW
from bonanza.web.searches import SearchPool
from bonanza.web.view import game_view, move_json, position_json
from bonanza.web.writer import PendingWrite, StoreWriter

SHARE_ID_BYTES = 9
RACE_ATTEMPTS = 3
"""Times a change is tried on a freshly read game after another process changed it
first; past that the request is refused (``CHANGED_ELSEWHERE``)."""
CHANGED_ELSEWHERE = (
    "this game was being changed elsewhere (another window or device) at the same time:"
    " reload it and try again"
)
CHANGED_MEANWHILE = "this game was changed elsewhere (another window or device) meanwhile, and"
"""Begins the refusal of a request that lost the race and is not allowed on the game now."""


class GameService:
    """Every game operation the API offers, checked against the player who owns the game.

    Live games are cached in memory; every change is written to storage
    before the answer goes out, and a failed write drops the cached game, so
    the next request sees what is stored. Writes go through one writer thread
    (``self.writer``), which commits the writes pending at once together;
    :meth:`aclose` commits what is pending and stops it. Each game's requests
    take turns (its lock), and each finds the game as stored (module notes).
    """

    def __init__(
        self,
        storage: Storage,
        clock: Callable[[], float] = time.time,
        *,
        limits: ServerLimits | None = None,
        advisor: Advisor | None = None,
        finisher: Finisher | None = None,
        random_deals: Callable[[], Deal] = random_deal,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.random_deals = random_deals
        self.limits = limits or ServerLimits()
        self._cache: OrderedDict[str, tuple[GameRecord, Session]] = OrderedDict()
        self._locks: dict[str, anyio.Lock] = {}
        self.searches = SearchPool(self.limits, advisor, finisher)
        self.writer = StoreWriter(storage)
        self.stock = DealStock(storage, clock)  # winnable deals, found in the background

    async def aclose(self) -> None:
        """Stop the deal stock's filler, commit the writes still pending and stop
        the writer (the app's shutdown)."""
        await self.stock.aclose()
        await self.writer.aclose()

    # -- storage, off the event loop ----------------------------------------------

    async def _store(self, work: Callable[..., Any], *args: Any) -> Any:
        """A read, in a worker thread."""
        try:
            return await anyio.to_thread.run_sync(work, *args)
        except StorageError:
            raise Unavailable(STORE_DOWN) from None

    async def _write(self, work: Callable[..., Any], *args: Any) -> Any:
        """A write, by the writer thread; returns once it is committed."""
        try:
            return await self.writer.write(work, *args)
        except StorageError:
            raise Unavailable(STORE_DOWN) from None

    def _remember(self, record: GameRecord, session: Session) -> None:
        self._cache[record.id] = (record, session)
        self._cache.move_to_end(record.id)
        while len(self._cache) > self.limits.game_cache_size:
            self._cache.popitem(last=False)

    def _session_of(self, record: GameRecord) -> Session:
        try:
            return Session.from_json(record.state, max_moves=self.limits.max_history_moves)
        except BonanzaError:
            message = f"game {record.id!r} cannot be read back: start a new one"
            raise Conflict(message) from None

    async def _stored_version(self, game_id: str) -> int | None:
        """The game's version in the store (None: no such game)."""
        if not self.storage.instant_version_checks:
            version: int | None = await self._store(self.storage.game_version, game_id)
            return version
        try:
            return self.storage.game_version(game_id)
        except StorageError:
            raise Unavailable(STORE_DOWN) from None

    async def load(
        self, player: str, game_id: str, *, check: bool = True
    ) -> tuple[GameRecord, Session]:
        """The player's game, as stored; another player's game or an unknown ID is not found.

        Call it holding the game's lock (:meth:`_lock`). A cached game is checked
        against its stored version first, and read again if another process changed
        it; without ``check`` it is not (the caller's conditional write checks it)."""
        cached = self._cache.get(game_id)
        if (
            cached is not None
            and check
            and await self._stored_version(game_id) != cached[0].version
        ):
            self._cache.pop(game_id, None)  # another process changed it: read it again
            cached = None
        if cached is not None:
            self._cache.move_to_end(game_id)
            record, session = cached
        else:
            found = (
                await self._store(self.storage.get_game, game_id)
                if len(game_id) <= MAX_ID_LENGTH
                else None
            )
            if found is None or found.player != player:
                raise NotFound.of(f"game {game_id!r}")
            record, session = found, self._session_of(found)
            self._remember(record, session)
        if record.player != player:
            raise NotFound.of(f"game {game_id!r}")
        return record, session

    @contextmanager
    def _rollback_on_failure(self, game_id: str) -> Iterator[None]:
        try:
            yield
        except Unavailable:
            self._cache.pop(game_id, None)  # ahead of the store: forget it
            raise

    async def _save(self, record: GameRecord, session: Session, now: float) -> None:
        await self._saved(self._start_save(record, session, now), record.id)

    def _start_save(self, record: GameRecord, session: Session, now: float) -> PendingWrite[None]:
        """Hand the game's new state to the writer; :meth:`_saved` must follow."""
        record.update(session, now)
        record.version += 1
        with self._rollback_on_failure(record.id):
            try:
                # A copy: the writer reads it in its thread, while the loop goes on.
                return self.writer.submit(self.storage.update_game, copy.copy(record))
            except StorageError:
                raise Unavailable(STORE_DOWN) from None

    async def _saved(self, pending: PendingWrite[None], game_id: str) -> None:
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

    async def _update(
        self, player: str, game_id: str, change: Callable[[Session], bool]
    ) -> Session:
        """Apply ``change`` to the game as stored and store it, if ``change`` says it
        changed the game; on a race lost to another process, again on the game read
        anew (refused after ``RACE_ATTEMPTS``). The game as it is then."""
        async with self._lock(game_id):
            for _attempt in range(RACE_ATTEMPTS):
                record, session = await self.load(player, game_id)
                if not change(session):
                    return session
                try:
                    await self._save(record, session, self.clock())
                except StaleGameError:
                    continue
                return session
        raise Conflict(CHANGED_ELSEWHERE)

    async def _current(self, player: str, game_id: str) -> tuple[GameRecord, Session]:
        """:meth:`load` under the game's lock: after any change in flight is stored."""
        async with self._lock(game_id):
            return await self.load(player, game_id)

    def _lock(self, game_id: str) -> anyio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            if len(self._locks) > self.limits.game_cache_size:
                for key in [k for k, v in self._locks.items() if not v.locked()]:
                    del self._locks[key]
            lock = self._locks[game_id] = anyio.Lock(fast_acquire=True)  # no yield when free
        return lock

    # -- views -----------------------------------------------------------------

    async def view(self, record: GameRecord, session: Session, **extra: Any) -> dict[str, Any]:
        data = game_view(record.id, session, self.clock())
        data.update(deal_labels(record.extra))  # a grade, a daily deal's day: never the deal
        if session.is_over:
            data["deal_code"] = deal_code(session.game.deal)
        if session.rules.scoring is Scoring.VEGAS_CUMULATIVE:
            earlier = await self._store(self.storage.finished_games, record.player)
            data["bankroll"] = bankroll_before(earlier, record) + session.score(self.clock())
        data.update(extra)
        return data

    async def _event_view(
        self, record: GameRecord, session: Session, event: Event
    ) -> dict[str, Any]:
        final = event.final
        extra: dict[str, Any] = {"announce": event.summary}
        if final.move is not None and event.action is not Action.UNDO:
            extra["last"] = move_json(final.move)
        if event.then:
            extra["steps"] = _steps(session, event)
        if any(e.won for e in (event, *event.then)):
            extra.update(await self._records(record))
        return await self.view(record, session, **extra)

    async def _records(self, record: GameRecord) -> dict[str, Any]:
        """The records a game just won sets (``records_set``), from the stored games:
        ``record`` is already up to the win, and its own row may not be written yet."""
        earlier = await self._store(self.storage.finished_games, record.player)
        return records_set(earlier, record)

    # -- starting games -------------------------------------------------------------

    async def new_game(
        self,
        player: str,
        rules: Rules,
        *,
        deal_text: str | None = None,
        share: str | None = None,
        replay: str | None = None,
        grade: Grade | None = None,
        daily: str | None = None,
        client: str | None = None,
    ) -> dict[str, Any]:
        """Start a game; the player's unfinished games end (lost once they count).

        ``grade`` deals a stocked winnable deal of that grade; ``daily`` (a day, or
        ``today``) the daily deal of the draw mode of ``rules``. ``client`` is the
        address the request came from: its new games are counted in the store, so the
        limit holds across every process and whatever cookie it sends (None: not
        counted, the caller limits it)."""
        if client is not None:
            counted = await self._write(
                self.storage.count_new_game,
                client,
                self.clock(),
                self.limits.new_games_per_minute,
                WINDOW,
            )
            if not counted:
                most = self.limits.new_games_per_minute
                raise RateLimited(f"too many new games: at most {most} a minute")
        self.stock.start()
        request = StartRequest(rules, deal_text, share, replay, grade, daily)
        start = await self._store(
            choose_start, self.storage, self.stock, player, request, self.clock(),
            self.random_deals,
        )  # fmt: skip
        now = self.clock()
        for old in await self._store(self.storage.playing_games, player):
            await self._update(player, old.id, lambda session: end(session, now))
        record, session = await self._store(
            partial(start_game, max_moves=self.limits.max_history_moves),
            self.storage, player, start, now,
        )  # fmt: skip
        await self._write(self.storage.insert_game, record)  # not shared before it is stored
        self._remember(record, session)
        return await self.view(record, session, announce=start.announce)

    async def daily(self, player: str, draw: int) -> dict[str, Any]:
        """The player's daily statistics and calendar for a draw mode."""
        self.stock.start()
        overview: dict[str, Any] = await self._store(
            daily_overview, self.stock, self.storage, player, draw, self.clock()
        )
        return overview

    # -- reading ----------------------------------------------------------------------

    async def current(self, player: str) -> dict[str, Any] | None:
        """The player's latest game (to resume after a reload), or None before the first."""
        self.stock.start()
        latest = await self._store(self.storage.latest_game, player)
        if latest is None:
            return None
        record, session = await self._current(player, latest.id)
        return await self.view(record, session)

    async def get(self, player: str, game_id: str) -> dict[str, Any]:
        record, session = await self._current(player, game_id)
        return await self.view(record, session)

    # -- actions ------------------------------------------------------------------------

    async def _act(
        self, player: str, game_id: str, action: Callable[[Session, float], Event]
    ) -> dict[str, Any]:
        """Play ``action`` on the game and store it; the answer once it is stored.

        The cached game is not checked first: the write is conditional, and a refusal
        stands once the cache is found current. When another process changed the game
        first, the action is played again on the game read anew (module notes)."""
        async with self._lock(game_id):
            record, session = await self.load(player, game_id, check=False)
            checked = lost_race = False
            for _attempt in range(RACE_ATTEMPTS):
                try:
                    return await self._apply(record, session, action)
                except StaleGameError:
                    lost_race = True
                except Unavailable:
                    raise
                except PlayError as refusal:
                    if not checked and await self._stored_version(game_id) != record.version:
                        lost_race = True  # refused on a cache another process left behind
                    elif lost_race:
                        raise Conflict(f"{CHANGED_MEANWHILE} {refusal}") from None
                    else:
                        raise
                self._cache.pop(game_id, None)
                record, session = await self.load(player, game_id)
                checked = True
        raise Conflict(CHANGED_ELSEWHERE)

    async def _apply(
        self, record: GameRecord, session: Session, action: Callable[[Session, float], Event]
    ) -> dict[str, Any]:
        """Play ``action`` and store the game; the answer once it is stored, or
        ``StaleGameError`` (the cached game dropped) if another process stored first."""
        now = self.clock()
        try:
            event = action(session, now)
        except SessionError as error:  # game over, undo refused, history full...
            raise Conflict(str(error)) from None
        pending = self._start_save(record, session, now)
        try:  # the answer is made while the write commits; it goes out once committed
            answer = await self._event_view(record, session, event)
        finally:
            await self._saved(pending, record.id)
        return answer

    async def play(self, player: str, game_id: str, move: Move | str) -> dict[str, Any]:
        def act(session: Session, now: float) -> Event:
            if session.is_over:
                return session.play(move, now)  # raises GameOverError
            return session.play(checked_move(session.position, move), now)

        return await self._act(player, game_id, act)

    async def undo(self, player: str, game_id: str) -> dict[str, Any]:
        return await self._act(player, game_id, lambda s, now: s.undo(now))

    async def redo(self, player: str, game_id: str) -> dict[str, Any]:
        return await self._act(player, game_id, lambda s, now: s.redo(now))

    async def restart(self, player: str, game_id: str) -> dict[str, Any]:
        return await self._act(player, game_id, lambda s, now: s.restart(now))

    async def auto_step(self, player: str, game_id: str) -> dict[str, Any]:
        """Play the next auto-finish move (refused when auto finish is not available):
        the solver's line, solved first in the pool if it is not offered yet."""
        _record, session = await self._current(player, game_id)
        if not session.is_over:
            await self._offer_finish(player, game_id, session)
        return await self._act(player, game_id, lambda s, now: s.auto_step(now))

    async def _offer_finish(self, player: str, game_id: str, session: Session) -> bool:
        """Solve the auto finish of the player's board in the pool, once it places
        every card, and offer its line to the session; whether a finish is offered.
        A search refused or too slow leaves the offer to a later ask."""
        if session.finish_offered:
            return True
        if _places_every_card(session) and not session.position.is_won():
            view, start = session.board_view(), session.position
            try:
                line = await self.searches.finish(player, view)
            except PlayError:
                line = ()
            if line:
                async with self._lock(game_id):
                    _record, session = await self.load(player, game_id)  # as it is now
                    session.offer_finish(line, start)  # unless the game moved on meanwhile
        return session.auto_move() is not None

    # -- settings ------------------------------------------------------------------------

    async def set_settings(self, player: str, on: bool) -> dict[str, Any]:
        """Store the player's safe auto-play setting, and switch it in their games in play."""
        await self._write(set_safe_home, self.storage, player, on)

        def switch(session: Session) -> bool:
            if session.is_over or session.safe.on == on:
                return False
            session.set_safe_home(on)
            return True

        for stored in await self._store(self.storage.playing_games, player):
            await self._update(player, stored.id, switch)
        return {"safe_home": on}

    async def share(self, player: str, game_id: str) -> dict[str, Any]:
        """A short opaque ID for this game's deal, which this server maps to the deal.

        It opens once this game is over (before, it would let the player look
        under the cards from a second browser).
        """
        record, session = await self._current(player, game_id)
        share_id = secrets.token_urlsafe(SHARE_ID_BYTES)
        await self._write(self.storage.add_share, share_id, record.id)
        return {"share": share_id, "url": f"/?share={share_id}", "opens_now": session.is_over}

    # -- searches ------------------------------------------------------------------------

    async def hint(self, player: str, game_id: str) -> dict[str, Any]:
        """A fair hint, searched in the pool on the player's view of the game
        (``session.view()``): what they have seen and played, never a hidden card.

        The view is made under the game's lock, so no move changes the game
        while a worker thread reads it; the search runs after, lock released."""
        async with self._lock(game_id):
            _record, session = await self.load(player, game_id)
            if session.is_over:
                raise Conflict(f"this game is over ({session.status}): start a new one")
            view, key = await self.searches.view_of(session)
        return await self.searches.hint(player, view, key)

    async def progress(self, player: str, game_id: str) -> dict[str, Any]:
        """Whether progress is still possible (None: not proven either way), and
        whether an auto finish is offered (``auto_finish``: once the player knows
        every card, the finish is solved in the pool, so the page asks here after
        every move and shows the button when it comes)."""
        _record, session = await self._current(player, game_id)
        if session.status is not Status.PLAYING or not session.position.has_moves():
            return {"progress": None, "auto_finish": False}
        answer = await self.searches.progress(player, session.snapshot())
        return {**answer, "auto_finish": await self._offer_finish(player, game_id, session)}

    async def winnable(self, player: str, game_id: str) -> dict[str, Any]:
        """Answer "still winnable?" for the game in play: it looks at the hidden cards, so
        the game is marked assisted (and stored so) before the solver runs; the
        answer is the verdict word and a sentence, never a card or a move."""
        peeked: list[Position] = []

        def peek(session: Session) -> bool:
            was_assisted = session.assisted
            try:
                peeked[:] = [session.peek()]
            except SessionError as error:  # the game is over
                raise Conflict(str(error)) from None
            return not was_assisted

        await self._update(player, game_id, peek)
        answer = await self.searches.winnable(player, peeked[0])
        return {**answer, "assisted": True}

    async def review(self, player: str, game_id: str) -> dict[str, Any]:
        """Where a lost game was lost, the move that lost it and a winning line
        from there: it shows hidden cards, so only once the game is lost (refused before)."""
        _record, session = await self._current(player, game_id)
        if session.status is not Status.LOST:
            state = "still in play" if session.status is Status.PLAYING else str(session.status)
            raise Conflict(f"a review is given once a game is lost; this one is {state}")
        return await self.searches.review(player, session.game)


def _places_every_card(session: Session) -> bool:
    """``session.board_view().is_known()``, without making the view (the page asks
    after every move): at most one face-down or unturned stock card was never shown
    (``known_cards`` places that one by elimination)."""
    position = session.position
    if position.rules.thoughtful:
        return True
    seen = session.seen
    columns = zip(position.tableau, position.down, strict=True)
    hidden = [card for column, down in columns for card in column[:down]]
    if not position.recycles:  # once the stock has been turned over, it is all seen
        hidden += position.stock
    return sum(card not in seen for card in hidden) <= 1


def _steps(session: Session, event: Event) -> list[dict[str, Any]]:
    """The table after the player's move and after each automatic move but the
    last (the answer itself shows that one), for the page to show in turn."""
    shown = [event, *event.then[:-1]]
    positions = session.game.recent_positions(len(event.then) + 1)[:-1]
    return [
        {
            "position": position_json(position),
            "announce": step.text,
            "last": move_json(step.move) if step.move is not None else None,
        }
        for step, position in zip(shown, positions, strict=True)
    ]


__all__ = ["GameService"]
