"""The terminal game: the table, picking piles, typed moves, hints, over a ``Session``.

The flow of a game (status, clock, undo rules, auto finish, score, what may be
done once it is over) is the session's, as on the web; this module presents
it, writes the game's record after every action, and runs the searches
(hints, the progress check, the auto finish's solve) in worker threads so the
table keeps answering.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import ClassVar, Final

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.timer import Timer
from textual.widgets import Footer, Input, Static
from textual.worker import Worker, WorkerState

from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError, RulesError, SaveError
from bonanza.core.game import Game
from bonanza.core.moves import ALL_COLUMNS, Move, Pile
from bonanza.core.position import Position
from bonanza.core.rules import Rules, Scoring, StockMode
from bonanza.session import (
    Action,
    Advisor,
    Event,
    Finisher,
    GameRecord,
    Hint,
    Origin,
    Session,
    Status,
    bankroll,
    messages,
    random_deal,
    statistics,
)
from bonanza.session.advisor import ask
from bonanza.session.deals import DEAL_NUMBER_BITS
from bonanza.session.winnable import CONFIRM, FAILED, LABEL, Judge, WinnableAnswer
from bonanza.storage import Storage, StorageError
from bonanza.storage.player_settings import safe_home, set_safe_home
from bonanza.tui.confirm_screen import ConfirmScreen
from bonanza.tui.help_screen import HelpScreen
from bonanza.tui.new_deal_screen import NewDealChoice, NewDealScreen
from bonanza.tui.picking import destinations, move_between, moves_from
from bonanza.tui.pile_view import PileView
from bonanza.tui.review_screen import ReviewScreen, review_lines
from bonanza.tui.stats_screen import StatsScreen
from bonanza.tui.status_bar import StatusBar
from bonanza.tui.table_view import TableView, piles_in_play

CLIENT: Final = "terminal"
"""The front end named in the records: the terminal resumes and ends only its own games."""
GAME_ID_BYTES: Final = 12
"""Random bytes in a game's ID (as the web's)."""
TICK_SECONDS: Final = 1.0
"""How often the status line's clock and timed score are brought up to date."""
AUTO_STEP_SECONDS: Final = 0.1
"""The pause between two auto-finish moves, so the player sees each card go home."""
PROGRESS_DELAY: Final = 0.35
"""Seconds after a move before the progress check starts (as the web): quick
moves in a row start one search, not one each."""

THINKING: Final = "Thinking…"
AUTO_OFFER: Final = "Press A to finish"
AUTO_STOPPED: Final = "Auto finish stopped"
HINT_FAILED: Final = "No hint: the search failed"
NOT_YET: Final = "{what} {verb} not available for {game} yet"
"""Said when a search refuses the rules in play (``RulesError``): no search
plays that table yet."""
NEW_DEAL_QUESTION: Final = "Start a new deal? This game will count as lost."
RESTART_QUESTION: Final = (
    "Restart this deal? All cards go back to the start. Redo can replay your moves."
)
OVER_NOTE: Final = "Press N for a new deal"
REVIEW_OFFER: Final = "Press V to review the game you lost"
REVIEWING: Final = "Reviewing the lost game…"
NO_REVIEW: Final = "No lost game to review: a review is given once a game is lost"
REVIEW_FAILED: Final = "No review: the search failed"
RESUMED: Final = "Resumed your game"
SAFE_HOME_ON: Final = "Safe auto-play on: safe cards go home by themselves (O turns it off)"
SAFE_HOME_OFF: Final = "Safe auto-play off: cards go home only when you move them"


def new_game_id() -> str:
    return secrets.token_urlsafe(GAME_ID_BYTES)


def column_key(pile: Pile) -> str:
    """The key that picks a column: ``1``…``9``, and ``0`` for column 10."""
    return str((pile.column_index + 1) % 10)


def not_yet(what: str, rules: Rules, *, plural: bool = False) -> str:
    """The notice for a search that refused the rules in play, such as
    ``Hints are not available for Westcliff yet``."""
    return NOT_YET.format(what=what, verb="are" if plural else "is", game=rules.title)


Start = NewDealChoice | Session
"""How the app begins instead of resuming from storage: a new game (its rules,
and the deal's text or None for a random deal), or a saved session to resume."""


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
    ``auto_step`` is the pause between auto-finish moves.
    """

    TITLE = "Bonanza"
    AUTO_FOCUS = None  # keys play the game; ":" moves focus to the move box
    # Fits 80×24: 9 lines of chrome leave the tableau 15 (pile_view.MAX_COLUMN_LINES).
    CSS = """
    #message { height: 2; padding: 0 2; color: $text-muted; }
    #command { margin: 0 1; height: 1; border: none; padding: 0 1; }
    Footer FooterKey.-command-palette { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "draw", "Draw"),
        Binding("space", "deal", "Deal"),
        Binding("u", "undo", "Undo"),
        Binding("y", "redo", "Redo"),
        Binding("h", "hint", "Hint"),
        Binding("W", "winnable", LABEL, show=False),
        Binding("v", "review", "Review", show=False),
        Binding("a", "auto", "Finish"),
        Binding("o", "safe_home", "Auto-play", show=False),
        Binding("n", "new_deal", "New"),
        Binding("r", "restart", "Restart", show=False),
        Binding("s", "stats", "Stats"),
        Binding("colon", "command", "Type a move", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("w", "pick('waste')", "Waste", show=False),
        Binding("f", "pick('foundation')", "Foundation", show=False),
        *(
            Binding(column_key(pile), f"pick('{pile.name.lower()}')", pile.label.capitalize(),
                    show=False)
            for pile in ALL_COLUMNS
        ),
        Binding("question_mark", "help", "Help"),
        Binding("f1", "help", "Help", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        storage: Storage,
        player: str,
        *,
        rules: Rules | None = None,
        start: Start | None = None,
        advisor: Advisor | None = None,
        finisher: Finisher | None = None,
        judge: Judge | None = None,
        clock: Callable[[], float] = time.time,
        save_path: Path | None = None,
        random_deals: Callable[[], Deal] = random_deal,
        auto_step: float = AUTO_STEP_SECONDS,
    ) -> None:
        super().__init__()
        self.storage = storage
        self.player = player
        self.clock = clock
        self.save_path = save_path
        self.random_deals = random_deals
        self.auto_step = auto_step
        if advisor is None:
            from bonanza.solver.advisor import SolverAdvisor

            advisor = SolverAdvisor()
        self.advisor: Advisor = advisor
        if finisher is None:
            from bonanza.solver.advisor import SolverAdvisor

            finisher = SolverAdvisor()
        self.finisher: Finisher = finisher
        if judge is None:
            from bonanza.solver.review import still_winnable

            judge = still_winnable
        self.judge: Judge = judge
        self.selected: Pile | None = None
        self._turn = 0  # counts the changes of position: a search answers for one turn
        self._notes: list[str] = []  # problems met before the table is shown
        self._text = ""  # the message line's announcement
        self._auto_on = False  # an auto finish is running
        self._auto: Timer | None = None  # its next step
        self._progress_timer: Timer | None = None
        self._hint: tuple[Worker[Hint], int] | None = None
        self._progress: tuple[Worker[bool | None], int] | None = None
        self._progress_waiting = False
        self._finishing: tuple[Worker[Sequence[Move] | None], int, Position] | None = None
        self._auto_wanted: int | None = None  # A was pressed on this turn: start once solved
        self._winnable: tuple[Worker[str], int] | None = None
        self._review: Worker[list[str]] | None = None
        self.lost: Session | None = None  # the last game this app ended lost, to review
        self._bank_base = 0
        self._stored = False
        self._resumed = False
        self.session, self.record = self._open(rules or Rules(), start, self.clock())
        self._apply_settings()
        self._save_noted()  # the file and the record agree from the start

    @property
    def game(self) -> Game:
        """The game being played (read it; play through the session)."""
        return self.session.game

    # -- starting and resuming ------------------------------------------------------

    def _open(self, rules: Rules, start: Start | None, now: float) -> tuple[Session, GameRecord]:
        """The game to show first: ``start``, else the latest terminal game in play,
        else a random deal."""
        if isinstance(start, NewDealChoice):
            return self._begin(start.rules, start.deal_text, now)
        if isinstance(start, Session):
            resumed = self._resume_saved(start, now)
            if resumed is not None:
                return resumed
        else:
            resumed = self._resume_stored(now)
            if resumed is not None:
                return resumed
        return self._begin(rules, None, now)

    def _playing(self) -> list[GameRecord]:
        """The player's terminal games in play, newest last."""
        try:
            found = self.storage.playing_games(self.player, CLIENT)
        except StorageError as error:
            self._notes.append(f"Could not read the stored games: {error}")
            return []
        return sorted(found, key=lambda record: record.created_at)

    def _resume_stored(self, now: float) -> tuple[Session, GameRecord] | None:
        """The latest terminal game in play, its older fellows ended."""
        playing = self._playing()
        for record in reversed(playing):
            try:
                session = Session.from_json(record.state)
            except SaveError as error:
                self._notes.append(f"Could not read back a stored game: {error}")
                continue
            if session.is_over:
                continue
            self._stored = self._resumed = True
            self._end_others(playing, record.id, now)
            return session, record
        return None

    def _resume_saved(self, session: Session, now: float) -> tuple[Session, GameRecord] | None:
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
                self._stored = self._resumed = True
                self._end_others(playing, record.id, now)
                return session, record
        try:
            seen = self.storage.has_played_deal(self.player, deal, session.rules)
        except StorageError as error:
            self._notes.append(f"Could not read the stored games: {error}")
            seen = False
        if seen:
            self._notes.append("The saved game is over in the records: here is a new deal")
            return None
        if not session.created_at:
            session.created_at = now  # an older save: it starts in the records now
        self._end_others(playing, None, now)
        self._resumed = True
        return session, self._new_record(session, now)

    def _begin(
        self, rules: Rules, deal_text: str | None, now: float
    ) -> tuple[Session, GameRecord]:
        """A new game: the typed deal, else a random one (a replay if seen before)."""
        self._end_others(self._playing(), None, now)
        self._resumed = False
        if deal_text is not None:
            deal, origin = Deal.parse(deal_text, rules.decks), Origin.TYPED
        else:
            deal, origin = self._random_deal(rules), Origin.RANDOM
            try:
                if self.storage.has_played_deal(self.player, deal.id, rules):
                    origin = Origin.REPLAY
            except StorageError as error:
                self._notes.append(f"Could not read the stored games: {error}")
        session = Session.new(deal, rules, now, origin=origin, typed=deal_text)
        return session, self._new_record(session, now)

    def _random_deal(self, rules: Rules) -> Deal:
        """A deal of ``random_deals``; for two decks, the deal of its number
        with two decks (a fresh secret number when it has none)."""
        deal = self.random_deals()
        if deal.decks == rules.decks:
            return deal
        number = deal.number if deal.number is not None else secrets.randbits(DEAL_NUMBER_BITS)
        return Deal.from_number(number, rules.decks)

    def _new_record(self, session: Session, now: float) -> GameRecord:
        record = GameRecord.of(new_game_id(), self.player, session, now, client=CLIENT)
        self._stored = False
        try:
            self.storage.insert_game(record)
            self._stored = True
        except StorageError as error:
            self._notes.append(self._unstored(error))
        return record

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
                self._notes.append(self._unstored(error))

    # -- keeping the game ------------------------------------------------------------

    @staticmethod
    def _unstored(error: StorageError) -> str:
        return f"Not stored: {error}"

    def _write(self, now: float) -> list[str]:
        """Store the record (and the save file); the problems met, as notes."""
        notes: list[str] = []
        self.record.update(self.session, now)
        self.record.version += 1
        try:
            if self._stored:
                self.storage.update_game(self.record)
            else:  # its first write failed: it is not in the store yet
                self.storage.insert_game(self.record)
                self._stored = True
        except StorageError as error:  # not stored: the store keeps the version before
            self.record.version -= 1
            notes.append(self._unstored(error))
        save_note = self.save()
        if save_note is not None:
            notes.append(save_note)
        return notes

    def save(self) -> str | None:
        """Write the session's JSON to ``save_path`` (atomically); a problem, as a note."""
        if self.save_path is None:
            return None
        try:
            self.save_path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.save_path.with_name(self.save_path.name + ".tmp")
            temporary.write_text(json.dumps(self.session.to_json()), encoding="utf-8")
            temporary.replace(self.save_path)
        except OSError as error:
            return f"Not saved to {self.save_path}: {error.strerror or error}"
        return None

    def _earlier_bankroll(self) -> int:
        """Cumulative Vegas: the money after the earlier games of these rules and kind."""
        if self.session.rules.scoring is not Scoring.VEGAS_CUMULATIVE:
            return 0
        try:
            earlier = self.storage.finished_games(self.player)
        except StorageError as error:
            self._notes.append(f"Could not read the bankroll: {error}")
            return 0
        chosen = self.record.origin.is_chosen
        same = [
            game
            for game in earlier
            if game.rules_key == self.record.rules_key
            and game.id != self.record.id
            and game.origin.is_chosen == chosen
            and not game.assisted  # as the statistics count it
        ]
        return bankroll(same)

    # -- layout ----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield TableView(id="table")
        yield Static(id="message", markup=False)
        yield Input(placeholder="type a move (sw, w3, 6f, 47:2) and Enter", id="command")
        yield Footer()

    def on_mount(self) -> None:
        # Kept, not queried: queries go to the screen on top (a dialog, say).
        self.status_line = self.query_one(StatusBar)
        self.message_line = self.query_one("#message", Static)
        self.table = self.query_one(TableView)
        self._views = {view.pile: view for view in self.query(PileView)}
        self.set_interval(TICK_SECONDS, self.tick)
        self._shown(self.clock())
        notes = list(self._notes)
        self._notes.clear()
        self.say(self._greeting(), *notes)

    def _save_noted(self) -> None:
        """Write the save file, noting a problem for the message line."""
        note = self.save()
        if note is not None:
            self._notes.append(note)

    def _apply_settings(self) -> None:
        """The player's stored settings, on the game on the table."""
        try:
            on = safe_home(self.storage, self.player)
        except StorageError as error:
            self._notes.append(f"Could not read your settings: {error}")
            return
        if self.session.safe.on != on:
            self.session.set_safe_home(on)

    def _greeting(self) -> str:
        if self.session.is_over:
            return OVER_NOTE
        return RESUMED if self._resumed else messages.NEW_DEAL

    def _shown(self, now: float) -> None:
        """A game comes on the table: forget the last one's searches and timers."""
        self._turn += 1
        self._stop_auto()
        self.selected = None
        self._bank_base = self._earlier_bankroll()
        rules = self.session.rules
        self.table.lay_out(rules)
        self.sub_title = rules.title
        self.refresh_bindings()
        self.refresh_table(now)

    def pile_view(self, pile: Pile) -> PileView:
        return self._views[pile]

    def refresh_table(self, now: float | None = None) -> None:
        position = self.session.position
        in_play = piles_in_play(position.rules)
        for view in self._views.values():
            if view.pile in in_play:
                view.show(position)
            view.selected = view.pile == self.selected
            view.hinted = False
        self._show_status(self.clock() if now is None else now)

    def _show_status(self, now: float) -> None:
        bank = None
        if self.session.rules.scoring is Scoring.VEGAS_CUMULATIVE:
            bank = self._bank_base + self.session.score(now)
        self.status_line.show_session(self.session, now, bankroll=bank)

    def say(self, text: str, *notes: str) -> None:
        """Show ``text`` (an announcement), then each note on its own line."""
        self._text = text
        self.message_line.update("\n".join((text, *notes)) if text else "\n".join(notes))

    def tick(self) -> None:
        """Once a second: the clock and the timed score, live."""
        if not self.is_running:
            return
        with contextlib.suppress(NoMatches):  # shutting down: the table may be gone
            self._show_status(self.clock())

    # -- playing -------------------------------------------------------------------

    def _act(self, action: Callable[[float], Event], *, auto: bool = False) -> Event | None:
        """Run one session action and show what it did; a refusal says why."""
        if not auto:
            self._stop_auto()
        now = self.clock()
        try:
            event = action(now)
        except BonanzaError as error:  # the session's (or the rules') own words
            self.say(str(error))
            return None
        self._turn += 1
        self.selected = None
        notes = self._write(now)
        self.refresh_table(now)
        if self.session.is_over:
            notes.append(OVER_NOTE)
        elif not self._auto_on and self.session.auto_move() is not None:
            notes.append(AUTO_OFFER)
        self.say(event.summary, *notes)
        if event.action is not Action.AUTO:
            self._schedule_progress()
        return event

    def play(self, move: Move | str) -> Event | None:
        """Play ``move`` (or its text) through the session."""
        return self._act(partial(self.session.play, move))

    def _refused_as_over(self) -> bool:
        """Once over, say why nothing can be played (the session's GameOverError)."""
        if not self.session.is_over:
            return False
        self._act(self.session.draw)  # refused: the game is over
        return True

    def pick(self, pile: Pile) -> None:
        """Pick ``pile`` up, or drop the picked cards onto it."""
        if self._refused_as_over():
            return
        position = self.session.position
        if pile == Pile.STOCK:
            self.action_draw()
            return
        if self.selected is not None and self.selected != pile:
            move = move_between(position, self.selected, pile)
            if move is None:
                self.say(f"Nothing from {self.selected.label} goes to {pile.label}.")
                self.selected = None
                self.refresh_table()
                return
            self.play(move)
            return
        targets = destinations(position, pile)
        if not targets:
            self.say(f"Nothing in {pile.label} can move.")
            return
        if len(targets) == 1:
            self.play(max(moves_from(position, pile), key=lambda move: move.count))
            return
        self.selected = pile
        self.refresh_table()
        self.say(f"Picked up {pile.label}: now pick where it goes (Esc cancels).")

    def on_pile_view_picked(self, message: PileView.Picked) -> None:
        self.pick(message.pile)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        if event.value.strip():
            self.play(event.value)
        self.set_focus(None)

    # -- auto finish -------------------------------------------------------------------

    def _stop_auto(self) -> bool:
        """Stop a running auto finish; whether one ran."""
        if not self._auto_on:
            return False
        self._auto_on = False
        if self._auto is not None:
            self._auto.stop()
            self._auto = None
        return True

    def _auto_next(self) -> None:
        """One auto-finish move, then the next after a pause, until the game is won."""
        self._auto = None
        if not self._auto_on:
            return
        if self._act(self.session.auto_step, auto=True) is None or self.session.is_over:
            self._auto_on = False
            return
        self._auto = self.set_timer(self.auto_step, self._auto_next)

    # -- searches, in worker threads --------------------------------------------------

    def _schedule_progress(self) -> None:
        if self._progress_timer is not None:
            self._progress_timer.stop()
        self._progress_timer = self.set_timer(PROGRESS_DELAY, self._check_progress)

    def _check_progress(self) -> None:
        """Ask the advisor, off the UI thread, whether progress is still possible,
        and the finisher for the auto finish once the player knows every card."""
        self._progress_timer = None
        session = self.session
        if session.status is not Status.PLAYING or not session.position.has_moves():
            return
        self._solve_finish()
        if self._progress is not None and self._progress[0].is_running:
            self._progress_waiting = True  # one search at a time: this turn's comes next
            return
        worker = self.run_worker(
            partial(self.advisor.progress, session.snapshot()),
            name="progress",
            group="progress",
            thread=True,
            exit_on_error=False,
        )
        self._progress = (worker, self._turn)

    def _solve_finish(self) -> bool:
        """Start solving the auto finish of the player's board in a worker, when
        it places every card and no line is offered yet; whether one is under way."""
        session = self.session
        if session.is_over or session.finish_offered:
            return False
        if self._finishing is not None and self._finishing[1] == self._turn:
            return True
        view = session.board_view()
        if not view.is_known():
            return False
        worker = self.run_worker(
            partial(self.finisher.finish, view),
            name="finish",
            group="finish",
            thread=True,
            exit_on_error=False,
        )
        self._finishing = (worker, self._turn, session.position)
        return True

    def _finish_solved(self, state: WorkerState) -> None:
        """Offer the solved line to the session; start the finish if A was pressed."""
        if self._finishing is None:
            return
        worker, turn, start = self._finishing
        self._finishing = None
        if turn != self._turn:
            return
        line = worker.result if state is WorkerState.SUCCESS else None
        offered = bool(line) and self.session.offer_finish(line or (), start)
        if self._auto_wanted == turn:
            self._auto_wanted = None
            unavailable = self._failed(worker.error, "", "Auto finish") if line is None else ""
            if unavailable:
                self.say(unavailable)
                return
            self._start_auto()
        elif offered and not self._auto_on:
            self.say(self._text, AUTO_OFFER)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        if self._finishing is not None and event.worker is self._finishing[0]:
            self._finish_solved(event.state)
        elif self._hint is not None and event.worker is self._hint[0]:
            worker, turn = self._hint
            self._hint = None
            if turn == self._turn:
                hint = worker.result if event.state is WorkerState.SUCCESS else None
                if hint is not None:
                    self._show_hint(hint)
                else:
                    self.say(self._failed(worker.error, HINT_FAILED, "Hints", plural=True))
        elif self._winnable is not None and event.worker is self._winnable[0]:
            asked, turn = self._winnable
            self._winnable = None
            if turn == self._turn:
                verdict = asked.result if event.state is WorkerState.SUCCESS else None
                if verdict is None:
                    self.say(self._failed(asked.error, FAILED, f'"{LABEL}"'))
                else:
                    self.say(WinnableAnswer.of(verdict).text)
        elif self._review is not None and event.worker is self._review:
            reviewed = self._review
            self._review = None
            lost_rules = self.lost.rules if self.lost is not None else self.session.rules
            if event.state is WorkerState.SUCCESS and reviewed.result is not None:
                self.say("")
                self.push_screen(ReviewScreen(reviewed.result))
            else:
                self.say(
                    self._failed(reviewed.error, REVIEW_FAILED, "The review", rules=lost_rules)
                )
        elif self._progress is not None and event.worker is self._progress[0]:
            progress, turn = self._progress
            self._progress = None
            stuck = event.state is WorkerState.SUCCESS and progress.result is False
            if stuck and turn == self._turn:
                self.say(self._text, messages.STUCK)  # proven only: never for a search run out
            if self._progress_waiting:
                self._progress_waiting = False
                self._check_progress()

    def _failed(
        self, error: BaseException | None, failed: str, what: str, *, plural: bool = False,
        rules: Rules | None = None,
    ) -> str:  # fmt: skip
        """What to say when a search gave no answer: ``failed``, or, when it
        raised ``RulesError`` (no search plays the rules in play yet), that
        ``what`` is not available there. Any other error is a bug, and
        gets ``failed`` in every game."""
        rules = rules or self.session.rules
        if isinstance(error, RulesError):
            return not_yet(what, rules, plural=plural)
        return failed

    def _show_hint(self, hint: Hint) -> None:
        """The engine's words on the message line, and its move's piles lit up
        (for a draw, the stock and the waste)."""
        self.refresh_table()
        if hint.move is not None:
            self.pile_view(hint.move.source).hinted = True
            self.pile_view(hint.move.dest).hinted = True
        self.say(hint.text)

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
        rules = self.session.rules
        if (pile.is_tableau and pile not in rules.tableau_piles) or (
            pile == Pile.WASTE and rules.stock_mode is not StockMode.WASTE
        ):
            self.say(f"{rules.title} has no {pile.label}.")
            return
        self.pick(pile)

    def action_draw(self) -> None:
        self._act(self.session.draw)

    def action_deal(self) -> None:
        """Deal one card onto every column (Easthaven's stock): the session's draw."""
        self._act(self.session.draw)

    def action_undo(self) -> None:
        self._act(self.session.undo)

    def action_redo(self) -> None:
        self._act(self.session.redo)

    def action_restart(self) -> None:
        """Back to the deal, after asking; refused (in the session's words) when it cannot."""
        self._stop_auto()
        if not self.session.can_restart:
            self._act(self.session.restart)  # says why not
            return
        turn = self._turn

        def answered(yes: bool | None) -> None:
            if yes and turn == self._turn:
                self._act(self.session.restart)

        self.push_screen(ConfirmScreen(RESTART_QUESTION), answered)

    def action_auto(self) -> None:
        """Play the whole auto finish, one move per ``auto_step``; again, stop it.
        The finisher's line is solved first (in a worker) when not offered yet."""
        if self._stop_auto():
            self.say(AUTO_STOPPED)
            return
        if self._solve_finish():
            self._auto_wanted = self._turn
            self.say(THINKING)
            return
        self._start_auto()

    def _start_auto(self) -> None:
        if self.session.auto_move() is None:
            self._act(self.session.auto_step)  # says why not (unseen cards, or game over)
            return
        self._auto_on = True
        self._auto_next()

    def action_safe_home(self) -> None:
        """Switch safe auto-play, the player's setting (kept in the store)."""
        on = not self.session.safe.on
        self.session.set_safe_home(on)
        notes = self._write(self.clock())
        try:
            set_safe_home(self.storage, self.player, on)
        except StorageError as error:
            notes.append(self._unstored(error))
        self.say(SAFE_HOME_ON if on else SAFE_HOME_OFF, *notes)

    def action_hint(self) -> None:
        self._stop_auto()
        if self._refused_as_over():
            return
        self.say(THINKING)
        if self._hint is not None and self._hint[1] == self._turn:
            return  # this position's search is under way
        # The engine gets the player's view, never the position: no hidden card.
        worker = self.run_worker(
            partial(ask, self.advisor, self.session.view()),
            name="hint",
            group="hint",
            thread=True,
            exit_on_error=False,
        )
        self._hint = (worker, self._turn)

    def action_winnable(self) -> None:
        """Ask "still winnable?": it looks at the hidden cards, so it asks first (once a
        game), then marks the game assisted and asks the judge in a worker."""
        self._stop_auto()
        if self._refused_as_over():
            return
        if self.session.assisted:
            self._ask_winnable()
            return
        turn = self._turn

        def answered(yes: bool | None) -> None:
            if yes and turn == self._turn and not self.session.is_over:
                self._ask_winnable()

        self.push_screen(ConfirmScreen(f"{LABEL}\n{CONFIRM}", yes="Look"), answered)

    def _ask_winnable(self) -> None:
        now = self.clock()
        position = self.session.peek()  # the game counts as assisted from here
        notes = self._write(now)
        self._show_status(now)
        self.say(THINKING, *notes)
        if self._winnable is not None and self._winnable[1] == self._turn:
            return  # this position's search is under way
        worker = self.run_worker(
            partial(self.judge, position),
            name="winnable",
            group="winnable",
            thread=True,
            exit_on_error=False,
        )
        self._winnable = (worker, self._turn)

    def action_review(self) -> None:
        """Review the last game lost here: the move that lost it and a line that
        would have won (it may show hidden cards: that game is over)."""
        lost = self.lost
        if lost is None:
            self.say(NO_REVIEW)
            return
        self.say(REVIEWING)
        if self._review is not None:
            return  # under way
        self._review = self.run_worker(
            partial(_review_lines, lost),
            name="review",
            group="review",
            thread=True,
            exit_on_error=False,
        )

    def action_new_deal(self) -> None:
        """Choose the next game's rules and deal; a game in progress asks first."""
        self._stop_auto()
        if self.session.touched and not self.session.is_over:

            def answered(yes: bool | None) -> None:
                if yes:
                    self._choose_deal()

            self.push_screen(ConfirmScreen(NEW_DEAL_QUESTION), answered)
            return
        self._choose_deal()

    def _choose_deal(self) -> None:
        def chosen(choice: NewDealChoice | None) -> None:
            if choice is not None:
                self.new_game(choice)

        self.push_screen(NewDealScreen(self.session.rules), chosen)

    def new_game(self, choice: NewDealChoice) -> None:
        """End the game on the table (lost once it counts), then start ``choice``."""
        now = self.clock()
        notes: list[str] = []
        if not self.session.is_over:
            self.session.end(now)
            notes += self._write(now)
        if self.session.status is Status.LOST:
            self.lost = self.session
            notes.append(REVIEW_OFFER)
        self.session, self.record = self._begin(choice.rules, choice.deal_text, now)
        self._apply_settings()
        self._save_noted()
        self._shown(now)
        notes += self._notes
        self._notes.clear()
        self.say(messages.NEW_DEAL, *notes)

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
        self.query_one("#command", Input).focus()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.session.rules))


def _review_lines(session: Session) -> list[str]:
    """The solver's review of a lost game, as the review screen's lines."""
    from bonanza.solver.review import review

    game = session.game
    return review_lines(review(game.positions, game.history), game.positions)
