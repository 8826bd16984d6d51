"""The player's terminal games, as the terminal shows them, over ``bonanza.play``.

Starting, resuming and ending games is ``bonanza.play.own_games``'s, the same steps
as on the web: :class:`Games` is its ``OwnGames`` for the terminal's own games.
``Games.prepare`` asks it for the game a ``NewDealChoice`` starts (a ``PlayError``
says why not, before anything has changed); ``Games.begin`` ends the player's other
terminal games and stores it; ``Games.open`` gives the game to show first. Problems
with the store met on the way are kept in ``notes`` for the message line. What is
the terminal's own: the status line's deal place and a daily deal's win.
"""

from __future__ import annotations

from typing import Final

from bonanza.play.chosen_deals import deal_labels
from bonanza.play.daily import DAILY_KEY, GRADE_KEY
from bonanza.play.own_games import Opened, OwnGames
from bonanza.session import Session
from bonanza.storage.records import GameRecord
from bonanza.tui.deal_choice import NewDealChoice
from bonanza.tui.status_bar import DealPlace
from bonanza.tui.win_screen import DailyWin

DAILY_TAG: Final = "Daily {day}"
WINNABLE_TAG: Final = "Winnable, {grade}"
"""The deal place's words for a daily or winnable deal in play (the web's)."""

Opening = NewDealChoice | Session
"""How the app begins instead of resuming from storage: a new game (what to
deal), or a saved session to resume."""

__all__ = ["Games", "Opened", "Opening"]


class Games(OwnGames):
    """The player's terminal games: the one to show first, new deals, and the
    others ended (lost once they count) whenever one starts, as on the web."""

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

    def daily_win(self, record: GameRecord, now: float) -> DailyWin | None:
        """A daily deal's win: its day, whether it is the game that counts for the day,
        and the daily streak now; None for another game (or a store that cannot tell)."""
        found = self.daily_result(record, now)
        if found is None:
            return None
        return DailyWin(found.day, found.counted, found.current_streak, found.best_streak)
