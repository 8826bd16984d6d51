"""No way forward: a dialog offers undo and a new deal, or in Vegas (where the
draw cannot be undone) a new deal only, worded so."""

from __future__ import annotations

import pytest
from textual.widgets import Button

from bonanza.core import Rules
from bonanza.session import messages
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.new_deal_screen import NewDealScreen
from bonanza.tui.no_moves_screen import NoMovesScreen
from tests.tui.test_session_play import SIZE, FakeAdvisor, app_on, message, settle, typed
from tests.web.deals import dead_end

pytestmark = pytest.mark.anyio

ONE_PASS = Rules(passes=1)
VEGAS_ONE_PASS = Rules.preset("vegas-1")


def draw_to_the_dead_end(app: BonanzaApp) -> int:
    """Draw the whole stock of the dead-end deal; how many draws that took."""
    _, draws = dead_end()
    for _ in range(draws):
        app.action_draw()
    return draws


def buttons(screen: NoMovesScreen) -> set[str]:
    return {str(button.id) for button in screen.query(Button)}


async def test_no_moves_left_offers_undo_and_u_undoes(storage: SQLiteStorage) -> None:
    number, _ = dead_end()
    app = app_on(storage, start=typed(number, ONE_PASS))
    async with app.run_test(size=SIZE) as pilot:
        draws = draw_to_the_dead_end(app)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NoMovesScreen)
        assert buttons(screen) == {"undo", "new", "look"}
        assert "Undo and try another way" in screen.text()
        assert messages.NO_MOVES_LEFT in message(app)
        await pilot.press("u")
        assert not isinstance(app.screen, NoMovesScreen)
        assert app.game.move_count == draws - 1 and message(app).startswith("Undid")


async def test_in_vegas_only_a_new_deal_is_offered_and_worded_so(
    storage: SQLiteStorage,
) -> None:
    number, _ = dead_end()
    app = app_on(storage, start=typed(number, VEGAS_ONE_PASS))
    async with app.run_test(size=SIZE) as pilot:
        draws = draw_to_the_dead_end(app)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NoMovesScreen)
        assert buttons(screen) == {"new", "look"}  # undo would be refused
        assert "cannot be undone" in screen.text() and "Undo" not in screen.text()
        assert messages.NO_MOVES_LEFT_NO_UNDO in message(app)
        assert "undo, or" not in message(app)
        await pilot.press("u")  # not offered: nothing happens
        assert app.screen is screen and app.game.move_count == draws
        await pilot.press("n")
        assert isinstance(app.screen, NewDealScreen)


async def test_esc_leaves_the_dialog_to_look_at_the_table(storage: SQLiteStorage) -> None:
    number, _ = dead_end()
    app = app_on(storage, start=typed(number, ONE_PASS))
    async with app.run_test(size=SIZE) as pilot:
        draw_to_the_dead_end(app)
        await pilot.pause()
        assert isinstance(app.screen, NoMovesScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, NoMovesScreen)
        assert messages.NO_MOVES_LEFT in message(app)


async def test_a_proven_dead_end_opens_the_dialog_too(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7), advisor=FakeAdvisor(progress_answer=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause(0.5)
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, NoMovesScreen)
        assert "No sequence of moves can make progress" in screen.text()
        assert buttons(screen) == {"undo", "new", "look"}
        assert messages.STUCK in message(app)
        await pilot.press("n")
        assert isinstance(app.screen, NewDealScreen)


async def test_a_proven_dead_end_in_vegas_after_a_draw_offers_no_undo(
    storage: SQLiteStorage,
) -> None:
    rules = Rules.preset("vegas-3")
    app = app_on(storage, start=typed(7, rules), advisor=FakeAdvisor(progress_answer=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause(0.5)
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, NoMovesScreen)
        assert buttons(screen) == {"new", "look"}
        assert messages.STUCK_NO_UNDO in message(app)


async def test_a_game_resumed_with_no_move_left_offers_the_way_out_at_once(
    storage: SQLiteStorage,
) -> None:
    number, _ = dead_end()
    app = app_on(storage, start=typed(number, ONE_PASS))
    async with app.run_test(size=SIZE):
        draws = draw_to_the_dead_end(app)  # then closed, its dialog open
    again = app_on(storage)  # opened again: the game comes from the store
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.record.id == app.record.id and again.game.move_count == draws
        screen = again.screen
        assert isinstance(screen, NoMovesScreen)
        assert buttons(screen) == {"undo", "new", "look"}
        assert messages.NO_MOVES_LEFT in message(again)


async def test_a_resumed_game_that_cannot_progress_is_found_without_a_move(
    storage: SQLiteStorage,
) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
    again = app_on(storage, advisor=FakeAdvisor(progress_answer=False))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        await settle(again, pilot)
        assert again.record.id == app.record.id
        assert isinstance(again.screen, NoMovesScreen)
        assert messages.STUCK in message(again)
