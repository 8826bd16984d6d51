"""The next game: the new-deal and daily screens, and a new game on the table in
its place.

The app's ``n`` asks (a game in progress counts as lost) and opens the new-deal
screen; ``D`` opens the daily screen, and asks once a day is chosen.
``Dealer.new_game`` asks ``bonanza.play`` (through ``Games``) for the game
chosen, and only once it has one starts it, the game on the table ending in the
same transaction as the new one is stored (as on the web). A deal that
cannot be dealt (a winnable or daily deal not found yet, a share that is not
open, no game to replay) is said on the message line, in play's sentence, and
the table keeps its game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bonanza.play.chosen_deals import daily_overview
from bonanza.play.daily import DAILY_DRAWS
from bonanza.play.errors import PlayError
from bonanza.play.games import end, share_deal
from bonanza.play.leaderboard import daily_leaderboard
from bonanza.play.ledger import records_set
from bonanza.session import Status, messages
from bonanza.storage import StorageError
from bonanza.tui import words
from bonanza.tui.confirm_screen import ConfirmScreen
from bonanza.tui.daily_screen import DailyScreen
from bonanza.tui.deal_choice import NewDealChoice
from bonanza.tui.new_deal_screen import NewDealScreen
from bonanza.tui.win_screen import NEW_DEAL, WinFacts, WinScreen

if TYPE_CHECKING:
    from bonanza.tui.app import BonanzaApp


class Dealer:
    """What deals the app's next game: its screens, and the change of game."""

    def __init__(self, app: BonanzaApp) -> None:
        self.app = app

    def ask(self) -> None:
        """Choose the next game's rules and deal; a game in progress asks first."""
        self.app.searches.stop_auto()
        self._asking(self.choose)

    def _asking(self, then: Callable[[], None]) -> None:
        """``then``, once the player agrees to lose the game in progress (if any)."""
        session = self.app.session
        if not session.touched or session.is_over:
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmScreen(words.NEW_DEAL_QUESTION), answered)

    def choose(self) -> None:
        """The new-deal screen, from the rules asked for (else the table's)."""
        app = self.app
        screen = NewDealScreen(app.asked or app.session.rules, self.overview)
        app.push_screen(screen, self.chosen)

    def daily(self) -> None:
        """The daily screen, on the table's draw mode; a day chosen asks before it
        ends a game in progress."""
        app = self.app
        app.searches.stop_auto()
        draw = app.session.rules.draw

        def chosen(choice: NewDealChoice | None) -> None:
            if choice is not None:
                self._asking(lambda: self.new_game(choice))

        app.push_screen(DailyScreen(self.overview, draw if draw in DAILY_DRAWS else 1), chosen)

    def overview(self, draw: int) -> Mapping[str, Any]:
        """The player's daily statistics and calendar of a draw mode, and today's
        leaderboard (reads the store)."""
        app = self.app
        now = app.clock()
        found = daily_overview(app.stock, app.storage, app.player, draw, now)
        return {**found, "leaderboard": daily_leaderboard(app.storage, app.player, draw, now)}

    def chosen(self, choice: NewDealChoice | None) -> None:
        """What a screen that chooses a deal answers: start it (None: nothing)."""
        if choice is not None:
            self.new_game(choice)

    def new_game(self, choice: NewDealChoice) -> None:
        """Start ``choice``, ending the game on the table (lost once it counts); when
        ``bonanza.play`` cannot deal it, say why and keep the game on the table."""
        app = self.app
        now = app.clock()
        try:
            prepared = app.games.prepare(choice, now)
        except PlayError as error:  # a sentence for the player; nothing has changed
            app.say(messages.sentence(error.message), *app.take_notes())
            return
        notes: list[str] = []
        if app.keeper.stored:  # it ends in the new game's start, in one transaction
            opened = app.games.begin(prepared, now, table=(app.record, app.session))
        else:  # never stored: it is kept alone, a game over (none in play is added)
            if end(app.session, now):
                notes += app.keeper.write(now)
            opened = app.games.begin(prepared, now)
        if app.session.status is Status.LOST:
            app.reviewer.remember(app.session, app.record)
            notes.append(words.REVIEW_OFFER)
        app.put_on_table(opened, now)
        app.say(opened.announce, *notes, *app.take_notes())

    def share(self) -> None:
        """A share code for the deal on the table, said with its web link; it opens
        once this game is over (before, it would let the player look under the cards)."""
        app = self.app
        notes = [] if app.keeper.stored else app.keeper.write(app.clock())  # stored first
        if not app.keeper.stored:
            app.say(words.NO_SHARE, *notes)
            return
        try:
            share_id = share_deal(app.storage, app.record.id)
        except StorageError as error:
            app.say(words.NO_SHARE, words.unstored(error))
            return
        app.say(*words.shared(share_id, opens=app.session.is_over))

    def show_win(self, now: float, bankroll: int | None) -> None:
        """The win screen: the figures and the records this win set (a daily deal's
        day and streak instead), the deal unless it must wait; n deals again."""
        app = self.app
        try:
            found = records_set(app.storage.finished_games(app.player), app.record)
        except StorageError as error:
            found = {}
            app.say(app.announcement, f"No records: {error}")
        daily = app.games.daily_win(app.record, now)
        shown = not app.place.hidden
        facts = WinFacts.of(app.session, now, found, bankroll, daily=daily, deal_shown=shown)

        def closed(choice: str | None) -> None:
            if choice == NEW_DEAL:
                self.ask()

        app.push_screen(WinScreen(facts), closed)
