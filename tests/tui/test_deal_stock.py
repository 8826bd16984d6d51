"""The terminal's deal stock: filled in the background while the app runs,
stopped when it closes, and kept in the store it shares with the web."""

from __future__ import annotations

import sys
from multiprocessing import resource_tracker

import pytest

from bonanza.core import Rules
from bonanza.play.daily import daily_rules
from bonanza.session import Origin
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import terminal_stock as real_terminal_stock  # as bound before patching
from tests.tui.stocked import Clock, choose_kind, fast_stock, until
from tests.tui.test_session_play import SIZE, app_on, message, typed

pytestmark = pytest.mark.anyio


async def test_the_app_fills_its_stock_while_it_runs_and_stops_it_on_exit(
    storage: SQLiteStorage,
) -> None:
    clock = Clock()
    stock = fast_stock(storage, clock)
    app = app_on(storage, start=typed(7), stock=stock, clock=clock)
    assert not stock.running  # not before the app is on screen
    async with app.run_test(size=SIZE) as pilot:
        assert stock.running

        def full() -> bool:
            return all(
                all(count >= 1 for count in stock.counts(daily_rules(draw)).values())
                for draw in (1, 3)
            )

        await until(pilot, full)
        await choose_kind(app, pilot, "easy")  # a deal the filler found, of that grade
        await pilot.press("enter")
        assert message(app) == "New winnable deal, easy"
        assert app.record.origin is Origin.WINNABLE and app.record.extra["grade"] == "easy"
    assert not stock.running  # closing the game stopped it
    assert storage.stock_counts()  # the stock is in the store, for the next run (and the web)


def test_an_app_given_no_stock_makes_its_own_over_its_store(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    assert app.stock.storage is storage and not app.stock.running
    assert app.stock.counts(Rules()) == {"easy": 0, "medium": 0, "hard": 0}


async def test_the_real_stock_can_start_its_search_process_while_the_app_runs(
    storage: SQLiteStorage,
) -> None:
    """A running Textual app's stderr has no file descriptor, which multiprocessing's
    resource tracker needs to start: ``terminal_stock`` starts it before."""
    stock = real_terminal_stock(storage, Clock())
    app = app_on(storage, start=typed(7), stock=stock)
    async with app.run_test(size=SIZE):
        assert sys.stderr is not sys.__stderr__  # Textual's capture, as in a real run
        resource_tracker.ensure_running()  # what the search process's start asks: no error
    assert not stock.running
