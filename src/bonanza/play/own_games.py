"""A front end's own games, straight on the store: the game to show first, a new game
(the front end's other games in play ending, lost once they count), a saved game taken
back, the bankroll it starts from, what a game over may show, and the last game lost.

The terminal plays through :class:`OwnGames` (its calls block on the store); the web
takes the same steps (:func:`~bonanza.play.games.prepare_game`, ``ending``, then
``Storage.start_game``, which stores a start in one transaction or refuses it as stale)
on its own asynchronous path. What cannot be dealt raises a ``PlayError`` before anything has
changed; a store that fails midway raises nothing: the problem is kept in ``notes``,
a sentence for the player.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar, Final, Protocol

from bonanza.core import Deal, Rules
from bonanza.core.errors import SaveError
from bonanza.core.rules import Scoring
from bonanza.play.daily import (
    counted_games,
    daily_day,
    daily_statistics,
    day_text,
    deal_shown,
    playing_everywhere,
    utc_day,
)
from bonanza.play.deal_identity import has_played
from bonanza.play.deal_stock import DealStock
from bonanza.play.errors import PlayError, Unavailable
from bonanza.play.games import (
    NEW_DEAL,
    RACE_ATTEMPTS,
    PreparedGame,
    Start,
    StartRequest,
    end,
    ending,
    ending_shown,
    ending_unread,
    last_game,
    new_game_id,
    newest_last,
    prepare_game,
    with_decks,
)
from bonanza.play.ledger import bankroll_before
from bonanza.session import Session, Status
from bonanza.storage import NewGame, StaleStartError, Storage, StorageError
from bonanza.storage.records import GameRecord, rules_of_key

TERMINAL: Final = "terminal"
"""The terminal's name in the records, the front end that plays through :class:`OwnGames`."""
UNREADABLE_GAMES: Final = "Could not read the stored games: {error}"
UNREADABLE_GAME: Final = "Could not read back a stored game: {error}"
NO_BANKROLL: Final = "Could not read the bankroll: {error}"
SAVE_OVER: Final = "The saved game is over in the records: here is a new deal"
UNSTORED: Final = "Not stored: {error}"
STARTED_ELSEWHERE: Final = (
    "Not stored: other new games were being started at the same time (another terminal)"
)


OnTable = tuple[GameRecord, Session]
"""The game on a front end's table: its record (as last stored) and its session."""


def unstored(error: StorageError) -> str:
    """The note for a write the store refused."""
    return UNSTORED.format(error=error)


class Choice(Protocol):
    """What a front end's player chose to deal: a request, or the deal of their last
    game on that front end again (``replay``)."""

    @property
    def replay(self) -> bool: ...

    def request(self, last_game: str | None = None) -> StartRequest: ...


@dataclass
class Opened:
    """A game to show: its session and record, whether it was resumed, whether its
    record is in the store, and the words that announce it."""

    session: Session
    record: GameRecord
    resumed: bool
    stored: bool
    announce: str = NEW_DEAL


@dataclass(frozen=True, slots=True)
class DailyResult:
    """A daily game's result: its day, whether it is the game that counts for the day,
    and the player's daily streak now."""

    day: str
    counted: bool
    current_streak: int
    best_streak: int


class OwnGames:
    """The player's games on the front end ``client``: the one to show first, new
    deals, and the others ended (lost once they count) whenever one starts."""

    client: ClassVar[str] = TERMINAL
    """The front end whose games these are (it resumes and ends only its own)."""

    def __init__(
        self, storage: Storage, player: str, stock: DealStock, random_deals: Callable[[], Deal]
    ) -> None:
        self.storage = storage
        self.player = player
        self.stock = stock
        self.random_deals = random_deals
        self.notes: list[str] = []  # problems met, sentences for the player

    def open(self, rules: Rules, start: Choice | Session | None, now: float) -> Opened:
        """The game to show first: ``start`` (a choice, or a saved session), else the
        latest game in play here, else a random deal. A choice that cannot be dealt
        says why in ``notes``."""
        if isinstance(start, Session):
            resumed = self._resume_saved(start, now)
        else:
            if start is not None:
                try:
                    return self.begin(self.prepare(start, now), now)
                except PlayError as error:
                    self.notes.append(error.message)
            resumed = self._resume_stored(now)
        if resumed is not None:
            return resumed
        try:
            prepared = self.prepare(_Random(rules), now)
        except PlayError as error:  # the store cannot be read: a random deal all the same
            self.notes.append(error.message)
            deal = with_decks(self.random_deals(), rules.decks)
            session = Session.new(deal, rules, now)
            record = GameRecord.of(new_game_id(), self.player, session, now, client=self.client)
            prepared = PreparedGame(
                Start(deal, rules, session.origin), [], record, session, now, StartRequest(rules)
            )
        return self.begin(prepared, now)

    # -- new games ----------------------------------------------------------------------

    def prepare(self, choice: Choice, now: float) -> PreparedGame:
        """The game ``choice`` deals, made but not stored: nothing has changed yet.
        A ``PlayError`` says why it cannot be dealt (a failing store: ``Unavailable``)."""
        try:
            last = last_game(self.storage, self.player, self.client).id if choice.replay else None
            return prepare_game(
                self.storage, self.stock, self.player, choice.request(last), lambda: now,
                self.random_deals, client=self.client,
            )  # fmt: skip
        except StorageError as error:
            raise Unavailable(UNREADABLE_GAMES.format(error=error)) from None

    def begin(self, prepared: PreparedGame, now: float, table: OnTable | None = None) -> Opened:
        """Start ``prepared``: store it and end the player's other games here (read
        again: the game on the table may have ended meanwhile) in one transaction
        (``Storage.start_game``), as the web does. ``table`` is the game on the front
        end's table (its stored record and its session): its session is ended here
        (lost once it counts), stored or not, and the start stores its state as the
        table has it. When another start stored first (``StaleStartError``: another
        terminal), it is prepared again, up to ``RACE_ATTEMPTS`` times; past that, or on
        a failing store, it is played unstored, said in ``notes``, and the games it
        would have ended stay in play in the store."""
        if table is not None:
            end(table[1], now)
        for _attempt in range(RACE_ATTEMPTS):
            ended = list(self._ending(self._playing(), now, table))
            try:
                self.storage.start_game(prepared.stored(ended))
            except StaleStartError:
                try:
                    prepared = self._again(prepared, now)
                except PlayError as error:
                    self.notes.append(error.message)
                    break
                continue
            except StorageError as error:
                self.notes.append(unstored(error))
                break
            return Opened(prepared.session, prepared.record, False, True, prepared.start.announce)
        else:
            self.notes.append(STARTED_ELSEWHERE)
        return Opened(prepared.session, prepared.record, False, False, prepared.start.announce)

    def store_late(self, record: GameRecord, now: float) -> None:
        """Store ``record``, a game of this front end whose first write failed, as a new
        game's start (``Storage.start_game``): the player's other games here (one
        started meanwhile, perhaps) end with it, so that one at most is in play. A game
        over is only inserted (it puts none in play). Tried again while another start
        stores first, up to ``RACE_ATTEMPTS`` times; a failure raises ``StorageError``."""
        if record.status is not Status.PLAYING:
            self.storage.insert_game(record)
            return
        for attempt in range(1, RACE_ATTEMPTS + 1):
            playing = newest_last(self.storage.playing_games(self.player, self.client))
            ended = tuple(self._ending(playing, now))
            try:
                self.storage.start_game(NewGame(record, ended))
            except StaleStartError:
                if attempt == RACE_ATTEMPTS:
                    raise
                continue
            return

    def _again(self, prepared: PreparedGame, now: float) -> PreparedGame:
        """``prepared`` prepared anew, on the store as it is now."""
        try:
            return prepare_game(
                self.storage, self.stock, self.player, prepared.request, lambda: now,
                self.random_deals, client=self.client, earlier=prepared.start,
            )  # fmt: skip
        except StorageError as error:
            raise Unavailable(UNREADABLE_GAMES.format(error=error)) from None

    def _start(self, record: GameRecord, ended: list[GameRecord]) -> bool:
        """Store a new record and the games it ends (``Storage.start_game``); whether
        the store took them."""
        try:
            self.storage.start_game(NewGame(record, tuple(ended)))
        except StorageError as error:
            self.notes.append(unstored(error))
            return False
        return True

    # -- resuming -----------------------------------------------------------------------

    def _playing(self) -> list[GameRecord]:
        """The player's games in play here, newest last."""
        try:
            return newest_last(self.storage.playing_games(self.player, self.client))
        except StorageError as error:
            self.notes.append(UNREADABLE_GAMES.format(error=error))
            return []

    def _resume_stored(self, now: float) -> Opened | None:
        """The latest game in play here, its older fellows ended."""
        playing = self._playing()
        for record in reversed(playing):
            try:
                session = Session.from_json(record.state, trusted=True)  # our own store
            except SaveError as error:
                self.notes.append(UNREADABLE_GAME.format(error=error))
                continue
            if session.is_over:
                continue
            self._end_others(playing, record.id, now)
            return Opened(session, record, resumed=True, stored=True)
        return None

    def _resume_saved(self, session: Session, now: float) -> Opened | None:
        """The session from a save file, with its record (made if the records lack it).

        A save whose deal the records hold but as another game (an older game of
        that file, since ended) is not played again: that would count it twice.
        """
        if session.is_over:
            return None
        playing = self._playing()
        for record in playing:
            if record.deal == session.game.deal.id and record.created_at == session.created_at:
                self._end_others(playing, record.id, now)
                return Opened(session, record, resumed=True, stored=True)
        try:
            seen = has_played(self.storage, self.player, session.game.deal, session.rules)
        except StorageError as error:
            self.notes.append(UNREADABLE_GAMES.format(error=error))
            seen = False
        if seen:
            self.notes.append(SAVE_OVER)
            return None
        if not session.created_at:
            session.created_at = now  # an older save: it starts in the records now
        record = GameRecord.of(new_game_id(), self.player, session, now, client=self.client)
        ended = list(self._ending(playing, now))
        return Opened(session, record, resumed=True, stored=self._start(record, ended))

    def _ending(
        self, playing: list[GameRecord], now: float, table: OnTable | None = None
    ) -> Iterator[GameRecord]:
        """The games of ``playing`` ended, at their next versions (one over already
        is left out); the game on ``table``, stored at the version its record has,
        with the table's state."""
        for record in playing:
            if table is not None and (table[0].id, table[0].version) == (record.id, record.version):
                yield ending_shown(*table, now)
                continue
            try:
                session = Session.from_json(record.state, trusted=True)
            except SaveError:  # its state cannot be read back: ended from its row
                yield ending_unread(record, now)
                continue
            ended = ending(record, session, now)
            if ended is not None:
                yield ended

    def _end_others(self, playing: list[GameRecord], keep: str | None, now: float) -> None:
        """End the stored games in play here but ``keep``: one game at a time."""
        others = [record for record in playing if record.id != keep]
        for record in self._ending(others, now):
            try:
                self.storage.update_game(record)
            except StorageError as error:
                self.notes.append(unstored(error))

    # -- the ledger and what a game over shows -------------------------------------------

    def earlier_bankroll(self, session: Session, record: GameRecord) -> int:
        """Cumulative Vegas: the money after the earlier games of these rules and kind."""
        if session.rules.scoring is not Scoring.VEGAS_CUMULATIVE:
            return 0
        try:
            earlier = self.storage.finished_games(self.player)
        except StorageError as error:
            self.notes.append(NO_BANKROLL.format(error=error))
            return 0
        return bankroll_before(earlier, record)

    def last_lost(self) -> tuple[Session, GameRecord] | None:
        """The player's most recently lost game here, to review, with its record; None
        when there is none (a pruned game, its moves gone, is passed over). A store
        that cannot be read says so in ``notes``."""
        try:
            finished = self.storage.finished_games(self.player)  # oldest first
            for summary in reversed(finished):
                if summary.status is not Status.LOST or summary.client != self.client:
                    continue
                record = self.storage.get_game(summary.id)
                if record is None:  # pruned
                    continue
                try:
                    return Session.from_json(record.state, trusted=True), record
                except SaveError as error:
                    self.notes.append(UNREADABLE_GAME.format(error=error))
        except StorageError as error:
            self.notes.append(UNREADABLE_GAMES.format(error=error))
        return None

    def deal_hidden(self, record: GameRecord) -> bool:
        """Whether a game over may not show its deal (its ID, review or cards) yet:
        a daily deal while the game that counts for its day is in play, on any
        front end. A store that cannot tell hides it."""
        try:
            return not deal_shown(self.storage, record)
        except StorageError as error:
            self.notes.append(UNREADABLE_GAMES.format(error=error))
            return True

    def daily_result(self, record: GameRecord, now: float) -> DailyResult | None:
        """A daily game's day, whether it is the game that counts for the day, and the
        daily streak now; None for another game (or a store that cannot tell)."""
        day = daily_day(record)
        if day is None:
            return None
        draw = rules_of_key(record.rules_key).draw
        try:
            games = self.storage.finished_games(self.player)
            games += playing_everywhere(self.storage, self.player)
        except StorageError as error:
            self.notes.append(UNREADABLE_GAMES.format(error=error))
            return None
        counted = counted_games(games, draw).get(day)
        stats = daily_statistics(games, draw, utc_day(now))
        is_counted = counted is not None and counted.id == record.id
        return DailyResult(day_text(day), is_counted, stats["current_streak"], stats["best_streak"])


@dataclass(frozen=True, slots=True)
class _Random:
    """A random deal under ``rules``: the game shown first when there is no other."""

    rules: Rules
    replay: bool = False

    def request(self, last_game: str | None = None) -> StartRequest:
        return StartRequest(self.rules)
