"""Starting, resuming and ending the player's terminal games, through ``bonanza.play``.

What a new game deals (random, typed, shared, replayed, winnable by grade,
daily) is ``bonanza.play``'s, as on the web. ``Games.prepare`` asks it for the
game a ``NewDealChoice`` starts (a ``PlayError`` says why not, before anything
has changed); ``Games.begin`` ends the player's other terminal games and
stores it. ``Games.open`` gives the game to show first. Problems with the
store met on the way are kept in ``notes`` for the message line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bonanza.core.deal import Deal
from bonanza.core.errors import SaveError
from bonanza.core.rules import Rules, Scoring
from bonanza.play.chosen_deals import deal_labels
from bonanza.play.daily import (
    DAILY_KEY,
    GRADE_KEY,
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
    Start,
    StartRequest,
    choose_start,
    end,
    last_game,
    new_game_id,
    start_game,
    with_decks,
)
from bonanza.play.ledger import bankroll_before
from bonanza.session import Session
from bonanza.storage import Storage, StorageError
from bonanza.storage.records import GameRecord, rules_of_key
from bonanza.tui.deal_choice import NewDealChoice
from bonanza.tui.status_bar import DealPlace
from bonanza.tui.win_screen import DailyWin
from bonanza.tui.words import unstored

CLIENT: Final = "terminal"
"""The front end named in the records: the terminal resumes and ends only its own games."""
UNREADABLE_GAMES: Final = "Could not read the stored games: {error}"
DAILY_TAG: Final = "Daily {day}"
WINNABLE_TAG: Final = "Winnable, {grade}"
"""The deal place's words for a daily or winnable deal in play (the web's)."""

Opening = NewDealChoice | Session
"""How the app begins instead of resuming from storage: a new game (what to
deal), or a saved session to resume."""


@dataclass
class Opened:
    """A game to show: its session and record, whether it was resumed, whether
    its record is in the store, and the words that announce it."""

    session: Session
    record: GameRecord
    resumed: bool
    stored: bool
    announce: str = NEW_DEAL


@dataclass(frozen=True, slots=True)
class Prepared:
    """A new game made and not stored yet: its record, session and announcement."""

    record: GameRecord
    session: Session
    announce: str


class Games:
    """The player's terminal games: the one to show first, new deals, and the
    others ended (lost once they count) whenever one starts, as on the web."""

    def __init__(
        self,
        storage: Storage,
        player: str,
        stock: DealStock,
        random_deals: Callable[[], Deal],
    ) -> None:
        self.storage = storage
        self.player = player
        self.stock = stock
        self.random_deals = random_deals
        self.notes: list[str] = []  # problems met, for the message line

    def open(self, rules: Rules, start: Opening | None, now: float) -> Opened:
        """The game to show first: ``start``, else the latest terminal game in play,
        else a random deal. A choice that cannot be dealt says why in ``notes``."""
        if isinstance(start, NewDealChoice):
            try:
                return self.begin(self.prepare(start, now), now)
            except PlayError as error:
                self.notes.append(error.message)
                start = None
        if isinstance(start, Session):
            resumed = self._resume_saved(start, now)
            if resumed is not None:
                return resumed
        else:
            resumed = self._resume_stored(now)
            if resumed is not None:
                return resumed
        try:
            prepared = self.prepare(NewDealChoice(rules), now)
        except PlayError as error:  # the store cannot be read: a random deal all the same
            self.notes.append(error.message)
            deal = with_decks(self.random_deals(), rules.decks)
            session = Session.new(deal, rules, now)
            record = GameRecord.of(new_game_id(), self.player, session, now, client=CLIENT)
            prepared = Prepared(record, session, NEW_DEAL)
        return self.begin(prepared, now)

    # -- new games ----------------------------------------------------------------------

    def prepare(self, choice: NewDealChoice, now: float) -> Prepared:
        """The game ``choice`` deals, made but not stored: nothing has changed yet.
        A ``PlayError`` says why it cannot be dealt (a failing store: ``Unavailable``)."""
        try:
            last = last_game(self.storage, self.player, CLIENT).id if choice.replay else None
            request: StartRequest = choice.request(last)
            start: Start = choose_start(
                self.storage, self.stock, self.player, request, now, self.random_deals
            )
            record, session = start_game(self.storage, self.player, start, now, client=CLIENT)
        except StorageError as error:
            raise Unavailable(UNREADABLE_GAMES.format(error=error)) from None
        return Prepared(record, session, start.announce)

    def begin(self, prepared: Prepared, now: float) -> Opened:
        """Start ``prepared``: the player's other terminal games end, and it is stored."""
        self._end_others(self._playing(), None, now)
        stored = self._insert(prepared.record)
        return Opened(prepared.session, prepared.record, False, stored, prepared.announce)

    def _insert(self, record: GameRecord) -> bool:
        """Store a new record; whether the store took it."""
        try:
            self.storage.insert_game(record)
        except StorageError as error:
            self.notes.append(unstored(error))
            return False
        return True

    # -- resuming -----------------------------------------------------------------------

    def _playing(self) -> list[GameRecord]:
        """The player's terminal games in play, newest last."""
        try:
            found = self.storage.playing_games(self.player, CLIENT)
        except StorageError as error:
            self.notes.append(UNREADABLE_GAMES.format(error=error))
            return []
        return sorted(found, key=lambda record: record.created_at)

    def _resume_stored(self, now: float) -> Opened | None:
        """The latest terminal game in play, its older fellows ended."""
        playing = self._playing()
        for record in reversed(playing):
            try:
                session = Session.from_json(record.state, trusted=True)  # our own store
            except SaveError as error:
                self.notes.append(f"Could not read back a stored game: {error}")
                continue
            if session.is_over:
                continue
            self._end_others(playing, record.id, now)
            return Opened(session, record, resumed=True, stored=True)
        return None

    def _resume_saved(self, session: Session, now: float) -> Opened | None:
        """The session from the save file, with its record (made if the records lack it).

        A save whose deal the records hold but as another game (an older game of
        that file, since ended) is not played again: that would count it twice.
        """
        if session.is_over:
            return None
        playing = self._playing()
        deal = session.game.deal.id
        for record in playing:
            if record.deal == deal and record.created_at == session.created_at:
                self._end_others(playing, record.id, now)
                return Opened(session, record, resumed=True, stored=True)
        try:
            seen = has_played(self.storage, self.player, session.game.deal, session.rules)
        except StorageError as error:
            self.notes.append(UNREADABLE_GAMES.format(error=error))
            seen = False
        if seen:
            self.notes.append("The saved game is over in the records: here is a new deal")
            return None
        if not session.created_at:
            session.created_at = now  # an older save: it starts in the records now
        self._end_others(playing, None, now)
        record = GameRecord.of(new_game_id(), self.player, session, now, client=CLIENT)
        return Opened(session, record, resumed=True, stored=self._insert(record))

    def _end_others(self, playing: list[GameRecord], keep: str | None, now: float) -> None:
        """End the stored terminal games in play but ``keep``: one game at a time."""
        for record in playing:
            if record.id == keep:
                continue
            try:
                session = Session.from_json(record.state, trusted=True)
            except SaveError:
                continue  # unreadable: left as it is
            if not end(session, now):
                continue
            record.update(session, now)
            record.version += 1
            try:
                self.storage.update_game(record)
            except StorageError as error:
                self.notes.append(unstored(error))

    # -- the ledger ---------------------------------------------------------------------

    def earlier_bankroll(self, session: Session, record: GameRecord) -> int:
        """Cumulative Vegas: the money after the earlier games of these rules and kind."""
        if session.rules.scoring is not Scoring.VEGAS_CUMULATIVE:
            return 0
        try:
            earlier = self.storage.finished_games(self.player)
        except StorageError as error:
            self.notes.append(f"Could not read the bankroll: {error}")
            return 0
        return bankroll_before(earlier, record)

    # -- what may be shown of a deal ----------------------------------------------------

    def place(self, session: Session, record: GameRecord) -> DealPlace:
        """The status line's deal place: a daily or winnable deal's words, and
        whether a game over must still hide its deal (``deal_hidden``)."""
        labels = deal_labels(record.extra)
        tag = None
        if DAILY_KEY in labels:
            tag = DAILY_TAG.format(day=labels[DAILY_KEY])
        elif GRADE_KEY in labels:
            tag = WINNABLE_TAG.format(grade=labels[GRADE_KEY])
        return DealPlace(tag, session.is_over and self.deal_hidden(record))

    def deal_hidden(self, record: GameRecord) -> bool:
        """Whether a game over may not show its deal (its ID, review or cards) yet:
        a daily deal while the game that counts for its day is in play, on any
        front end (as the web hides it). A store that cannot tell hides it."""
        try:
            return not deal_shown(self.storage, record)
        except StorageError as error:
            self.notes.append(UNREADABLE_GAMES.format(error=error))
            return True

    def daily_win(self, record: GameRecord, now: float) -> DailyWin | None:
        """A daily deal's win: its day, whether it is the game that counts for the day,
        and the daily streak now; None for another game (or a store that cannot tell)."""
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
        return DailyWin(day_text(day), is_counted, stats["current_streak"], stats["best_streak"])
