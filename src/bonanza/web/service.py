"""The game service: the server's truth. Loads, plays and saves games for their owners.

The flow of one game lives in ``bonanza.session`` and a player's games (what a
new game deals, the bankroll, the daily deals) in ``bonanza.play``; this module
adds what is the server's own: who owns which game, the answers, and the live
games (``live_games``: cache, locks, conditional writes by one writer thread,
races with other processes), limits and searches.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Final

import msgspec
from msgspec import UNSET, UnsetType

from bonanza.core import Deal, Move, Position, Rules, Scoring
from bonanza.play.chosen_deals import daily_overview, deal_labels
from bonanza.play.daily import DAILY_KEY, DEAL_HIDDEN, GRADE_KEY, deal_shown
from bonanza.play.deal_stock import DealStock
from bonanza.play.errors import Conflict, PlayError, RateLimited
from bonanza.play.games import (
    RACE_ATTEMPTS,
    PreparedGame,
    Start,
    StartRequest,
    prepare_game,
    share_deal,
    share_link,
)
from bonanza.play.ledger import bankroll_before, records_set
from bonanza.session import (
    Action,
    Advisor,
    Event,
    Finisher,
    Session,
    SessionError,
    Status,
    random_deal,
)
from bonanza.session.autofinish import places_every_card
from bonanza.solver.grading import Grade
from bonanza.storage import StaleStartError, Storage
from bonanza.storage.player_settings import set_safe_home
from bonanza.storage.records import GameRecord
from bonanza.web.checks import checked_move
from bonanza.web.deal_codes import deal_code
from bonanza.web.limits import ServerLimits
from bonanza.web.live_games import LiveGames
from bonanza.web.rate import WINDOW
from bonanza.web.searches import SearchPool, requester
from bonanza.web.view import game_view, move_data, steps
from bonanza.web.wire import GameView, ProgressAnswer, RecordsSet
from bonanza.web.wire_answers import (
    HintAnswer,
    ReviewAnswer,
    ShareAnswer,
    WinnableAnswer,
)
from bonanza.web.wire_stats import DailyOverview
from bonanza.web.writer import PendingWrite, StoreWriter

NEW_GAME_LOCK: Final = "\0new-game:"
"""Begins the key of a player's lock over their new games (no game ID holds a NUL)."""
STARTED_ELSEWHERE: Final = (
    "other new games were being started at the same time (another window or device):"
    " reload and try again"
)


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
        self.searches = SearchPool(self.limits, advisor, finisher)
        self.writer = StoreWriter(storage)
        self.games = LiveGames(storage, self.limits, self.writer, clock)
        self.stock = DealStock(storage, clock)  # winnable deals, found in the background

    async def aclose(self) -> None:
        """Stop the deal stock's filler, commit the writes still pending and stop
        the writer (the app's shutdown)."""
        await self.stock.aclose()
        await self.writer.aclose()

    # -- views -----------------------------------------------------------------

    async def view(
        self,
        record: GameRecord,
        session: Session,
        announce: str | None = None,
        *,
        history: bool = True,
    ) -> GameView:
        """The game as its player sees it now (``announce``: what just happened;
        ``history``: with the moves' texts, which an action's answer goes without)."""
        view = game_view(record.id, session, self.clock(), history=history)
        labels = deal_labels(record.extra)  # a grade, a daily deal's day: never the deal
        if GRADE_KEY in labels:
            view.grade = labels[GRADE_KEY]
        if DAILY_KEY in labels:
            view.daily = labels[DAILY_KEY]
        if session.is_over:
            if await self._deal_shown(record):
                view.deal_code = deal_code(session.game.deal)
            else:  # a daily deal whose counted game is still in play: not yet
                view.deal = msgspec.UNSET
        if session.rules.scoring is Scoring.VEGAS_CUMULATIVE:
            earlier = await self.games.read(self.storage.finished_games, record.player)
            view.bankroll = bankroll_before(earlier, record) + session.score(self.clock())
        if announce is not None:
            view.announce = announce
        view.progress = self._progress_at_hand(session, view.auto_finish)
        return view

    def _progress_at_hand(self, session: Session, auto_finish: bool) -> ProgressAnswer | UnsetType:
        """The progress check for the game as it is, when it needs no search in the
        pool (``SearchPool.quick_progress``) and no auto finish is to be solved; else
        unset, and the page asks :meth:`progress`. So a move is one request."""
        if session.status is not Status.PLAYING or not session.position.has_moves():
            return ProgressAnswer(None)
        if not session.finish_offered and places_every_card(session.position, session.seen):
            return UNSET  # the finish is solved in the pool, on the page's ask
        found = self.searches.quick_progress(session.snapshot(), session.game.packed())
        if found is None:
            return UNSET
        return ProgressAnswer.of(found, auto_finish)

    async def _deal_shown(self, record: GameRecord) -> bool:
        """``play.daily.deal_shown``: the store is read only for a daily game."""
        return DAILY_KEY not in record.extra or bool(
            await self.games.read(deal_shown, self.storage, record)
        )

    async def _event_view(self, record: GameRecord, session: Session, event: Event) -> GameView:
        view = await self.view(record, session, event.summary, history=False)
        final = event.final
        if final.move is not None and event.action is not Action.UNDO:
            view.last = move_data(final.move)
        if event.then:
            view.steps = steps(session, event)
        if any(e.won for e in (event, *event.then)):
            view.add_records(await self._records(record))
        return view

    async def _records(self, record: GameRecord) -> RecordsSet:
        """The records a game just won sets (``records_set``), from the stored games:
        ``record`` is already up to the win, and its own row may not be written yet."""
        earlier = await self.games.read(self.storage.finished_games, record.player)
        return msgspec.convert(records_set(earlier, record), RecordsSet)

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
    ) -> GameView:
        """Start a game; the player's unfinished games end (lost once they count).

        ``grade`` deals a stocked winnable deal of that grade; ``daily`` (a day, or
        ``today``) the daily deal of the draw mode of ``rules``. ``client`` is the
        address the request came from: its new games are counted in the store, so the
        limit holds across every process and whatever cookie it sends (None: not
        counted, the caller limits it)."""
        counting = None
        if client is not None:  # committed while the game is prepared...
            counting = self.games.submit(
                self.storage.count_new_game,
                client, self.clock(), self.limits.new_games_per_minute, WINDOW,
            )  # fmt: skip
            if grade is not None:  # ...but a stocked deal is taken only once counted
                await self._counted(counting)
                counting = None
        self.stock.start()
        request = StartRequest(rules, deal_text, share, replay, grade, daily)
        async with self.games.lock(NEW_GAME_LOCK + player):  # this process's, in turn
            new = await self._start(player, request, counting)
        self.games.remember(new.record, new.session)
        return await self.view(new.record, new.session, new.start.announce)

    async def _start(
        self, player: str, request: StartRequest, counting: PendingWrite[bool] | None
    ) -> PreparedGame:
        """Prepare the new game (``counting``, its count, is awaited meanwhile: nothing is
        stored beyond the limit) and store it, ending the player's games in play, in one
        commit (``LiveGames.start``); prepared again while another start (another
        process's) stores first, up to ``RACE_ATTEMPTS`` times (a winnable deal taken
        from the stock is dealt again then, not another)."""
        earlier: Start | None = None
        for _attempt in range(RACE_ATTEMPTS):
            try:
                new: PreparedGame = await self.games.read(
                    partial(prepare_game, max_moves=self.limits.max_history_moves,
                            earlier=earlier),
                    self.storage, self.stock, player, request, self.clock, self.random_deals,
                )  # fmt: skip
            finally:
                if counting is not None:
                    pending, counting = counting, None
                    await self._counted(pending)
            try:
                await self.games.start(player, new)
            except StaleStartError:
                earlier = new.start
                continue
            return new
        raise Conflict(STARTED_ELSEWHERE)

    async def _counted(self, counting: PendingWrite[bool]) -> None:
        """Wait for a new game's count; ``RateLimited`` if the address has had its fill."""
        if not await self.games.written(counting):
            most = self.limits.new_games_per_minute
            raise RateLimited(f"too many new games: at most {most} a minute")

    async def daily(self, player: str, draw: int) -> DailyOverview:
        """The player's daily statistics and calendar for a draw mode."""
        self.stock.start()
        overview = await self.games.read(
            daily_overview, self.stock, self.storage, player, draw, self.clock()
        )
        return msgspec.convert(overview, DailyOverview)

    # -- reading ----------------------------------------------------------------------

    async def current(self, player: str, *, history: bool = True) -> GameView | None:
        """The player's latest game (to resume after a reload), or None before the first
        (``history``: with the moves' texts, which the page does not read)."""
        self.stock.start()
        latest = await self.games.latest_game(player)
        if latest is None:
            return None
        record, session = await self.games.latest(latest)
        return await self.view(record, session, history=history)

    async def get(self, player: str, game_id: str) -> GameView:
        record, session = await self.games.current(player, game_id)
        return await self.view(record, session)

    # -- actions ------------------------------------------------------------------------

    async def _act(
        self, player: str, game_id: str, action: Callable[[Session, float], Event]
    ) -> GameView:
        """Play ``action`` on the game and store it (``LiveGames.act``); the answer."""
        return await self.games.act(player, game_id, action, self._event_view)

    async def play(self, player: str, game_id: str, move: Move | str) -> GameView:
        def act(session: Session, now: float) -> Event:
            if session.is_over:
                return session.play(move, now)  # raises GameOverError
            game = session.game
            return session.play(checked_move(game.position, move, game.legal_moves()), now)

        return await self._act(player, game_id, act)

    async def undo(self, player: str, game_id: str) -> GameView:
        return await self._act(player, game_id, lambda s, now: s.undo(now))

    async def redo(self, player: str, game_id: str) -> GameView:
        return await self._act(player, game_id, lambda s, now: s.redo(now))

    async def restart(self, player: str, game_id: str) -> GameView:
        return await self._act(player, game_id, lambda s, now: s.restart(now))

    async def auto_step(self, player: str, game_id: str) -> GameView:
        """Play the next auto-finish move (refused when auto finish is not available):
        the solver's line, solved first in the pool if it is not offered yet."""
        _record, session = await self.games.current(player, game_id)
        if not session.is_over:
            await self._offer_finish(player, game_id, session)
        return await self._act(player, game_id, lambda s, now: s.auto_step(now))

    async def _offer_finish(self, player: str, game_id: str, session: Session) -> bool:
        """Solve the auto finish of the player's board in the pool, once it places
        every card, and offer its line to the session; whether a finish is offered.
        A search refused or too slow leaves the offer to a later ask."""
        if session.finish_offered:
            return True
        if places_every_card(session.position, session.seen) and not session.position.is_won():
            view, start = session.board_view(), session.position
            try:
                line = await self.searches.finish(player, view)
            except PlayError:
                line = ()
            if line:
                async with self.games.lock(game_id):
                    _record, session = await self.games.load(player, game_id)  # as it is now
                    session.offer_finish(line, start)  # unless the game moved on meanwhile
        return session.auto_move() is not None

    # -- settings ------------------------------------------------------------------------

    async def set_settings(self, player: str, on: bool) -> None:
        """Store the player's safe auto-play setting, and switch it in their games in play."""
        await self.games.write(set_safe_home, self.storage, player, on)

        def switch(session: Session) -> bool:
            if session.is_over or session.safe.on == on:
                return False
            session.set_safe_home(on)
            return True

        for stored in await self.games.read(self.storage.playing_games, player):
            await self.games.update(player, stored.id, switch)

    async def share(self, player: str, game_id: str) -> ShareAnswer:
        """A short opaque ID for this game's deal, which this server maps to the deal.

        It opens once this game is over (before, it would let the player look
        under the cards from a second browser).
        """
        record, session = await self.games.current(player, game_id)
        share_id: str = await self.games.write(share_deal, self.storage, record.id)
        return ShareAnswer(share_id, share_link(share_id), session.is_over)

    # -- searches ------------------------------------------------------------------------

    async def hint(self, player: str, game_id: str, client: str | None = None) -> HintAnswer:
        """A fair hint, searched in the pool on the player's view of the game
        (``session.view()``): what they have seen and played, never a hidden card.

        The view is made under the game's lock, so no move changes the game
        while a worker thread reads it; the search runs after, lock released."""
        async with self.games.lock(game_id):
            _record, session = await self.games.load(player, game_id)
            try:  # over, or at the history limit: no move is played, so none is suggested
                session.check_room()
            except SessionError as error:
                raise Conflict(str(error)) from None
            view, key = await self.searches.view_of(session)
        return HintAnswer.of(await self.searches.hint(requester(player, client), view, key))

    async def progress(
        self, player: str, game_id: str, client: str | None = None
    ) -> ProgressAnswer:
        """Whether progress is still possible (None: not proven either way), and
        whether an auto finish is offered (``auto_finish``: once the player knows
        every card, the finish is solved in the pool, so the page asks here after
        every move and shows the button when it comes)."""
        _record, session = await self.games.current(player, game_id)
        if session.status is not Status.PLAYING or not session.position.has_moves():
            return ProgressAnswer(None)
        answer = await self.searches.progress(requester(player, client), session.snapshot())
        return ProgressAnswer.of(answer, await self._offer_finish(player, game_id, session))

    async def winnable(
        self, player: str, game_id: str, client: str | None = None
    ) -> WinnableAnswer:
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

        await self.games.update(player, game_id, peek)
        return WinnableAnswer.of(await self.searches.winnable(requester(player, client), peeked[0]))

    async def review(self, player: str, game_id: str, client: str | None = None) -> ReviewAnswer:
        """Where a lost game was lost, the move that lost it and a winning line
        from there: it shows hidden cards, so only once the game is lost (refused before)."""
        record, session = await self.games.current(player, game_id)
        if session.status is not Status.LOST:
            state = "still in play" if session.status is Status.PLAYING else str(session.status)
            raise Conflict(f"a review is given once a game is lost; this one is {state}")
        if not await self._deal_shown(record):
            raise Conflict(DEAL_HIDDEN.format(day=record.extra.get(DAILY_KEY)))
        return ReviewAnswer.of(await self.searches.review(requester(player, client), session.game))


__all__ = ["GameService"]
