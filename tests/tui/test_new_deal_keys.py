"""The new-deal screen's keys: Enter deals from anywhere on it, ↑ ↓ change the
focused choice in place, Space opens a list (where ↑ ↓ and Enter pick)."""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, Select

from bonanza.core import Rules
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.new_deal_screen import NewDealScreen
from tests.tui.test_session_play import SIZE, app_on, typed

pytestmark = pytest.mark.anyio

DRAW_3 = Rules.preset("klondike-3")


def new_deal_screen(app: BonanzaApp) -> NewDealScreen:
    screen = app.screen
    assert isinstance(screen, NewDealScreen)
    return screen


async def test_enter_deals_at_once(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        first = app.record.id
        await pilot.press("n")
        new_deal_screen(app)
        await pilot.press("enter")  # the footer says Enter deals: it does
        assert not isinstance(app.screen, NewDealScreen)
        assert app.record.id != first and app.session.rules == Rules()


async def test_arrows_choose_and_enter_deals_the_choice(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        screen = new_deal_screen(app)
        await pilot.press("down")  # the rules list, focused: klondike → klondike-3
        assert screen.query_one("#preset", Select).value == "klondike-3"
        assert not screen.query_one("#preset", Select).expanded  # nothing opened
        await pilot.press("enter")
        assert app.session.rules == DRAW_3


async def test_space_opens_a_list_where_arrows_and_enter_pick(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        screen = new_deal_screen(app)
        preset = screen.query_one("#preset", Select)
        await pilot.press("space")
        assert preset.expanded
        await pilot.press("down", "enter")  # picks klondike-3, closes the list
        assert not preset.expanded and preset.value == "klondike-3"
        assert app.screen is screen  # still choosing
        await pilot.press("up")
        assert preset.value == "klondike"
        await pilot.press("down", "enter")
        assert app.session.rules == DRAW_3


async def test_enter_on_the_checkbox_deals_and_space_ticks_it(storage: SQLiteStorage) -> None:
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        screen = new_deal_screen(app)
        await pilot.press("tab")
        assert isinstance(app.focused, Checkbox)
        await pilot.press("space")
        assert screen.query_one("#thoughtful", Checkbox).value
        await pilot.press("enter")
        assert app.session.rules == Rules(thoughtful=True)
