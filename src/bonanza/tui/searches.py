"""The game's searches, off the UI thread, and what comes of them: a hint, the
progress check, the auto finish (solved, then played), "still winnable?" and
the review of a lost game.

``Searches`` is a widget that shows nothing. Each search is a Textual worker
that awaits the search run in a daemon thread (``off_thread``), so that quitting
never waits for a search; its answer comes back as a message naming the
turn (the app's count of position changes) it was asked for, and an answer
for a position that is gone is dropped. A search that raises answers with its
error. A new hint, solve, judgement or review cancels the one of its kind
still running (``exclusive``): that one's answer is never sent. The progress
check runs one at a time (each can take the solver's whole budget): a check
asked while one runs waits, and only the latest waits.

The widget reads the game and speaks through its ``Host``, the app.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Final, Protocol

from textual import work
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.worker import get_current_worker

from bonanza.core.moves import Move
from bonanza.core.position import Position
from bonanza.core.rules import Rules
from bonanza.core.view import PlayerView
from bonanza.session import Advisor, Event, Finisher, Hint, Session, Status
from bonanza.session.advisor import ask
from bonanza.session.winnable import CONFIRM, FAILED, LABEL, Judge, WinnableAnswer
from bonanza.tui.confirm_screen import ConfirmScreen
from bonanza.tui.off_thread import off_thread
from bonanza.tui.review_screen import ReviewScreen, review_lines
from bonanza.tui.words import (
    AUTO_OFFER,
    AUTO_STOPPED,
    HINT_FAILED,
    REVIEW_FAILED,
    REVIEWING,
    THINKING,
    failed,
)

PROGRESS_DELAY: Final = 0.35
"""Seconds after a move before the progress check starts (as the web): quick
moves in a row start one search, not one each."""


class Host(Protocol):
    """What the searches need of the app: the game on the table, and its lines."""

    @property
    def session(self) -> Session: ...

    @property
    def turn(self) -> int:
        """The count of position changes: an answer is for one turn."""
        ...

    @property
    def announcement(self) -> str:
        """The message line's announcement, that notes may follow."""
        ...

    def say(self, text: str, *notes: str) -> None: ...

    def show_hint(self, hint: Hint) -> None: ...

    def stuck(self) -> None:
        """Say that no sequence of moves can make progress, and offer a way out."""
        ...

    def keep(self) -> list[str]:
        """Store the game now and show its status; the problems met, as notes."""
        ...

    def act(self, action: Callable[[float], Event], *, auto: bool = False) -> Event | None: ...


def lost_game_review(session: Session) -> list[str]:
    """The solver's review of a lost game, as the review screen's lines."""
    from bonanza.solver.review import review

    game = session.game
    return review_lines(review(game.positions, game.history), game.positions)


class Searches(Widget):
    """Runs the searches in worker threads and shows what they find."""

    DEFAULT_CSS = "Searches { display: none; }"

    class Answer(Message, bubble=False):
        """A search's answer for ``turn``; ``error`` when the search raised."""

        def __init__(self, turn: int, error: Exception | None) -> None:
            super().__init__()
            self.turn = turn
            self.error = error

    class HintFound(Answer, bubble=False):
        """The advisor's hint (None when it raised)."""

        def __init__(self, turn: int, hint: Hint | None, error: Exception | None) -> None:
            super().__init__(turn, error)
            self.hint = hint

    class ProgressChecked(Answer, bubble=False):
        """Whether progress is still possible: False only when proven impossible."""

        def __init__(self, turn: int, possible: bool | None, error: Exception | None) -> None:
            super().__init__(turn, error)
            self.possible = possible

    class FinishSolved(Answer, bubble=False):
        """The finisher's winning line from ``start`` (None when it found none)."""

        def __init__(
            self, turn: int, start: Position, line: Sequence[Move] | None,
            error: Exception | None,
        ) -> None:  # fmt: skip
            super().__init__(turn, error)
            self.start = start
            self.line = line

    class Judged(Answer, bubble=False):
        """The judge's verdict on "still winnable?"."""

        def __init__(self, turn: int, verdict: str | None, error: Exception | None) -> None:
            super().__init__(turn, error)
            self.verdict = verdict

    class Reviewed(Answer, bubble=False):
        """The review's lines of the lost game played under ``rules``."""

        def __init__(
            self, rules: Rules, lines: list[str] | None, error: Exception | None
        ) -> None:
            super().__init__(0, error)
            self.rules = rules
            self.lines = lines

    def __init__(
        self, host: Host, advisor: Advisor, finisher: Finisher, judge: Judge, auto_step: float
    ) -> None:
        super().__init__()
        self.host = host
        self.advisor = advisor
        self.finisher = finisher
        self.judge = judge
        self.auto_step = auto_step
        self.auto_on = False  # an auto finish is running
        self._auto: Timer | None = None  # its next step
        self._auto_wanted: int | None = None  # A was pressed on this turn: start once solved
        self._progress_timer: Timer | None = None
        self._hint_turn: int | None = None  # the turn of the hint under way
        self._winnable_turn: int | None = None  # the turn of the judgement under way
        self._finish_turn: int | None = None  # the turn of the finish being solved
        self._reviewing = False
        self._next_check: tuple[Position, int] | None = None  # the check waiting its turn
        self._checking = False  # a progress worker is running

    def _answer(self, message: Answer) -> None:
        """Send ``message`` (from its worker), unless the worker was cancelled."""
        if not get_current_worker().is_cancelled:
            self.post_message(message)

    # -- the progress check, after each move --------------------------------------

    def after_move(self) -> None:
        """Check progress a moment after a move (quick moves in a row: once)."""
        if self._progress_timer is not None:
            self._progress_timer.stop()
        self._progress_timer = self.set_timer(PROGRESS_DELAY, self._check_progress)

    def _check_progress(self) -> None:
        """Ask the advisor whether progress is still possible, and the finisher
        for the auto finish once the player knows every card."""
        self._progress_timer = None
        session = self.host.session
        if session.status is not Status.PLAYING or not session.position.has_moves():
            return
        self.solve_finish()
        self._next_check = (session.snapshot(), self.host.turn)
        if self._checking:
            return
        self._checking = True
        self._run_checks()

    @work(group="progress", exit_on_error=False)
    async def _run_checks(self) -> None:
        """Run the waiting checks, one after another, until none waits."""
        while True:
            job, self._next_check = self._next_check, None
            if job is None:
                self._checking = False
                return
            position, turn = job
            possible, error = await off_thread(partial(self.advisor.progress, position))
            self._answer(self.ProgressChecked(turn, possible, error))

    def on_searches_progress_checked(self, answer: ProgressChecked) -> None:
        if answer.possible is False and answer.turn == self.host.turn:
            self.host.stuck()  # proven only: never for a search run out

    # -- the auto finish: solved, then played -------------------------------------------

    def solve_finish(self) -> bool:
        """Start solving the auto finish of the player's board, when it places
        every card and no line is offered yet; whether one is under way."""
        session, turn = self.host.session, self.host.turn
        if session.is_over or session.finish_offered:
            return False
        if self._finish_turn == turn:
            return True
        view = session.board_view()
        if not view.is_known():
            return False
        self._finish_turn = turn
        self._solve(view, session.position, turn)
        return True

    @work(exclusive=True, group="finish", exit_on_error=False)
    async def _solve(self, view: PlayerView, start: Position, turn: int) -> None:
        line, error = await off_thread(partial(self.finisher.finish, view))
        self._answer(self.FinishSolved(turn, start, line, error))

    def on_searches_finish_solved(self, answer: FinishSolved) -> None:
        """Offer the solved line to the session; start the finish if A was pressed."""
        if answer.turn != self._finish_turn:
            return  # a newer solve is under way
        self._finish_turn = None
        turn, line, session = answer.turn, answer.line, self.host.session
        if turn != self.host.turn:
            return
        offered = bool(line) and session.offer_finish(line or (), answer.start)
        if self._auto_wanted == turn:
            self._auto_wanted = None
            rules = session.rules
            unavailable = failed(answer.error, "", "Auto finish", rules) if line is None else ""
            if unavailable:
                self.host.say(unavailable)
                return
            self._start_auto()
        elif offered and not self.auto_on:
            self.host.say(self.host.announcement, AUTO_OFFER)

    def auto(self) -> None:
        """Play the whole auto finish, one move per ``auto_step``; again, stop it.
        The finisher's line is solved first when not offered yet."""
        if self.stop_auto():
            self.host.say(AUTO_STOPPED)
            return
        if self.solve_finish():
            self._auto_wanted = self.host.turn
            self.host.say(THINKING)
            return
        self._start_auto()

    def _start_auto(self) -> None:
        session = self.host.session
        if session.auto_move() is None:
            self.host.act(session.auto_step)  # says why not (unseen cards, or game over)
            return
        self.auto_on = True
        self._auto_next()

    def _auto_next(self) -> None:
        """One auto-finish move, then the next after a pause, until the game is won."""
        self._auto = None
        if not self.auto_on:
            return
        session = self.host.session
        if self.host.act(session.auto_step, auto=True) is None or session.is_over:
            self.auto_on = False
            return
        self._auto = self.set_timer(self.auto_step, self._auto_next)

    def stop_auto(self) -> bool:
        """Stop a running auto finish; whether one ran."""
        if not self.auto_on:
            return False
        self.auto_on = False
        if self._auto is not None:
            self._auto.stop()
            self._auto = None
        return True

    # -- a hint -------------------------------------------------------------------------

    def hint(self) -> None:
        """Ask for a hint from the player's view (never the position: no hidden card)."""
        self.host.say(THINKING)
        turn = self.host.turn
        if self._hint_turn == turn:
            return  # this position's search is under way
        self._hint_turn = turn
        self._hint(self.host.session.view(), turn)

    @work(exclusive=True, group="hint", exit_on_error=False)
    async def _hint(self, view: PlayerView, turn: int) -> None:
        hint, error = await off_thread(partial(ask, self.advisor, view))
        self._answer(self.HintFound(turn, hint, error))

    def on_searches_hint_found(self, answer: HintFound) -> None:
        if answer.turn == self._hint_turn:
            self._hint_turn = None
        if answer.turn != self.host.turn:
            return
        if answer.hint is None:
            rules = self.host.session.rules
            self.host.say(failed(answer.error, HINT_FAILED, "Hints", rules, plural=True))
            return
        self.host.show_hint(answer.hint)

    # -- "still winnable?" ----------------------------------------------------------------

    def winnable(self) -> None:
        """Ask "still winnable?": it looks at the hidden cards, so it asks first (once a
        game), then marks the game assisted and asks the judge."""
        if self.host.session.assisted:
            self._ask_winnable()
            return
        turn = self.host.turn

        def answered(yes: bool | None) -> None:
            if yes and turn == self.host.turn and not self.host.session.is_over:
                self._ask_winnable()

        self.app.push_screen(ConfirmScreen(f"{LABEL}\n{CONFIRM}", yes="Look"), answered)

    def _ask_winnable(self) -> None:
        position = self.host.session.peek()  # the game counts as assisted from here
        self.host.say(THINKING, *self.host.keep())
        turn = self.host.turn
        if self._winnable_turn == turn:
            return  # this position's search is under way
        self._winnable_turn = turn
        self._judge(position, turn)

    @work(exclusive=True, group="winnable", exit_on_error=False)
    async def _judge(self, position: Position, turn: int) -> None:
        verdict, error = await off_thread(partial(self.judge, position))
        self._answer(self.Judged(turn, verdict, error))

    def on_searches_judged(self, answer: Judged) -> None:
        if answer.turn == self._winnable_turn:
            self._winnable_turn = None
        if answer.turn != self.host.turn:
            return
        if answer.verdict is None:
            rules = self.host.session.rules
            self.host.say(failed(answer.error, FAILED, f'"{LABEL}"', rules))
        else:
            self.host.say(WinnableAnswer.of(answer.verdict).text)

    # -- the review of a lost game ---------------------------------------------------------

    def review(self, lost: Session) -> None:
        """Review ``lost``: the move that lost it and a line that would have won
        (it may show hidden cards: that game is over)."""
        self.host.say(REVIEWING)
        if self._reviewing:
            return  # under way
        self._reviewing = True
        self._review(lost)

    @work(exclusive=True, group="review", exit_on_error=False)
    async def _review(self, lost: Session) -> None:
        lines, error = await off_thread(partial(lost_game_review, lost))
        self._answer(self.Reviewed(lost.rules, lines, error))

    def on_searches_reviewed(self, answer: Reviewed) -> None:
        self._reviewing = False
        if answer.lines is None:
            self.host.say(failed(answer.error, REVIEW_FAILED, "The review", answer.rules))
            return
        self.host.say("")
        self.app.push_screen(ReviewScreen(answer.lines))
