"""The terminal game: the table, picking piles, typed moves, hints, over a ``Session``.

The flow of a game (status, clock, undo rules, auto finish, score, what may be
done once it is over) is the session's, as on the web; this module presents
it. Starting and resuming games is ``games``'s (over ``bonanza.play``), the
next game's screens and the change of game ``dealer``'s, keeping them (the
store and the save file) ``keeper``'s, which lost game ``v`` reviews
``reviewer``'s, and the searches (hints, the progress check, the auto finish's
solve, "still winnable?", the review) run in ``searches``'s workers, off the
UI thread, so the table keeps answering.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, Final

from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.css.query import NoMatches

from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError, IllegalMoveError
from bonanza.core.game import Game
from bonanza.core.moves import Move, Pile
from bonanza.core.rules import Rules, Scoring, StockMode
from bonanza.play.deal_stock import DealStock
from bonanza.play.ledger import statistics
from bonanza.session import (
    Action,
    Advisor,
    Event,
    Finisher,
    Hint,
    Session,
    Status,
    messages,
    random_deal,
)
from bonanza.session.winnable import Judge
from bonanza.storage import Storage, StorageError
from bonanza.storage.records import GameRecord
from bonanza.tui import keys, picking, words
from bonanza.tui.confirm_screen import ConfirmScreen
from bonanza.tui.deal_choice import NewDealChoice
from bonanza.tui.dealer import Dealer
from bonanza.tui.game_screen import GameScreen
from bonanza.tui.games import Games, Opened, Opening
from bonanza.tui.help_screen import HelpScreen
from bonanza.tui.keeper import GameKeeper
from bonanza.tui.move_box import MoveBox
from bonanza.tui.no_moves_screen import NEW_DEAL as NO_MOVES_NEW
from bonanza.tui.no_moves_screen import UNDO, NoMovesScreen
from bonanza.tui.pile_view import PileView
from bonanza.tui.reviewer import Reviewer
from bonanza.tui.searches import PROGRESS_DELAY, Searches
from bonanza.tui.stats_screen import StatsScreen
from bonanza.tui.status_bar import DealPlace
from bonanza.tui.terminal_stock import terminal_stock  # tests stand an idle stock in for it

__all__ = ["PROGRESS_DELAY", "TICK_SECONDS", "BonanzaApp", "terminal_stock"]

TICK_SECONDS: Final = 1.0
"""How often the status line's clock and timed score are brought up to date."""
AUTO_STEP_SECONDS: Final = 0.1
"""The pause between two auto-finish moves, so the player sees each card go home."""


class BonanzaApp(App[None]):
    """Klondike in the terminal. Click or press a pile's key to pick it up, then its target.

    ``storage`` keeps the games of ``player``; the app does not close it.
    ``start`` is what to play: a ``NewDealChoice`` starts that game now; a
    ``Session`` (read from ``save_path``) resumes it, unless the records show
    it is over; ``None`` resumes the player's latest terminal game still in
    play, else deals ``random_deals()`` under ``rules``. A new game ends the
    player's other terminal games in play (lost once they count), as on the web.
    After every action the record is written, and the session's JSON to
    ``save_path`` when given. ``advisor`` gives hints and the progress check
    (default: the solver's); ``judge`` answers "still winnable?" on the true
    position (default: the solver's, 1 s); ``clock`` is wall-clock time;
    ``auto_step`` is the pause between auto-finish moves. ``stock`` is where
    winnable and daily deals come from (default: ``terminal_stock``, over
    ``storage``); the app starts its filler when it mounts and stops it on exit.
    """

    TITLE = "Bonanza"
    AUTO_FOCUS = None  # keys play the game; ":" moves focus to the move box
    ENABLE_COMMAND_PALETTE = False  # Ctrl+P's are Textual's commands (themes), not the game's
    BINDINGS: ClassVar[list[BindingType]] = keys.BINDINGS

    def __init__(
        self,
        storage: Storage,
        player: str,
        *,
        rules: Rules | None = None,
        start: Opening | None = None,
        advisor: Advisor | None = None,
        finisher: Finisher | None = None,
        judge: Judge | None = None,
        clock: Callable[[], float] = time.time,
        save_path: Path | None = None,
        random_deals: Callable[[], Deal] = random_deal,
        auto_step: float = AUTO_STEP_SECONDS,
        stock: DealStock | None = None,
    ) -> None:
        super().__init__()
        self.storage = storage
        self.player = player
        self.clock = clock
        if advisor is None or finisher is None:
            from bonanza.solver.advisor import SolverAdvisor

            advisor = SolverAdvisor() if advisor is None else advisor
            finisher = SolverAdvisor() if finisher is None else finisher
        if judge is None:
            from bonanza.solver.review import still_winnable

            judge = still_winnable
        self.searches = Searches(self, advisor, finisher, judge, auto_step)
        self.selected: Pile | None = None
        self._turn = 0  # counts the changes of position: a search answers for one turn
        self.table_screen = GameScreen()
        self.reviewer = Reviewer(self)  # the last game lost, and its review
        self.place = DealPlace()  # what the status line says of the deal, beyond the session
        self._bank_base = 0
        self.stock = stock if stock is not None else terminal_stock(storage, clock)
        self.games = Games(storage, player, self.stock, random_deals)
        opened = self.games.open(rules or Rules(), start, self.clock())
        self.keeper = GameKeeper(self.games, save_path, opened)
        self._resumed, self._announce = opened.resumed, opened.announce
        # Rules asked for that the game resumed does not play: a new deal starts from them.
        differ = opened.resumed and rules is not None and rules != opened.session.rules
        self.asked: Rules | None = rules if differ else None
        self.dealer = Dealer(self)

    @property
    def session(self) -> Session:
        """The session of the game on the table."""
        return self.keeper.session

    @property
    def record(self) -> GameRecord:
        """The stored record of the game on the table."""
        return self.keeper.record

    @property
    def game(self) -> Game:
        """The game being played (read it; play through the session)."""
        return self.session.game

    @property
    def turn(self) -> int:
        """The count of position changes: a search answers for one turn."""
        return self._turn

    @property
    def announcement(self) -> str:
        """The message line's announcement, without its notes."""
        return self.table_screen.announcement

    # -- layout ----------------------------------------------------------------

    def get_default_screen(self) -> GameScreen:
        return self.table_screen

    def compose(self) -> ComposeResult:
        yield self.searches

    def on_mount(self) -> None:
        now = self.clock()
        self.session.clock.resume(now)  # it stood while the program was closed
        self.stock.start()  # winnable and daily deals, found in the background
        self.set_interval(TICK_SECONDS, self.tick)
        self._shown(now)
        dead_end = self._at_dead_end()
        way_out = [messages.no_moves_left(self.session.can_undo)] if dead_end else []
        self.say(self._greeting(), *self.take_notes(), *self._auto_offer(), *way_out)
        self.searches.solve_finish()  # a game resumed where the solver may finish it
        if dead_end:  # resumed where no move is left: the way out, as after the move
            self._offer_way_out(stuck=False)
        elif self._resumed:  # the progress check, as after a move
            self.searches.after_move()

    def on_unmount(self) -> None:
        """Closing: the deal stock's filler stops, and the clock stands until the
        game is on screen again."""
        self.stock.stop()
        now = self.clock()
        if self.session.clock.pause(now):
            self.keeper.write(now)

    def take_notes(self) -> list[str]:
        """The problems met in bringing the game on the table, once."""
        notes = [*self.games.notes, *self.keeper.notes]
        self.games.notes.clear()
        self.keeper.notes.clear()
        return notes

    def _greeting(self) -> str:
        if self.session.is_over:
            return words.OVER_NOTE
        if self.asked is not None:
            return words.resumed_under(self.session.rules, self.asked)
        return words.RESUMED if self._resumed else self._announce

    def _shown(self, now: float) -> None:
        """A game comes on the table: forget the last one's searches and timers."""
        self._turn += 1
        self.searches.stop_auto()
        self.selected = None
        self._bank_base = self.games.earlier_bankroll(self.session, self.record)
        self.place = self.games.place(self.session, self.record)
        rules = self.session.rules
        self.table_screen.lay_out(rules)
        self.sub_title = rules.title
        self.refresh_bindings()
        self.refresh_table(now)

    def refresh_table(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        self.table_screen.show(
            self.session, self.selected, now, self._bankroll(now), self.place
        )

    def _bankroll(self, now: float) -> int | None:
        """Cumulative Vegas: the money now, this game's score counted; else None."""
        if self.session.rules.scoring is not Scoring.VEGAS_CUMULATIVE:
            return None
        return self._bank_base + self.session.score(now)

    def _show_status(self, now: float) -> None:
        self.table_screen.show_status(self.session, now, self._bankroll(now), self.place)

    def say(self, text: str, *notes: str) -> None:
        """Show ``text`` (an announcement), then each note on its own line."""
        self.table_screen.say(text, *notes)

    def show_hint(self, hint: Hint) -> None:
        """The engine's words on the message line, and its move's piles lit up
        (for a draw, the stock and the waste)."""
        self.refresh_table()
        if hint.move is not None:
            self.table_screen.light(hint.move)
        self.say(hint.text)

    def tick(self) -> None:
        """Once a second: the clock and the timed score, live."""
        if not self.is_running:
            return
        with contextlib.suppress(NoMatches):  # shutting down: the table may be gone
            self._show_status(self.clock())

    # -- playing -------------------------------------------------------------------

    def keep(self) -> list[str]:
        """Store the game now and show its status; the problems met, as notes."""
        now = self.clock()
        notes = self.keeper.write(now)
        self._show_status(now)
        return notes

    def act(self, action: Callable[[float], Event], *, auto: bool = False) -> Event | None:
        """Run one session action and show what it did; a refusal says why."""
        if not auto:
            self.searches.stop_auto()
        now = self.clock()
        try:
            event = action(now)
        except BonanzaError as error:  # the session's (or the rules') own words
            self.say(messages.refusal(str(error)))
            return None
        self._turn += 1
        self.selected = None
        notes = self.keeper.write(now)
        if self.session.is_over:  # its deal shows now, unless a daily deal's must wait
            self.place = self.games.place(self.session, self.record)
            notes.append(words.OVER_NOTE)
        else:
            notes += self._auto_offer()
        self.refresh_table(now)
        session = self.session
        dead_end = self._at_dead_end()
        text = event.summary
        if dead_end:  # the session's words offer undo, which Vegas refuses after a draw
            text = text.replace(messages.NO_MOVES_LEFT, messages.no_moves_left(session.can_undo))
        self.say(text, *notes)
        if event.action is not Action.AUTO:
            self.searches.after_move()
        if any(step.won for step in (event, *event.then)):
            self.dealer.show_win(now, self._bankroll(now))
        elif dead_end:
            self._offer_way_out(stuck=False)
        return event

    def _at_dead_end(self) -> bool:
        """Whether the game is in play with no legal move left."""
        return self.session.status is Status.PLAYING and not self.session.position.has_moves()

    def _auto_offer(self) -> list[str]:
        """The auto finish's offer, as a note, when it can win from here and none runs."""
        offered = not self.searches.auto_on and self.session.auto_move() is not None
        return [words.AUTO_OFFER] if offered else []

    def stuck(self) -> None:
        """The progress check proved that no progress is possible: say so, offer a way out."""
        self.say(self.announcement, messages.stuck(self.session.can_undo))
        self._offer_way_out(stuck=True)

    def _offer_way_out(self, *, stuck: bool) -> None:
        """The no-moves dialog (unless another is open): undo where it works, or a new deal."""
        if len(self.screen_stack) > 1:
            return
        turn = self._turn

        def chosen(choice: str | None) -> None:
            if turn == self._turn and choice == UNDO:
                self.action_undo()
            elif turn == self._turn and choice == NO_MOVES_NEW:
                self.dealer.choose()

        self.push_screen(NoMovesScreen(stuck=stuck, can_undo=self.session.can_undo), chosen)

    def play(self, move: Move | str) -> Event | None:
        """Play ``move`` (or its text) through the session; an illegal one is
        refused in words (``messages.illegal``), not in the engine's notation."""
        position, session = self.session.position, self.session

        def played(now: float) -> Event:
            try:
                return session.play(move, now)
            except IllegalMoveError:
                named = picking.typed_move(move, position) if isinstance(move, str) else move
                if named is None:
                    raise
                raise IllegalMoveError(messages.illegal(named, position)) from None

        return self.act(played)

    def _refused_as_over(self) -> bool:
        """Once over, say why nothing can be played (the session's GameOverError)."""
        if not self.session.is_over:
            return False
        self.act(self.session.draw)  # refused: the game is over
        return True

    def pick(self, pile: Pile) -> None:
        """Pick ``pile`` up, or drop the picked cards onto it."""
        if self._refused_as_over():
            return
        if pile == Pile.STOCK:
            self.action_draw()
            return
        picked = picking.pick(self.session.position, self.selected, pile)
        if picked.move is not None:
            self.play(picked.move)
            return
        if picked.selected is not None or picked.selected != self.selected:
            self.selected = picked.selected
            self.refresh_table()
        self.say(picked.text)

    def on_pile_view_picked(self, message: PileView.Picked) -> None:
        self.pick(message.pile)

    def on_move_box_typed(self, typed: MoveBox.Typed) -> None:
        self.play(typed.text)

    # -- actions -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Space draws where the stock turns onto the waste and deals where it
        deals onto every column (Easthaven): the footer names the one in play."""
        deals = self.session.rules.stock_mode is StockMode.EVERY_COLUMN
        if action == "draw":
            return not deals
        if action == "deal":
            return deals
        return True

    def action_pick(self, name: str) -> None:
        if name == "foundation":
            if self.selected is not None:
                self.pick(Pile.FC)
            elif not self._refused_as_over():
                self.say("Pick a card first, then F sends it to its foundation.")
            return
        pile = Pile[name.upper()]
        missing = picking.missing(self.session.rules, pile)
        if missing:
            self.say(missing)
        else:
            self.pick(pile)

    def action_draw(self) -> None:
        """Draw, or deal one card onto every column (Easthaven's stock: ``deal``)."""
        self.act(self.session.draw)

    action_deal = action_draw

    def action_undo(self) -> None:
        self.act(self.session.undo)

    def action_redo(self) -> None:
        self.act(self.session.redo)

    def action_restart(self) -> None:
        """Back to the deal, after asking; refused (in the session's words) when it cannot."""
        self.searches.stop_auto()
        if not self.session.can_restart:
            self.act(self.session.restart)  # says why not
            return
        turn = self._turn

        def answered(yes: bool | None) -> None:
            if yes and turn == self._turn:
                self.act(self.session.restart)

        self.push_screen(ConfirmScreen(words.RESTART_QUESTION), answered)

    def action_auto(self) -> None:
        self.searches.auto()

    def action_hint(self) -> None:
        """A hint, refused in the session's words where no move could follow it (the
        game over, or its history full), as the web refuses it."""
        self.searches.stop_auto()
        try:
            self.session.check_room()
        except BonanzaError as error:  # the session's words
            self.say(messages.refusal(str(error)))
            return
        self.searches.hint()

    def action_winnable(self) -> None:
        self.searches.stop_auto()
        if not self._refused_as_over():
            self.searches.winnable()

    def action_review(self) -> None:
        self.reviewer.review()

    def action_safe_home(self) -> None:
        """Switch safe auto-play, the player's setting (kept in the store)."""
        on = not self.session.safe.on
        notes = self.keeper.set_safe_home(on, self.clock())
        self.say(words.SAFE_HOME_ON if on else words.SAFE_HOME_OFF, *notes)

    def action_new_deal(self) -> None:
        """Choose the next game's rules and deal; a game in progress asks first."""
        self.dealer.ask()

    def action_daily(self) -> None:
        """The daily deals: statistics, the calendar, a day to play."""
        self.dealer.daily()

    def action_share(self) -> None:
        """A share code for this deal (it opens once this game is over)."""
        self.dealer.share()

    def new_game(self, choice: NewDealChoice) -> None:
        """Start ``choice`` in place of the game on the table (``Dealer.new_game``)."""
        self.dealer.new_game(choice)

    def put_on_table(self, opened: Opened, now: float) -> None:
        """A new game comes on the table, in place of the one there."""
        self.keeper = GameKeeper(self.games, self.keeper.save_path, opened)
        self._resumed, self._announce, self.asked = opened.resumed, opened.announce, None
        self._shown(now)

    def action_stats(self) -> None:
        try:
            games = self.storage.finished_games(self.player)
        except StorageError as error:
            self.say(f"No statistics: {error}")
            return
        figures = statistics(games)
        self.push_screen(StatsScreen(figures["groups"], figures["chosen"], figures["assisted"]))

    def action_cancel(self) -> None:
        self.set_focus(None)
        self.selected = None
        self.refresh_table()
        self.say("")

    def action_command(self) -> None:
        self.table_screen.query_one(MoveBox).focus()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.session.rules))
