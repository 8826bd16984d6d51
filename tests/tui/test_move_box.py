"""The move box: it says how to reach it, and a move typed the way it says is played."""

from __future__ import annotations

import pytest

from bonanza.core import Move, Pile
from bonanza.storage import SQLiteStorage
from bonanza.tui.help_screen import HelpScreen
from bonanza.tui.move_box import MoveBox
from bonanza.tui.stats_screen import StatsScreen
from tests.tui.test_session_play import SIZE, app_on, message, typed

pytestmark = pytest.mark.anyio

DRAW = Move(Pile.STOCK, Pile.WASTE, 1)


async def test_the_box_says_press_colon_and_a_move_typed_so_is_played(
    storage: SQLiteStorage,
) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        box = app.query_one(MoveBox)
        assert box.placeholder.startswith("press : to type a move")
        await pilot.press("colon")  # as the box says
        assert app.focused is box and "Enter" in box.placeholder
        await pilot.press("s", "w", "enter")
        assert app.game.history == [DRAW]
        assert message(app).startswith("Drew")
        assert app.focused is None and box.value == ""
        assert box.placeholder.startswith("press :")
        await pilot.press("7")  # the keys play the game again
        assert app.game.move_count == 2


async def test_a_second_colon_is_forgiven_and_esc_leaves_the_box(
    storage: SQLiteStorage,
) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", "colon", "s", "w", "enter")
        assert app.game.history == [DRAW]
        await pilot.press("colon", "w", "escape")
        assert app.focused is None and app.game.move_count == 1
        await pilot.press("s")  # without ":" s is the statistics, as the help says
        assert isinstance(app.screen, StatsScreen)


async def test_the_help_says_to_press_colon_first(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        assert "Press : first" in " ".join(screen.text().split())


async def test_esc_drops_the_text_typed_so_the_next_move_is_read_alone(
    storage: SQLiteStorage,
) -> None:
    # Esc left "4" in the box: the next ":7f" was read as "47f" and refused.
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", "4", "escape")
        box = app.query_one(MoveBox)
        assert app.focused is None and box.value == "" and app.game.move_count == 0
        await pilot.press("colon", "7", "f", "enter")
        assert app.game.history == [Move(Pile.T7, Pile.FC, 1)]
        assert message(app).startswith("Ace of clubs to clubs foundation")
