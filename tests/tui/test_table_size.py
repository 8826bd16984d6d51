"""The table fits its window: no card is cut off unseen in a small one (columns
fold with a mark, or the table scrolls and says so), and a large one gets
wider piles and whole columns."""

from __future__ import annotations

import re

import pytest

from bonanza.core import Pile, Rules
from bonanza.core.moves import ALL_COLUMNS
from bonanza.storage import SQLiteStorage
from bonanza.tui.app import BonanzaApp
from bonanza.tui.pile_view import PileView, card_label
from bonanza.tui.table_view import TableView, table_width
from tests.tui.test_session_play import SIZE, app_on, typed, winning_deal

pytestmark = pytest.mark.anyio

SMALL = (60, 20)
LARGE = (120, 40)
TALL_AT = 28
"""Moves of the winning line after which column 7 holds 13 cards (six face down)."""
KLONDIKE_MIN_WIDTH = 58
"""The table's width at 80×24 before it learned to widen: seven piles of 8, and padding."""


def column_lines(app: BonanzaApp, pile: Pile) -> list[str]:
    return str(app.query_one(f"#{pile.name.lower()}", PileView).render()).split("\n")


def assert_every_pile_shows_whole(app: BonanzaApp) -> None:
    """Every pile in play lies inside the table's window, its top card shown last."""
    table = app.query_one(TableView)
    for view in app.query(PileView):
        if view.display:
            assert view.region.bottom <= table.region.bottom, view.id
            assert view.region.right <= table.region.right, view.id
    position = app.session.position
    for index, column in enumerate(position.tableau):
        if column:
            lines = column_lines(app, ALL_COLUMNS[index])
            assert lines[-1].strip() == card_label(column[-1])


async def test_at_60_by_20_a_tall_column_folds_and_its_top_card_shows(
    storage: SQLiteStorage,
) -> None:
    deal, line = winning_deal()
    app = app_on(storage, start=typed(deal.id))
    async with app.run_test(size=SMALL) as pilot:
        for move in line[:TALL_AT]:
            app.play(move)
        await pilot.pause()
        column = app.session.position.tableau[6]
        assert len(column) == 13
        lines = column_lines(app, Pile.T7)
        assert lines[0].strip() == "▒▒▒×6"  # folded, and marked so
        assert len(lines) == 8
        assert_every_pile_shows_whole(app)
        assert not app.query_one("#notice").display


async def test_at_120_by_40_the_piles_widen_and_columns_unfold(storage: SQLiteStorage) -> None:
    deal, line = winning_deal()
    app = app_on(storage, start=typed(deal.id))
    async with app.run_test(size=LARGE) as pilot:
        for move in line[:TALL_AT]:
            app.play(move)
        await pilot.pause()
        first, last = app.query_one("#t1").region, app.query_one("#t7").region
        assert last.right - first.x > KLONDIKE_MIN_WIDTH
        assert last.right <= LARGE[0]
        lines = column_lines(app, Pile.T7)
        assert len(lines) == 13 and not any("×" in line for line in lines)
        assert_every_pile_shows_whole(app)


async def test_a_table_too_wide_for_the_window_says_so_and_scrolls(
    storage: SQLiteStorage,
) -> None:
    rules = Rules.preset("double-klondike")
    app = app_on(storage, start=typed(7, rules))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        notice = app.query_one("#notice")
        assert notice.display
        window_width = table_width(rules, 7) + SMALL[0] - app.query_one(TableView).size.width
        assert f"Window too small: {window_width}×" in str(notice.render())
        table = app.query_one(TableView)
        assert table.max_scroll_x > 0
        table.scroll_end(animate=False, immediate=True)
        table.scroll_to(x=table.max_scroll_x, animate=False, immediate=True)
        await pilot.pause()
        ninth = app.query_one("#t9").region
        assert ninth.right <= SMALL[0]  # scrolled into view


async def test_the_table_refits_when_the_window_changes(storage: SQLiteStorage) -> None:
    deal, line = winning_deal()
    app = app_on(storage, start=typed(deal.id))
    async with app.run_test(size=SIZE) as pilot:
        for move in line[:TALL_AT]:
            app.play(move)
        await pilot.pause()
        assert len(column_lines(app, Pile.T7)) == 13
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        assert len(column_lines(app, Pile.T7)) == 8
        assert_every_pile_shows_whole(app)
        await pilot.resize_terminal(*LARGE)
        await pilot.pause()
        assert len(column_lines(app, Pile.T7)) == 13


@pytest.mark.parametrize("size", [(59, 24), (58, 12), (40, 12)])
async def test_the_window_size_the_notice_asks_for_shows_the_whole_table(
    storage: SQLiteStorage, size: tuple[int, int]
) -> None:
    # At 59 or 58 columns the notice asked for 58, which the window already had.
    app = app_on(storage, start=typed(7))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        notice = app.query_one("#notice")
        assert notice.display
        found = re.search(r"(\d+)×(\d+) needed", str(notice.render()))
        assert found is not None
        asked = (int(found[1]), int(found[2]))
        assert asked[0] > size[0] or asked[1] > size[1]  # more than the window has
        await pilot.resize_terminal(*asked)
        await pilot.pause()
        assert not notice.display
        assert_every_pile_shows_whole(app)
