"""``v`` reviews the player's last lost game after the program is opened again (the
game comes from the store), and after the deal on the table is restarted."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from bonanza.core import Rules
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.confirm_screen import ConfirmScreen
from bonanza.tui.new_deal_screen import NewDealChoice
from bonanza.tui.review_screen import ReviewScreen
from bonanza.tui.words import REVIEW_OFFER
from tests.tui.test_session_play import SIZE, app_on, message, settle
from tests.tui.test_winnable import ONE_PASS

pytestmark = pytest.mark.anyio

STOCK_CARDS = 24
"""Draws that take a one-pass Vegas game through its stock: it counts, and is lost
once left."""


async def press_v(app: BonanzaApp, pilot: Pilot[None]) -> list[str]:
    """Press v; the review screen's lines (it is closed again)."""
    await pilot.press("v")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, ReviewScreen), message(app)
    lines = screen.lines
    await pilot.press("escape")
    return lines


async def test_v_after_the_program_is_opened_again_reviews_the_game_lost_before(
    storage: SQLiteStorage,
) -> None:
    first = app_on(storage, start=NewDealChoice(ONE_PASS, "0"))
    async with first.run_test(size=SIZE) as pilot:
        for _ in range(STOCK_CARDS):
            first.action_draw()
        first.new_game(NewDealChoice(Rules(), "1"))  # deal 0 counts as lost
        assert REVIEW_OFFER in message(first)
        review = await press_v(first, pilot)
        assert "The deal was lost at move" in review[0]
    again = app_on(storage)  # opened again: deal 1 resumes
    async with again.run_test(size=SIZE) as pilot:
        assert again.record.id == first.record.id
        assert await press_v(again, pilot) == review
        await pilot.press("space", "r")  # restart the deal on the table
        assert isinstance(again.screen, ConfirmScreen)
        await pilot.press("y")
        assert again.game.move_count == 0 and again.game.can_redo
        assert await press_v(again, pilot) == review


async def test_v_reviews_the_game_a_new_deal_ended_as_the_program_opened(
    storage: SQLiteStorage,
) -> None:
    first = app_on(storage, start=NewDealChoice(ONE_PASS, "0"))
    async with first.run_test(size=SIZE):
        for _ in range(STOCK_CARDS):
            first.action_draw()
    again = app_on(storage, start=NewDealChoice(Rules(), "1"))  # `bonanza play 1`: 0 lost
    async with again.run_test(size=SIZE) as pilot:
        review = await press_v(again, pilot)
        assert "The deal was lost at move" in review[0]
