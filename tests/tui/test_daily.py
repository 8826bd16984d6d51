"""The terminal's daily deals: D opens today's date, the daily statistics of draw 1
and draw 3 and the 30-day calendar; Enter plays today's deal, a day chosen plays
that day's; a daily win says so and counts in the streak."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import OptionList

from bonanza.play.daily import CALENDAR_DAYS
from bonanza.session import Origin
from bonanza.solver.grading import Grade
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.daily_screen import DailyScreen
from bonanza.tui.new_deal_screen import NewDealScreen
from bonanza.tui.win_screen import WinScreen
from tests.tui.stocked import DAY, NOON, TODAY, Clock, settle, stock_deal, win_by_solver
from tests.tui.test_session_play import SIZE, app_on, message, typed

pytestmark = pytest.mark.anyio

YESTERDAY = "2025-11-30"


async def daily_screen(app: BonanzaApp, pilot: Any) -> DailyScreen:
    """Press D and wait for the daily overview to be read."""
    await pilot.press("D")
    screen = app.screen
    assert isinstance(screen, DailyScreen)
    await settle(app, pilot)
    return screen


async def test_the_daily_deal_played_two_days_running_shows_its_streak(
    storage: SQLiteStorage,
) -> None:
    for number in (9, 4):
        stock_deal(storage, number, Grade.MEDIUM)
    clock = Clock(NOON - DAY)  # yesterday first
    app = app_on(storage, start=typed(7), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        for day in (YESTERDAY, TODAY):
            screen = await daily_screen(app, pilot)
            assert f"Today (UTC): {day}" in screen.text()
            await pilot.press("enter")  # today's, highlighted first
            assert message(app).startswith(f"Daily deal of {day}, 1-card draw, medium")
            assert app.record.extra["daily"] == day and app.record.origin is Origin.SHARED
            win_by_solver(app)
            await pilot.pause()
            assert isinstance(app.screen, WinScreen)
            await pilot.press("escape")
            clock.now = NOON
        screen = await daily_screen(app, pilot)
        text = screen.text()
        assert "Draw 1: played 2 · won 2 · best time 0:00 · streak 2 (best 2)" in text
        assert "Draw 3: played 0 · won 0 · best time – · streak 0 (best 0)" in text
        days = screen.query_one("#daily-days", OptionList)
        shown = [str(days.get_option_at_index(i).prompt) for i in range(3)]
        assert "today" in shown[0] and shown[0].endswith("won ✓")
        assert shown[1].endswith("won ✓") and not shown[2].endswith("✓")
        await pilot.press("tab", "down")  # the calendar of draw 3: nothing played
        shown = [str(days.get_option_at_index(i).prompt) for i in range(days.option_count)]
        assert len(shown) == CALENDAR_DAYS and not any("✓" in line for line in shown)
        await pilot.press("escape")
        assert not isinstance(app.screen, DailyScreen)


async def test_a_past_day_from_the_new_deal_screen_is_a_chosen_deal(
    storage: SQLiteStorage,
) -> None:
    stock_deal(storage, 9, Grade.EASY)
    app = app_on(storage, start=typed(7), clock=Clock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        assert isinstance(app.screen, NewDealScreen)
        await pilot.click("#daily")
        assert isinstance(app.screen, DailyScreen)
        await settle(app, pilot)
        await pilot.press("down", "enter")  # yesterday's deal
        assert not isinstance(app.screen, NewDealScreen | DailyScreen)
        assert app.record.extra["daily"] == YESTERDAY
        assert message(app).startswith(f"Daily deal of {YESTERDAY}")
        overview = app.dealer.overview(1)
        assert overview["stats"]["played"] == 0  # started today: it counts apart
