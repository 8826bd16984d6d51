"""The terminal game's modules stay small, and its searches answer in worker
threads whatever screen is on top."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from bonanza.core import Move, Pile
from bonanza.storage import SQLiteStorage
from bonanza.tui.help_screen import HelpScreen
from bonanza.tui.pile_view import PileView
from bonanza.tui.words import THINKING
from tests.tui.test_session_play import (
    GATE_TIMEOUT,
    SIZE,
    FakeAdvisor,
    app_on,
    fake_hint_text,
    message,
    settle,
    typed,
)

pytestmark = pytest.mark.anyio

MAX_LINES = 500
"""The most lines a module of the terminal game may have."""
TUI = Path(__file__).parents[2] / "src" / "bonanza" / "tui"


def test_no_module_of_the_terminal_game_is_over_500_lines() -> None:
    sizes = {path.name: len(path.read_text().splitlines()) for path in TUI.glob("*.py")}
    assert sizes and all(lines <= MAX_LINES for lines in sizes.values()), sizes


async def test_a_hint_found_while_the_help_is_open_shows_once_it_closes(
    storage: SQLiteStorage,
) -> None:
    gate = threading.Event()
    move = Move(Pile.T7, Pile.FC, 1)
    advisor = FakeAdvisor(move=move, gate=gate)
    app = app_on(storage, start=typed(7), advisor=advisor)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("h")
            assert message(app) == THINKING
            assert advisor.started.wait(GATE_TIMEOUT)
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            gate.set()
            await settle(app, pilot)
            await pilot.pause(0.1)
            await pilot.press("escape")
            await pilot.pause()
            assert message(app) == fake_hint_text(move)
            lit = {view.pile for view in app.query(PileView) if view.hinted}
            assert lit == {Pile.T7, Pile.FC}
    finally:
        gate.set()
