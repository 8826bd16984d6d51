"""The terminal game over the session: the web's flow, words and clock, in the terminal.

Also the helpers the other terminal tests share: a fake advisor, a settable
clock and readers of the message and status lines.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Select

from bonanza.cli import main
from bonanza.cli.play import read_save
from bonanza.core import Deal, Move, Pile, Position, Rules, Scoring
from bonanza.core.notation import format_move
from bonanza.core.view import PlayerView
from bonanza.session import GameOverError, Hint, Origin, Session, Status, messages
from bonanza.storage import SQLiteStorage, StorageError
from bonanza.storage.records import GameRecord
from bonanza.tui.app import TICK_SECONDS, BonanzaApp
from bonanza.tui.confirm_screen import ConfirmScreen
from bonanza.tui.help_screen import HelpScreen
from bonanza.tui.new_deal_screen import NewDealChoice, NewDealScreen
from bonanza.tui.pile_view import PileView
from bonanza.tui.stats_screen import StatsScreen
from bonanza.tui.words import AUTO_OFFER, NEW_DEAL_QUESTION, REVIEW_OFFER, THINKING

pytestmark = pytest.mark.anyio

SIZE = (80, 24)
"""The smallest terminal the game must fit."""
GATE_TIMEOUT = 30.0
"""Seconds a gated hint waits for its gate at most. Each test opens its gate as it
ends; the bound is long because a loaded CI machine can spend over a second on one
key press, and a hint let through early is not the behaviour under test."""
AUTO_STEP = 0.01
"""Seconds between auto-finish moves in the tests (the game's own is 0.1)."""
PLAYER = "player"
TICKS_WAITED = 10
"""Clock ticks a test waits for the status line to change, on a loaded machine."""
TICK_POLL = 0.05
"""Seconds between looks at the status line."""
EXIT_BAD_INPUT = 2


# -- helpers (shared with test_app and test_terminal_to_web_stats) ------------------


def fake_hint_text(move: Move | None) -> str:
    """The fake advisor's words: the move's notation, as an engine might say it."""
    return "No move helps" if move is None else f"Try {format_move(move)}"


@dataclass
class FakeAdvisor:
    """An ``Advisor`` that answers at once, or once ``gate`` opens."""

    move: Move | None = None
    progress_answer: bool | None = True
    gate: threading.Event | None = None
    hints: int = 0
    checks: int = 0
    views: list[PlayerView] = field(default_factory=list)
    started: threading.Event = field(default_factory=threading.Event)

    def hint(self, view: PlayerView) -> Hint:
        self.hints += 1
        self.views.append(view)
        self.started.set()
        if self.gate is not None:
            self.gate.wait(GATE_TIMEOUT)
        moves = view.legal_moves()
        move = self.move if self.move is not None else next(iter(moves), None)
        return Hint(move, fake_hint_text(move))

    def progress(self, position: Position) -> bool | None:
        self.checks += 1
        return self.progress_answer


@dataclass
class Clock:
    """Wall-clock time, as the test sets it."""

    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def message(app: BonanzaApp) -> str:
    """The message line (whatever screen is on top)."""
    return str(app.table_screen.message_line.render())


def status(app: BonanzaApp) -> str:
    """The whole status line."""
    return app.table_screen.status_line.text


def winning_deal() -> tuple[Deal, list[Move]]:
    """A draw-1 deal and a line that wins it (from the web tests' searches)."""
    from tests.web.deals import winning

    number, line = winning()
    return Deal.parse(number), line


def play_until_auto(app: BonanzaApp, line: list[Move]) -> None:
    """Play ``line`` through the app until an auto finish is offered."""
    for move in line:
        if app.session.auto_move() is not None:
            return
        app.play(move)
    raise AssertionError("the line never offered an auto finish")


async def settle(app: BonanzaApp, pilot: Any) -> None:
    """Let the worker threads finish and their answers arrive."""
    await app.workers.wait_for_complete()
    await pilot.pause()


# -- fixtures -----------------------------------------------------------------------


def typed(number: int | str, rules: Rules | None = None) -> NewDealChoice:
    return NewDealChoice(rules or Rules(), str(number))


def app_on(storage: Any, **options: Any) -> BonanzaApp:
    options.setdefault("advisor", FakeAdvisor())
    options.setdefault("auto_step", AUTO_STEP)
    return BonanzaApp(storage, PLAYER, **options)


# -- auto finish ----------------------------------------------------------------------


async def test_a_wins_by_auto_finish_and_the_deal_shows_once_over(
    storage: SQLiteStorage,
) -> None:
    deal, line = winning_deal()
    app = app_on(storage, random_deals=lambda: deal)
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.origin is Origin.RANDOM
        play_until_auto(app, line)
        assert AUTO_OFFER in message(app)
        assert "Deal" not in status(app)  # a random deal's ID is secret while playing
        await pilot.press("a")
        while app.session.status is Status.PLAYING:
            await pilot.pause(AUTO_STEP)
        assert app.session.status is Status.WON and app.game.is_won
        await pilot.pause()
        assert messages.won(app.game.move_count) in message(app)
        assert status(app).startswith(f"Deal {deal.id} · Draw 1 · Unlimited passes")
        assert "Won" in status(app)
    stored = storage.get_game(app.record.id)
    assert stored is not None and stored.status is Status.WON and stored.moves == len(
        Session.from_json(stored.state).game.history
    )


async def test_a_is_refused_while_cards_are_unseen(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert app.game.move_count == 0
        assert message(app).startswith("Auto finish is not available")  # a sentence


# -- new deal ---------------------------------------------------------------------------


async def test_n_asks_first_when_a_game_is_in_progress(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("7")
        first = app.record.id
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.question == NEW_DEAL_QUESTION
        await pilot.press("n")  # No: the game goes on
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.record.id == first and app.session.status is Status.PLAYING
        await pilot.press("n")
        await pilot.press("y")
        screen = app.screen
        assert isinstance(screen, NewDealScreen) and screen.start_rules == Rules()
        screen.query_one("#preset", Select).value = "klondike-3"
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        assert app.record.id != first and app.session.rules == Rules.preset("klondike-3")
        assert app.game.move_count == 0 and app.session.origin in (Origin.RANDOM, Origin.REPLAY)
        assert message(app) == f"{messages.NEW_DEAL}\n{REVIEW_OFFER}"  # the old game was lost
    old = storage.get_game(first)
    assert old is not None and old.status is Status.LOST
    assert [g.id for g in storage.playing_games(PLAYER, "terminal")] == [app.record.id]


async def test_n_without_a_move_opens_the_new_deal_screen_at_once(
    storage: SQLiteStorage,
) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        first = app.record.id
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewDealScreen)
        await pilot.click("#deal")
        await pilot.press(*"12", "enter")
        await pilot.pause()
        assert app.session.origin is Origin.TYPED and app.session.typed == "12"
        assert status(app).startswith("Deal 12 · Draw 1 · Unlimited passes")
        await pilot.press("n", "escape")  # Esc keeps the game
        assert app.session.typed == "12"
    old = storage.get_game(first)
    assert old is not None and old.status is Status.ABANDONED  # never played: not counted


# -- screens -------------------------------------------------------------------------------


async def test_question_mark_opens_the_help(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7, Rules.preset("vegas-3")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert str(Rules.preset("vegas-3")) in app.screen.text()
        await pilot.pause(TICK_SECONDS + 0.2)  # the clock ticks under the help
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_s_shows_the_statistics_with_a_finished_game(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen)
        assert "No finished games yet" in app.screen.text()
        await pilot.press("escape", "7", "n", "y")  # a move, then a new deal: lost
        await pilot.click("#start")
        await pilot.pause()
        await pilot.press("s")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        text = screen.text()
        assert "Played 1" in text and "Won 0" in text
        assert "Chosen deals" in text  # a typed deal counts apart


# -- once over, and undo rules ----------------------------------------------------------------


async def test_undo_after_a_win_is_refused_in_the_webs_words(storage: SQLiteStorage) -> None:
    deal, line = winning_deal()
    app = app_on(storage, start=typed(deal.id))
    async with app.run_test(size=SIZE) as pilot:
        for move in line:
            app.play(move)
        assert app.session.status is Status.WON
        moves = app.game.move_count
        # What the web answers (its 409 carries the session's error text).
        twin = Session.from_json(app.session.to_json())
        with pytest.raises(GameOverError) as refusal:
            twin.undo(0.0)
        await pilot.press("escape")  # the win screen closes
        for key in ("u", "y", "r", "space", "h", "7"):
            await pilot.press(key)
            assert message(app) == messages.refusal(str(refusal.value)), key
        assert app.game.move_count == moves and app.session.status is Status.WON


async def test_restart_asks_and_vegas_refuses_it_after_a_draw(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        assert message(app).startswith("Nothing to restart")
        await pilot.press("space", "space", "r")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        assert app.game.move_count == 0 and app.game.can_redo
        assert message(app) == messages.RESTARTED
    vegas = app_on(storage, start=typed(7, Rules.preset("vegas-3")))
    async with vegas.run_test(size=SIZE) as pilot:
        await pilot.press("space", "r")
        assert not isinstance(vegas.screen, ConfirmScreen)
        assert "stays seen" in message(vegas)
        await pilot.press("u")
        assert vegas.game.move_count == 1 and "cannot be undone" in message(vegas)


# -- searches in worker threads -----------------------------------------------------------------


async def test_the_hint_runs_in_a_worker_while_the_clock_ticks(storage: SQLiteStorage) -> None:
    gate = threading.Event()
    advisor = FakeAdvisor(move=Move(Pile.T7, Pile.FC, 1), gate=gate)
    clock = Clock()
    app = app_on(storage, start=typed(7), advisor=advisor, clock=clock)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("space")  # the clock starts
            await pilot.press("h")
            assert message(app) == THINKING
            assert advisor.started.wait(GATE_TIMEOUT)  # the search is running...
            clock.now += 5
            await pilot.pause(TICK_SECONDS + 0.3)
            assert status(app).endswith("0:05")  # ...and the clock still ticks
            await pilot.press("u")  # ...and keys still play
            assert app.game.move_count == 0
            gate.set()
            await settle(app, pilot)
            # The answer came for a position that is gone: it is dropped.
            assert not any(view.hinted for view in app.query(PileView))
            assert not message(app).startswith("Hint")
            await pilot.press("h")
            await settle(app, pilot)
            assert message(app) == fake_hint_text(Move(Pile.T7, Pile.FC, 1))
            assert {v.pile for v in app.query(PileView) if v.hinted} == {Pile.T7, Pile.FC}
    finally:
        gate.set()


@pytest.mark.parametrize(("answer", "stuck"), [(False, True), (None, False), (True, False)])
async def test_stuck_only_when_proven(
    storage: SQLiteStorage, answer: bool | None, stuck: bool
) -> None:
    advisor = FakeAdvisor(progress_answer=answer)
    app = app_on(storage, start=typed(7), advisor=advisor)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause(0.5)
        await settle(app, pilot)
        assert advisor.checks == 1
        assert (messages.STUCK in message(app)) is stuck
        assert message(app).startswith("Drew")


# -- the clock, the score and the bankroll --------------------------------------------------------


async def test_timed_score_and_clock_run_live(storage: SQLiteStorage) -> None:
    clock = Clock()
    rules = Rules(scoring=Scoring.TIMED)
    app = app_on(storage, start=typed(7, rules), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("7")
        assert f"Score {app.game.running_score} " in status(app)
        assert status(app).endswith("0:00")
        clock.now += 30
        await until_shown(pilot, app, "0:30")  # at the next tick
        assert f"Score {app.session.score(clock.now)}" in status(app)
        assert app.session.score(clock.now) < app.game.running_score  # the clock took points
        clock.now += 600  # timed: every second counts, pauses too (no pacing)
        await until_shown(pilot, app, "10:30")


async def until_shown(pilot: Any, app: BonanzaApp, ending: str) -> None:
    """Wait for the status line to end with ``ending``: a tick comes every
    ``TICK_SECONDS``, later on a loaded machine (at most ``TICKS_WAITED`` of them)."""
    for _ in range(round(TICKS_WAITED * TICK_SECONDS / TICK_POLL)):
        if status(app).endswith(ending):
            return
        await pilot.pause(TICK_POLL)
    assert status(app).endswith(ending), status(app)


async def test_cumulative_vegas_shows_the_bankroll(storage: SQLiteStorage) -> None:
    rules = Rules(draw=3, passes=3, scoring=Scoring.VEGAS_CUMULATIVE)
    app = app_on(storage, start=typed(7, rules))
    async with app.run_test(size=SIZE) as pilot:
        assert "Bank -$52" in status(app)
        await pilot.press("n", "y")  # the ante is paid: it asks first
        await pilot.click("#deal")
        await pilot.press(*"8", "enter")
        await pilot.pause()
        assert "Bank -$104" in status(app)  # the lost typed deal's -$52, then this one's
        await pilot.press("n", "y")
        await pilot.click("#start")
        await pilot.pause()
        assert "Bank -$52" in status(app)  # a random deal: the chosen ones count apart


# -- storage and the save file --------------------------------------------------------------------


class FailingStorage:
    """SQLite storage whose writes fail while ``failing`` is set."""

    def __init__(self, inner: SQLiteStorage) -> None:
        self.inner = inner
        self.failing = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def update_game(self, record: GameRecord) -> None:
        if self.failing:
            raise StorageError("the game store failed: disk I/O error")
        self.inner.update_game(record)


async def test_a_failed_write_is_reported_not_raised(
    tmp_path: Path, storage: SQLiteStorage
) -> None:
    store = FailingStorage(storage)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    app = app_on(store, start=typed(7), save_path=blocker / "save.json")
    async with app.run_test(size=SIZE) as pilot:
        assert "Not saved to" in message(app)
        store.failing = True
        await pilot.press("space")
        assert app.game.move_count == 1 and app.is_running
        assert "Not stored: the game store failed" in message(app)
        assert "Not saved to" in message(app)
        store.failing = False
        await pilot.press("space")
        assert "Not stored" not in message(app)
    stored = storage.get_game(app.record.id)
    assert stored is not None and stored.moves == 2


async def test_resume_takes_the_latest_terminal_game_only(storage: SQLiteStorage) -> None:
    web = GameRecord.of("web-game", PLAYER, Session.new(Deal.from_number(9), Rules(), 5.0), 5.0)
    storage.insert_game(web)
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("7")
    again = app_on(storage)
    assert again.record.id == app.record.id and again.game.move_count == 1
    web_now = storage.get_game("web-game")
    assert web_now is not None and web_now.status is Status.PLAYING  # not the terminal's
    fresh = app_on(storage, start=typed(8))  # a new game ends the one in progress
    assert fresh.record.id != app.record.id
    ended = storage.get_game(app.record.id)
    assert ended is not None and ended.status is Status.LOST


async def test_a_save_file_resumes_and_an_old_game_save_is_read(
    tmp_path: Path, storage: SQLiteStorage
) -> None:
    save = tmp_path / "save.json"
    app = app_on(storage, start=typed(7), save_path=save)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "7")
    session = read_save(save)
    assert session.game.history == app.game.history and session.typed == "7"
    resumed = app_on(storage, start=session, save_path=save)
    assert resumed.record.id == app.record.id
    # A save of the older kind (a bare game) starts in the records as a new game.
    old = tmp_path / "old.json"
    old.write_text(
        '{"format": "bonanza-game", "version": 1, "deal": "11", "moves": ["sw"], '
        '"redo": [], "elapsed": 12.5}'
    )
    imported = app_on(storage, start=read_save(old), save_path=old)
    assert imported.game.move_count == 1 and imported.record.deal == "11"
    assert imported.session.elapsed(0.0) == pytest.approx(12.5)
    assert json.loads(old.read_text())["format"] == "bonanza-session"
    # A saved game the records already hold as another game is not played again.
    twice = app_on(storage, start=read_save(save), random_deals=lambda: Deal.from_number(3))
    assert twice.record.deal == "3"


def test_tick_after_shutdown_does_nothing(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    app.tick()  # never mounted: no table, no error


def test_play_refuses_a_db_it_cannot_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--db", str(tmp_path)]) == EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert err == f"bonanza play: {tmp_path} is not a file, so not a game store\n"
    assert main(["play", "not-a-deal", "--db", str(tmp_path / "x.db")]) == EXIT_BAD_INPUT
    assert not (tmp_path / "x.db").exists()  # refused before the store was opened
