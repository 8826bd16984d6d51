"""The terminal's daily screen shows today's leaderboard of the draw mode chosen: the
player's won daily deal enters, marked as theirs; another player's name shows as plain
text (no markup read); an assisted game does not enter."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from bonanza.play.daily import DAILY_KEY, daily_rules
from bonanza.session.status import Origin, Status
from bonanza.solver.grading import Grade
from bonanza.storage import SQLiteStorage
from bonanza.storage.leaderboard import set_display_name
from bonanza.storage.records import GameRecord, rules_key
from bonanza.tui.daily_screen import DailyScreen
from bonanza.tui.win_screen import WinScreen
from tests.tui.stocked import NOON, TODAY, Clock, settle, stock_deal, win_by_solver
from tests.tui.test_daily import daily_screen
from tests.tui.test_session_play import SIZE, app_on, typed

pytestmark = pytest.mark.anyio

MARKUP = "[b]Rex[/b] [link=x]"
"""A name that Textual would read as markup (bold, a link) if it were shown as markup."""


def others_win(storage: SQLiteStorage, player: str, elapsed: float, assisted: bool = False) -> None:
    """Another player's won daily game of today (draw 1), stored as the web stores one."""
    storage.insert_game(GameRecord(
        id=f"other-{player}", player=player, deal="9", rules_key=rules_key(daily_rules(1)),
        state={}, status=Status.WON, origin=Origin.SHARED, created_at=NOON - 600,
        started_at=NOON - 600, finished_at=NOON - 600 + elapsed, elapsed=elapsed, moves=150,
        assisted=assisted, extra={DAILY_KEY: TODAY},
    ))  # fmt: skip


async def test_the_daily_screen_shows_todays_leaderboard(storage: SQLiteStorage) -> None:
    stock_deal(storage, 9, Grade.MEDIUM)
    others_win(storage, "rex", 42.0)
    set_display_name(storage, "rex", MARKUP)
    others_win(storage, "ida", 1.0, assisted=True)  # "still winnable?" asked: not entered
    app = app_on(storage, start=typed(7), clock=Clock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await daily_screen(app, pilot)
        board = str(screen.query_one("#daily-board", Static).render())
        assert board.startswith("Today's leaderboard (1-card draw), fastest: 1. [b]Rex[/b]")
        await pilot.press("enter")  # today's deal
        win_by_solver(app)
        await pilot.pause()
        assert isinstance(app.screen, WinScreen)
        await pilot.press("escape")
        screen = await daily_screen(app, pilot)
        lines = str(screen.query_one("#daily-board", Static).render()).split("\n")
        mine = f"anonymous (you) 0:00, {app.record.moves} moves"
        assert app.record.moves > 150  # (the solver's line for deal 9)
        assert lines == [
            f"Today's leaderboard (1-card draw), fastest: 1. {mine} · 2. {MARKUP} 0:42, 150 moves",
            f"Fewest moves (those taken back count): 1. {MARKUP} 0:42, 150 moves · 2. {mine}",
        ]
        await pilot.press("tab", "down")  # draw 3: no one yet
        await settle(app, pilot)
        board = str(screen.query_one("#daily-board", Static).render())
        assert board == "Today's leaderboard (3-card draw): no one has won this daily deal yet."
        assert isinstance(app.screen, DailyScreen)
