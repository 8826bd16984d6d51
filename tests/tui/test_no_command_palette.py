"""Ctrl+P opens no command palette: Textual's generic commands (themes, screenshots)
are not the game's, whose keys the help screen (?) lists."""

from __future__ import annotations

import pytest

from bonanza.storage import SQLiteStorage
from bonanza.tui.game_screen import GameScreen
from tests.tui.test_session_play import SIZE, app_on, message, typed

pytestmark = pytest.mark.anyio


async def test_ctrl_p_opens_nothing_and_the_keys_still_play(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        greeting = message(app)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and len(app.screen_stack) == 1
        assert message(app) == greeting
        await pilot.press("space")  # the table has the keys, not a palette's input
        assert app.game.move_count == 1
