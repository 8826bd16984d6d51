"""Starting, resuming and ending the player's terminal games in the store.

Kept apart on purpose: a shared ``bonanza.play`` layer is to replace it, for
the web and the terminal alike. The app asks ``Games.open`` for the game to
show first and ``Games.begin`` for a new deal; problems met on the way are
kept in ``notes`` for the message line.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bonanza.core.deal import Deal
from bonanza.core.errors import SaveError
from bonanza.core.rules import Rules, Scoring
from bonanza.play.ledger import bankroll
from bonanza.session import Origin, Session
from bonanza.session.deals import DEAL_NUMBER_BITS
from bonanza.storage import Storage, StorageError
from bonanza.storage.records import GameRecord
from bonanza.tui.new_deal_screen import NewDealChoice
from bonanza.tui.words import unstored

CLIENT: Final = "terminal"
"""The front end named in the records: the terminal resumes and ends only its own games."""
GAME_ID_BYTES: Final = 12
"""Random bytes in a game's ID (as the web's)."""

Start = NewDealChoice | Session
"""How the app begins instead of resuming from storage: a new game (its rules,
and the deal's text or None for a random deal), or a saved session to resume."""


def new_game_id() -> str:
    return secrets.token_urlsafe(GAME_ID_BYTES)


@dataclass
class Opened:
    """A game to show: its session and record, whether it was resumed, and
    whether its record is in the store."""

    session: Session
    record: GameRecord
    resumed: bool
    stored: bool


class Games:
    """The player's terminal games: the one to show first, new deals, and the
    others ended (lost once they count) whenever one starts, as on the web."""

    def __init__(
        self, storage: Storage, player: str, random_deals: Callable[[], Deal]
    ) -> None:
        self.storage = storage
        self.player = player
        self.random_deals = random_deals
        self.notes: list[str] = []  # problems met, for the message line

    def open(self, rules: Rules, start: Start | None, now: float) -> Opened:
        """The game to show first: ``start``, else the latest terminal game in play,
        else a random deal."""
        if isinstance(start, NewDealChoice):
            return self.begin(start.rules, start.deal_text, now)
        if isinstance(start, Session):
            resumed = self._resume_saved(start, now)
            if resumed is not None:
                return resumed
        else:
            resumed = self._resume_stored(now)
            if resumed is not None:
                return resumed
        return self.begin(rules, None, now)

    def _playing(self) -> list[GameRecord]:
        """The player's terminal games in play, newest last."""
        try:
            found = self.storage.playing_games(self.player, CLIENT)
        except StorageError as error:
            self.notes.append(f"Could not read the stored games: {error}")
            return []
        return sorted(found, key=lambda record: record.created_at)

    def _resume_stored(self, now: float) -> Opened | None:
        """The latest terminal game in play, its older fellows ended."""
        playing = self._playing()
        for record in reversed(playing):
            try:
                session = Session.from_json(record.state)
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
            seen = self.storage.has_played_deal(self.player, deal, session.rules)
        except StorageError as error:
            self.notes.append(f"Could not read the stored games: {error}")
            seen = False
        if seen:
            self.notes.append("The saved game is over in the records: here is a new deal")
            return None
        if not session.created_at:
            session.created_at = now  # an older save: it starts in the records now
        self._end_others(playing, None, now)
        record, stored = self._new_record(session, now)
        return Opened(session, record, resumed=True, stored=stored)

    def begin(self, rules: Rules, deal_text: str | None, now: float) -> Opened:
        """A new game: the typed deal, else a random one (a replay if seen before)."""
        self._end_others(self._playing(), None, now)
        if deal_text is not None:
            deal, origin = Deal.parse(deal_text, rules.decks), Origin.TYPED
        else:
            deal, origin = self._random_deal(rules), Origin.RANDOM
            try:
                if self.storage.has_played_deal(self.player, deal.id, rules):
                    origin = Origin.REPLAY
            except StorageError as error:
                self.notes.append(f"Could not read the stored games: {error}")
        session = Session.new(deal, rules, now, origin=origin, typed=deal_text)
        record, stored = self._new_record(session, now)
        return Opened(session, record, resumed=False, stored=stored)

    def _random_deal(self, rules: Rules) -> Deal:
        """A deal of ``random_deals``; for two decks, the deal of its number
        with two decks (a fresh secret number when it has none)."""
        deal = self.random_deals()
        if deal.decks == rules.decks:
            return deal
        number = deal.number if deal.number is not None else secrets.randbits(DEAL_NUMBER_BITS)
        return Deal.from_number(number, rules.decks)

    def _new_record(self, session: Session, now: float) -> tuple[GameRecord, bool]:
        """A new record of ``session``, and whether the store took it."""
        record = GameRecord.of(new_game_id(), self.player, session, now, client=CLIENT)
        try:
            self.storage.insert_game(record)
        except StorageError as error:
            self.notes.append(unstored(error))
            return record, False
        return record, True

    def _end_others(self, playing: list[GameRecord], keep: str | None, now: float) -> None:
        """End the stored terminal games in play but ``keep``: one game at a time."""
        for record in playing:
            if record.id == keep:
                continue
            try:
                session = Session.from_json(record.state)
            except SaveError:
                continue  # unreadable: left as it is
            if session.is_over:
                continue
            session.end(now)
            record.update(session, now)
            record.version += 1
            try:
                self.storage.update_game(record)
            except StorageError as error:
                self.notes.append(unstored(error))

    def earlier_bankroll(self, session: Session, record: GameRecord) -> int:
        """Cumulative Vegas: the money after the earlier games of these rules and kind."""
        if session.rules.scoring is not Scoring.VEGAS_CUMULATIVE:
            return 0
        try:
            earlier = self.storage.finished_games(self.player)
        except StorageError as error:
            self.notes.append(f"Could not read the bankroll: {error}")
            return 0
        chosen = record.origin.is_chosen
        same = [
            game
            for game in earlier
            if game.rules_key == record.rules_key
            and game.id != record.id
            and game.origin.is_chosen == chosen
            and not game.assisted  # as the statistics count it
        ]
        return bankroll(same)
