"""The table on screen: the status line, the piles, the message line, the move
box and the footer's keys. The app plays the game; this screen shows it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer, Static

from bonanza.core.moves import Move, Pile
from bonanza.core.rules import Rules
from bonanza.session import Session
from bonanza.tui.move_box import MoveBox
from bonanza.tui.status_bar import DealPlace, StatusBar
from bonanza.tui.table_view import TableView


class GameScreen(Screen[None]):
    """The game's own screen, under every dialog."""

    AUTO_FOCUS = None  # the app's: none, keys play the game
    # Five lines of chrome; the table fits itself to the rest (at 80×24, 15 for the columns).
    DEFAULT_CSS = """
    GameScreen #message { height: 2; padding: 0 2; color: $text-muted; }
    GameScreen MoveBox { margin: 0 1; height: 1; border: none; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.announcement = ""  # the message line's announcement, without its notes

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield TableView(id="table")
        yield Static(id="message", markup=False)
        yield MoveBox(id="command")
        yield Footer()

    @property
    def status_line(self) -> StatusBar:
        return self.query_one(StatusBar)

    @property
    def message_line(self) -> Static:
        return self.query_one("#message", Static)

    @property
    def table(self) -> TableView:
        return self.query_one(TableView)

    def lay_out(self, rules: Rules) -> None:
        """Show the piles of ``rules``."""
        self.table.lay_out(rules)

    def show(
        self,
        session: Session,
        selected: Pile | None,
        now: float,
        bankroll: int | None,
        place: DealPlace | None = None,
    ) -> None:
        """Draw ``session``'s position (``selected`` picked up) and its status at ``now``."""
        self.table.show(session.position, selected)
        self.show_status(session, now, bankroll, place)

    def show_status(
        self, session: Session, now: float, bankroll: int | None, place: DealPlace | None = None
    ) -> None:
        """The status line: deal (as ``place`` allows), rules, score, moves, passes
        and the clock at ``now``."""
        self.status_line.show_session(session, now, bankroll=bankroll, place=place)

    def light(self, move: Move) -> None:
        """Light up the piles of a hinted move."""
        self.table.light(move)

    def say(self, text: str, *notes: str) -> None:
        """Show ``text`` (an announcement), then each note on its own line."""
        self.announcement = text
        self.message_line.update("\n".join((text, *notes)) if text else "\n".join(notes))
