"""The review of the player's last lost game (``v``): the move that lost it, and a
line that would have won, found by ``Searches.review``.

The game to review is the last one this app ended lost (``Dealer.new_game``
hands it over), else the player's most recently lost game here in the store
(``Games.last_lost``): the program closed and opened again, or a new deal that
ended the game in play as it opened. Restarting the deal on the table keeps
it. Its hidden cards are no secret now, but for a daily deal while the game
that counts for its day is still in play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bonanza.play.daily import DAILY_KEY, DEAL_HIDDEN
from bonanza.session import Session, messages
from bonanza.storage.records import GameRecord
from bonanza.tui import words

if TYPE_CHECKING:
    from bonanza.tui.app import BonanzaApp


class Reviewer:
    """The lost game the app's ``v`` reviews, and its review."""

    def __init__(self, app: BonanzaApp) -> None:
        self.app = app
        self.lost: Session | None = None  # the last game lost, to review
        self.lost_record: GameRecord | None = None

    def remember(self, session: Session, record: GameRecord) -> None:
        """``session`` (stored as ``record``) was just lost: ``v`` reviews it."""
        self.lost, self.lost_record = session, record

    def review(self) -> None:
        """Review the last game lost, or say why not."""
        app = self.app
        lost, record = self.lost, self.lost_record
        if lost is None:
            found = app.games.last_lost()
            if found is None:
                app.say(words.NO_REVIEW, *app.take_notes())
                return
            lost, record = found
            self.remember(lost, record)
        if record is not None and app.games.deal_hidden(record):
            day = record.extra.get(DAILY_KEY)
            app.say(messages.sentence(DEAL_HIDDEN.format(day=day)), *app.take_notes())
            return
        app.searches.review(lost)
