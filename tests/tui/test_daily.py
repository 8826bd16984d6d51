"""The terminal's daily deals: D opens today's date, the daily statistics of draw 1
and draw 3 and the 30-day calendar; Enter plays today's deal, a day chosen plays
that day's; a daily win says so and counts in the streak."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import OptionList

from bonanza.play.daily import CALENDAR_DAYS, daily_rules
from bonanza.play.deal_stock import DealStock
from bonanza.play.games import StartRequest, choose_start, start_game
from bonanza.session import Origin, random_deal
from bonanza.solver.grading import Grade
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.daily_screen import DailyScreen
from bonanza.tui.deal_choice import NewDealChoice
from bonanza.tui.new_deal_screen import NewDealScreen
from bonanza.tui.stats_screen import StatsScreen
from bonanza.tui.win_screen import WinScreen
from tests.tui.stocked import DAY, NOON, TODAY, Clock, settle, stock_deal, win_by_solver
from tests.tui.test_session_play import PLAYER, SIZE, app_on, message, status, typed

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
        for streak, day in enumerate((YESTERDAY, TODAY), start=1):
            screen = await daily_screen(app, pilot)
            assert f"Today (UTC): {day}" in screen.text()
            await pilot.press("enter")  # today's, highlighted first
            assert message(app).startswith(f"Daily deal of {day}, 1-card draw, medium")
            assert app.record.extra["daily"] == day and app.record.origin is Origin.SHARED
            assert status(app).startswith(f"Daily {day} · ")  # its words, not its deal
            win_by_solver(app)
            await pilot.pause()
            win = app.screen
            assert isinstance(win, WinScreen)
            assert f"Daily deal of {day} won" in win.text()
            assert f"Daily streak {streak} (best {streak})" in win.text()
            assert "A chosen deal" not in win.text()
            await pilot.press("escape")
            assert status(app).startswith(f"Deal {app.record.deal} · ")  # over: it shows
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
        await pilot.press("s")  # the statistics count the terminal's games: chosen deals
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        assert "Chosen deals" in stats.text() and "Played 2   Won 2" in stats.text()


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


async def test_while_the_days_counted_game_is_in_play_elsewhere_no_other_game_shows_the_deal(
    storage: SQLiteStorage,
) -> None:
    stock_deal(storage, 9, Grade.MEDIUM)
    clock = Clock(NOON + 60)  # a minute after the browser's game began
    web_start = choose_start(
        storage, DealStock(storage, clock), PLAYER, StartRequest(daily_rules(1), daily="today"),
        NOON, random_deal,
    )  # fmt: skip
    counted, _session = start_game(storage, PLAYER, web_start, NOON, client="web")
    storage.insert_game(counted)  # the day's game that counts, in play in the browser
    app = app_on(storage, start=NewDealChoice(daily_rules(1), daily="today"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        assert app.record.deal == counted.deal and app.record.client == "terminal"
        win_by_solver(app)
        await pilot.pause()
        win = app.screen
        assert isinstance(win, WinScreen)
        assert "Deal " not in win.text()  # its deal would show the browser's game's cards
        assert "only a day's first game of it, started that day, counts" in win.text()
        await pilot.press("escape")
        assert status(app).startswith(f"Daily {TODAY} · ") and "Won" in status(app)
        app.new_game(NewDealChoice(daily_rules(1), daily="today"))  # again, and lose it
        app.new_game(typed(7))
        await pilot.press("v")
        assert message(app).startswith(f"The deal of {TODAY}'s daily deal is shown once")
